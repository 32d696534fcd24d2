"""``service.http_head``: where a head ends and which limit it breaks, however its bytes are
split into arrivals (a slowloris client sends one byte at a time)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from notation_service.http_head import (
    MAX_HEAD_BYTES,
    MAX_HEADER_LINE,
    MAX_REQUEST_LINE,
    HeadRejected,
    HeadScanner,
    strip_leading_empty_lines,
)

HEAD = b"POST /v1/fen/convert HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n"


def scan_in_pieces(data: bytes, cuts: list[int]) -> tuple[int | None, int]:
    """Feed ``data`` split at ``cuts``; the head length found and the bytes fed until then."""
    scanner = HeadScanner()
    buffer = bytearray()
    for start, end in zip([0, *cuts], [*cuts, len(data)], strict=True):
        buffer += data[start:end]
        found = scanner.scan(buffer)
        if found is not None:
            return found, len(buffer)
    return None, len(buffer)


@given(
    st.lists(st.integers(min_value=1, max_value=len(HEAD) + 2), unique=True).map(sorted),
    st.sampled_from([b"", b"{}", b"{}GET / HTTP/1.1\r\n"]),
)
def test_the_end_of_the_head_does_not_depend_on_how_bytes_arrive(cuts, after):
    data = HEAD + after
    found, _ = scan_in_pieces(data, [cut for cut in cuts if cut < len(data)])
    assert found == len(HEAD)


@given(st.lists(st.integers(min_value=1, max_value=MAX_REQUEST_LINE + 200), unique=True).map(sorted))
def test_a_long_request_line_is_414_however_it_arrives(cuts):
    data = b"GET /" + b"a" * MAX_REQUEST_LINE + b" HTTP/1.1\r\nHost: x\r\n\r\n"
    with pytest.raises(HeadRejected) as rejected:
        scan_in_pieces(data, [cut for cut in cuts if cut < len(data)])
    assert rejected.value.status == 414


@pytest.mark.parametrize(
    "head, status",
    [
        (b"GET / HTTP/1.1\r\n" + b"".join(b"X-%d: y\r\n" % i for i in range(101)) + b"\r\n", 431),
        (b"GET / HTTP/1.1\r\n" + b"".join(b"X-%d: y\r\n" % i for i in range(100)) + b"\r\n", None),
        (b"GET / HTTP/1.1\r\nX: " + b"y" * MAX_HEADER_LINE + b"\r\n\r\n", 431),
        (b"GET / HTTP/1.1\r\nX: " + b"y" * (MAX_HEADER_LINE - 3) + b"\r\n\r\n", None),
        (b"GET / HTTP/1.1\r\n" + b"X: " + b"y" * 8000 + b"\r\n" + (b"Y: " + b"z" * 8000 + b"\r\n") * 8 + b"\r\n", 431),
        (b"GET / HTTP/1.1\r\nContent-Length: 1\r\ncontent-length: 1\r\n\r\n", 400),
        (b"GET / HTTP/1.1\nHost: x\n\n", None),
    ],
    ids=[
        "101 headers",
        "100 headers",
        "long header line",
        "header line at the limit",
        "head over 64 KiB",
        "Content-Length twice",
        "bare LF line ends",
    ],
)
def test_head_limits(head, status):
    assert len(head) < MAX_HEAD_BYTES or status == 431
    scanner = HeadScanner()
    if status is None:
        assert scanner.scan(bytearray(head)) == len(head)
    else:
        with pytest.raises(HeadRejected) as rejected:
            scanner.scan(bytearray(head))
        assert rejected.value.status == status


def test_empty_lines_before_a_request_are_dropped():
    buffer = bytearray(b"\r\n\n\r\nGET / HTTP/1.1\r\n")
    strip_leading_empty_lines(buffer)
    assert buffer == b"GET / HTTP/1.1\r\n"
