"""The front end's HTTP/1.1 wire: ``RequestReader`` (one llhttp parser a connection) reads a
head as h11, a second reader, reads it, or refuses it; it reads a body and never a byte
past it, so a pipelined request after it is scanned from its first byte; ``AnswerWriter``
writes answers that h11, reading as a client, reads back as written. (The head scanner's
limits: test_service_front_head.py; each refusal against a live server:
test_service_http_heads.py.)"""

from __future__ import annotations

import h11
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation_service.http_answer import AnswerError, AnswerWriter
from notation_service.http_head import HeadRejected, HeadScanner
from notation_service.http_request import RequestReader


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


def by_reader(data: bytes):
    """(method, target, version, raw headers) as ``RequestReader`` reads ``data``, or the status
    it refuses it with."""
    try:
        head = RequestReader().read_head(data)
    except HeadRejected as refused:
        return refused.status
    return head.method, head.target, head.http_version, head.raw


PLAIN = (
    b"POST /v1/fen/convert HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: application/json\r\n"
    b"Content-Length: 17\r\n\r\n"
)


def test_a_plain_head_is_read_as_h11_reads_it():
    assert by_reader(PLAIN) == by_h11(PLAIN)
    head = RequestReader().read_head(PLAIN)
    assert head.header(b"content-length") == b"17" and not head.close


@pytest.mark.parametrize(
    "data, status",
    [
        (b"get / HTTP/1.1\r\nHost: a\r\n\r\n", 501),
        (b"Get / HTTP/1.1\r\nHost: a\r\n\r\n", 501),
        (b"BREW / HTTP/1.1\r\nHost: a\r\n\r\n", 501),
        (b"hello there\r\n\r\n", 400),
        (b"GET / HTTP/1.2\r\nHost: a\r\n\r\n", 505),
        (b"PRI * HTTP/2.0\r\n\r\n", 505),
        (b"GET / HTTP/1.1\r\n\r\n", 400),
        (b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
        (b"GET / HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n", 400),
        (b"GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n", 400),
        (b"GET / HTTP/1.1\nHost: a\n\n", 400),
        (b"GET / HTTP/1.1\r\nHost: a\r\nX: a\x00b\r\n\r\n", 400),
        (b"GET / HTTP/1.1\r\nHost: a\r\nX : b\r\n\r\n", 400),
        (b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: +1\r\n\r\n", 400),
        (b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        (b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
        (b"POST / HTTP/1.1\r\nHost: a\r\nUpgrade: h2c\r\nConnection: upgrade\r\nTransfer-Encoding: chunked\r\n\r\n",
         400),
    ],
)
def test_refusals(data, status):
    assert by_reader(data) == status


def test_http_1_0_and_connection_close_end_the_connection_and_keep_alive_does_not():
    assert RequestReader().read_head(b"GET / HTTP/1.0\r\n\r\n").close
    assert RequestReader().read_head(b"GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").close
    assert RequestReader().read_head(b"GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n").close
    assert not RequestReader().read_head(b"GET / HTTP/1.1\r\nHost: a\r\nConnection: keep-alive\r\n\r\n").close


lines = st.sampled_from([
    b"Host: a", b"Host: b:80", b"host:x", b"Content-Length: 5", b"content-length:0", b"Content-Length: 5 ",
    b"Connection: close", b"Connection: keep-alive", b"connection: Close", b"Connection: upgrade",
    b"X-Request-ID: abc", b"Origin: https://a.example", b"X:  spaced  value  ", b"X: \tb", b"X:", b"X: \xe9t\xe9",
    b"Transfer-Encoding: chunked", b"Expect: 100-continue", b" folded", b"Bad Name: 1", b"X: a\rb", b"X: a\x01b",
]) | st.binary(max_size=12)
request_lines = st.sampled_from([
    b"GET / HTTP/1.1", b"POST /v1/fen/convert HTTP/1.1", b"GET /healthz?x=1 HTTP/1.1", b"GET / HTTP/1.0",
    b"get / HTTP/1.1", b"GET /%41 HTTP/1.1", b"GET /\xff HTTP/1.1", b"OPTIONS * HTTP/1.1", b"DELETE /a HTTP/1.1",
])


@pytest.mark.slow
@settings(max_examples=600, deadline=None)
@given(request_line=request_lines, fields=st.lists(lines, max_size=6))
def test_whatever_it_reads_h11_reads_the_same_and_what_h11_refuses_it_refuses(request_line, fields):
    data = b"\r\n".join([request_line, *fields]) + b"\r\n\r\n"
    if b"content-length" in data.lower():
        return  # Content-Length rules are the scanner's
    try:
        length = HeadScanner().scan(bytearray(data))
    except HeadRejected:
        return
    data = data[:length]  # the head as the front end hands it over: through its first blank line
    ours, theirs = by_reader(data), by_h11(data)
    if not isinstance(ours, int):
        assert ours == theirs
    elif theirs is not None:
        assert ours == 501 or _refusable(data), (ours, data)


def _refusable(data: bytes) -> bool:
    """Whether the head holds what h11 passes on and the standard lets a server refuse: an
    obsolete folded line (RFC 9112 5.2), a line ended by a bare LF (RFC 9112 2.2: a
    recipient may accept it), a control character in a field (RFC 9110 5.5: invalid,
    though a recipient may keep it), a chunked body announced with Upgrade. (Any method
    token h11 passes on is the 501 above.)"""
    fields = data.split(b"\r\n", 1)[1]
    return (b"\n " in data or b"\n\t" in data or b"upgrade" in data.lower() or data.count(b"\n") > data.count(b"\r\n")
            or any(byte < 0x20 and byte not in b"\t\r\n" or byte == 0x7F for byte in fields))


def read_requests(stream: bytes, piece: int) -> list[tuple[bytes, bytes]]:
    """(target, body) of each request in ``stream``, arriving ``piece`` bytes at a time, as
    the front end reads them: a head from its first byte, then its body."""
    reader = RequestReader()
    inbox = bytearray()
    out = []
    arrived = 0
    while True:
        scanner = HeadScanner()
        while (length := scanner.scan(inbox)) is None:
            if arrived >= len(stream):
                assert not inbox
                return out
            inbox += stream[arrived:arrived + piece]
            arrived += piece
        head = reader.read_head(bytes(inbox[:length]))
        del inbox[:length]
        body = b""
        while not reader.complete:
            if not inbox:
                inbox += stream[arrived:arrived + piece]
                arrived += piece
                continue
            take = reader.body_piece(inbox)
            chunk = bytes(inbox[:take])
            del inbox[:take]
            body += b"".join(reader.feed_body(chunk))
        out.append((head.target, body))


def chunked(body: bytes, size: int) -> bytes:
    parts = [body[i:i + size] for i in range(0, len(body), size)]
    return b"".join(b"%x\r\n%s\r\n" % (len(part), part) for part in parts) + b"0\r\n\r\n"


bodies = st.lists(st.sampled_from([b"\r\n\r\n", b"0\r\n\r\n", b"[Event \"a\"]\r\n\r\n1. e4 *\r\n", b"x", b"\r\n"]),
                  max_size=8).map(b"".join)


@settings(max_examples=300, deadline=None)
@given(requests=st.lists(st.tuples(bodies, st.sampled_from(["sized", "chunked", "none"]), st.integers(1, 7)),
                         min_size=1, max_size=4),
       piece=st.sampled_from([1, 2, 3, 5, 64, 100000]))
def test_pipelined_requests_are_read_whole_and_each_head_from_its_first_byte(requests, piece):
    stream = b""
    expected = []
    for index, (body, framing, size) in enumerate(requests):
        target = b"/r%d" % index
        if framing == "sized":
            stream += b"POST %s HTTP/1.1\r\nHost: a\r\nContent-Length: %d\r\n\r\n%s" % (target, len(body), body)
        elif framing == "chunked":
            stream += b"POST %s HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n%s" % (
                target, chunked(body, size))
        else:
            stream += b"GET %s HTTP/1.1\r\nHost: a\r\n\r\n" % target
            body = b""
        expected.append((target, body))
    assert read_requests(stream, piece) == expected


def test_a_request_that_asks_to_upgrade_is_served_with_its_body_and_the_next_one_read():
    stream = (b"POST /a HTTP/1.1\r\nHost: a\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n"
              b"HTTP2-Settings: AAMAAABkAAQAoAAAAAIAAAAA\r\nContent-Length: 2\r\n\r\n{}"
              b"GET /b HTTP/1.1\r\nHost: a\r\n\r\n")
    assert read_requests(stream, 7) == [(b"/a", b"{}"), (b"/b", b"")]
    assert RequestReader().read_head(stream[:stream.index(b"{}")]).close  # served once, then closed


def test_a_broken_chunk_is_400():
    reader = RequestReader()
    reader.read_head(b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n")
    with pytest.raises(HeadRejected) as refused:
        reader.feed_body(b"zz\r\n")
    assert refused.value.status == 400


def answer(writer: AnswerWriter, status: int, headers, body: bytes) -> bytes:
    out = writer.head(status, headers)
    if body:
        out += writer.data(body[:1]) + writer.data(body[1:])
    return out + writer.end()


def as_h11_client_reads(request: bytes, data: bytes):
    """(status, headers, body, keeps the connection) as h11, the client that sent
    ``request``, reads the answer ``data`` (the connection's end, when it needs it to find
    the body's end, following the answer)."""
    server = h11.Connection(h11.SERVER)
    server.receive_data(request)
    sent = server.next_event()
    client = h11.Connection(h11.CLIENT)
    client.send(h11.Request(method=sent.method, target=sent.target, headers=list(sent.headers.raw_items()),
                            http_version=sent.http_version))
    length = int(dict(sent.headers).get(b"content-length", b"0"))
    if length:
        client.send(h11.Data(data=b"x" * length))
    client.send(h11.EndOfMessage())
    client.receive_data(data)
    response = None
    body = b""
    while True:
        event = client.next_event()
        if event is h11.NEED_DATA:
            client.receive_data(b"")  # the server closes: the body ends there
        elif isinstance(event, h11.Response):
            response = event
        elif isinstance(event, h11.Data):
            body += event.data
        elif isinstance(event, h11.EndOfMessage):
            break
        else:
            raise AssertionError(event)
    keeps = client.our_state is h11.DONE and client.their_state is h11.DONE
    headers = [(k.decode(), v.decode("latin-1")) for k, v in response.headers.raw_items()]
    return response.status_code, headers, body, keeps


HEADS = [
    PLAIN,
    PLAIN.replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n"),
    PLAIN.replace(b"\r\n\r\n", b"\r\nConnection: keep-alive\r\n\r\n"),
    b"GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n",
    b"HEAD /healthz HTTP/1.1\r\nHost: a\r\n\r\n",
]
ANSWERS = [
    (200, [("Content-Type", "application/json"), ("Content-Length", "2"), ("X-Request-ID", "abc"),
           ("Date", "Mon, 01 Jan 2024 00:00:00 GMT")], b"{}"),
    (422, [("Content-Type", "application/problem+json"), ("Content-Length", "2"), ("Vary", "Origin")], b"{}"),
    (200, [("Content-Type", "application/json"), ("Content-Length", "2"), ("Connection", "close")], b"{}"),
    (200, [("Content-Type", "application/x-ndjson"), ("X-Request-ID", "abc")], b"{}\n[]\n"),  # streamed
    (204, [("X-Request-ID", "abc")], b""),
    (304, [("ETag", '"x"')], b""),
    (200, [("Content-Length", "0")], b""),
]


@pytest.mark.parametrize("request_head", HEADS)
@pytest.mark.parametrize(("status", "headers", "body"), ANSWERS)
def test_h11_reads_each_answer_as_it_was_written(request_head, status, headers, body):
    head = RequestReader().read_head(request_head)
    writer = AnswerWriter(head.method, head.http_version, head.close)
    data = answer(writer, status, headers, body)
    got_status, got_headers, got_body, keeps = as_h11_client_reads(request_head, data)
    assert got_status == status
    framing = {"transfer-encoding", "connection"}
    assert [(k, v) for k, v in got_headers if k.lower() not in framing] == [
        (k, v) for k, v in headers if k.lower() not in framing]
    assert got_body == (b"" if head.method == b"HEAD" else body)
    assert keeps == writer.reusable()


def test_an_http_1_0_client_gets_a_streamed_body_ended_by_the_close():
    writer = AnswerWriter(b"GET", b"1.0", True)
    data = answer(writer, 200, [("Content-Type", "application/x-ndjson")], b"{}\n[]\n")
    assert data == b"HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nConnection: close\r\n\r\n{}\n[]\n"
    assert not writer.reusable()


def test_what_cannot_be_written_is_refused():
    for headers, body in [
        ([("Content-Length", "3")], b"{}"),
        ([("Content-Length", "1")], b"{}"),
        ([("Content-Length", "2"), ("X-Odd", "a\r\nSet-Cookie: x")], b"{}"),
        ([("Bad Name", "1")], b""),
        ([("Content-Length", "1, 1")], b"x"),
        ([("Transfer-Encoding", "chunked")], b"x"),
    ]:
        with pytest.raises(AnswerError):
            answer(AnswerWriter(b"GET", b"1.1", False), 200, headers, body)
