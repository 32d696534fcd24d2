"""``--merge-tags``: the game kept of a set of copies gets the tags it lacks from its copies.

The copies of a game usually come after it, so its tags cannot be completed as it is
written in one stream; the copies are found over the whole input first
(``duplicate_jobs``), then ``merged_tags`` reads the input once more, splitting it only
(no move is read), and gathers, per game kept, the tags its dropped copies hold and it
lacks (or holds as an unknown placeholder, ``?`` or ``????.??.??``): the first value met in
input order is taken, and a copy giving another value is a ``duplicate-tag-conflict``
warning on the kept game. ``Variant``, ``FEN`` and ``SetUp`` are
never merged (they make the identity, which the copies share). Over several inputs the
pass reads them one after another (``tag_notes`` of each, into one ``TagGatherer``); on a
cluster the workers make the notes of their partitions and the command gathers them in
input order. Memory: the tags of each set's copies that the kept game lacks, until the end
of the pass (bounded by the tags a game may hold, ``Limits``); nothing for a game without
copies.

The new tag lines go after the game's last tag line (``tag_edits.set_tags``); no other
byte moves. Nothing here raises on bad input.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Iterator, Mapping
from typing import Any, Final, NamedTuple

from notation.pgn.duplicates import GameLocation, Verdict
from notation.pgn.games import Limits
from notation.pgn.splitter import iter_games
from notation.pgn.tag_edits import unknown

TAG_CONFLICT: Final = "duplicate-tag-conflict"
_NEVER_MERGED: Final = frozenset({"Variant", "FEN", "SetUp", "Setup"})


class MergedTags(NamedTuple):
    """The tags a kept game gets, in the order met, and the report problems of conflicts."""

    tags: tuple[tuple[str, str], ...]
    conflicts: tuple[dict[str, Any], ...]


class _Gathered:
    """What one kept game's copies say, as the pass meets them."""

    __slots__ = ("taken", "sources", "conflicts")

    def __init__(self) -> None:
        self.taken: dict[str, str] = {}
        self.sources: dict[str, GameLocation] = {}  # the copy a taken value came from
        self.conflicts: list[dict[str, Any]] = []


class KeptGame(NamedTuple):
    """A note: a game kept of a set with copies, where it is and the tags it has (their
    names, a placeholder value left out: it is filled)."""

    where: GameLocation
    line: int
    column: int
    own: frozenset[str]


class CopyTags(NamedTuple):
    """A note: a copy dropped, the game kept of its set, and the tags it offers."""

    kept: GameLocation
    copy: GameLocation
    tags: tuple[tuple[str, str], ...]


def tag_notes(text: Iterable[str], limits: Limits, verdicts: Mapping[tuple[int, int], Verdict], source: str,
              kept: Container[GameLocation], first_line: int = 1,
              games_before: int = 0) -> Iterator[KeptGame | CopyTags]:
    """The notes of one input's games (or of one part of it, whose first line is
    ``first_line``, after ``games_before`` games), in input order: the copies (``verdicts``:
    by first line and column) and the games ``kept`` met (``TagGatherer`` takes them)."""
    for game in iter_games(text, limits, first_line=first_line):
        if game.part != 0 or game.is_blank:
            continue
        here = GameLocation(source, game.start_line, games_before + game.number)
        if here in kept:
            yield KeptGame(here, game.start_line, game.start_column,
                           frozenset(tag.name for tag in game.tags if not unknown(tag.value)))  # "?" is filled
        verdict = verdicts.get((game.start_line, game.start_column))
        if verdict is not None:
            yield CopyTags(verdict.kept, here, tuple((tag.name, tag.value) for tag in game.tags
                                                     if tag.name not in _NEVER_MERGED and not unknown(tag.value)))


class TagGatherer:
    """The tags the kept games get from their copies, gathered from ``tag_notes`` in input
    order over one or several inputs (or parts of them); each note is ``take``n with its
    group (the input, or on a cluster the partition, the kept game's merged tags are filed
    under)."""

    def __init__(self, kept: Iterable[GameLocation]) -> None:
        self._sets: dict[GameLocation, _Gathered] = {where: _Gathered() for where in kept}
        self._places: dict[GameLocation, tuple[int, int, int, frozenset[str]]] = {}

    def __contains__(self, where: object) -> bool:
        return where in self._sets

    def take(self, note: KeptGame | CopyTags, group: int = 0) -> None:
        if isinstance(note, KeptGame):
            self._places[note.where] = (group, note.line, note.column, note.own)
            return
        into = self._sets[note.kept]
        for name, value in note.tags:
            if name not in into.taken:
                into.taken[name] = value
                into.sources[name] = note.copy
            elif into.taken[name] != value:
                first = into.sources[name]
                into.conflicts.append({
                    "code": TAG_CONFLICT,
                    "message": f"tag {name}: copy {_named(note.copy, note.kept)} says {value!r}, copy "
                               f"{_named(first, note.kept)} {into.taken[name]!r}; the first is taken",
                    "tag": name,
                })

    def merged(self) -> dict[int, dict[tuple[int, int], MergedTags]]:
        """Per group, per kept game by its (first line, first column): the tags it lacks and
        gets, and the conflicts over them."""
        out: dict[int, dict[tuple[int, int], MergedTags]] = {}
        for kept_at, found in self._sets.items():
            place = self._places.get(kept_at)
            if place is None:
                continue
            group, line, column, own = place
            tags = tuple((name, value) for name, value in found.taken.items() if name not in own)
            conflicts = tuple(c for c in found.conflicts if c["tag"] not in own)
            if tags or conflicts:
                out.setdefault(group, {})[(line, column)] = MergedTags(tags, conflicts)
        return out


def _named(copy: GameLocation, kept: GameLocation) -> str:
    """``game 3``, or ``game 3 of b.pgn`` for a copy in another input than the kept game's."""
    return f"game {copy.number}" if copy.source == kept.source else f"game {copy.number} of {copy.source}"


def merged_tags(text: Iterable[str], limits: Limits, verdicts: Mapping[tuple[int, int], Verdict],
                source: str) -> dict[tuple[int, int], MergedTags]:
    """Per kept game, by its (first line, first column): the tags it gets from its copies
    (``verdicts``: the copies found in ``text``, an input named ``source``)."""
    gatherer = TagGatherer(verdict.kept for verdict in verdicts.values())
    for note in tag_notes(text, limits, verdicts, source, gatherer):
        gatherer.take(note)
    return gatherer.merged().get(0, {})
