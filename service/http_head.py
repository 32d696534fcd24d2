"""Finding where a request head ends in bytes that arrive a few at a time, and the size
limits it must keep, before the connection's parser (``service.http_request``) reads it.

``HeadScanner.scan`` looks only at bytes it has not seen (a head sent one byte at a time
costs linear work) and raises ``HeadRejected`` with the status to answer: 414 for a request
line over ``MAX_REQUEST_LINE``, 431 for more than ``MAX_HEADER_FIELDS`` header lines, a
line over ``MAX_HEADER_LINE`` or a head over ``MAX_HEAD_BYTES``, 400 for Content-Length
given more than once or as a list (``39, 39``, on one line or folded onto the next), which
RFC 9110 8.6 lets a recipient refuse: a proxy in front may frame such a body otherwise
(request smuggling, RFC 9112 11.2). Nothing else about the head's syntax is judged here.
"""

from __future__ import annotations

MAX_REQUEST_LINE = 8190  # bytes of the request line, without its line end
MAX_HEADER_FIELDS = 100
MAX_HEADER_LINE = 8190  # bytes of one header line, without its line end
MAX_HEAD_BYTES = 65536  # the whole head, request line and headers


class HeadRejected(Exception):
    """A head that breaks a limit; ``status`` and ``detail`` are the answer."""

    def __init__(self, status: int, detail: str):
        super().__init__(detail)
        self.status = status
        self.detail = detail


class HeadScanner:
    """Scans one request head; create one per request."""

    def __init__(self) -> None:
        self.scanned = 0  # bytes of the buffer looked at
        self.line_start = 0
        self.lines = 0  # complete lines seen, the request line included
        self.content_lengths = 0
        self.in_content_length = False  # the last header line was a Content-Length

    def scan(self, buffer: bytearray) -> int | None:
        """The length of the head (through its blank line) once it is complete in ``buffer``,
        else ``None``; raises ``HeadRejected``. Leading empty lines must already be stripped."""
        if self.scanned == 0:
            whole = _whole_small_head(buffer)
            if whole is not None:
                return whole
        while True:
            newline = buffer.find(b"\n", self.scanned)
            if newline < 0:
                self.scanned = len(buffer)
                self._check_partial(len(buffer) - self.line_start)
                self._check_total(len(buffer))
                return None
            line = bytes(buffer[self.line_start : newline]).removesuffix(b"\r")
            self.scanned = self.line_start = newline + 1
            self._check_total(self.scanned)
            if self.lines > 0 and not line:
                return self.scanned
            self._check_line(line)
            self.lines += 1

    def _check_line(self, line: bytes) -> None:
        if self.lines == 0:
            if len(line) > MAX_REQUEST_LINE:
                raise HeadRejected(414, f"the request line is longer than {MAX_REQUEST_LINE} bytes")
            return
        if self.lines > MAX_HEADER_FIELDS:
            raise HeadRejected(431, f"more than {MAX_HEADER_FIELDS} header lines")
        if len(line) > MAX_HEADER_LINE:
            raise HeadRejected(431, f"a header line is longer than {MAX_HEADER_LINE} bytes")
        if line[:1] in (b" ", b"\t"):  # an obsolete folded line: a list once joined to the last
            if self.in_content_length:
                raise HeadRejected(400, "Content-Length is folded onto a second line; give the body's length once")
            return
        self.in_content_length = line[:15].lower() == b"content-length:"
        if self.in_content_length:
            self.content_lengths += 1
            if self.content_lengths > 1:
                raise HeadRejected(400, "Content-Length is given more than once")
            if b"," in line:
                raise HeadRejected(400, "Content-Length is a list; give the body's length once")

    def _check_partial(self, length: int) -> None:
        if self.lines == 0 and length > MAX_REQUEST_LINE + 1:
            raise HeadRejected(414, f"the request line is longer than {MAX_REQUEST_LINE} bytes")
        if self.lines > 0 and length > MAX_HEADER_LINE + 1:
            raise HeadRejected(431, f"a header line is longer than {MAX_HEADER_LINE} bytes")

    def _check_total(self, length: int) -> None:
        if length > MAX_HEAD_BYTES:
            raise HeadRejected(431, f"the request head is longer than {MAX_HEAD_BYTES} bytes")


def _whole_small_head(buffer: bytearray) -> int | None:
    """The length of a head that has wholly arrived, every line ending in CR LF, shorter
    than any limit and with at most one Content-Length, not a list nor folded (what the
    line by line scan would find, in one pass of C); ``None`` for any other, which that scan
    judges."""
    end = buffer.find(b"\r\n\r\n", 0, MAX_REQUEST_LINE)
    if end < 0:
        return None
    length = end + 4
    if length > MAX_REQUEST_LINE:
        return None
    feeds = buffer.count(b"\n", 0, length)
    if feeds > MAX_HEADER_FIELDS + 2 or feeds != buffer.count(b"\r\n", 0, length):
        return None
    head = buffer[:length].lower()
    found = head.find(b"\ncontent-length:")
    if found < 0:
        return length
    line_end = head.find(b"\n", found + 1)
    if head.find(b"\ncontent-length:", found + 1) >= 0 or head.find(b",", found, line_end) >= 0:
        return None
    if head[line_end + 1 : line_end + 2] in (b" ", b"\t"):  # folded
        return None
    return length


def strip_leading_empty_lines(buffer: bytearray) -> None:
    """Drop CR LF (or LF) before a request line, which RFC 9112 2.2 says to ignore."""
    start = 0
    while start < len(buffer) and buffer[start] in b"\r\n":
        start += 1
    if start:
        del buffer[:start]


class Head:
    """A parsed request head: ``method``, ``target`` and ``http_version`` as bytes,
    ``headers`` as (lower-case name, value) pairs and ``raw`` as (name as sent, value),
    values without surrounding whitespace; ``close`` when the connection ends after the
    answer (the client asked for it, or spoke HTTP/1.0)."""

    __slots__ = ("method", "target", "http_version", "headers", "raw", "close")

    def __init__(
        self, method: bytes, target: bytes, http_version: bytes, raw: list[tuple[bytes, bytes]], close: bool = False
    ):
        self.method = method
        self.target = target
        self.http_version = http_version
        self.raw = raw
        self.headers = [(name.lower(), value) for name, value in raw]
        self.close = close

    def header(self, name: bytes) -> bytes | None:
        """The first value of header ``name`` (lower case), or None."""
        for key, value in self.headers:
            if key == name:
                return value
        return None
