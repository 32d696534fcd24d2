"""Finding a file's pieces with a pool's workers, a few nominal ranges ahead of their use.

``located`` has the workers find the cut points of a file's nominal ranges
(``notation.parallel.pieces.tapered_ranges``, as ``--jobs`` cuts) and count their
line breaks (``ranges.locate_within``), at most ``ahead`` ranges beyond the one taken last,
so a caller can hand out ``ranges.pieces`` as the cut points come in while the workers are
busy with the pieces before (they take tasks in the order given). ``cut_points`` finds
the cut points alone, without counting (``ranges.find_start_before``, for
``ranges.spans``), in the calling process: it reads a few kilobytes at each range's start,
not all of it, so a worker's round trip would cost more than the reading. ``RANGE_BYTES`` and
``LONGEST_PIECE_BYTES`` are read when a run starts (tests make them small).

A file is named to the workers by a ``FileRef``: a path (opened in the worker) or a file
descriptor the parent opened before the pool started (read with ``os.pread``, shared by
every worker). Errors reading it propagate from the task's ``get`` (``OSError``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from typing import BinaryIO

from notation.parallel import ordered
from notation.parallel.fork_pool import ForkPool
from notation.pgn import ranges

FileRef = int | str  # a descriptor inherited from the parent, or a path

# Nominal ranges of this many bytes: the splitter's fixed cost per piece (the last game of
# a piece is looked for to the piece's end) is then a few per cent of the work, and a
# piece still takes a worker well under a second, so the last ones keep every worker busy.
RANGE_BYTES = 4 << 20
# A piece longer than this (no game start for that long: one huge game, millions of lines
# without a tag) is not handed to a worker by a pass whose workers send back a result per
# game (``duplicate_jobs``'s keys): it is read by the parent, game by game.
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


def located(pool: ForkPool, ref: FileRef, nominal: Iterable[tuple[int, int]], text_from: int,
            ahead: int) -> Iterator[ranges.Nominal]:
    """The ``Nominal`` of each of the file's ``nominal`` ranges (``(start, end)``, in order,
    covering it), found by the pool's workers, at most ``ahead`` ranges beyond the one
    taken last. Raises what a worker raised (``OSError`` reading the file)."""
    arguments = ((ref, start, end, text_from) for start, end in nominal)
    return ordered.ahead(pool, locate_task, arguments, ahead)


def cut_points(file: BinaryIO, nominal: Iterable[tuple[int, int]], text_from: int) -> Iterator[int | None]:
    """Each of the ``nominal`` ranges' first cut point (None: none is in it), for
    ``ranges.spans``, found here as they are asked for, in ``file`` (open for reading bytes
    at any offset). Raises ``OSError`` reading it."""
    for start, end in nominal:
        yield ranges.find_start_before(file, start, end, text_from)
