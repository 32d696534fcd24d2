"""Streaming, bounded reading of text lines from plain, gzip or zstd files and stdin.

``read_lines`` never holds more than one line (at most ``max_bytes``) in memory. It decodes
each line as UTF-8 and reports, as located problems through ``report``:

- ``encoding``: the first undecodable line in full, then one summary of how many more
  lines were undecodable (the line is passed on with U+FFFD replacement characters);
- ``line-too-long``: a line longer than ``max_bytes``; only its first and last
  ``KEPT_ENDS`` bytes are passed on (state ``DROPPED``), so a PGN splitter still sees how
  it starts (a tag, movetext) and ends (a result);
- ``binary-file``: a NUL byte (reading stops: the rest of the file is not text);
- ``decompress``: a corrupt or truncated ``.gz`` / ``.zst`` stream (reading stops).

A UTF-8 byte order mark at the start of the file is dropped. Line ends ``\\n`` and
``\\r\\n`` are removed. ``OSError`` from opening is raised (the caller reports the path
as unreadable); read errors after opening are reported as ``decompress`` or ``binary-file``
problems, never raised.
"""

from __future__ import annotations

import enum
import gzip
import io
import sys
import zlib
from dataclasses import dataclass
from typing import BinaryIO, Callable, Iterator

from notation.check.problem import Severity
from notation.check.sources import Compression, Source

_BOM = b"\xef\xbb\xbf"
KEPT_ENDS = 256


class LineState(enum.Enum):
    """Whether a line's text can be trusted."""

    CLEAN = "clean"
    REPLACED = "replaced"  # undecodable bytes were replaced by U+FFFD
    DROPPED = "dropped"  # too long: ``text`` holds only both ends of the line


@dataclass(frozen=True)
class Line:
    """One line of a source: its 1-based number, decoded text (no line end) and state."""

    number: int
    text: str
    state: LineState = LineState.CLEAN


# report(line, column, severity, code, message)
Report = Callable[[int, int, Severity, str, str], None]


def open_binary(source: Source) -> BinaryIO:
    """Open ``source`` for buffered binary reading; raises ``OSError`` when it cannot."""
    if source.is_stdin:
        return sys.stdin.buffer
    raw = open(source.path, "rb")
    if source.compression is Compression.GZIP:
        return gzip.GzipFile(fileobj=raw, mode="rb")  # type: ignore[return-value]
    if source.compression is Compression.ZSTD:
        return io.BufferedReader(ZstdStream(raw), buffer_size=1 << 16)  # type: ignore[return-value]
    return raw


class ZstdStream(io.RawIOBase):
    """Decompressed bytes of a zstd file: every frame in turn, with bounded memory.

    Unlike ``zstandard``'s stream reader, a truncated last frame raises ``EOFError``
    instead of ending quietly. Compressed input is fed ``FEED`` bytes at a time, so a
    decompression bomb cannot expand by more than a few MiB per step.
    """

    FEED = 1024

    def __init__(self, raw: BinaryIO):
        import zstandard

        self._raw = raw
        self._dctx = zstandard.ZstdDecompressor()
        self._obj = self._dctx.decompressobj()
        self._started = False
        self._input = b""
        self._output = memoryview(b"")

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # type: ignore[override]
        while not self._output:
            if not self._input:
                self._input = self._raw.read(1 << 16)
                if not self._input:
                    if self._started and not self._obj.eof:
                        raise EOFError("truncated zstd frame")
                    return 0
            chunk, self._input = self._input[: self.FEED], self._input[self.FEED :]
            self._output = memoryview(self._decompress(chunk))
        count = min(len(buffer), len(self._output))
        buffer[:count] = self._output[:count]
        self._output = self._output[count:]
        return count

    def _decompress(self, data: bytes) -> bytes:
        out = []
        while data:
            if self._obj.eof:  # the next frame
                self._obj = self._dctx.decompressobj()
            self._started = True
            out.append(self._obj.decompress(data))
            data = self._obj.unused_data if self._obj.eof else b""
        return b"".join(out)

    def close(self) -> None:
        self._raw.close()
        super().close()


def _decompress_errors() -> tuple[type[BaseException], ...]:
    errors: list[type[BaseException]] = [gzip.BadGzipFile, EOFError, zlib.error, OSError]
    try:
        import zstandard

        errors.append(zstandard.ZstdError)
    except ImportError:  # pragma: no cover - zstandard is a dependency
        pass
    return tuple(errors)


_DECOMPRESS_ERRORS = _decompress_errors()


def read_lines(stream: BinaryIO, report: Report, *, max_bytes: int) -> Iterator[Line]:
    """Yield the lines of ``stream``; problems go to ``report`` (see the module doc)."""
    number = 0
    undecodable = 0
    first_more = 0
    readline = stream.readline
    while True:
        try:
            raw = readline(max_bytes + 1)
        except _DECOMPRESS_ERRORS as exc:
            report(number + 1, 1, Severity.ERROR, "decompress", f"cannot decompress: {_reason(exc)}")
            break
        if not raw:
            break
        number += 1
        if number == 1 and raw.startswith(_BOM):
            raw = raw[len(_BOM):]
        if b"\0" in raw:
            column = _column(raw, raw.index(b"\0"))
            report(number, column, Severity.ERROR, "binary-file", "NUL byte: the file is binary (or UTF-16), not UTF-8 text; not checked further")
            break
        if len(raw) > max_bytes and not raw.endswith(b"\n"):
            report(number, 1, Severity.ERROR, "line-too-long", f"line longer than {max_bytes} bytes; not checked")
            tail = _skip_rest_of_line(readline, max_bytes, raw, number, report)
            if tail is None:
                break
            ends = raw[:KEPT_ENDS] + b" ... " + tail
            yield Line(number, ends.decode("utf-8", "replace"), LineState.DROPPED)
            continue
        raw = raw.rstrip(b"\n").rstrip(b"\r")
        try:
            yield Line(number, raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            undecodable += 1
            if undecodable == 1:
                byte = raw[exc.start]
                report(
                    number,
                    _column(raw, exc.start),
                    Severity.ERROR,
                    "encoding",
                    f"byte 0x{byte:02X} is not valid UTF-8 (is the file Latin-1 or Windows-1252? convert it to UTF-8)",
                )
            elif undecodable == 2:
                first_more = number
            yield Line(number, raw.decode("utf-8", "replace"), LineState.REPLACED)
    if undecodable > 1:
        report(
            first_more, 1, Severity.ERROR, "encoding",
            f"{undecodable - 1} more line(s) from here on are not valid UTF-8",
        )


def _skip_rest_of_line(
    readline: Callable[[int], bytes], max_bytes: int, last: bytes, number: int, report: Report
) -> bytes | None:
    """Read and forget the rest of a long line; its last bytes (no line end), or None when
    the stream ended badly."""
    while True:
        try:
            chunk = readline(max_bytes)
        except _DECOMPRESS_ERRORS as exc:
            report(number, 1, Severity.ERROR, "decompress", f"cannot decompress: {_reason(exc)}")
            return None
        if chunk:
            last = last[-KEPT_ENDS:] + chunk
        if not chunk or chunk.endswith(b"\n"):
            return last.rstrip(b"\r\n")[-KEPT_ENDS:]


def _column(raw: bytes, offset: int) -> int:
    """1-based character column of byte ``offset`` in ``raw`` (decoded leniently)."""
    return len(raw[:offset].decode("utf-8", "replace")) + 1


def _reason(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    if isinstance(exc, EOFError):
        return "the compressed stream ends early (truncated file)"
    return text
