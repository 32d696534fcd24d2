"""Which files ``notation check`` reads: discovery of sources from the paths given.

A path is a file, a directory (searched recursively, hidden directories skipped, in sorted
order so output is stable) or ``-`` for standard input. A file's format comes from its
name: ``.pgn``, ``.fen`` or ``.epd``, optionally followed by ``.gz`` or ``.zst``. Files
with other names are skipped. Nothing here opens a file for reading; paths that do not
exist or cannot be listed are reported as ``Unreadable``, never raised.
"""

from __future__ import annotations

import enum
import os
from dataclasses import dataclass
from typing import Iterator, Union


class FileKind(str, enum.Enum):
    """What a source holds."""

    PGN = "pgn"  # games
    FEN = "fen"  # one FEN per line
    EPD = "epd"  # one EPD record per line: four position fields, then operations


class Compression(str, enum.Enum):
    """How a source is compressed."""

    NONE = "none"
    GZIP = "gz"
    ZSTD = "zst"


STDIN = "-"
STDIN_NAME = "<stdin>"  # how standard input is named in problems

_KINDS = {"." + kind.value: kind for kind in FileKind}
_COMPRESSIONS = {".gz": Compression.GZIP, ".zst": Compression.ZSTD}


@dataclass(frozen=True)
class Source:
    """A file to check: its path as shown to the user, its kind and compression.

    ``kind`` is None for standard input read without ``--stdin-format``: the reader sniffs it.
    """

    path: str
    kind: FileKind | None
    compression: Compression = Compression.NONE
    is_stdin: bool = False


@dataclass(frozen=True)
class Unreadable:
    """A path given by the user that cannot be read (missing, not permitted, not a file)."""

    path: str
    reason: str


@dataclass(frozen=True)
class Skipped:
    """A file named on the command line whose name says no format the check knows."""

    path: str


Found = Union[Source, Unreadable, Skipped]


def classify(name: str) -> tuple[FileKind, Compression] | None:
    """The kind and compression a file name says (case-insensitive), or None."""
    lower = name.lower()
    compression = Compression.NONE
    for suffix, found in _COMPRESSIONS.items():
        if lower.endswith(suffix):
            compression = found
            lower = lower[: -len(suffix)]
            break
    for suffix, kind in _KINDS.items():
        if lower.endswith(suffix) and len(lower) > len(suffix):
            return kind, compression
    return None


def discover(paths: list[str], stdin_kind: FileKind | None = None) -> Iterator[Found]:
    """Yield a ``Source``, ``Unreadable`` or ``Skipped`` for each file the paths lead to."""
    for path in paths:
        if path == STDIN:
            yield Source(STDIN_NAME, stdin_kind, is_stdin=True)
        elif os.path.isdir(path):
            yield from _walk(path)
        elif os.path.isfile(path):
            found = classify(os.path.basename(path))
            yield Source(path, *found) if found else Skipped(path)
        elif os.path.lexists(path):
            yield Unreadable(path, "not a regular file or directory" if os.path.exists(path) else "broken symbolic link")
        else:
            yield Unreadable(path, "no such file or directory")


def _walk(top: str) -> Iterator[Found]:
    errors: list[OSError] = []
    for directory, subdirs, files in os.walk(top, onerror=errors.append):
        while errors:
            failed = errors.pop(0)
            yield Unreadable(failed.filename or directory, failed.strerror or str(failed))
        subdirs[:] = sorted(d for d in subdirs if not d.startswith("."))
        for name in sorted(files):
            found = classify(name)
            if found:
                yield Source(os.path.join(directory, name), *found)
    for failed in errors:
        yield Unreadable(failed.filename or top, failed.strerror or str(failed))
