"""Cutting inputs into partitions at game starts, and numbering their lines.

An uncompressed file larger than the partition size is cut into nominal byte ranges of
that size; on the workers, each range finds its cut point (``notation.pgn.ranges.locate``:
the rule ``--jobs`` cuts chunks by) and counts its line breaks. From those the client makes
the partitions: from one cut point to the next, each knowing the number of its first line,
so the games it holds are read and reported exactly as one process reading the whole file
would (game numbers are shifted afterwards, as ``--jobs`` does). A compressed file cannot be
entered in the middle: it is one partition. Every file has at least one partition (maybe
empty), so an empty file is still seen.

Reading a file here reads a little of its start (its compression, its first text) on the
client; the rest is read on the workers. Raises ``ClusterError`` for a file that cannot be
read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from notation.cluster import ClusterError, files
from notation.inputs import Compression, sniff
from notation.pgn import ranges

DEFAULT_PARTITION_BYTES = 128 << 20


@dataclass(frozen=True)
class Partition:
    """Bytes ``start`` to ``end`` of one input: whole games, lines numbered from
    ``first_line``. ``whole``: the file is read whole, decompressed (``end`` is its stored
    size). ``name`` is the input as the user named it, ``path`` what is opened."""

    name: str
    path: str
    file_index: int
    start: int
    end: int
    first_line: int
    whole: bool


@dataclass(frozen=True)
class Input:
    """One file to partition: its name as the user gave it, and the path to open."""

    name: str
    path: str


def _locate(path: str, start: int, end: int, text_from: int) -> ranges.RangeStart:
    """On a worker: where the nominal range ``start`` to ``end`` begins (see ``ranges``)."""
    try:
        with files.open_binary(path) as file:
            return ranges.locate(file, start, end, text_from)
    except OSError as exc:
        raise ClusterError(f"cannot read {path!r}: {files.reason(exc)}") from None


def plan(client: Any, inputs: list[Input], partition_bytes: int) -> list[Partition]:
    """The partitions of ``inputs``, in input order; see the module doc."""
    if partition_bytes < 1:
        raise ValueError("partition_bytes must be at least 1")
    layouts: list[tuple[int, Input, int, list[int], int]] = []  # index, input, size, starts, text_from
    partitions: dict[int, list[Partition]] = {}
    for index, item in enumerate(inputs):
        size = files.size(item.path)
        try:
            with files.open_binary(item.path) as file:
                compression = sniff(file.read(4))
                cut = compression is Compression.NONE and size > partition_bytes
                text_from = ranges.first_text(file) if cut else 0
        except OSError as exc:
            raise ClusterError(f"cannot read {item.name!r}: {files.reason(exc)}") from None
        if not cut:
            whole = compression is not Compression.NONE
            partitions[index] = [Partition(item.name, item.path, index, 0, size, 1, whole)]
        else:
            layouts.append((index, item, size, list(range(0, size, partition_bytes)), text_from))
    futures = {
        index: client.map(
            _locate, [item.path] * len(starts), starts, [*starts[1:], size], [text_from] * len(starts), pure=False,
        )
        for index, item, size, starts, text_from in layouts
    }
    for index, item, size, _starts, _text_from in layouts:
        located: list[ranges.RangeStart] = client.gather(futures.pop(index))
        partitions[index] = cut_partitions(index, item, size, located)
    return [partition for index in range(len(inputs)) for partition in partitions[index]]


def cut_partitions(index: int, item: Input, size: int, located: list[ranges.RangeStart]) -> list[Partition]:
    """The partitions of one file of ``size`` bytes, from each nominal range's cut point
    (``located``, in order) to the next (``ranges.pieces``, as ``--jobs`` cuts); empty ones
    are left out."""
    return [Partition(item.name, item.path, index, piece.start, piece.end, piece.first_line, False)
            for piece in ranges.pieces(located, size)]
