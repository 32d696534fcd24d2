"""Reading and writing PGN files: compression, standard streams, atomic replacement.

- Input: a path or ``-`` (standard input). gzip, bzip2 and zstd are recognised by their
  magic bytes (whatever the file is called) and decompressed on the fly.
- Output: a path or ``-``. ``.gz``, ``.bz2`` and ``.zst`` names are written compressed.
  A path is written to a temporary file in the same directory and renamed over the target
  only when everything went well (``AtomicOutput.commit``); on failure the target is
  untouched. An optional backup of the old target is kept (in-place rewriting).
- Text is UTF-8 with ``surrogateescape``: bytes that are not UTF-8 survive a round trip
  unchanged, and line endings are never translated.

Errors: ``StreamError`` (one line, names the file) for files that cannot be opened,
created or decompressed. Nothing else is raised on bad data.
"""

from __future__ import annotations

import bz2
import enum
import gzip
import io
import os
import shutil
import sys
import tempfile
from typing import BinaryIO, Iterator

from notation.zstd_stream import ZstdReader

ENCODING = "utf-8"
ERRORS = "surrogateescape"
BLOCK_CHARS = 1 << 17


class StreamError(Exception):
    """A file that cannot be read or written; the message is one line naming the file."""


class Compression(str, enum.Enum):
    """How a file is compressed."""

    NONE = "none"
    GZIP = "gz"
    BZIP2 = "bz2"
    ZSTD = "zst"


_MAGIC = ((b"\x1f\x8b", Compression.GZIP), (b"BZh", Compression.BZIP2), (b"\x28\xb5\x2f\xfd", Compression.ZSTD))
_SUFFIXES = {".gz": Compression.GZIP, ".gzip": Compression.GZIP, ".bz2": Compression.BZIP2,
             ".zst": Compression.ZSTD, ".zstd": Compression.ZSTD}


def compression_for_name(path: str) -> Compression:
    """The compression a file name asks for (by its suffix)."""
    return _SUFFIXES.get(os.path.splitext(path)[1].lower(), Compression.NONE)


def sniff(head: bytes) -> Compression:
    """The compression whose magic bytes start ``head``."""
    for magic, kind in _MAGIC:
        if head.startswith(magic):
            return kind
    return Compression.NONE


def _describe(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__


class InputFile:
    """An open input: ``blocks()`` yields its text; ``position``/``size`` feed a progress bar.

    ``position`` and ``size`` count bytes of the file as stored (compressed bytes for a
    compressed file); ``size`` is None for standard input and pipes.
    """

    def __init__(self, path: str):
        self.path = path
        self.name = "standard input" if path == "-" else path
        try:
            if path == "-":
                raw: BinaryIO = sys.stdin.buffer
            else:
                if os.path.isdir(path):
                    raise StreamError(f"cannot read {path!r}: it is a directory")
                raw = open(path, "rb")
        except OSError as exc:
            raise StreamError(f"cannot read {path!r}: {_describe(exc)}") from None
        self._raw = raw
        buffered = raw if hasattr(raw, "peek") else io.BufferedReader(raw)
        self._buffered = buffered
        try:
            self.compression = sniff(buffered.peek(4)[:4])
        except OSError as exc:
            raise StreamError(f"cannot read {self.name}: {_describe(exc)}") from None
        self.size: int | None = None
        if path != "-":
            try:
                self.size = os.fstat(raw.fileno()).st_size
            except OSError:
                self.size = None
        self._binary = self._decompressor(buffered)
        self._text = io.TextIOWrapper(self._binary, encoding=ENCODING, errors=ERRORS, newline="")

    def _decompressor(self, buffered: BinaryIO) -> BinaryIO:
        if self.compression is Compression.GZIP:
            return gzip.GzipFile(fileobj=buffered, mode="rb")
        if self.compression is Compression.BZIP2:
            return bz2.BZ2File(buffered, "rb")
        if self.compression is Compression.ZSTD:
            return io.BufferedReader(ZstdReader(buffered), buffer_size=1 << 16)
        return buffered

    @property
    def position(self) -> int:
        """Bytes of the stored file consumed so far (0 when it cannot be told)."""
        try:
            return self._raw.tell()
        except (OSError, ValueError):
            return 0

    def blocks(self, chars: int = BLOCK_CHARS) -> Iterator[str]:
        """The text in blocks cut anywhere; raises ``StreamError`` on corrupt compressed data."""
        read = self._text.read
        while True:
            try:
                block = read(chars)
            except StreamError:
                raise
            except (OSError, EOFError, ValueError) as exc:
                raise StreamError(f"cannot read {self.name}: {self._corrupt(exc)}") from None
            except Exception as exc:  # zstandard.ZstdError and other decoder errors
                raise StreamError(f"cannot read {self.name}: {self._corrupt(exc)}") from None
            if not block:
                return
            yield block

    def _corrupt(self, exc: BaseException) -> str:
        if self.compression is Compression.NONE:
            return _describe(exc)
        return f"{self.compression.value} data is corrupt or ends early ({_describe(exc)})"

    def close(self) -> None:
        if self.path != "-":
            try:
                self._text.close()
            except Exception:  # noqa: BLE001 - closing a broken stream must not hide the first error
                pass
            try:
                self._raw.close()
            except OSError:
                pass

    def __enter__(self) -> "InputFile":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class AtomicOutput:
    """Text written to ``path`` (``-``: standard output), appearing only on ``commit()``.

    Compression follows the name unless ``compression`` is given. ``backup``: a path to
    keep the replaced file under (made at commit time). Used as a context manager, an
    exception discards the temporary file and leaves the target as it was.
    """

    def __init__(self, path: str, *, compression: Compression | None = None, backup: str | None = None):
        self.path = path
        self.backup = backup
        self._tmp: str | None = None
        self._done = False
        if path == "-":
            self._raw = sys.stdout.buffer
            self.compression = compression or Compression.NONE
        else:
            self.compression = compression if compression is not None else compression_for_name(path)
            directory = os.path.dirname(os.path.abspath(path))
            if os.path.isdir(path):
                raise StreamError(f"cannot write {path!r}: it is a directory")
            try:
                fd, self._tmp = tempfile.mkstemp(dir=directory, prefix=f".{os.path.basename(path)}.", suffix=".tmp")
            except OSError as exc:
                raise StreamError(f"cannot write {path!r}: {_describe(exc)}") from None
            self._raw = os.fdopen(fd, "wb")
        self._binary = self._compressor(self._raw)
        self._text = io.TextIOWrapper(self._binary, encoding=ENCODING, errors=ERRORS, newline="",
                                      write_through=False)

    def _compressor(self, raw: BinaryIO) -> BinaryIO:
        if self.compression is Compression.GZIP:
            return gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=6, mtime=0)
        if self.compression is Compression.BZIP2:
            return bz2.BZ2File(raw, "wb")
        if self.compression is Compression.ZSTD:
            import zstandard

            return zstandard.ZstdCompressor(level=3).stream_writer(raw, closefd=False)
        return _NoClose(raw)

    def write(self, text: str) -> None:
        try:
            self._text.write(text)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise StreamError(f"cannot write {self._name()}: {_describe(exc)}") from None

    def _name(self) -> str:
        return "standard output" if self.path == "-" else repr(self.path)

    def commit(self) -> None:
        """Finish the stream and put the file in place (keeping the backup first)."""
        if self._done:
            return
        self._done = True
        try:
            self._text.flush()
            self._text.detach()
            self._binary.close()  # writes the compressed stream's trailer; never closes raw
            self._raw.flush()
            if self._tmp is None:
                return
            os.fsync(self._raw.fileno())
            self._raw.close()
            self._match_mode()
            if self.backup is not None:
                _make_backup(self.path, self.backup)
            os.replace(self._tmp, self.path)
            self._tmp = None
        except BrokenPipeError:
            raise
        except OSError as exc:
            self.discard()
            raise StreamError(f"cannot write {self._name()}: {_describe(exc)}") from None

    def _match_mode(self) -> None:
        try:
            mode = os.stat(self.path).st_mode & 0o7777
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(self._tmp, mode)

    def discard(self) -> None:
        """Drop the temporary file (if any); the target stays as it was."""
        self._done = True
        if self._tmp is None:
            return
        try:
            self._raw.close()
        except OSError:
            pass
        try:
            os.unlink(self._tmp)
        except OSError:
            pass
        self._tmp = None

    def __enter__(self) -> "AtomicOutput":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.commit()
        else:
            self.discard()


class _NoClose(io.RawIOBase):
    """A pass-through whose ``close`` flushes but leaves the wrapped stream open."""

    def __init__(self, raw: BinaryIO):
        super().__init__()
        self._wrapped = raw

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        return self._wrapped.write(data)

    def close(self) -> None:
        if not self.closed:
            self._wrapped.flush()
        super().close()


def _make_backup(path: str, backup: str) -> None:
    if os.path.lexists(backup):
        raise FileExistsError(17, f"backup {backup!r} already exists")
    try:
        os.link(path, backup)
    except OSError:
        shutil.copy2(path, backup)


def read_text(path: str) -> str:
    """A whole (possibly compressed) file as text; raises ``StreamError``."""
    with InputFile(path) as source:
        return "".join(source.blocks())


def write_text(path: str, text: str) -> None:
    """Write ``text`` atomically (compressed by name); raises ``StreamError``."""
    with AtomicOutput(path) as out:
        out.write(text)
