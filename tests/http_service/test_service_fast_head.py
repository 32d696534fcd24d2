"""The front end's fast path past h11: ``parse_simple`` reads a head as h11 reads it or
declines it, and ``Exchange`` writes an answer as h11 writes it. (The scanner's one-pass
check against its line-by-line scan: test_service_front_head.py.)"""

from __future__ import annotations

import h11
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation_service.front import Exchange, _h11_exchange
from notation_service.http_head import parse_simple


def by_h11(data: bytes):
    """(method, target, version, raw headers) as h11 reads ``data``, or None if it refuses."""
    connection = h11.Connection(h11.SERVER)
    connection.receive_data(data)
    try:
        event = connection.next_event()
    except h11.RemoteProtocolError:
        return None
    if not isinstance(event, h11.Request):
        return None
    return event.method, event.target, event.http_version, list(event.headers.raw_items())


PLAIN = (
    b"POST /v1/fen/convert HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: application/json\r\n"
    b"Content-Length: 17\r\n\r\n"
)


def test_a_plain_head_is_read_as_h11_reads_it():
    head = parse_simple(PLAIN)
    assert head is not None
    assert (head.method, head.target, head.http_version, head.raw) == by_h11(PLAIN)
    assert head.header(b"content-length") == b"17" and not head.close


@pytest.mark.parametrize(
    "data",
    [
        b"PUT / HTTP/1.1\r\nHost: a\r\n\r\n",
        b"HEAD / HTTP/1.1\r\nHost: a\r\n\r\n",
        b"GET / HTTP/1.0\r\nHost: a\r\n\r\n",
        b"GET http://a/ HTTP/1.1\r\nHost: a\r\n\r\n",
        b"GET * HTTP/1.1\r\nHost: a\r\n\r\n",
        b"GET / HTTP/1.1\nHost: a\n\n",
        b"GET / HTTP/1.1\r\nHost: a\n\r\n",
        b"GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n",
        b"GET / HTTP/1.1\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n",
        b"POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: a\r\nUpgrade: h2c\r\nConnection: upgrade\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: a\r\nConnection: keep-alive, close\r\n\r\n",
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1, 1\r\n\r\n",
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1,1\r\n\r\n",
        b"get / HTTP/1.1\r\nHost: a\r\n\r\n",
        b"Get / HTTP/1.1\r\nHost: a\r\n\r\n",
        b"post / HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n",
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: +1\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: a\r\nX: a\x00b\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: a\r\nX: a\x7fb\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: a\r\nX : b\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: a\r\nX\x01: b\r\n\r\n",
        b"GET /a b HTTP/1.1\r\nHost: a\r\n\r\n",
        b"GET / HTTP/1.1 \r\nHost: a\r\n\r\n",
    ],
)
def test_anything_unusual_is_left_to_h11(data):
    assert parse_simple(data) is None


lines = st.sampled_from([
    b"Host: a", b"Host: b:80", b"host:x", b"Content-Length: 5", b"content-length:0", b"Content-Length: 5 ",
    b"Connection: close", b"Connection: keep-alive", b"connection: Close", b"Connection: upgrade",
    b"X-Request-ID: abc", b"Origin: https://a.example", b"X:  spaced  value  ", b"X: \tb", b"X:", b"X: \xe9t\xe9",
    b"Transfer-Encoding: chunked", b"Expect: 100-continue", b" folded", b"Bad Name: 1", b"X: a\rb", b"X: a\x01b",
]) | st.binary(max_size=12)
request_lines = st.sampled_from([
    b"GET / HTTP/1.1", b"POST /v1/fen/convert HTTP/1.1", b"GET /healthz?x=1 HTTP/1.1", b"GET / HTTP/1.0",
    b"get / HTTP/1.1", b"GET /%41 HTTP/1.1", b"GET /\xff HTTP/1.1", b"OPTIONS * HTTP/1.1", b"GET  / HTTP/1.1",
])


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(request_line=request_lines, fields=st.lists(lines, max_size=6), end=st.sampled_from([b"\r\n", b"\n"]))
def test_whatever_it_reads_h11_reads_the_same(request_line, fields, end):
    data = end.join([request_line, *fields]) + end + end
    head = parse_simple(data)
    if head is not None:
        assert (head.method, head.target, head.http_version, head.raw) == by_h11(data)
        assert head.close == (head.header(b"connection") or b"").lower().endswith(b"close")


def answer(exchange: Exchange, status: int, headers, body: bytes) -> bytes:
    out = exchange.head(status, headers)
    if body:
        out += exchange.data(body)
    return out + exchange.end()


HEADS = [
    PLAIN,
    PLAIN.replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n"),
    PLAIN.replace(b"\r\n\r\n", b"\r\nConnection: keep-alive\r\n\r\n"),
    b"GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n",
]
ANSWERS = [
    (200, [("Content-Type", "application/json"), ("Content-Length", "2"), ("X-Request-ID", "abc"),
           ("Date", "Mon, 01 Jan 2024 00:00:00 GMT")], b"{}"),
    (422, [("Content-Type", "application/problem+json"), ("Content-Length", "2"), ("Vary", "Origin")], b"{}"),
    (200, [("Content-Type", "application/json"), ("Content-Length", "2"), ("Connection", "close")], b"{}"),
    (200, [("Content-Type", "application/x-ndjson"), ("X-Request-ID", "abc")], b"{}\n"),  # streamed: chunked
    (204, [("X-Request-ID", "abc")], b""),
    (304, [("ETag", '"x"'), ("Content-Length", "10")], b""),
    (200, [("Content-Length", "0")], b""),
    (200, [("Content-Length", "2"), ("X-Odd", "a\x01b")], b"{}"),
]


@pytest.mark.parametrize("data", HEADS)
@pytest.mark.parametrize(("status", "headers", "body"), ANSWERS)
def test_an_answer_is_written_as_h11_writes_it(data, status, headers, body):
    fast = Exchange(parse_simple(data))
    slow = _h11_exchange(data)
    length = int(fast.request.header(b"content-length") or 0)
    slow.h11.receive_data(b"x" * length)  # the body, as the front end reads it through h11
    while not isinstance(slow.h11.next_event(), h11.EndOfMessage):
        pass
    assert answer(fast, status, headers, body) == answer(slow, status, headers, body)
    assert fast.reusable() == slow.reusable()


def test_a_wrong_length_fails_as_with_h11():
    with pytest.raises(h11.LocalProtocolError):
        answer(Exchange(parse_simple(PLAIN)), 200, [("Content-Length", "3")], b"{}")
    with pytest.raises(h11.LocalProtocolError):
        answer(Exchange(parse_simple(PLAIN)), 200, [("Content-Length", "1")], b"{}")
