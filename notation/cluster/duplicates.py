"""``normalize --duplicates keep|drop|mark --dask``: the copies found in one extra pass over the
partitions, before the normalising pass.

The first pass runs ``duplicate_jobs.keys_of`` on every partition (a worker reads its games'
identities: the cost of ``check``) and sends back, per game, its number, first line and
column and its 16-byte key. The command takes the partitions in input order (all inputs,
one after another), runs one ``DuplicateFinder`` over them and files each copy's verdict
under its partition (``partition_key``); the normalising pass then gives each partition's
task its own verdicts only (``for_partition``), which its ``Normalizer`` applies as one
process would. Partitions are cut the same way in both passes (the same cut points, the
same chunks: a compressed input is read twice). The command holds the finder (under 200
bytes a distinct game) and the verdicts (some 250 bytes a copy): tens of millions of
games on a command of a few gigabytes; docs/scale.md says how a billion would be spread.
Prefixes and ``--merge-tags`` are not offered on a cluster. Raises ``ClusterError``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import Any

from notation.cluster.chunks import Chunk, Stretch
from notation.cluster.plan import Partition, Reading
from notation.cluster.window import InOrder
from notation.pgn import ranges
from notation.pgn.duplicate_jobs import PieceKeys, keys_of
from notation.pgn.duplicates import DuplicateFinder, GameLocation, Verdict
from notation.pgn.identity import IdentityReader
from notation.pgn.normalize import NormalizeOptions

PartitionKey = tuple[int, int, int]
Copies = dict[PartitionKey, dict[tuple[int, int], Verdict]]


def partition_key(partition: Partition) -> PartitionKey:
    """The same partition in both passes: its input, first line and start."""
    return (partition.file_index, partition.first_line, partition.start)


def keys_part(partition: Partition, options: NormalizeOptions, text: str | Iterable[str] | None = None) -> PieceKeys:
    """On a worker (or here, for a stretch): the keys of one partition's games; ``text`` is
    a ``Reading.GIVEN`` partition's."""
    from notation.cluster import files

    reader = IdentityReader(options.registry, options.accept, budget=options.budget, letters=options.move_letters)
    if partition.reading is Reading.GIVEN:
        blocks = [text] if isinstance(text, str) else text or []
        return keys_of(blocks, partition.first_line, reader, options)
    with files.open_binary(partition.path) as file:
        return keys_of(ranges.read_text(file, partition.start, partition.end), partition.first_line, reader, options)


def find_copies_on(client: Any, work: Iterator[Partition | tuple[Partition, Chunk | Stretch]],
                   options: NormalizeOptions, limit: int) -> Copies:
    """The copies among the partitions ``work`` gives (in input order), per partition."""
    finder = DuplicateFinder()
    copies: Copies = {}
    games_before: dict[int, int] = {}

    def take(partition: Partition, found: PieceKeys) -> None:
        before = games_before.get(partition.file_index, 0)
        games_before[partition.file_index] = before + found.last_game
        mine: dict[tuple[int, int], Verdict] = {}
        for number, line, column, key, *_ in found.games:
            first = finder.first(key, GameLocation(partition.name, line, before + number))
            if first is not None:
                mine[(line, column)] = Verdict(first)
        if mine:
            copies[partition_key(partition)] = mine

    window = InOrder(client, limit)
    try:
        for item in work:
            partition, text = (item, None) if isinstance(item, Partition) else item
            if isinstance(text, Stretch):
                window.drain()
                take(partition, keys_part(partition, options, text.pieces()))
                continue
            window.add(_starter(client, partition, options, text),
                       lambda found, partition=partition: take(partition, found))  # type: ignore[misc]
        window.drain()
    except BaseException:
        window.cancel()
        raise
    return copies


def _starter(client: Any, partition: Partition, options: NormalizeOptions,
             chunk: Chunk | None) -> Callable[[], tuple[Any]]:
    text = None if chunk is None else chunk.text
    return lambda: (client.submit(keys_part, partition, options, text, pure=False),)


def for_partition(options: NormalizeOptions, copies: Copies, partition: Partition) -> NormalizeOptions:
    """``options`` carrying the verdicts of ``partition``'s games only."""
    return replace(options, duplicates=replace(options.duplicates,
                                               verdicts=copies.get(partition_key(partition), {})))
