"""Reading requests: one httptools parser (llhttp, Node.js's parser in C) a connection,
from the first request's head to the last one's body.

``RequestReader.read_head`` takes a head as ``http_head.HeadScanner`` found it (its size
limits and the ``Content-Length`` rules kept first) and returns its ``Head``, or raises
``HeadRefused`` with the status to answer: 501 for a method RFC 9110 does not define (a
method in other letters included: methods are case-sensitive, RFC 9110 9.1) or a transfer
coding other than chunked, 505 for a version other than HTTP/1.0 and HTTP/1.1, 400 for
anything llhttp refuses (a header line with a NUL, a bare CR or a space before its colon,
an obsolete folded line, which RFC 9112 5.2 lets a server refuse, both Content-Length and
Transfer-Encoding) and for a ``Host`` missing in HTTP/1.1 or given twice (RFC 9112 3.2).

``feed_body`` hands the parser the next piece of the body (``body_piece`` says how much of
the buffer that is) and returns the body's bytes in it, de-chunked; raises ``HeadRefused``
(400) for broken chunked framing. The parser is never handed a byte past the request's
end, so the next request's head is scanned from its first byte: a sized body is fed to its
length, and a chunked one in pieces that end at each CR LF CR LF (the only place a chunked
message can end), so the message's end is always a piece's end.
"""

from __future__ import annotations

import re

import httptools

from .http_head import Head

# The methods RFC 9110 section 9 defines, and PATCH (RFC 5789). Anything else, a method in
# other letters included, is a method this server does not recognise: 501 (RFC 9110
# 15.6.2). A known method a resource does not take gets the app's 405 with Allow.
KNOWN_METHODS = frozenset({b"GET", b"HEAD", b"POST", b"PUT", b"DELETE", b"CONNECT", b"OPTIONS", b"TRACE", b"PATCH"})
SUPPORTED_VERSIONS = (b"1.0", b"1.1")
# A request line's form (RFC 9112 3): what a method llhttp does not know is refused as
# (501) rather than as malformed (400).
_REQUEST_LINE = re.compile(rb"[-!#$%&'*+.^_`|~0-9a-zA-Z]+ [\x21-\x7e]+ HTTP/([0-9]\.[0-9])")
_MESSAGE_END = b"\r\n\r\n"


class HeadRefused(Exception):
    """A request this server refuses; ``status`` and ``detail`` are the answer."""

    def __init__(self, status: int, detail: str):
        super().__init__(detail)
        self.status = status
        self.detail = detail


class _Events:
    """What the parser hands out for the request being read (httptools' callbacks)."""

    __slots__ = ("url", "headers", "body", "headers_done", "complete", "keep_alive", "parser")

    def __init__(self) -> None:
        self.parser: httptools.HttpRequestParser | None = None
        self.keep_alive = False
        self.url = b""
        self.headers: list[tuple[bytes, bytes]] = []
        self.body: list[bytes] = []
        self.headers_done = False
        self.complete = False

    def on_message_begin(self) -> None:
        self.url = b""
        self.headers = []
        self.body = []
        self.headers_done = self.complete = False

    def on_url(self, url: bytes) -> None:
        self.url += url

    def on_header(self, name: bytes, value: bytes) -> None:
        self.headers.append((name, value.rstrip(b" \t")))  # llhttp keeps trailing whitespace

    def on_headers_complete(self) -> None:
        self.headers_done = True
        # asked now: llhttp forgets the head's flags once the message is complete
        self.keep_alive = self.parser is not None and self.parser.should_keep_alive()

    def on_body(self, data: bytes) -> None:
        self.body.append(data)

    def on_message_complete(self) -> None:
        self.complete = True


class RequestReader:
    """The one parser of a connection; create one per connection."""

    __slots__ = ("_events", "_parser", "_chunked", "_left", "_tail", "_raw")

    def __init__(self) -> None:
        self._events = _Events()
        self._parser = httptools.HttpRequestParser(self._events)
        self._events.parser = self._parser
        self._chunked = False
        self._left = 0  # bytes of a sized body not yet fed
        self._tail = b""  # the last bytes of chunked body fed (a CR LF CR LF may span two pieces)
        self._raw = False  # the body is read past the parser (a request that asked to upgrade)

    @property
    def complete(self) -> bool:
        """The request has been read to its end."""
        return self._events.complete and not (self._raw and self._left)

    def read_head(self, data: bytes) -> Head:
        """The head in ``data`` (through its blank line); raises ``HeadRefused``."""
        events = self._events
        line = _REQUEST_LINE.fullmatch(data.split(b"\r\n", 1)[0])
        if line is not None and line[1] not in SUPPORTED_VERSIONS:  # HTTP/2's preface too
            raise HeadRefused(505, f"HTTP/{line[1].decode('ascii')} is not supported; use HTTP/1.1 or HTTP/1.0")
        upgrade = False
        try:
            self._parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            # The parser stops at the head of a request that asks to switch protocols (curl
            # --http2 asks for h2c): served as HTTP/1.1 (RFC 9110 7.8 lets a server ignore
            # Upgrade), its body read past the parser, which waits for the next request.
            upgrade = True
        except httptools.HttpParserInvalidMethodError:
            if line is None:
                raise HeadRefused(400, "malformed request head: not an HTTP request line") from None
            raise HeadRefused(501, unknown_method(line[0].split(b" ", 1)[0])) from None
        except httptools.HttpParserError as exc:
            raise _refusal(exc, events.headers) from None
        if not events.headers_done:
            raise HeadRefused(400, "malformed request head")
        method = self._parser.get_method()
        version = self._parser.get_http_version()
        if version not in ("1.0", "1.1"):
            raise HeadRefused(505, f"HTTP/{version} is not supported; use HTTP/1.1 or HTTP/1.0")
        if method not in KNOWN_METHODS:
            raise HeadRefused(501, unknown_method(method))
        # An HTTP/1.0 connection is closed after its answer, whatever it asks.
        close = upgrade or version == "1.0" or not events.keep_alive
        head = Head(method, events.url, version.encode("ascii"), events.headers, close)
        hosts = sum(1 for name, _ in head.headers if name == b"host")
        if hosts > 1 or (hosts == 0 and version == "1.1"):
            raise HeadRefused(400, "a request must name its Host once (RFC 9112 3.2)")
        coding = head.header(b"transfer-encoding")
        self._chunked = coding is not None
        length = head.header(b"content-length")
        self._left = 0 if self._chunked or length is None else int(length)
        self._tail = b""
        self._raw = upgrade
        if upgrade and self._chunked:
            raise HeadRefused(400, "a request that asks to upgrade the protocol cannot have a chunked body here")
        return head

    def body_piece(self, buffer: bytearray) -> int:
        """How many bytes of ``buffer`` (the body's next bytes and maybe the next request's)
        ``feed_body`` may take now."""
        if not self._chunked:
            return min(self._left, len(buffer))
        spanning = (self._tail + bytes(buffer[:3])).find(_MESSAGE_END)
        if spanning >= 0:
            return spanning + len(_MESSAGE_END) - len(self._tail)
        end = buffer.find(_MESSAGE_END)
        return len(buffer) if end < 0 else end + len(_MESSAGE_END)

    def feed_body(self, piece: bytes) -> list[bytes]:
        """The body's bytes in ``piece`` (as ``body_piece`` measured it); raises ``HeadRefused``."""
        if self._raw:
            self._left -= len(piece)
            return [piece]
        events = self._events
        events.body = []
        try:
            self._parser.feed_data(piece)
        except httptools.HttpParserError as exc:
            raise HeadRefused(400, f"malformed request body: {_describe(exc)}") from None
        if self._chunked:
            self._tail = (self._tail + piece)[-3:]
        else:
            self._left -= len(piece)
        return events.body


def unknown_method(method: bytes) -> str:
    name = method.decode("latin-1")[:40]
    if method.upper() in KNOWN_METHODS:
        return f"the method {name!r} is not implemented; methods are case-sensitive (RFC 9110 9.1): {name.upper()}?"
    return f"the method {name!r} is not implemented; this server takes GET, HEAD, POST and OPTIONS"


def _refusal(exc: httptools.HttpParserError, headers: list[tuple[bytes, bytes]]) -> HeadRefused:
    """The answer to a head llhttp refused."""
    text = _describe(exc)
    codings = [value for name, value in headers if name.lower() == b"transfer-encoding"]
    has_length = any(name.lower() == b"content-length" for name, _ in headers)
    if codings and has_length:
        return HeadRefused(400, "a request cannot have both Transfer-Encoding and Content-Length")
    if codings and codings[-1].strip().lower() != b"chunked":
        coding = codings[-1].decode("latin-1")[:40]
        return HeadRefused(501, f"the transfer coding {coding!r} is not implemented; send the body chunked or sized")
    return HeadRefused(400, f"malformed request head: {text}")


def _describe(exc: Exception) -> str:
    text = str(exc)
    return text if len(text) <= 200 else text[:200] + "..."
