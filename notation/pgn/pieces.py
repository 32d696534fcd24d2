"""Finding a file's pieces with a pool's workers, a few nominal ranges ahead of their use.

``located`` has the workers find the cut points of a file's nominal ranges and count their
line breaks (``ranges.locate_within``), at most ``ahead`` ranges beyond the one taken last,
so a caller can hand out ``ranges.pieces`` as the cut points come in while the workers are
busy with the pieces before (they take tasks in the order given). ``cut_points`` does the
same without counting (``ranges.find_start_before``, for ``ranges.spans``): it reads a
few kilobytes of each range, not all of it. ``RANGE_BYTES`` and
``LONGEST_PIECE_BYTES`` are read when a run starts (tests make them small).

A file is named to the workers by a ``FileRef``: a path (opened in the worker) or a file
descriptor the parent opened before the pool started (read with ``os.pread``, shared by
every worker). Errors reading it propagate from ``AsyncResult.get`` (``OSError``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from multiprocessing.pool import Pool
from typing import BinaryIO, TypeVar

from notation.parallel import ordered
from notation.parallel.pieces import byte_ranges
from notation.pgn import ranges

FileRef = int | str  # a descriptor inherited from the parent, or a path
_Found = TypeVar("_Found")

# Nominal ranges of this many bytes: the splitter's fixed cost per piece (the last game of
# a piece is looked for to the piece's end) is then a few per cent of the work, and a
# piece still takes a worker well under a second, so the last ones keep every worker busy.
RANGE_BYTES = 4 << 20
# A piece longer than this (no game start for that long: one huge game, millions of lines
# without a tag) is not handed to a worker, which would hold its results whole.
LONGEST_PIECE_BYTES = 16 << 20


@contextlib.contextmanager
def open_ref(ref: FileRef) -> Iterator[BinaryIO]:
    """The file ``ref`` names, open for reading bytes at any offset; a descriptor stays open."""
    if isinstance(ref, int):
        yield ranges.PositionalFile(ref)  # type: ignore[misc]
        return
    with open(ref, "rb") as file:
        yield file


def locate_task(ref: FileRef, start: int, end: int, text_from: int) -> ranges.Nominal:
    """In a worker: the ``ranges.Nominal`` of bytes ``start`` to ``end`` of the file."""
    with open_ref(ref) as file:
        return ranges.locate_within(file, start, end, text_from)


def cut_task(ref: FileRef, start: int, end: int, text_from: int) -> int | None:
    """In a worker: the first cut point in bytes ``start`` to ``end`` of the file, or None."""
    with open_ref(ref) as file:
        return ranges.find_start_before(file, start, end, text_from)


def located(pool: Pool, ref: FileRef, size: int, every: int, text_from: int,
            ahead: int) -> Iterator[ranges.Nominal]:
    """The ``Nominal`` of each range of ``every`` bytes of the file, in order, found by the
    pool's workers, at most ``ahead`` ranges beyond the one taken last. Raises what a
    worker raised (``OSError`` reading the file)."""
    return _ahead(pool, locate_task, ref, size, every, text_from, ahead)


def cut_points(pool: Pool, ref: FileRef, size: int, every: int, text_from: int,
               ahead: int) -> Iterator[int | None]:
    """``located`` without the line counts: each range's first cut point (None: none is in
    it), for ``ranges.spans``. Raises what a worker raised."""
    return _ahead(pool, cut_task, ref, size, every, text_from, ahead)


def _ahead(pool: Pool, task: Callable[[FileRef, int, int, int], _Found], ref: FileRef, size: int, every: int,
           text_from: int, ahead: int) -> Iterator[_Found]:
    """``task`` on each range of ``every`` bytes of the file, run by the pool's workers at
    most ``ahead`` ranges beyond the one taken last; the results in order."""
    return ordered.ahead(pool, task, ((ref, start, end, text_from) for start, end in byte_ranges(size, every)), ahead)
