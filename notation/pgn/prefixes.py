"""``--duplicates-by prefix``: which game of a set is kept when one main line starts another.

A game whose main line is the first moves of a longer game's (a live-board feed cut short,
a game re-issued with its last moves) is a copy of the longer one, which is kept, at its
own place in the input. Found without storing any prefix: ``duplicate_jobs`` first numbers
every distinct key (``DuplicateFinder``) and records each game's place and key number
(``Occurrences``: 32 bytes a game) and each key's plies (``LongestLines``: 16 bytes a
distinct key); then it walks every game's main line again and looks the key of each of its
prefixes up (``identity.MainLine``'s ``on_prefix``), telling ``LongestLines.extended``
which key a game extends. Each key keeps the longest game extending it (the first in input
order among equally long ones); that game has none longer extending it, so no chains are
followed. ``verdicts`` then gives every game that is not kept the game kept of its set.
Nothing here raises.
"""

from __future__ import annotations

from array import array

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
    and its key number."""

    def __init__(self) -> None:
        self.lines = array("q")
        self.columns = array("q")
        self.numbers = array("q")
        self.keys = array("q")

    def add(self, line: int, column: int, number: int, key: int) -> None:
        self.lines.append(line)
        self.columns.append(column)
        self.numbers.append(number)
        self.keys.append(key)


def verdicts(occurrences: Occurrences, finder: DuplicateFinder,
             longest: LongestLines) -> dict[tuple[int, int], Verdict]:
    """The game kept of each game that is not, by its (first line, first column)."""
    out: dict[tuple[int, int], Verdict] = {}
    for line, column, number, key in zip(occurrences.lines, occurrences.columns, occurrences.numbers,
                                         occurrences.keys, strict=True):
        kept = longest.kept(key)
        place: GameLocation = finder.location(kept)
        if kept != key:
            out[(line, column)] = Verdict(place, prefix=True)
        elif place.number != number or place.line != line:
            out[(line, column)] = Verdict(place)
    return out
