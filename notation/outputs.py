"""Writing files for every command: atomic where that is possible, streamed where not.

``Output(path)`` chooses by what ``path`` is when it is opened:

- a regular file, a symbolic link to one, or a name that does not exist yet
  (``Delivery.ATOMIC``): the text goes to a temporary file beside the link's final
  target and is renamed over that target on ``commit()``; until then (and after
  ``discard()``, or an exception in the ``with`` block) the target is untouched. A
  symbolic link stays a link: its target is what changes. The target keeps its
  permission bits. An optional backup keeps the replaced content.
- ``-`` (standard output), a FIFO, a character or block device, or anything under
  ``/dev`` or ``/proc`` such as ``/dev/stdout`` (``Delivery.STREAM``): the text is written
  into it as it comes and it is never replaced or removed. What was written before an
  error stays written (a stream cannot be taken back).

``.gz``, ``.bz2`` and ``.zst`` names are written compressed (``.zst`` with a content
checksum). Temporary files still open are listed in ``TEMPORARY_FILES`` so a signal
handler can remove them (``remove_temporary_files``).

Errors: ``OutputError`` (one line naming the file) when the file cannot be created,
written or put in place. ``BrokenPipeError`` (the reader went away) propagates as it is.
"""

from __future__ import annotations

import io
import os
import stat
import sys
from typing import BinaryIO

from notation.inputs import ENCODING, ERRORS, Compression, compression_for_name, describe_error
from notation.lean_enum import LeanStrEnum
from notation.signals import signals_deferred

STDOUT = "-"
SYSTEM_DIRECTORIES = ("/dev/", "/proc/")  # names here are streams, whatever they lead to
ZSTD_LEVEL = 3
GZIP_LEVEL = 6

# Paths of temporary files not yet renamed or removed, for signal handlers.
TEMPORARY_FILES: set[str] = set()


class OutputError(Exception):
    """A file that cannot be written; the message is one line naming the file."""


class Delivery(LeanStrEnum):
    """How an output reaches its path."""

    ATOMIC = "atomic"  # temporary file renamed over the target on commit
    STREAM = "stream"  # written straight into a stream, FIFO or device


def delivery_for(path: str) -> Delivery:
    """How ``path`` would be written now (see the module doc); raises ``OutputError`` for
    a directory or a socket."""
    if path == STDOUT:
        return Delivery.STREAM
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return Delivery.ATOMIC  # a new file (or a dangling link, created at its target)
    except OSError as exc:
        raise OutputError(f"cannot write {path!r}: {describe_error(exc)}") from None
    if stat.S_ISDIR(mode):
        raise OutputError(f"cannot write {path!r}: it is a directory")
    if stat.S_ISSOCK(mode):
        raise OutputError(f"cannot write {path!r}: it is a socket")
    if not stat.S_ISREG(mode):
        return Delivery.STREAM
    if os.path.abspath(path).startswith(SYSTEM_DIRECTORIES):
        return Delivery.STREAM  # /dev/stdout redirected to a file (maybe with >>): write through it
    return Delivery.ATOMIC


class Output:
    """Text written to ``path`` (``-``: standard output); see the module doc.

    Compression follows the name unless ``compression`` is given. ``backup``: a path to
    keep the replaced file's content under (made at commit time, atomic delivery only).
    """

    def __init__(self, path: str, *, compression: Compression | None = None, backup: str | None = None):
        self.path = path
        self.backup = backup
        self.delivery = delivery_for(path)
        self.compression = compression if compression is not None else (
            Compression.NONE if path == STDOUT else compression_for_name(path))
        self._tmp: str | None = None
        self._target = path
        self._done = False
        if path == STDOUT:
            self._raw: BinaryIO = sys.stdout.buffer
        elif self.delivery is Delivery.STREAM:
            try:
                # append: a FIFO or device does not mind, and /dev/stdout led to a file
                # (shell redirection) must not be cut to nothing by reopening it
                self._raw = open(path, "ab")  # a FIFO waits here for its reader
            except OSError as exc:
                raise OutputError(f"cannot write {path!r}: {describe_error(exc)}") from None
        else:
            self._target = os.path.realpath(path)
            directory = os.path.dirname(self._target)
            try:
                # made and listed with the signals waiting: one landing between the two would
                # leave a file its handler does not know of
                with signals_deferred():
                    fd, tmp = _new_temporary_file(directory, os.path.basename(self._target))
                    TEMPORARY_FILES.add(tmp)
            except OSError as exc:
                raise OutputError(f"cannot write {path!r}: {describe_error(exc)}") from None
            self._tmp = tmp
            self._raw = io.BufferedWriter(_WrittenBack(fd, "wb"))
        self._binary = _compressor(self.compression, self._raw)
        self._text = io.TextIOWrapper(self._binary, encoding=ENCODING, errors=ERRORS, newline="",
                                      write_through=False)

    @property
    def name(self) -> str:
        return "standard output" if self.path == STDOUT else repr(self.path)

    def write(self, text: str) -> None:
        """Write ``text``; raises ``OutputError`` (``BrokenPipeError`` as it is)."""
        try:
            self._text.write(text)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(f"cannot write {self.name}: {describe_error(exc)}") from None

    def write_bytes(self, data: bytes | bytearray | memoryview) -> None:
        """Write text already encoded as UTF-8 (``surrogateescape``), after what ``write``
        was given; raises as ``write`` does."""
        try:
            self._text.flush()
            self._binary.write(data)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(f"cannot write {self.name}: {describe_error(exc)}") from None

    def commit(self) -> None:
        """Finish the stream (compressed trailer included) and put the file in place."""
        if self._done:
            return
        self._done = True
        try:
            self._text.flush()
            self._text.detach()
            self._binary.close()  # writes the compressed stream's trailer; never closes raw
            self._raw.flush()
            if self._tmp is None:
                if self.path != STDOUT:
                    self._raw.close()
                return
            os.fsync(self._raw.fileno())
            self._raw.close()
            self._match_mode()
            with signals_deferred():  # a backup without the rename would block the next run
                if self.backup is not None:
                    _make_backup(self._target, self.backup)
                os.replace(self._tmp, self._target)
                TEMPORARY_FILES.discard(self._tmp)
                self._tmp = None
        except BrokenPipeError:
            raise
        except OSError as exc:
            self.discard()
            raise OutputError(f"cannot write {self.name}: {describe_error(exc)}") from None

    def _match_mode(self) -> None:
        try:
            mode = os.stat(self._target).st_mode & 0o7777
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(self._tmp, mode)  # type: ignore[arg-type]

    def discard(self) -> None:
        """Drop the temporary file (if any); an atomic target stays as it was. A stream
        keeps what was written to it (it is flushed, as far as it can be)."""
        if self._done and self._tmp is None:
            return
        self._done = True
        if self._tmp is None:
            try:
                self._text.flush()
                if self.path != STDOUT:
                    self._raw.close()
            except (OSError, ValueError):
                pass
            return
        # The layers above the file are closed first, their last buffered text written to
        # the file about to go: left open, they would try to write it to the closed file
        # when collected (at exit, after a signal: an ignored exception Python prints).
        for layer in (self._text, self._binary, self._raw):
            try:
                layer.close()
            except (OSError, ValueError):
                pass
        remove_temporary_file(self._tmp)
        self._tmp = None

    def __enter__(self) -> Output:
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.commit()
        else:
            self.discard()


_CREATE_NEW = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
_NAME_TRIES = 100


def _new_temporary_file(directory: str, base: str) -> tuple[int, str]:
    """A new file ``.<base>.<12 random hex digits>.tmp`` in ``directory``, open for writing
    and readable by its owner only: as ``tempfile.mkstemp`` makes one (created exclusively, a
    fresh name after a clash), without importing ``tempfile``, whose ``shutil``, ``random``
    and compression modules cost a command that writes a file more than the rest of its
    output set-up (docs/architecture.md, "Start-up"). Raises ``OSError``."""
    for _ in range(_NAME_TRIES):
        path = os.path.join(directory, f".{base}.{os.urandom(6).hex()}.tmp")
        try:
            return os.open(path, _CREATE_NEW, 0o600), path
        except FileExistsError:
            continue
    raise FileExistsError(f"no unused temporary file name in {directory!r} after {_NAME_TRIES} tries")


def remove_temporary_file(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
    TEMPORARY_FILES.discard(path)


def remove_temporary_files() -> None:
    """Remove every temporary file still listed (for signal handlers)."""
    for path in list(TEMPORARY_FILES):
        remove_temporary_file(path)


def _compressor(compression: Compression, raw: BinaryIO) -> BinaryIO:
    if compression is Compression.GZIP:
        import gzip  # the compression modules: here, not at every command's start-up

        return gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=GZIP_LEVEL, mtime=0)  # type: ignore[return-value]
    if compression is Compression.BZIP2:
        import bz2

        return bz2.BZ2File(raw, "wb")  # type: ignore[return-value]
    if compression is Compression.ZSTD:
        import zstandard

        compressor = zstandard.ZstdCompressor(level=ZSTD_LEVEL, write_checksum=True)
        return compressor.stream_writer(raw, closefd=False)
    return _NoClose(raw)  # type: ignore[return-value]


WRITEBACK_BYTES = 8 << 20


class _WrittenBack(io.FileIO):
    """A temporary file whose writes are handed to the kernel's writeback as they come,
    every ``WRITEBACK_BYTES``, so the ``fsync`` of ``commit`` has little left to wait for.

    ``posix_fadvise(..., POSIX_FADV_DONTNEED)`` on the range just written starts writing
    its dirty pages without waiting for them (Linux); pages still being written stay in the
    page cache. Where the call is missing or refused, the file is written as any other.
    Raises what ``FileIO.write`` raises."""

    _written = 0
    _handed = 0

    def write(self, data) -> int:
        count = super().write(data)
        if count:
            self._written += count
            if self._written - self._handed >= WRITEBACK_BYTES:
                self._hand_over()
        return count

    def _hand_over(self) -> None:
        advise = getattr(os, "posix_fadvise", None)
        if advise is not None:
            try:
                advise(self.fileno(), self._handed, self._written - self._handed, os.POSIX_FADV_DONTNEED)
            except OSError:
                pass
        self._handed = self._written


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
        # What it wraps may be closed first (standard output's buffer, at exit): flushing
        # it would raise, and whatever was written to it has been flushed already.
        if not self.closed and not self._wrapped.closed:
            self._wrapped.flush()
        super().close()


def _make_backup(path: str, backup: str) -> None:
    if os.path.lexists(backup):
        raise FileExistsError(17, f"backup {backup!r} already exists")
    try:
        os.link(path, backup)
    except OSError:
        import shutil

        shutil.copy2(path, backup)


def write_text(path: str, text: str) -> None:
    """Write ``text`` (compressed by name); raises ``OutputError``."""
    with Output(path) as out:
        out.write(text)
