"""Paths for a cluster run, through fsspec: expanding globs, reading, writing text.

A path with a protocol (``s3://bucket/x.pgn``, ``memory://x``) goes to the fsspec file
system that protocol names (installed separately: ``s3fs``, ``gcsfs``, ``adlfs``; ``http``
needs ``aiohttp``); a plain path is a local file. Local outputs are written through
``notation.outputs.Output`` (a temporary file renamed into place); other outputs appear
when fsspec closes them (an object store's upload is all or nothing).

A local part is written under a private temporary name (``.NAME.XXXXXXXX.tmp``, beside
it) and renamed into place; a task run again after its worker died removes what the dead
try left (``remove_temporaries``), and the command sweeps the directory at the end of the
run (``sweep_temporaries``). A finished output directory gets an empty ``_SUCCESS`` file,
written last, as Hadoop's and Spark's jobs mark theirs (``write_marker``).

Errors: ``ClusterError`` with one line naming the path, for a path that cannot be read,
listed or written, a protocol with no file system installed, or a glob matching nothing.
"""

from __future__ import annotations

import glob
import io
import os
import posixpath
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, BinaryIO

from notation.cluster import ClusterError
from notation.inputs import ENCODING, ERRORS, Compression, describe_error
from notation.outputs import Output, OutputError

SUCCESS_MARKER = "_SUCCESS"
_FSSPEC_COMPRESSION = {Compression.GZIP: "gzip", Compression.BZIP2: "bz2", Compression.ZSTD: "zstd"}


def reason(exc: BaseException) -> str:
    """Why an operation failed, in a few words (fsspec's missing files carry only a path)."""
    if isinstance(exc, FileNotFoundError) and not exc.strerror:
        return "No such file or directory"
    return describe_error(exc)


def is_url(path: str) -> bool:
    """True when ``path`` names a protocol (``s3://...``), not a local file."""
    return "://" in path


def absolute(path: str) -> str:
    """``path`` as a worker in another directory (or on another machine sharing this file
    system) can open it: a local path made absolute, a URL as it is."""
    return path if is_url(path) else os.path.abspath(path)


def filesystem(path: str) -> tuple[Any, str]:
    """The fsspec file system of ``path`` and the path within it; raises ``ClusterError``
    for a protocol whose file system is not installed."""
    import fsspec

    try:
        return fsspec.core.url_to_fs(path)
    except (ImportError, ValueError) as exc:  # a protocol whose file system is not installed
        raise ClusterError(f"cannot read {path!r}: {reason(exc)}") from None


def as_named(pattern: str, inner: str, found: str, fs: Any) -> str:
    """A file ``fs`` found for the URL ``pattern`` (``inner`` without its protocol), spelt
    as the user spelt ``pattern`` (``memory://x/a`` rather than ``memory:///x/a``)."""
    protocol, _, lead = pattern.partition("://")
    offset = len(inner) - len(lead.rstrip("/"))
    if offset >= 0 and inner.endswith(lead.rstrip("/")) and found.startswith(inner[:offset]):
        return f"{protocol}://{found[offset:]}"
    return fs.unstrip_protocol(found)


def expand(pattern: str) -> list[str]:
    """The files a path or glob names, sorted; raises ``ClusterError`` when none."""
    if not is_url(pattern):
        found = sorted(glob.glob(pattern)) if glob.has_magic(pattern) else [pattern]
    else:
        fs, path = filesystem(pattern)
        try:
            matches = sorted(fs.glob(path)) if glob.has_magic(path) else None
            found = [pattern] if matches is None else [as_named(pattern, path, match, fs) for match in matches]
        except OSError as exc:
            raise ClusterError(f"cannot list {pattern!r}: {reason(exc)}") from None
    if not found:
        raise ClusterError(f"no file matches {pattern!r}")
    return found


def size(path: str) -> int:
    """The file's size in bytes; raises ``ClusterError``."""
    fs, inner = filesystem(path)
    try:
        if fs.isdir(inner):
            raise ClusterError(f"cannot read {path!r}: it is a directory")
        return int(fs.size(inner))
    except OSError as exc:
        raise ClusterError(f"cannot read {path!r}: {reason(exc)}") from None


@contextmanager
def open_binary(path: str) -> Iterator[BinaryIO]:
    """The file opened for reading bytes (seekable); raises ``ClusterError`` when it cannot
    be opened. Errors while reading propagate as ``OSError``."""
    fs, inner = filesystem(path)
    try:
        if fs.isdir(inner):
            raise IsADirectoryError(21, "it is a directory")
        file = fs.open(inner, "rb")
    except OSError as exc:
        why = reason(exc)
        raise ClusterError(f"cannot read {path!r}: {why}", why) from None
    with file:
        yield file


def join(directory: str, name: str) -> str:
    return posixpath.join(directory, name) if is_url(directory) else os.path.join(directory, name)


def prepare_directory(directory: str, pattern: str, create: bool = True) -> None:
    """Create ``directory`` if needed (with ``create`` False, only look: nothing is made
    before a cluster is reached); raises ``ClusterError`` when it cannot be, when it is not
    a directory, or when it already holds files matching ``pattern`` or a ``_SUCCESS``
    marker (an earlier run's). With ``create`` False, whether it can be made is not checked."""
    fs, inner = filesystem(directory)
    try:
        exists = fs.exists(inner)
        if exists and not fs.isdir(inner):
            raise ClusterError(f"cannot write {directory!r}: it is not a directory")
        if create:
            fs.makedirs(inner, exist_ok=True)
        elif not exists:
            return
        earlier = fs.glob(posixpath.join(inner, pattern))
        marked = fs.exists(posixpath.join(inner, SUCCESS_MARKER))
    except OSError as exc:
        raise ClusterError(f"cannot write {directory!r}: {reason(exc)}") from None
    if earlier or marked:
        marker = f" and a {SUCCESS_MARKER} marker" if marked else ""
        raise ClusterError(
            f"{directory!r} already holds {len(earlier)} part file(s){marker} from an earlier run; "
            "remove them or choose another directory"
        )


def remove(paths: list[str]) -> None:
    """Remove those of ``paths`` that exist; failures are ignored (cleaning up after an error)."""
    for path in paths:
        try:
            fs, inner = filesystem(path)
            if fs.exists(inner):
                fs.rm(inner)
        except (OSError, ClusterError):
            pass


def exists(path: str) -> bool:
    """Whether ``path`` exists (False when that cannot be told)."""
    try:
        fs, inner = filesystem(path)
        return bool(fs.exists(inner))
    except (OSError, ClusterError):
        return False


def remove_temporaries(target: str) -> None:
    """Remove the temporary files an earlier try at writing the local file ``target`` left
    (its worker died before renaming one into place); failures are ignored."""
    if is_url(target):
        return  # an object store's upload is all or nothing: nothing is left
    directory, name = os.path.split(target)
    for path in glob.glob(os.path.join(glob.escape(directory), f".{glob.escape(name)}.*.tmp")):
        try:
            os.unlink(path)
        except OSError:
            pass


def sweep_temporaries(directory: str, pattern: str) -> None:
    """Remove the temporary files of local outputs matching ``pattern`` in ``directory``."""
    if is_url(directory):
        return
    for path in glob.glob(os.path.join(glob.escape(directory), f".{pattern}.tmp")):
        try:
            os.unlink(path)
        except OSError:
            pass


def write_marker(directory: str) -> None:
    """Write the empty ``_SUCCESS`` file into ``directory``; raises ``ClusterError``."""
    sink = TextSink(join(directory, SUCCESS_MARKER))
    sink.commit()


class TextSink:
    """Text written to ``path``, compressed as asked; see the module doc. ``commit`` puts it
    in place, ``discard`` drops it. Raises ``ClusterError`` naming the path."""

    def __init__(self, path: str, compression: Compression | None = None):
        self.path = path
        self._output: Output | None = None
        self._opened: Any = None
        try:
            if not is_url(path):
                self._output = Output(path, compression=compression)
                return
            import fsspec

            fsspec_compression = _FSSPEC_COMPRESSION.get(compression or Compression.NONE)
            self._opened = fsspec.open(path, "wb", compression=fsspec_compression)
            self._text = io.TextIOWrapper(self._opened.__enter__(), encoding=ENCODING, errors=ERRORS, newline="")
        except OutputError as exc:
            raise ClusterError(str(exc)) from None
        except (OSError, ImportError, ValueError) as exc:
            raise ClusterError(f"cannot write {path!r}: {reason(exc)}") from None

    def write(self, text: str) -> None:
        try:
            if self._output is not None:
                self._output.write(text)
            else:
                self._text.write(text)
        except OutputError as exc:
            raise ClusterError(str(exc)) from None
        except OSError as exc:
            raise ClusterError(f"cannot write {self.path!r}: {reason(exc)}") from None

    def commit(self) -> None:
        try:
            if self._output is not None:
                self._output.commit()
            else:
                self._text.flush()
                self._text.detach()
                self._opened.__exit__(None, None, None)
        except OutputError as exc:
            raise ClusterError(str(exc)) from None
        except OSError as exc:
            raise ClusterError(f"cannot write {self.path!r}: {reason(exc)}") from None

    def discard(self) -> None:
        if self._output is not None:
            self._output.discard()
            return
        try:
            self._opened.__exit__(None, None, None)
        except (OSError, ValueError):
            pass
        remove([self.path])
