"""Duplicate games: the finder (first copy kept, in input order) and what ``normalize`` does
with a later copy (``--duplicates keep|drop|mark``, ``--duplicates-by TAG,...``).

Two games are duplicates when their identities are equal (``identity``: variant, start
position without its move counters, main-line moves; whatever notation or language the
moves were written in; tags, comments, NAGs and variations left out) and, with
``DuplicateSettings.by_tags``, the values of those tags too (a tag missing and a tag with
an empty value are not the same). A game without an identity (an unknown variant, an
unreadable start, a main-line move that cannot be played) is never a duplicate.

``DuplicateFinder`` keeps, per distinct game, its key (``identity.IDENTITY_BYTES``, 16 bytes) and where
its first copy is (input, line, game number): some 150 bytes of Python objects a distinct
game (``DuplicateFinder.BYTES_PER_GAME``, held by a test), whatever the game's length; a
later copy adds nothing. ``DuplicateJudge`` reads each game's identity and applies the
policy to its ``GameResult``: ``DROP`` leaves it out of the output (its text becomes empty)
and ``MARK`` keeps it; both report ``duplicate-game`` (a warning) naming the first copy.
Nothing here raises on bad input.
"""

from __future__ import annotations

import enum
import hashlib
import re
from array import array
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, NamedTuple

if TYPE_CHECKING:  # the move layer is imported only when duplicates are looked for (start-up)
    from notation.options import MoveLanguage
    from notation.pgn.games import RawGame
    from notation.pgn.identity import Identity
    from notation.pgn.movetext import Budget
    from notation.pgn.normalize import GameResult
    from notation.variants import Registry

DUPLICATE_GAME: Final = "duplicate-game"
_TAG_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_+#=:-]*")
_KEY_BYTES: Final = 16  # identity.IDENTITY_BYTES
_MISSING: Final = b"\xff"  # a tag the game lacks: no UTF-8 value is this byte


class DuplicatesPolicy(str, enum.Enum):
    """What happens to a later copy of a game already seen."""

    KEEP = "keep"  # nothing: duplicates are not looked for (the default)
    DROP = "drop"  # left out of the output, reported
    MARK = "mark"  # kept, reported


class GameLocation(NamedTuple):
    """Where a game is: its input's name, its first line and its number (from 1) in it."""

    source: str
    line: int
    number: int

    def describe(self) -> str:
        where = f"line {self.line}" if not self.source else f"{self.source}, line {self.line}"
        return f"game {self.number} ({where})"


@dataclass(frozen=True)
class DuplicateSettings:
    """``policy``, the tags added to the key (``by_tags``), the input's name for messages
    (``source``) and, where the finding was done beforehand (``--jobs``: every game's
    identity read by the workers first), the ``verdicts``: the first copy of each later
    copy, by the later copy's (first line, first column)."""

    policy: DuplicatesPolicy = DuplicatesPolicy.KEEP
    by_tags: tuple[str, ...] = ()
    source: str = ""
    verdicts: Mapping[tuple[int, int], GameLocation] | None = field(default=None, compare=False)

    @property
    def active(self) -> bool:
        return self.policy is not DuplicatesPolicy.KEEP


NO_DUPLICATES: Final = DuplicateSettings()


def parse_by_tags(text: str) -> tuple[str, ...]:
    """``White,Black,Date`` as tag names; raises ``ValueError`` for a name no tag can have."""
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    for name in names:
        if not _TAG_NAME.fullmatch(name):
            raise ValueError(f"{name!r} is not a tag name (letters, digits and _ first)")
    return names


def game_key(identity: Identity, game: RawGame, by_tags: tuple[str, ...]) -> bytes:
    """The key two copies share: the identity's digest, or with ``by_tags`` a digest of it
    and those tags' values (the first tag of each name, its value stripped)."""
    if not by_tags:
        return identity.digest
    hasher = hashlib.blake2b(identity.digest, digest_size=_KEY_BYTES)
    values: dict[str, str] = {}
    for tag in game.find_tags("|".join(re.escape(name) for name in by_tags)):
        values.setdefault(tag.name, tag.value.strip())
    for name in by_tags:
        value = values.get(name)
        hasher.update(b"\x00" + (_MISSING if value is None else value.encode("utf-8", "surrogateescape")))
    return hasher.digest()


class DuplicateFinder:
    """The first copy of every key seen, in the order seen; see the module doc."""

    BYTES_PER_GAME: Final = 200  # an upper bound of the Python objects one distinct game holds

    def __init__(self) -> None:
        self._index: dict[bytes, int] = {}
        self._lines = array("q")
        self._numbers = array("q")
        self._sources = array("H")
        self._names: list[str] = []
        self._name_index: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self._index)

    def first(self, key: bytes, where: GameLocation) -> GameLocation | None:
        """Where the first game with ``key`` is, or None (and ``where`` is kept as the
        first) when this is the first."""
        index = self._index.get(key)
        if index is not None:
            return GameLocation(self._names[self._sources[index]], self._lines[index], self._numbers[index])
        source = self._name_index.get(where.source)
        if source is None:
            source = self._name_index[where.source] = len(self._names)
            self._names.append(where.source)
        self._index[key] = len(self._lines)
        self._lines.append(where.line)
        self._numbers.append(where.number)
        self._sources.append(source)
        return None


class DuplicateJudge:
    """Applies ``settings`` to the results of one run, game after game, in input order."""

    def __init__(self, settings: DuplicateSettings, registry: Registry, accept: frozenset[str], budget: Budget,
                 letters: MoveLanguage) -> None:
        from notation.pgn.identity import IdentityReader

        self.settings = settings
        self.finder = DuplicateFinder()
        self._reader = IdentityReader(registry, accept, budget=budget, letters=letters)

    def first_copy(self, game: RawGame) -> GameLocation | None:
        """The first copy of ``game`` when it is a later one, else None (it is remembered)."""
        verdicts = self.settings.verdicts
        if verdicts is not None:
            return verdicts.get((game.start_line, game.start_column))
        identity = self._reader.identity(game)
        if identity is None:
            return None
        key = game_key(identity, game, self.settings.by_tags)
        return self.finder.first(key, GameLocation(self.settings.source, game.start_line, game.number))

    def apply(self, game: RawGame, result: GameResult) -> GameResult:
        """``result`` (of ``game``) with the policy applied: dropped (its text empty) or kept,
        with a ``duplicate-game`` warning when it is a later copy. A rejected game (set aside
        for its set-up or moves) is neither, but it can be the first copy of a later one."""
        if not result.counted:
            return result
        first = self.first_copy(game)  # a rejected game is remembered too, as --jobs' first pass sees it
        if first is None or result.rejected:
            return result
        dropped = self.settings.policy is DuplicatesPolicy.DROP
        message = f"the same game as {first.describe()}: the same variant, start and main line"
        if self.settings.by_tags:
            message += f" and the same {', '.join(self.settings.by_tags)}"
        if dropped:
            message += "; left out of the output"
        problem: dict[str, Any] = {"code": DUPLICATE_GAME, "message": message,
                                   "first": {"input": first.source, "line": first.line, "game": first.number}}
        _add_warning(result, game.start_line, problem)
        if dropped:
            result.text = ""
            result.changed = True
        return result


def _add_warning(result: GameResult, line: int, problem: dict[str, Any]) -> None:
    """``problem`` into the result's report as a warning on ``line`` (report entries are one
    per line, in line order: the game's first line comes first)."""
    result.codes.append(problem["code"])
    for entry in result.report:
        if entry["line"] == line:
            entry.setdefault("warnings", []).insert(0, problem)
            return
    result.report.insert(0, {"game": result.number, "line": line, "errors": [], "warnings": [problem]})
