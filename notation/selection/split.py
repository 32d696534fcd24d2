"""Which file of a split each game goes to (``notation split``): ``Splitter``.

- ``SplitBy.COUNT``: ``count`` games a file, files ``PREFIX-0001.pgn``, ``PREFIX-0002.pgn``,
  ... (four digits at least, more when there are more files);
- ``SplitBy.VARIANT``: one file a variant, named after the game's variant as ``read_games``
  reads it (its registry key: ``standard.pgn``, ``crazyhouse.pgn``, ``chess960.pgn``); a
  game whose variant is unknown goes to ``unknown.pgn``;
- ``SplitBy.TAG``: one file a value of ``tag`` (its first value in the game, unescaped),
  named after the value with every run of characters other than ASCII letters, digits,
  ``.``, ``-`` and ``_`` written ``_`` (no leading dot, at most 100 characters); a game
  without the tag goes to ``unknown.pgn``. Two values whose names would be the same (the
  same letters in another case, or other characters written ``_``, or the value
  ``unknown``) get their own files: the later one's name ends ``-2``, ``-3``, ...

A game too large to hold whole goes, every part of it, where its first part goes; a blank
stretch that holds no game goes nowhere. Nothing here raises on bad input.
"""

from __future__ import annotations

import re

from notation.lean_enum import LeanStrEnum
from notation.pgn.gameread import PgnGame
from notation.pgn.games import RawGame
from notation.pgn.gamestart import StartPositions
from notation.pgn.movetext import DEFAULT_BUDGET
from notation.selection.select import blank
from notation.variants import DEFAULT_REGISTRY, Registry

UNKNOWN = "unknown"
SUFFIX = ".pgn"
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_LONGEST_NAME = 100


class SplitBy(LeanStrEnum):
    """How games are put into files."""

    COUNT = "count"
    VARIANT = "variant"
    TAG = "tag"


def safe_name(value: str) -> str:
    """``value`` as a file name's stem (see the module doc); never empty."""
    name = _UNSAFE.sub("_", value.strip()).lstrip(".")[:_LONGEST_NAME]
    return name or "_"


class Splitter:
    """Names the file of each game, in input order (see the module doc)."""

    def __init__(self, by: SplitBy, *, count: int = 0, tag: str = "", prefix: str = "games",
                 registry: Registry = DEFAULT_REGISTRY) -> None:
        if by is SplitBy.COUNT and count < 1:
            raise ValueError("a split by count needs at least 1 game a file")
        self.by = by
        self.count = count
        self.tag = tag
        self.prefix = prefix
        self._registry = registry
        self._starts = StartPositions(registry)
        self._games = 0
        self._names: dict[str, str] = {"\0": UNKNOWN + SUFFIX}  # value -> its file's name ("\0": none)
        self._taken: set[str] = {UNKNOWN + SUFFIX}  # names given, in lower case
        self._last = ""

    def name(self, raw: RawGame) -> str | None:
        """The file name of the piece ``raw`` (None: a blank stretch, written nowhere)."""
        if raw.part != 0:
            return self._last or None
        if blank(raw.text):
            return None
        self._games += 1
        if self.by is SplitBy.COUNT:
            self._last = f"{self.prefix}-{(self._games - 1) // self.count + 1:04d}{SUFFIX}"
            return self._last
        self._last = self._name_for(self._value(raw))
        return self._last

    def _value(self, raw: RawGame) -> str | None:
        if self.by is SplitBy.VARIANT:
            game = PgnGame(raw, self._registry.default, self._starts, self._registry, DEFAULT_BUDGET)
            return None if game.variant is None else game.variant.key
        for tag in raw.find_tags(re.escape(self.tag)):
            return tag.value
        return None

    def _name_for(self, value: str | None) -> str:
        key = "\0" if value is None else value  # a missing tag is not the value "unknown"
        found = self._names.get(key)
        if found is None:
            stem = safe_name(key)
            found, number = stem + SUFFIX, 1
            while found.lower() in self._taken:
                number += 1
                found = f"{stem}-{number}{SUFFIX}"
            self._taken.add(found.lower())
            self._names[key] = found
        return found
