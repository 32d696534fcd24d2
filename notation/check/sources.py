"""Which files ``notation check`` reads: discovery of sources from the paths given.

A path is a file, a directory (searched recursively, hidden directories skipped, in sorted
order so output is stable) or ``-`` for standard input. A file's format comes from its
name: ``.pgn``, ``.fen`` or ``.epd``, optionally followed by a compression suffix the
input layer knows (``.gz``, ``.bz2``, ``.zst``; the content is then recognised by its
magic bytes, see ``notation.inputs``).

In a directory, only regular files (or links to them) are taken: FIFOs, sockets and
devices are never opened (a FIFO would block the walk for ever); they come back as
``Skipped`` with the reason. A FIFO or device named on the command line is read, as
asked; its format comes from its name, or is guessed from its first line as for standard
input. Nothing here opens a file; paths that do not exist or cannot be listed are
reported as ``Unreadable``, never raised.
"""


import os
import stat
from collections.abc import Iterator
from typing import Any, Final

from notation.inputs import split_compression_suffix
from notation.lean_enum import LeanStrEnum


class FileKind(LeanStrEnum):
    """What a source holds."""

    PGN = "pgn"  # games
    FEN = "fen"  # one FEN per line
    EPD = "epd"  # one EPD record per line: four position fields, then operations


STDIN = "-"
STDIN_NAME = "<stdin>"  # how standard input is named in problems

_KINDS = {"." + kind.value: kind for kind in FileKind}
NOT_A_FORMAT = "not a .pgn, .fen or .epd file (optionally .gz, .bz2 or .zst)"


class Source:
    """A file to check: its path as shown to the user and its kind.

    ``kind`` is None when the reader is to sniff it (standard input without
    ``--stdin-format``, a FIFO or device with no known suffix). ``path`` is what is opened
    unless ``is_stdin``. Read-only, equal to another ``Source`` with the same fields. A
    plain class, not a NamedTuple or a dataclass: every ``check`` defines it at start-up
    (docs/architecture.md, "Start-up").
    """

    __slots__ = ("path", "kind", "is_stdin")

    def __init__(self, path: str, kind: FileKind | None, is_stdin: bool = False) -> None:
        self.path: Final = path
        self.kind: Final = kind
        self.is_stdin: Final = is_stdin

    def __reduce__(self) -> "tuple[type[Source], tuple[Any, ...]]":
        """Pickled through ``__init__``: its fields are read-only (and compiled, it keeps
        no dictionary)."""
        return (Source, (self.path, self.kind, self.is_stdin))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Source):
            return NotImplemented
        return (self.path, self.kind, self.is_stdin) == (other.path, other.kind, other.is_stdin)

    def __hash__(self) -> int:
        return hash((self.path, self.kind, self.is_stdin))

    def __repr__(self) -> str:
        return f"Source(path={self.path!r}, kind={self.kind!r}, is_stdin={self.is_stdin!r})"


# Unreadable and Skipped: not checked, each with its reason; one never equals the other.
class _NotChecked:
    """A path and why it was not checked; equal to one of its own class with the same path
    and reason (an ``Unreadable`` never equals a ``Skipped``). Its fields are ``Final``:
    compiled, a write raises ``AttributeError``. A native class when compiled, as ``Source``
    is: every ``check`` defines it at start-up, and a Python class would be defined with a
    class more for each of its methods."""

    __slots__ = ("path", "reason")

    def __init__(self, path: str, reason: str) -> None:
        self.path: Final = path
        self.reason: Final = reason

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, _NotChecked)
        return (self.path, self.reason) == (other.path, other.reason)

    def __hash__(self) -> int:
        return hash((type(self), self.path, self.reason))

    def __repr__(self) -> str:
        return f"{type(self).__name__}(path={self.path!r}, reason={self.reason!r})"

    def __reduce__(self) -> "tuple[type[_NotChecked], tuple[str, str]]":
        return (type(self), (self.path, self.reason))


class Unreadable(_NotChecked):
    """A path that cannot be read (missing, not permitted, a socket, a broken link)."""

    __slots__ = ()


class Skipped(_NotChecked):
    """A file not checked, and why: a name that says no known format, or (in a directory)
    something that is not a regular file."""

    __slots__ = ()

    def __init__(self, path: str, reason: str = NOT_A_FORMAT) -> None:
        super().__init__(path, reason)


Found = Source | Unreadable | Skipped


def classify(name: str) -> FileKind | None:
    """The kind a file name says (case-insensitive, compression suffix ignored), or None."""
    stem = split_compression_suffix(name)[0].lower()
    for suffix, kind in _KINDS.items():
        if stem.endswith(suffix) and len(stem) > len(suffix):
            return kind
    return None


def discover(paths: list[str], stdin_kind: FileKind | None = None) -> Iterator[Found]:
    """Yield a ``Source``, ``Unreadable`` or ``Skipped`` for each file the paths lead to."""
    for path in paths:
        if path == STDIN:
            yield Source(STDIN_NAME, stdin_kind, is_stdin=True)
            continue
        try:
            mode = os.stat(path).st_mode
        except OSError as exc:
            yield Unreadable(path, _missing(path, exc))
            continue
        if stat.S_ISDIR(mode):
            yield from _walk(path)
        elif stat.S_ISREG(mode):
            kind = classify(os.path.basename(path))
            yield Source(path, kind) if kind else Skipped(path)
        elif stat.S_ISSOCK(mode):
            yield Unreadable(path, "it is a socket")
        else:  # a FIFO or device named by the user: read it, as asked
            yield Source(path, classify(os.path.basename(path)))


def _missing(path: str, exc: OSError) -> str:
    if isinstance(exc, FileNotFoundError):
        return "broken symbolic link" if os.path.lexists(path) else "no such file or directory"
    return exc.strerror or str(exc)


def _special(mode: int) -> str | None:
    """Why a walked file is not opened, or None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe); not opened while searching a directory"
    if stat.S_ISSOCK(mode):
        return "a socket; not opened while searching a directory"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device; not opened while searching a directory"
    return "not a regular file; not opened while searching a directory"


def _walk(top: str) -> Iterator[Found]:
    errors: list[OSError] = []
    for directory, subdirs, files in os.walk(top, onerror=errors.append):
        while errors:
            failed = errors.pop(0)
            yield Unreadable(failed.filename or directory, failed.strerror or str(failed))
        subdirs[:] = sorted(d for d in subdirs if not d.startswith("."))
        for name in sorted(files):
            kind = classify(name)
            if kind is None:
                continue
            path = os.path.join(directory, name)
            try:
                mode = os.stat(path).st_mode
            except OSError as exc:
                yield Unreadable(path, _missing(path, exc))
                continue
            reason = _special(mode)
            yield Skipped(path, reason) if reason else Source(path, kind)
    for failed in errors:
        yield Unreadable(failed.filename or top, failed.strerror or str(failed))
