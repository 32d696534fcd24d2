"""A run's private temporary files: ``--jobs`` workers' output, report and problem files,
spools of standard input or of games' main lines.

They live where ``tempfile`` puts them (``TMPDIR``, then ``/tmp`` and the usual places).
Where none of those can be written, ``ScratchUnavailable`` says so and what to do; the
command reports it as an error of its environment, not an internal one.
"""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Iterator
from typing import IO


class ScratchUnavailable(Exception):
    """No temporary directory or file could be made for the run."""


def _unavailable(exc: OSError) -> ScratchUnavailable:
    reason = exc.strerror or str(exc)
    return ScratchUnavailable(f"cannot make a temporary file ({reason}); set TMPDIR to a writable directory")


@contextlib.contextmanager
def scratch_directory(prefix: str) -> Iterator[str]:
    """A new private directory, removed with what it holds when the block ends. Raises
    ``ScratchUnavailable`` when it cannot be made."""
    try:
        directory = tempfile.TemporaryDirectory(prefix=prefix, ignore_cleanup_errors=True)
    except OSError as exc:
        raise _unavailable(exc) from None
    with directory as path:
        yield path


def scratch_file(prefix: str) -> IO[bytes]:
    """A new private file open for reading and writing bytes, gone when closed. Raises
    ``ScratchUnavailable`` when it cannot be made."""
    try:
        return tempfile.TemporaryFile(prefix=prefix)
    except OSError as exc:
        raise _unavailable(exc) from None
