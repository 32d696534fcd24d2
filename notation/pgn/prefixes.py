"""``--duplicates-by prefix``: which game of a set is kept when one main line starts another.

A game whose main line is the first moves of a longer game's (a live-board feed cut short,
a game re-issued with its last moves) is a copy of the longer one, which is kept, at its
own place in the input. ``duplicate_jobs`` reads every game once: it numbers every
distinct key (``DuplicateFinder``), records each game's place and key number
(``Occurrences``: 36 bytes a game, its group included: the input, or on a cluster the
partition, its verdict is filed under) and each key's plies (``LongestLines``: 16 bytes a
distinct key), and writes the keys of each game's shorter main lines (``identity.MainLine``'s
``on_prefix``) to a temporary file (``PrefixSpool``: 16 bytes a ply, on disk, never in
memory), since the longer game may come first. Once every key is known, the spool is read
back in input order and each prefix's key looked up, telling ``LongestLines.extended``
which key a game extends. Each key keeps the longest game extending it (the first in input
order among equally long ones); that game has none longer extending it, so no chains are
followed. ``verdicts`` then gives every game that is not kept the game kept of its set.
``PrefixSpool`` raises ``OSError`` when the temporary file cannot be written or read;
nothing else here raises.
"""

from __future__ import annotations

import tempfile
from array import array
from collections.abc import Callable, Iterator
from types import TracebackType

from notation.pgn.duplicates import DuplicateFinder, GameLocation, Verdict


class LongestLines:
    """Per key number: its main line's plies and the longest key extending it (-1: none)."""

    def __init__(self) -> None:
        self._plies = array("q")
        self._longest = array("q")

    def add(self, index: int, plies: int) -> None:
        """Key ``index`` (numbered in order: the next one, or one already added) has ``plies``."""
        if index == len(self._plies):
            self._plies.append(plies)
            self._longest.append(-1)

    def extended(self, prefix: int, by: int) -> None:
        """Key ``by``'s main line starts with key ``prefix``'s (told in input order)."""
        if by == prefix or self._plies[by] <= self._plies[prefix]:
            return
        longest = self._longest[prefix]
        if longest < 0 or self._plies[by] > self._plies[longest]:
            self._longest[prefix] = by

    def kept(self, index: int) -> int:
        """The key whose first game is kept for a game of key ``index``."""
        longest = self._longest[index]
        return index if longest < 0 else longest


class Occurrences:
    """Every game with an identity, in input order: its first line and column, its number
    (in its input), its key number and its group (its input's index, or on a cluster its
    partition's: ``verdicts`` files it under that)."""

    def __init__(self) -> None:
        self.lines = array("q")
        self.columns = array("q")
        self.numbers = array("q")
        self.keys = array("q")
        self.groups = array("i")

    def add(self, line: int, column: int, number: int, key: int, group: int = 0) -> None:
        self.lines.append(line)
        self.columns.append(column)
        self.numbers.append(number)
        self.keys.append(key)
        self.groups.append(group)


class PrefixSpool:
    """The prefix keys of every game in input order, in a temporary file removed on exit:
    ``add`` one game's, then ``games`` reads them all back."""

    _FLUSH_BYTES = 1 << 20

    def __init__(self) -> None:
        self._file = tempfile.TemporaryFile(prefix="notation-prefixes-")
        self._pending = bytearray()
        self._key_bytes = 0

    def __enter__(self) -> PrefixSpool:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self._file.close()

    def add(self, index: int, count: int, keys: bytes) -> None:
        """The ``count`` prefix keys (``keys``, one after another) of a game of key ``index``."""
        if count:
            self._key_bytes = len(keys) // count
        self._pending += array("q", (index, count)).tobytes()
        self._pending += keys
        if len(self._pending) >= self._FLUSH_BYTES:
            self._file.write(self._pending)
            self._pending.clear()

    def games(self) -> Iterator[tuple[int, list[bytes]]]:
        """Each game's key number and prefix keys, in the order added."""
        self._file.write(self._pending)
        self._pending.clear()
        self._file.seek(0)
        header = 16  # the key number and the count, two 64-bit integers
        size = self._key_bytes
        read = self._file.read
        while True:
            head = read(header)
            if len(head) < header:
                return
            index, count = array("q", head)
            block = read(count * size)
            yield index, [block[at:at + size] for at in range(0, len(block), size)]


def verdicts(occurrences: Occurrences, finder: DuplicateFinder, longest: LongestLines,
             source_of: Callable[[int], str] | None = None) -> dict[int, dict[tuple[int, int], Verdict]]:
    """The game kept of each game that is not, by its group, then its (first line, first
    column); ``source_of(group)``: the name of the input a group is in (None: one input)."""
    out: dict[int, dict[tuple[int, int], Verdict]] = {}
    for line, column, number, key, group in zip(occurrences.lines, occurrences.columns, occurrences.numbers,
                                                occurrences.keys, occurrences.groups, strict=True):
        kept = longest.kept(key)
        place: GameLocation = finder.location(kept)
        if kept != key:
            out.setdefault(group, {})[(line, column)] = Verdict(place, prefix=True)
        elif (place.number != number or place.line != line
              or (source_of is not None and place.source != source_of(group))):
            out.setdefault(group, {})[(line, column)] = Verdict(place)
    return out
