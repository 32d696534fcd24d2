"""Reading files for every command: plain, gzip, bzip2 or zstd, from a path or ``-``.

``InputFile(path)`` opens a path (``-``: standard input), recognises the compression by
the file's first bytes (whatever it is called: ``sniff``) and hands out the decompressed
bytes (``binary``, a buffered reader with ``read``, ``read1``, ``readline`` and ``peek``)
or text blocks (``blocks``). Text is UTF-8 with ``surrogateescape``: bytes that are not
UTF-8 survive a round trip, and line endings are never translated.

Memory is bounded per read, whatever the data: gzip and bzip2 decompress at most the
size asked for (the standard library's ``max_length``), and zstd, whose library has no
such bound, is fed ``ZSTD_FEED`` compressed bytes per step. A zstd block of 4 bytes
can expand to at most 128 KiB (the format's block limit), so one step yields at most
about 4 MiB (``bench/bench_inputs.py`` measures the peak on a 1 GB bomb). The zstd
window is capped at zstd's own default limit (128 MiB), declared by the file.

Errors, each one line naming the file:
- ``InputError`` when a path cannot be opened (missing, a directory, not permitted);
- ``CorruptInput`` (a subclass) while reading, for compressed data that is corrupt or
  ends early (a truncated file is an error, never a quiet end), or a read that fails.
Nothing is checked about the text itself.
"""

from __future__ import annotations

import functools
import io
import os
import sys
from collections.abc import Callable, Iterator
from typing import BinaryIO

from notation.lean_enum import LeanStrEnum

ENCODING = "utf-8"
ERRORS = "surrogateescape"
BLOCK_CHARS = 1 << 16  # what ``blocks`` reads at a time: below 128 KiB, as the splitter needs
STDIN = "-"
# A byte order mark starting a line past the first (text files joined with ``cat``, the
# second one's mark with it): FEN and EPD lines are read without it, with this warning
# (PGN's reader says ``pgn-bom``). One starting the input is dropped without a word.
FEN_BOM = "fen-bom"
FEN_BOM_MESSAGE = "byte order mark at the start of the line (files joined?); skipped"

ZSTD_FEED = 128  # compressed bytes per zstd step: at most ~4 MiB out (32 blocks x 128 KiB)
ZSTD_MAX_WINDOW = 1 << 27  # zstd's default limit; larger windows are refused as corrupt


class InputError(Exception):
    """A file that cannot be opened; the message is one line naming the file, ``reason``
    the same without the name."""

    def __init__(self, name: str, reason: str):
        super().__init__(f"cannot read {name}: {reason}")
        self.reason = reason


class CorruptInput(InputError):
    """Reading failed after opening (corrupt or truncated compressed data, an I/O error)."""


class Compression(LeanStrEnum):
    """How a file is compressed."""

    NONE = "none"
    GZIP = "gz"
    BZIP2 = "bz2"
    ZSTD = "zst"


_MAGIC = ((b"\x1f\x8b", Compression.GZIP), (b"BZh", Compression.BZIP2), (b"\x28\xb5\x2f\xfd", Compression.ZSTD))
SUFFIXES = {".gz": Compression.GZIP, ".gzip": Compression.GZIP, ".bz2": Compression.BZIP2,
            ".zst": Compression.ZSTD, ".zstd": Compression.ZSTD}


def split_compression_suffix(name: str) -> tuple[str, Compression]:
    """``name`` without its compression suffix (case-insensitive), and what that suffix says."""
    stem, suffix = os.path.splitext(name)
    found = SUFFIXES.get(suffix.lower())
    return (stem, found) if found is not None else (name, Compression.NONE)


def compression_for_name(name: str) -> Compression:
    """The compression a file name asks for (by its suffix)."""
    return split_compression_suffix(name)[1]


def sniff(head: bytes) -> Compression:
    """The compression whose magic bytes start ``head``."""
    for magic, kind in _MAGIC:
        if head.startswith(magic):
            return kind
    return Compression.NONE


def describe_error(exc: BaseException) -> str:
    """An exception as a short reason (``strerror`` for ``OSError``)."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__


def display_name(path: str) -> str:
    return "standard input" if path == STDIN else repr(path)


class InputFile:
    """An open input; see the module doc. ``position``/``size`` feed a progress bar.

    ``position`` and ``size`` count bytes of the file as stored (compressed bytes for a
    compressed file); ``size`` is None for standard input, pipes and devices. Raises
    ``InputError`` when the path cannot be opened. Opening a FIFO waits for its writer.
    ``raw``: a binary stream already open (by fsspec, say) to read instead of ``path``.
    ``before_read``: run before each read of the file after the first bytes (which name
    its compression), whenever the decompressed data read so far is used up: a reader
    that may wait for a writer (a pipe) says so this way.
    """

    def __init__(self, path: str, *, raw: BinaryIO | None = None, before_read: Callable[[], None] | None = None):
        self.path = path
        self.name = display_name(path)
        try:
            if raw is not None:
                pass  # opened elsewhere (by fsspec, say): ``path`` only names it
            elif path == STDIN:
                raw = _stdin_bytes()
            else:
                if os.path.isdir(path):
                    raise InputError(self.name, "it is a directory")
                raw = open(path, "rb")
        except OSError as exc:
            raise InputError(self.name, describe_error(exc)) from None
        self._raw = raw
        buffered = raw if hasattr(raw, "peek") else io.BufferedReader(raw)  # type: ignore[type-var]
        try:
            self.compression = sniff(buffered.peek(4)[:4])
        except OSError as exc:
            self.close()
            raise InputError(self.name, describe_error(exc)) from None
        self.size: int | None = None
        if path != STDIN:
            try:
                stat = os.fstat(raw.fileno())
                self.size = stat.st_size if stat.st_size or os.path.isfile(path) else None
            except OSError:
                self.size = None
        checked = _Checked(_decompressor(self.compression, buffered), self.name, self.compression, before_read)
        self.binary = io.BufferedReader(checked, buffer_size=1 << 16)
        self._text = io.TextIOWrapper(self.binary, encoding=ENCODING, errors=ERRORS, newline="")

    @property
    def position(self) -> int:
        """Bytes of the stored file consumed so far (0 when it cannot be told)."""
        try:
            return self._raw.tell()
        except (OSError, ValueError):
            return 0

    def blocks(self, chars: int = BLOCK_CHARS) -> Iterator[str]:
        """The text in blocks cut anywhere; raises ``CorruptInput``."""
        read = self._text.read
        while True:
            block = read(chars)
            if not block:
                return
            yield block

    def close(self) -> None:
        """Close the file (standard input stays open)."""
        if self.path != STDIN:
            try:
                self._raw.close()
            except OSError:
                pass

    def __enter__(self) -> InputFile:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _stdin_bytes() -> BinaryIO:
    """Standard input's bytes; a text stream put in its place (by an embedding program or
    a test) is read as its UTF-8 encoding."""
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is not None:
        return buffer
    return io.BufferedReader(_EncodedText(sys.stdin))


class _EncodedText(io.RawIOBase):
    """The UTF-8 bytes of a text stream."""

    def __init__(self, text):
        super().__init__()
        self._text = text
        self._pending = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if not self._pending:
            self._pending = self._text.read(max(1, len(buffer) // 4)).encode(ENCODING, ERRORS)
        count = min(len(buffer), len(self._pending))
        buffer[:count] = self._pending[:count]
        self._pending = self._pending[count:]
        return count


def read_text(path: str) -> str:
    """A whole (possibly compressed) file as text; raises ``InputError``."""
    with InputFile(path) as source:
        return "".join(source.blocks())


def _decompressor(compression: Compression, buffered: BinaryIO) -> BinaryIO:
    # The compression modules are imported when a compressed file is met: importing them
    # all would cost every command's start-up several milliseconds.
    if compression is Compression.GZIP:
        import gzip

        return gzip.GzipFile(fileobj=buffered, mode="rb")  # type: ignore[return-value]
    if compression is Compression.BZIP2:
        import bz2

        return bz2.BZ2File(buffered, "rb")  # type: ignore[return-value]
    if compression is Compression.ZSTD:
        return ZstdReader(buffered)  # type: ignore[return-value]
    return buffered


@functools.cache
def _decoder_errors() -> tuple[type[BaseException], ...]:
    """What a decompressing stream raises on bad data (asked only when one raises)."""
    import zlib

    import zstandard

    return (OSError, EOFError, zlib.error, ValueError, zstandard.ZstdError)


class _Checked(io.RawIOBase):
    """Bytes from a (decompressing) stream; every failure becomes ``CorruptInput``."""

    # The buffered reader over it asks whether it is closed at every line it hands out.
    # IOBase's ``closed`` is a property that looks up an attribute of its own in turn (two
    # look-ups a line); this class attribute is one, and ``close`` shadows it.
    closed = False

    def __init__(
        self, stream: BinaryIO, name: str, compression: Compression, before_read: Callable[[], None] | None = None
    ):
        super().__init__()
        self._stream = stream
        self._name = name
        self._compression = compression
        self._before_read = before_read

    def readable(self) -> bool:
        return True

    def close(self) -> None:
        super().close()
        self.closed = True

    def readinto(self, buffer) -> int:
        if self._before_read is not None:
            self._before_read()  # outside the try: what it raises is its own, not the file's
        try:
            # one step of the decoder (read1), so bytes before a failure are not lost
            read = getattr(self._stream, "read1", None) or self._stream.read
            data = read(len(buffer))
        except _decoder_errors() as exc:
            raise CorruptInput(self._name, self._reason(exc)) from None
        buffer[: len(data)] = data
        return len(data)

    def _reason(self, exc: BaseException) -> str:
        if self._compression is Compression.NONE:
            return describe_error(exc)
        if isinstance(exc, EOFError):
            return f"the {self._compression.value} data ends early (truncated file)"
        return f"the {self._compression.value} data is corrupt ({describe_error(exc)})"


class ZstdReader(io.RawIOBase):
    """Decompressed bytes of a zstd stream: every frame in turn, ``ZSTD_FEED`` compressed
    bytes per step (see the module doc).

    Raises ``EOFError`` at the end of input if a frame is cut short, and
    ``zstandard.ZstdError`` on corrupt data. Closing it closes ``raw``.
    """

    def __init__(self, raw: BinaryIO, feed: int = ZSTD_FEED):
        import zstandard

        super().__init__()
        self._raw = raw
        self._feed = feed
        self._dctx = zstandard.ZstdDecompressor(max_window_size=ZSTD_MAX_WINDOW)
        self._obj = self._dctx.decompressobj()
        self._started = False
        self._input = memoryview(b"")
        self._output = memoryview(b"")

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        while not self._output:
            if not self._input:
                self._input = memoryview(self._raw.read(1 << 16))
                if not self._input:
                    if self._started and not self._obj.eof:
                        raise EOFError("the last zstd frame is cut short")
                    return 0
            chunk, self._input = self._input[: self._feed], self._input[self._feed :]
            self._output = memoryview(self._decompress(bytes(chunk)))
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
        try:
            self._raw.close()
        finally:
            super().close()
