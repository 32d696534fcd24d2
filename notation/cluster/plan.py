"""Cutting inputs into partitions at game starts, in input order, as the run goes.

Every partition is cut at the points ``--jobs`` cuts at (an empty line, then a well-formed
tag line: ``notation.pgn.cuts.find_cut``), so the games each holds, split alone, are
those of one process reading the whole file. What a partition holds depends on the input:

- an uncompressed file larger than the partition size is cut into nominal byte ranges of
  that size (``notation.parallel.pieces.byte_ranges``, as ``--jobs`` cuts); each range's
  cut point is found on a worker, reading a few kilobytes, a bounded number of ranges
  ahead (``notation.parallel.ordered.ahead_by``), and the worker that takes a partition
  reads its bytes itself (``Reading.RANGE``);
- a compressed file cannot be entered in the middle: the command reads it once, as one
  process does, and hands its text out in chunks cut at the same points
  (``notation.cluster.chunks``; ``Reading.GIVEN``: ``given``);
- any other file is one partition (``Reading.RANGE`` over the whole file, or
  ``Reading.WHOLE``: read and decompressed whole by the worker, for ``check``'s FEN and
  EPD files).

Line numbers (``Numbering``): ``normalize`` writes them into report messages, so each
partition knows its first line before it runs (``Numbering.COUNTED``: the worker finding
a range's cut point also counts the range's line breaks, a pass at the speed of the
storage; the partitions are handed out as those counts come in, not after all of them);
``check`` numbers each partition's lines from 1 and moves them on as the results come
back (``Numbering.LOCAL``: no counting ahead).

Reading a file here reads a little of its start (its compression, its first text) on the
client; the rest is read on the workers. Raises ``ClusterError`` for a file that cannot be
read.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from notation.cluster import ClusterError, files
from notation.cluster.chunks import Chunk, Failure, Stretch, chunks
from notation.cluster.window import DaskTask
from notation.inputs import Compression, sniff
from notation.lean_enum import LeanStrEnum
from notation.parallel import ordered, pieces
from notation.pgn import ranges


class Work(LeanStrEnum):
    """How much work a byte of input is, for ``--partition-size auto``."""

    LIGHT = "light"  # set-up tags only (normalize --moves keep): fixed costs show below 8 MiB
    HEAVY = "heavy"  # every move read and played (check; normalize --moves): some eight times more


LARGEST_AUTO_BYTES = 128 << 20
LARGEST_AUTO_CHUNK_BYTES = 16 << 20  # the command and the workers hold a few chunks per worker thread
# a task costs its worker some 30 ms of CPU whatever its size (docs/scale.md): under a tenth
# of a 4 MiB partition's work where the moves are read (some 10 MB/s per core, compiled)
SMALLEST_AUTO_BYTES = {Work.LIGHT: 8 << 20, Work.HEAVY: 4 << 20}
PARTITIONS_PER_THREAD = 4
COMPRESSED_FACTOR = 5  # a compressed file's text: about five times its size (PGN shrinks more)
PLANNING_PRIORITY = 10  # finding cut points goes before the partitions already waiting


class Reading(LeanStrEnum):
    """How a partition's text reaches the worker that takes it."""

    RANGE = "range"  # bytes start to end of the stored, uncompressed file
    WHOLE = "whole"  # the whole file, decompressed (end: its stored size)
    GIVEN = "given"  # text the command read and sends with the task (start, end: offsets in the text)


class Numbering(LeanStrEnum):
    """How a partition's lines are numbered."""

    COUNTED = "counted"  # from the file's own line number, counted before the partition runs
    LOCAL = "local"  # from 1; the caller moves them on as results come back


@dataclass(frozen=True)
class Partition:
    """Part of one input: whole games, lines numbered from ``first_line``; ``last``: the
    input's last partition. ``name`` is the input as the user named it, ``path`` what is
    opened; ``start`` and ``end`` see ``Reading``."""

    name: str
    path: str
    file_index: int
    start: int
    end: int
    first_line: int
    reading: Reading
    last: bool = True


@dataclass(frozen=True)
class Input:
    """One file to partition: its name as the user gave it, and the path to open."""

    name: str
    path: str


def auto_partition_bytes(sizes: list[tuple[int, Compression]], threads: int, work: Work = Work.LIGHT) -> int:
    """``--partition-size auto``: about ``PARTITIONS_PER_THREAD`` partitions for each worker
    thread over all the inputs (``sizes``: each one's stored size and compression; a
    compressed one counts ``COMPRESSED_FACTOR`` times its size), at most 128 MiB and at
    least 8 MiB (4 MiB for ``Work.HEAVY``), so every worker has work and the last
    partitions do not leave most of them idle, and a partition is still large enough that
    its fixed costs vanish (docs/scale.md)."""
    text = sum(size * (1 if compression is Compression.NONE else COMPRESSED_FACTOR) for size, compression in sizes)
    share = -(-text // (PARTITIONS_PER_THREAD * max(1, threads)))
    return max(SMALLEST_AUTO_BYTES[work], min(LARGEST_AUTO_BYTES, share))


def auto_chunk_bytes(partition_bytes: int) -> int:
    """``--partition-size auto`` for the chunks of a compressed input, which the command
    holds until their tasks are done: at most ``LARGEST_AUTO_CHUNK_BYTES``."""
    return min(partition_bytes, LARGEST_AUTO_CHUNK_BYTES)


@dataclass(frozen=True)
class Layout:
    """What the client learnt of a file before cutting it: its stored size, compression,
    and where its first text starts (for a file that is cut by byte ranges)."""

    size: int
    compression: Compression
    text_from: int


def layout(item: Input, partition_bytes: int) -> Layout:
    """Open ``item`` here to see how to cut it; raises ``ClusterError``."""
    size = files.size(item.path)
    try:
        with files.open_binary(item.path) as file:
            compression = sniff(file.read(4))
            cut = compression is Compression.NONE and size > partition_bytes
            text_from = ranges.first_text(file) if cut else 0
    except OSError as exc:
        raise ClusterError(f"cannot read {item.name!r}: {files.reason(exc)}") from None
    return Layout(size, compression, text_from)


def byte_ranges(client: Any, index: int, item: Input, layout: Layout, partition_bytes: int,
                numbering: Numbering, ahead: int = 8) -> Iterator[Partition]:
    """The ``Reading.RANGE`` partitions of an uncompressed file, in order, each as soon as
    its end is known; one over the whole file when it is no larger than the partition size.
    The cut points are looked for at most ``ahead`` ranges beyond the partition last
    handed out, so counting line breaks (``Numbering.COUNTED``) goes along with the work
    rather than before it."""
    if layout.size <= partition_bytes:
        yield Partition(item.name, item.path, index, 0, layout.size, 1, Reading.RANGE)
        return
    find = ranges.locate_within if numbering is Numbering.COUNTED else ranges.find_start_before
    found = _ahead(client, find, item.path, layout, partition_bytes, ahead)
    if numbering is Numbering.COUNTED:
        cut = ((piece.start, piece.end, piece.first_line) for piece in ranges.pieces(found, layout.size))
    else:
        cut = ((span.start, span.end, 1) for span in ranges.spans(found, layout.size))
    previous = next(cut, None)  # one ahead: the last partition is known as such
    for piece in cut:
        yield _range(index, item, previous, False)  # type: ignore[arg-type]
        previous = piece
    if previous is not None:
        yield _range(index, item, previous, True)


def given(index: int, item: Input, chunk_chars: int, failure: Failure) -> Iterator[tuple[Partition, Chunk | Stretch]]:
    """The ``Reading.GIVEN`` partitions of a compressed file, in order, each with its chunk
    (``start`` and ``end``: offsets in the text) or its stretch (read it through before
    asking for the next); raises ``ClusterError`` (see ``chunks``)."""
    offset = 0
    for chunk in chunks(item.name, item.path, chunk_chars, failure):
        partition = Partition(item.name, item.path, index, offset, offset, chunk.first_line, Reading.GIVEN)
        if isinstance(chunk, Chunk):
            offset += len(chunk.text)
            yield dataclasses.replace(partition, end=offset, last=chunk.last), chunk
        else:
            yield partition, chunk


def _ahead(client: Any, find: Callable[..., Any], path: str, layout: Layout, every: int,
           ahead: int) -> Iterator[Any]:
    """``find`` on each nominal range of ``every`` bytes, run on the workers at most
    ``ahead`` ranges beyond the one taken last (``notation.parallel.ordered.ahead_by``,
    as ``--jobs`` finds its pieces); the results in order, each task released once taken."""
    def submit(args: tuple[Any, ...]) -> DaskTask:
        return DaskTask((client.submit(_within, find, *args, pure=False, priority=PLANNING_PRIORITY),))

    nominal = ((path, start, end, layout.text_from) for start, end in pieces.byte_ranges(layout.size, every))
    return ordered.ahead_by(submit, nominal, ahead)


def _range(index: int, item: Input, piece: tuple[int, int, int], last: bool) -> Partition:
    start, end, first_line = piece
    return Partition(item.name, item.path, index, start, end, first_line, Reading.RANGE, last)


def _within(find: Callable[..., Any], path: str, start: int, end: int, text_from: int) -> Any:
    """On a worker: ``find(file, start, end, text_from)`` on the file at ``path``
    (``ranges.locate_within``: the cut point in the nominal range and its line breaks;
    ``ranges.find_start_before``: the cut point alone, reading a few kilobytes). Raises
    ``ClusterError`` when the file cannot be read."""
    try:
        with files.open_binary(path) as file:
            return find(file, start, end, text_from)
    except OSError as exc:
        raise ClusterError(f"cannot read {path!r}: {files.reason(exc)}") from None
