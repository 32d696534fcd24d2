"""``service.http_head``: where a head ends and which limit it breaks, however its bytes are
split into arrivals (a slowloris client sends one byte at a time)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation_service.http_head import (
    MAX_HEAD_BYTES,
    MAX_HEADER_LINE,
    MAX_REQUEST_LINE,
    HeadRejected,
    HeadScanner,
    _whole_small_head,
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
        (b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 37, 37\r\n\r\n", 400),
        (b"POST / HTTP/1.1\r\nHost: x\nContent-Length: 1,1\n\n", 400),
        (b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nX-List: 1, 2\r\n\r\n", None),
        (b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n , 2\r\n\r\n", 400),
        (b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\t2\r\n\r\n", 400),
        (b"POST / HTTP/1.1\r\nX-A: 1\r\n 2\r\nContent-Length: 2\r\n\r\n", None),
        (b"GET / HTTP/1.1\nHost: x\n\n", None),
    ],
    ids=[
        "101 headers",
        "100 headers",
        "long header line",
        "header line at the limit",
        "head over 64 KiB",
        "Content-Length twice",
        "Content-Length as a list",
        "Content-Length as a list, bare LF line ends",
        "a comma in another header",
        "Content-Length folded into a list",
        "Content-Length folded with a tab",
        "another header folded",
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


def slow_scan(data: bytes):
    """What the line-by-line scan finds as the bytes arrive one by one (the one-pass check
    only ever sees the first byte), or the status it refuses with."""
    scanner = HeadScanner()
    buffer = bytearray(data)
    try:
        found = None
        for end in range(1, len(buffer) + 1):
            found = scanner.scan(buffer[:end])
            if found is not None:
                return found
        return found
    except HeadRejected as rejected:
        return rejected.status


lines = st.sampled_from([
    b"Host: a", b"host:x", b"Content-Length: 5", b"content-length:0", b"Content-Length: 5, 5", b"Content-Length:1,1",
    b"Connection: close", b"X-List: a, b", b"X:  spaced  value  ", b"X:", b" folded", b" , 5", b"X: a\rb",
]) | st.binary(max_size=12)
request_lines = st.sampled_from(
    [b"GET / HTTP/1.1", b"POST /v1/fen/convert HTTP/1.1", b"get / HTTP/1.1", b"GET  / HTTP/1.1"]
)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(request_line=request_lines, fields=st.lists(lines, max_size=8), end=st.sampled_from([b"\r\n", b"\n"]),
       tail=st.binary(max_size=8), many=st.integers(0, 3))
def test_the_one_pass_check_finds_what_the_line_scan_finds(request_line, fields, end, tail, many):
    data = end.join([request_line, *fields, *([b"Content-Length: 1"] * many)]) + end + end + tail
    quick = _whole_small_head(bytearray(data))
    if quick is not None:
        assert quick == slow_scan(data)


def test_the_one_pass_check_leaves_limits_and_content_length_rules_to_the_line_scan():
    for head in (
        b"GET / HTTP/1.1\r\n" + b"X: 1\r\n" * 101 + b"\r\n",
        b"POST / HTTP/1.1\r\nContent-Length: 1\r\ncontent-length: 1\r\n\r\n",
        b"POST / HTTP/1.1\r\nContent-Length: 1, 1\r\n\r\n",
        b"POST / HTTP/1.1\r\nContent-Length: 1\r\n 1\r\n\r\n",
    ):
        assert _whole_small_head(bytearray(head)) is None
        with pytest.raises(HeadRejected):
            HeadScanner().scan(bytearray(head))
