"""Lines of a byte stream ended by ``\\n``, ``\\r\\n`` or a lone ``\\r`` (an old Mac file).

``LineReader(stream).readline(limit)`` is a buffered stream's ``readline(limit)`` but for
the lone CR, which ends a line too, as it does for the PGN splitter and for Python's text
files: each call returns the bytes up to and including the next line end, at most
``limit`` of them (fewer without a line end only at the end of the stream), and ``b""`` at
the end. The line end stays on the line, for the caller to strip (``rstrip(b"\\r\\n")``).

How the stream is read follows its line ends. The first read, and every read after one
that held a lone CR, is ``read1`` (``readline`` where the stream has none): what the stream
has, up to a block, without waiting for more, cut after each line end. A line is handed out
as soon as its end has been read: a CR that is the last byte read so far ends its line at
once (a writer down a pipe is not kept waiting for the byte after it), so a CR LF may be
handed out as its CR, and its LF, read next, is dropped. After a read without a lone CR,
the stream's own ``readline`` is used, a line at a time (the usual file costs no more than
it did), until a line read so holds a lone CR; a writer that switches to lone CRs down a
pipe after lines ended by LF is answered at its next LF, every ``limit`` bytes or at its end.
At most ``limit`` bytes of a line and one block past it are held. Nothing else about the
bytes is checked; errors of the stream's reads propagate.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import BinaryIO, Final

BLOCK_BYTES: Final = 1 << 16  # what one read asks for
_CR: Final = 13  # sought as a byte's value: ``13 in data`` is a memchr, ``b"\r" in data`` is not


class LineReader:
    """``readline`` over ``stream`` where a lone CR ends a line (see the module doc)."""

    def __init__(self, stream: BinaryIO) -> None:
        self._readline = stream.readline
        self._read1: Callable[[int], bytes] = getattr(stream, "read1", stream.readline)
        self._lines: list[bytes] = []  # the last read, cut after each line end
        self._next = 0  # the first of ``_lines`` not yet handed out
        self._lone_crs = True  # whether the last read held a lone CR (read by blocks: read1)
        self._after_cr = False  # the last line ended with a CR, the last byte read so far
        self._by_line = False  # nothing held, no lone CR last read, none ended a line last

    def readline(self, limit: int) -> bytes:
        """The next line, its line end kept, at most ``limit`` bytes (``limit`` > 0)."""
        if self._by_line:  # the usual file: lines by LF (or CR LF), read by the stream
            raw = self._readline(limit)
            if _CR not in raw or (raw.endswith(b"\r\n") and _CR not in raw[:-2]):
                return raw
            self._lines, self._next, self._lone_crs = raw.splitlines(True), 0, True
            return self._readline_slowly(limit)
        lines, at = self._lines, self._next
        if at < len(lines) - 1:  # a whole line of the last read, not its last one
            line = lines[at]
            if len(line) <= limit:
                self._next = at + 1
                return line
        return self._readline_slowly(limit)

    def _readline_slowly(self, limit: int) -> bytes:
        """``readline`` of a read's last line, which may go on in the next reads, or of a
        line longer than ``limit``."""
        lines, at = self._lines, self._next
        line = lines[at] if at < len(lines) else b""
        last = at >= len(lines) - 1  # the read's last line (may be unended)
        while last and len(line) < limit and not line.endswith((b"\n", b"\r")):
            more = self._read()
            if not more:
                break
            line += more[0]
            lines, at, last = more, 0, len(more) == 1
        if len(line) <= limit:
            handed, rest = line, b""
        elif len(line) == limit + 1 and line.endswith(b"\r\n"):
            handed, rest = line[:-1], b""  # a CR LF whose LF is past the limit: the CR ends it
        else:
            handed, rest = line[:limit], line[limit:]
        if rest:
            lines[at] = rest
            self._lines, self._next = lines, at
        else:
            self._lines, self._next = lines, at + 1
        self._after_cr = not rest and last and line.endswith(b"\r")  # not a CR LF handed out as its CR
        self._by_line = self._next >= len(self._lines) and not self._lone_crs and not self._after_cr
        return handed

    def _read(self) -> list[bytes]:
        """The next read of the stream cut after each line end (``[]`` at the end of the
        stream), without the LF of a CR LF whose CR ended the last line: a block by
        ``read1`` after a lone CR, else a line by ``readline``."""
        read = self._read1 if self._lone_crs else self._readline
        data = read(BLOCK_BYTES)
        if self._after_cr:
            self._after_cr = False
            if data[:1] == b"\n":
                data = data[1:] or read(BLOCK_BYTES)
        self._lone_crs = _has_lone_cr(data)
        return data.splitlines(True)  # bytes end lines at LF, CR LF and CR, and only there


def _has_lone_cr(data: bytes) -> bool:
    """Whether ``data`` holds a CR not followed by a LF (a CR last of all counts)."""
    return _CR in data and data.count(b"\r") != data.count(b"\r\n")


def ends_line(data: bytes) -> bool:
    """Whether ``data`` (not empty) ends with a line end: a LF, or a CR (lone, or the first
    half of a CR LF: ``LineReader`` hands out a line at a CR read last)."""
    last = data[-1]
    return last == 10 or last == _CR
