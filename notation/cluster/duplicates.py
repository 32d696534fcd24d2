"""``normalize --duplicates keep|drop|mark --dask``: the copies found in one extra pass over the
partitions, before the normalising pass (two with ``--merge-tags``).

The first pass runs ``duplicate_jobs.keys_of`` on every partition (a worker reads its games'
identities: the cost of ``check``) and sends back, per game, its number, first line and
column and its 16-byte key (with ``--duplicates-by prefix``, also its main line: its
start's bytes and 5 bytes a move). The command takes the partitions in input order (all inputs,
one after another), runs one ``DuplicateFinder`` over them and files each copy's verdict
under its partition (``partition_key``); the normalising pass then gives each partition's
task its own verdicts only (``for_partition``), which its ``Normalizer`` applies as one
process would. With prefixes the longer game may come later, so the command decides only
once every partition is in, as ``duplicate_jobs`` does on one machine (``prefixes``: the
main lines wait in a temporary file of the command's, 5 bytes a move, and are read back in
input order). With ``--merge-tags`` a second extra pass (``gather_tags_on``) splits every
partition's games (no move is read): each task gets its partition's verdicts and the kept
games it holds, and sends back the tags its copies offer and the tag names of its kept
games (``merge_tags.tag_notes``); the command gathers them in input order
(``TagGatherer``) and files what each kept game gets under its partition.

Partitions are cut the same way in every pass (the same cut points, the same chunks: a
compressed input is read once a pass). The command holds the finder (under 200 bytes a
distinct key) and the verdicts (some 250 bytes a copy); with prefixes also 36 bytes a game
and 24 a distinct key (``prefixes``), with ``--merge-tags`` the tags of each set's copies
that the kept game may lack; per partition, its key, name and game numbers (some 100
bytes). That is tens of millions of games on a command of a few gigabytes; docs/scale.md
says how a billion would be spread. Raises ``ClusterError``.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from notation.cluster.chunks import Chunk, Stretch
from notation.cluster.plan import Partition, Reading
from notation.cluster.window import InOrder
from notation.pgn import ranges
from notation.pgn.duplicate_jobs import KeysTaken, PieceKeys, keys_of
from notation.pgn.duplicates import DuplicateMatch, GameLocation, Verdict
from notation.pgn.identity import IdentityReader
from notation.pgn.merge_tags import CopyTags, KeptGame, MergedTags, TagGatherer, tag_notes
from notation.pgn.normalize import NormalizeOptions

PartitionKey = tuple[int, int, int]
Copies = dict[PartitionKey, dict[tuple[int, int], Verdict]]
Merged = dict[PartitionKey, dict[tuple[int, int], MergedTags]]
WorkItem = Partition | tuple[Partition, Chunk | Stretch]


@dataclass
class Found:
    """What the first pass found: the copies per partition, and per partition in input
    order its input's name and the games of that input before it (``before``)."""

    copies: Copies = field(default_factory=dict)
    names: list[str] = field(default_factory=list)
    before: list[int] = field(default_factory=list)

    def kept_by_partition(self) -> dict[int, set[GameLocation]]:
        """The kept games of sets with copies, by the ordinal of the partition holding them."""
        starts: dict[str, tuple[list[int], list[int]]] = {}
        for ordinal, (name, before) in enumerate(zip(self.names, self.before, strict=True)):
            firsts, ordinals = starts.setdefault(name, ([], []))
            firsts.append(before)
            ordinals.append(ordinal)
        out: dict[int, set[GameLocation]] = {}
        for mine in self.copies.values():
            for verdict in mine.values():
                firsts, ordinals = starts[verdict.kept.source]
                at = bisect.bisect_left(firsts, verdict.kept.number) - 1  # the last partition starting before it
                out.setdefault(ordinals[at], set()).add(verdict.kept)
        return out


def partition_key(partition: Partition) -> PartitionKey:
    """The same partition in every pass: its input, first line and start."""
    return (partition.file_index, partition.first_line, partition.start)


def _blocks(partition: Partition, text: str | Iterable[str] | None) -> Iterable[str]:
    return [text] if isinstance(text, str) else text or []


def keys_part(partition: Partition, options: NormalizeOptions, text: str | Iterable[str] | None = None) -> PieceKeys:
    """On a worker (or here, for a stretch): the keys of one partition's games; ``text`` is
    a ``Reading.GIVEN`` partition's."""
    from notation.cluster import files

    reader = IdentityReader(options.registry, options.accept, budget=options.budget, letters=options.move_letters)
    if partition.reading is Reading.GIVEN:
        return keys_of(_blocks(partition, text), partition.first_line, reader, options)
    with files.open_binary(partition.path) as file:
        return keys_of(ranges.read_text(file, partition.start, partition.end), partition.first_line, reader, options)


def tags_part(partition: Partition, options: NormalizeOptions, games_before: int, kept: set[GameLocation],
              text: str | Iterable[str] | None = None) -> list[KeptGame | CopyTags]:
    """On a worker (or here, for a stretch): the ``tag_notes`` of one partition's games, its
    copies those of ``options``' verdicts, ``kept`` the kept games it holds."""
    from notation.cluster import files

    verdicts = options.duplicates.verdicts or {}
    if partition.reading is Reading.GIVEN:
        return list(tag_notes(_blocks(partition, text), options.limits, verdicts, partition.name, kept,
                              partition.first_line, games_before))
    with files.open_binary(partition.path) as file:
        return list(tag_notes(ranges.read_text(file, partition.start, partition.end), options.limits, verdicts,
                              partition.name, kept, partition.first_line, games_before))


def _in_order(client: Any, work: Iterator[WorkItem], limit: int,
              submit: Callable[[int, Partition, Chunk | None], Any],
              here: Callable[[int, Partition, Iterable[str]], Any],
              take: Callable[[int, Partition, Any], None]) -> None:
    """Each partition ``work`` gives run on the cluster (``submit``: its future) or, a
    stretch, here (``here``), the results handed to ``take`` in input order with the
    partition's ordinal; at most ``limit`` in flight."""
    window = InOrder(client, limit)
    try:
        for ordinal, item in enumerate(work):
            partition, text = (item, None) if isinstance(item, Partition) else item
            if isinstance(text, Stretch):
                window.drain()
                take(ordinal, partition, here(ordinal, partition, text.pieces()))
                continue
            chunk = text
            window.add(lambda ordinal=ordinal, partition=partition, chunk=chunk:  # type: ignore[misc]
                       (submit(ordinal, partition, chunk),),
                       lambda result, ordinal=ordinal, partition=partition:  # type: ignore[misc]
                       take(ordinal, partition, result))
        window.drain()
    except BaseException:
        window.cancel()
        raise


def find_copies_on(client: Any, work: Iterator[WorkItem], options: NormalizeOptions, limit: int) -> Found:
    """The copies among the partitions ``work`` gives (in input order), per partition."""
    prefixes = options.duplicates.match is DuplicateMatch.PREFIX
    found = Found()
    games_before: dict[int, int] = {}
    keys: list[PartitionKey] = []
    with KeysTaken(prefixes) as taken:

        def take(ordinal: int, partition: Partition, result: PieceKeys) -> None:
            before = games_before.get(partition.file_index, 0)
            games_before[partition.file_index] = before + result.last_game
            keys.append(partition_key(partition))
            found.names.append(partition.name)
            found.before.append(before)
            mine = taken.take(result, partition.name, before, ordinal)
            if mine:
                found.copies[partition_key(partition)] = mine

        def submit(_ordinal: int, partition: Partition, chunk: Chunk | None) -> Any:
            return client.submit(keys_part, partition, options, None if chunk is None else chunk.text, pure=False)

        _in_order(client, work, limit, submit,
                  lambda _ordinal, partition, text: keys_part(partition, options, text), take)
        if prefixes:
            by_ordinal = taken.decided(found.names.__getitem__)
            found.copies = {keys[ordinal]: mine for ordinal, mine in by_ordinal.items()}
    return found


def gather_tags_on(client: Any, work: Iterator[WorkItem], options: NormalizeOptions, found: Found,
                   limit: int) -> Merged:
    """``--merge-tags``: the tags each kept game gets from its copies, per partition (see the
    module doc); ``work`` gives the partitions of the first pass again, in the same order."""
    kept = found.kept_by_partition()
    gatherer = TagGatherer(place for places in kept.values() for place in places)
    keys: dict[int, PartitionKey] = {}

    def mine(ordinal: int, partition: Partition) -> tuple[NormalizeOptions, int, set[GameLocation]]:
        keys[ordinal] = partition_key(partition)
        return for_partition(options, found.copies, partition), found.before[ordinal], kept.get(ordinal, set())

    def submit(ordinal: int, partition: Partition, chunk: Chunk | None) -> Any:
        own, before, held = mine(ordinal, partition)
        return client.submit(tags_part, partition, own, before, held, None if chunk is None else chunk.text,
                             pure=False)

    def here(ordinal: int, partition: Partition, text: Iterable[str]) -> list[KeptGame | CopyTags]:
        own, before, held = mine(ordinal, partition)
        return tags_part(partition, own, before, held, text)

    def take(ordinal: int, _partition: Partition, notes: list[KeptGame | CopyTags]) -> None:
        for note in notes:
            gatherer.take(note, ordinal)

    _in_order(client, work, limit, submit, here, take)
    return {keys[ordinal]: merged for ordinal, merged in gatherer.merged().items()}


def for_partition(options: NormalizeOptions, copies: Copies, partition: Partition,
                  merged: Merged | None = None) -> NormalizeOptions:
    """``options`` carrying the verdicts (and with ``--merge-tags`` the merged tags) of
    ``partition``'s games only, and its input's name."""
    key = partition_key(partition)
    duplicates = options.duplicates._replace(source=partition.name, verdicts=copies.get(key, {}),
                                             merged=None if merged is None else merged.get(key, {}))
    return options.with_changes(duplicates=duplicates)
