"""Writing an answer on the wire, as RFC 9112 says (section 6 for its framing).

``AnswerWriter(request)`` writes the answer to one request: ``head(status, headers)`` the
status line and header lines, ``data(payload)`` a piece of the body, ``end()`` what ends
it. The body is framed by the ``Content-Length`` the headers give, else chunked for an
HTTP/1.1 client, else (HTTP/1.0) by closing the connection; the answer to ``HEAD`` and a
204 or 304 has no body bytes (RFC 9110 9.3.2, 15.3.5, 15.4.5). ``Connection: close`` is
added when the client asked for it, spoke HTTP/1.0, or the body is framed by the close.

Raises ``AnswerError`` for a header name that is not a token, a value holding a control
character (a CR or LF would split the answer), a ``Content-Length`` that is not a whole
number, and a body longer or shorter than its ``Content-Length``: each a bug of the
answer's maker, never of the client. Not checked: what the headers mean.
"""

from __future__ import annotations

import re

from .wire_problems import phrase

_TOKEN = re.compile(r"[-!#$%&'*+.^_`|~0-9a-zA-Z]+")
_FIELD_VALUE = re.compile(r"(?:[\x21-\x7e\x80-\xff]+(?:[ \t]+[\x21-\x7e\x80-\xff]+)*)?")
_DIGITS = re.compile(r"[0-9]{1,18}")
_FRAMING = frozenset({"content-length", "transfer-encoding"})
_GOOD_LINES: set[str] = set()  # header lines found valid (most repeat: Content-Type, ...)
_GOOD_LINES_KEPT = 1000


class AnswerError(Exception):
    """An answer that cannot be written as its maker asked."""


class AnswerWriter:
    """The answer to one request (``method``, ``http_version`` and ``close`` of its ``Head``)."""

    __slots__ = ("method", "version", "close", "chunked", "remaining", "bodiless", "done")

    def __init__(self, method: bytes, http_version: bytes, close: bool):
        self.method = method
        self.version = http_version
        self.close = close  # the connection ends after this answer
        self.chunked = False
        self.remaining = -1  # bytes of a sized body still to write; -1: not sized
        self.bodiless = False
        self.done = False

    def head(self, status: int, headers: list[tuple[str, str]]) -> bytes:
        """The bytes of the status line and ``headers``, with the framing headers added."""
        lines = [f"HTTP/1.1 {status} {phrase(status)}\r\n"]
        length: int | None = None
        for name, value in headers:
            lower = name.lower()
            if lower == "content-length":
                if length is not None or _DIGITS.fullmatch(value) is None:
                    raise AnswerError(f"Content-Length {value!r} is not one whole number")
                length = int(value)
            elif lower == "transfer-encoding":
                raise AnswerError("the framing of an answer is the writer's: no Transfer-Encoding")
            elif lower == "connection":
                if value.lower() != "close":
                    raise AnswerError(f"Connection {value!r}: only close is written")
                self.close = True
                continue  # written once, below
            line = f"{name}: {value}\r\n"
            if line not in _GOOD_LINES:
                if _TOKEN.fullmatch(name) is None or _FIELD_VALUE.fullmatch(value) is None:
                    raise AnswerError(f"header {name!r} cannot be written: a name must be a token, a value "
                                      "printable characters")
                if len(_GOOD_LINES) < _GOOD_LINES_KEPT and lower != "date":  # a date changes every second
                    _GOOD_LINES.add(line)
            lines.append(line)
        self.bodiless = self.method == b"HEAD" or status in (204, 304) or status < 200
        if length is not None:
            self.remaining = 0 if self.bodiless else length
        elif not self.bodiless:
            if self.version == b"1.1":
                self.chunked = True
                lines.append("Transfer-Encoding: chunked\r\n")
            else:
                self.close = True  # the body ends where the connection does
        if self.close:
            lines.append("Connection: close\r\n")
        lines.append("\r\n")
        return "".join(lines).encode("latin-1")

    def data(self, payload: bytes) -> bytes:
        """The bytes of a piece of the answer's body."""
        if self.bodiless or not payload:
            return b""
        if self.chunked:
            return b"%x\r\n%s\r\n" % (len(payload), payload)
        if self.remaining >= 0:
            if len(payload) > self.remaining:
                raise AnswerError("the body is longer than its Content-Length")
            self.remaining -= len(payload)
        return payload

    def end(self) -> bytes:
        """The bytes that end the answer."""
        self.done = True
        if self.chunked:
            return b"0\r\n\r\n"
        if self.remaining > 0:
            raise AnswerError("the body is shorter than its Content-Length")
        return b""

    def reusable(self) -> bool:
        """The answer is whole and neither side asked to close."""
        return self.done and not self.close
