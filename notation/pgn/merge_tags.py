"""``--merge-tags``: the game kept of a set of copies gets the tags it lacks from its copies.

The copies of a game usually come after it, so its tags cannot be completed as it is
written in one stream; the copies are found over the whole input first
(``duplicate_jobs``), then ``merged_tags`` reads the input once more, splitting it only
(no move is read), and gathers, per game kept, the tags its dropped copies hold and it
lacks (or holds as an unknown placeholder, ``?`` or ``????.??.??``): the first value met in
input order is taken, and a copy giving another value is a ``duplicate-tag-conflict``
warning on the kept game. ``Variant``, ``FEN`` and ``SetUp`` are
never merged (they make the identity, which the copies share). Memory: the tags of each
set's copies that the kept game lacks, until the end of the pass (bounded by the tags a
game may hold, ``Limits``); nothing for a game without copies.

The new tag lines go after the game's last tag line (``tag_edits.set_tags``); no other
byte moves. Nothing here raises on bad input.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
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

    __slots__ = ("own", "taken", "sources", "conflicts")

    def __init__(self) -> None:
        self.own: set[str] | None = None  # the kept game's own tag names, once met
        self.taken: dict[str, str] = {}
        self.sources: dict[str, int] = {}  # the game a taken value came from
        self.conflicts: list[dict[str, Any]] = []


def merged_tags(text: Iterable[str], limits: Limits, verdicts: Mapping[tuple[int, int], Verdict],
                source: str) -> dict[tuple[int, int], MergedTags]:
    """Per kept game, by its (first line, first column): the tags it gets from its copies
    (``verdicts``: the copies found in ``text``, an input named ``source``)."""
    gathered: dict[GameLocation, _Gathered] = {}
    for each in verdicts.values():
        gathered.setdefault(each.kept, _Gathered())
    places: dict[GameLocation, tuple[int, int]] = {}
    for game in iter_games(text, limits):
        if game.part != 0 or game.is_blank:
            continue
        verdict = verdicts.get((game.start_line, game.start_column))
        here = GameLocation(source, game.start_line, game.number)
        kept = gathered.get(here)
        if kept is not None:
            kept.own = {tag.name for tag in game.tags if not unknown(tag.value)}  # "?" says nothing: filled
            places[here] = (game.start_line, game.start_column)
        if verdict is None:
            continue
        into = gathered[verdict.kept]
        for tag in game.tags:
            if tag.name in _NEVER_MERGED:
                continue
            value = tag.value
            if unknown(value):
                continue
            if tag.name not in into.taken:
                into.taken[tag.name] = value
                into.sources[tag.name] = game.number
            elif into.taken[tag.name] != value:
                into.conflicts.append({
                    "code": TAG_CONFLICT,
                    "message": f"tag {tag.name}: copy game {game.number} says {value!r}, copy game "
                               f"{into.sources[tag.name]} {into.taken[tag.name]!r}; the first is taken",
                    "tag": tag.name,
                })
    out: dict[tuple[int, int], MergedTags] = {}
    for kept_at, found in gathered.items():
        if found.own is None or kept_at not in places:
            continue
        own = found.own
        tags = tuple((name, value) for name, value in found.taken.items() if name not in own)
        conflicts = tuple(c for c in found.conflicts if c["tag"] not in own)
        if tags or conflicts:
            out[places[kept_at]] = MergedTags(tags, conflicts)
    return out
