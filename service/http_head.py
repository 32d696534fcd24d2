"""Finding where a request head ends in bytes that arrive a few at a time, and the size
limits it must keep, before h11 parses it.

``HeadScanner.scan`` looks only at bytes it has not seen (a head sent one byte at a time
costs linear work) and raises ``HeadRejected`` with the status to answer: 414 for a request
line over ``MAX_REQUEST_LINE``, 431 for more than ``MAX_HEADER_FIELDS`` header lines, a
line over ``MAX_HEADER_LINE`` or a head over ``MAX_HEAD_BYTES``, 400 for Content-Length
given more than once (RFC 9112 6.3: a request smuggling risk; h11 would merge equal values).
Everything else about the head's syntax is h11's to judge.
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

    def scan(self, buffer: bytearray) -> int | None:
        """The length of the head (through its blank line) once it is complete in ``buffer``,
        else ``None``; raises ``HeadRejected``. Leading empty lines must already be stripped."""
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
        if line[:15].lower() == b"content-length:":
            self.content_lengths += 1
            if self.content_lengths > 1:
                raise HeadRejected(400, "Content-Length is given more than once")

    def _check_partial(self, length: int) -> None:
        if self.lines == 0 and length > MAX_REQUEST_LINE + 1:
            raise HeadRejected(414, f"the request line is longer than {MAX_REQUEST_LINE} bytes")
        if self.lines > 0 and length > MAX_HEADER_LINE + 1:
            raise HeadRejected(431, f"a header line is longer than {MAX_HEADER_LINE} bytes")

    def _check_total(self, length: int) -> None:
        if length > MAX_HEAD_BYTES:
            raise HeadRejected(431, f"the request head is longer than {MAX_HEAD_BYTES} bytes")


def strip_leading_empty_lines(buffer: bytearray) -> None:
    """Drop CR LF (or LF) before a request line, which RFC 9112 2.2 says to ignore."""
    start = 0
    while start < len(buffer) and buffer[start] in b"\r\n":
        start += 1
    if start:
        del buffer[:start]
