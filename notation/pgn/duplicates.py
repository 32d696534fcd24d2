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


import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from notation.lean_enum import LeanStrEnum

if TYPE_CHECKING:  # the move layer is imported only when duplicates are looked for (start-up)
    from notation.move_options import MoveLanguage
    from notation.pgn.games import RawGame
    from notation.pgn.identity import Identity
    from notation.pgn.merge_tags import MergedTags
    from notation.pgn.movetext import Budget
    from notation.pgn.normalize import GameResult
    from notation.variants import Registry

DUPLICATE_GAME: Final = "duplicate-game"
_TAG_NAME = r"[A-Za-z0-9_][A-Za-z0-9_+#=:-]*"  # compiled by --duplicates-by (re's cache)
_KEY_BYTES: Final = 16  # identity.IDENTITY_BYTES
_MISSING: Final = b"\xff"  # a tag the game lacks: no UTF-8 value is this byte


class DuplicatesPolicy(LeanStrEnum):
    """What happens to a later copy of a game already seen."""

    KEEP = "keep"  # nothing: duplicates are not looked for (the default)
    DROP = "drop"  # left out of the output, reported
    MARK = "mark"  # kept, reported


class DuplicateMatch(LeanStrEnum):
    """Which games are copies: the same main line, or also one main line a prefix of another."""

    SAME = "same"
    PREFIX = "prefix"  # a game whose main line starts another's is a copy of it: the longer is kept


class MergeTags(LeanStrEnum):
    """What the game kept of a set takes from the copies dropped (``--merge-tags``)."""

    NONE = "none"
    MISSING = "missing"  # the tags it lacks (``merge_tags``)


class AddedTag(LeanStrEnum):
    """A tag ``normalize --add-tags`` writes into every game with an identity."""

    PLYCOUNT = "plycount"  # PlyCount: the main line's plies (a supplemental tag of the PGN standard, section 9)
    GAMEID = "gameid"  # NotationId: the identity's digest in hex (``IDENTITY_TAG``)


class IdentityFrom(LeanStrEnum):
    """Where the duplicate finder takes a game's identity from."""

    MOVES = "moves"  # its main line, read (the default)
    TAG = "tag"  # its NotationId tag (written by --add-tags gameid) where it holds one, else its moves


IDENTITY_TAG: Final = "NotationId"  # identity.IDENTITY_TAG; lichess's GameId and pgn-extract's HashCode mean others
PREFIX_WORD: Final = "prefix"  # in ``--duplicates-by``: prefixes too (no tag is named so in lower case)


class GameLocation(NamedTuple):
    """Where a game is: its input's name, its first line and its number (from 1) in it."""

    source: str
    line: int
    number: int

    def describe(self) -> str:
        where = f"line {self.line}" if not self.source else f"{self.source}, line {self.line}"
        return f"game {self.number} ({where})"


class Verdict(NamedTuple):
    """Where the game kept of a later copy's set is, and whether the copy is a prefix of it."""

    kept: GameLocation
    prefix: bool = False


# A NamedTuple, not a frozen dataclass: a dataclass's methods are compiled from source at
# import, which every check's start-up would pay for. A changed copy is ``settings._replace(...)``.
class DuplicateSettings(NamedTuple):
    """``policy``, the tags added to the key (``by_tags``), the input's name for messages
    (``source``), whether prefixes count (``match``) and, where the finding was done
    beforehand (``--jobs``, prefixes: every game's identity read first, ``duplicate_jobs``),
    the ``verdicts``: the game kept of each copy's set, by the copy's (first line, first
    column). Equal when every field is, the maps included."""

    policy: DuplicatesPolicy = DuplicatesPolicy.KEEP
    by_tags: tuple[str, ...] = ()
    source: str = ""
    verdicts: Mapping[tuple[int, int], Verdict] | None = None
    match: DuplicateMatch = DuplicateMatch.SAME
    merge: MergeTags = MergeTags.NONE
    merged: Mapping[tuple[int, int], "MergedTags"] | None = None  # quoted inside: merge_tags imports this module
    add_tags: tuple[AddedTag, ...] = ()  # tags written into every game with an identity (``--add-tags``)
    identity_from: IdentityFrom = IdentityFrom.MOVES

    @property
    def reads_identities(self) -> bool:
        """Whether the normaliser reads games' identities: to find copies, or to write them."""
        return self.active or bool(self.add_tags)

    @property
    def active(self) -> bool:
        return self.policy is not DuplicatesPolicy.KEEP

    @property
    def finds_prefixes(self) -> bool:
        """Whether copies are looked for and a prefix of a game counts as one of its copies."""
        return self.active and self.match is DuplicateMatch.PREFIX

    @property
    def whole_input_first(self) -> bool:
        """Whether the copies must be found over the whole input before a game is written:
        prefixes (the longest may come last), merged tags (the copies come after the kept game)."""
        return self.match is DuplicateMatch.PREFIX or self.merge is not MergeTags.NONE


NO_DUPLICATES: Final = DuplicateSettings()


def parse_by_tags(text: str) -> tuple[tuple[str, ...], DuplicateMatch]:
    """``White,Black,Date`` as tag names, and ``prefix`` among them as ``DuplicateMatch.PREFIX``;
    raises ``ValueError`` for a name no tag can have."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    match = DuplicateMatch.PREFIX if PREFIX_WORD in names else DuplicateMatch.SAME
    tags = tuple(name for name in names if name != PREFIX_WORD)
    for name in tags:
        if not re.fullmatch(_TAG_NAME, name):
            raise ValueError(f"{name!r} is not a tag name (letters, digits and _ first)")
    return tags, match


def game_key(identity: "Identity", game: "RawGame", by_tags: tuple[str, ...]) -> bytes:
    """The key two copies share: the identity's digest, or with ``by_tags`` a digest of it
    and those tags' values (the first tag of each name, its value stripped)."""
    return keyed(identity.digest, tag_values(game, by_tags))


def tag_values(game: "RawGame", by_tags: tuple[str, ...]) -> bytes:
    """The values of ``game``'s tags ``by_tags`` as ``keyed`` adds them (empty: no tags)."""
    if not by_tags:
        return b""
    values: dict[str, str] = {}
    for tag in game.find_tags("|".join(re.escape(name) for name in by_tags)):
        values.setdefault(tag.name, tag.value.strip())
    out = bytearray()
    for name in by_tags:
        value = values.get(name)
        out += b"\x00" + (_MISSING if value is None else value.encode("utf-8", "surrogateescape"))
    return bytes(out)


def keyed(digest: bytes, values: bytes) -> bytes:
    """The key of a main line's ``digest`` with the tag ``values`` (``tag_values``)."""
    if not values:
        return digest
    import hashlib  # here: check and normalize without --duplicates-by start up without OpenSSL's library

    return hashlib.blake2b(digest + values, digest_size=_KEY_BYTES).digest()


class DuplicateFinder:
    """The first copy of every key seen, in the order seen; see the module doc."""

    BYTES_PER_GAME: Final = 200  # an upper bound of the Python objects one distinct game holds

    def __init__(self) -> None:
        from array import array  # here: check and normalize without --duplicates start up without it

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
            return self.location(index)
        self.add(key, where)
        return None

    def index_of(self, key: bytes) -> int | None:
        """The number of ``key`` (in the order first seen), or None when not seen."""
        return self._index.get(key)

    def location(self, index: int) -> GameLocation:
        """Where the first game of the ``index``-th key is."""
        return GameLocation(self._names[self._sources[index]], self._lines[index], self._numbers[index])

    def add(self, key: bytes, where: GameLocation) -> int:
        """``key``'s number, ``where`` its first game when it is new."""
        index = self._index.get(key)
        if index is not None:
            return index
        source = self._name_index.get(where.source)
        if source is None:
            source = self._name_index[where.source] = len(self._names)
            self._names.append(where.source)
        self._index[key] = len(self._lines)
        index = len(self._lines)
        self._lines.append(where.line)
        self._numbers.append(where.number)
        self._sources.append(source)
        return index


class DuplicateJudge:
    """Applies ``settings`` to the results of one run, game after game, in input order."""

    def __init__(self, settings: DuplicateSettings, registry: "Registry", accept: frozenset[str], budget: "Budget",
                 letters: "MoveLanguage") -> None:
        from notation.pgn.identity import IdentityReader

        if settings.active and settings.whole_input_first and settings.verdicts is None:
            raise ValueError("prefixes and merged tags are found over the whole input first: give the verdicts "
                             "(notation.pgn.duplicate_jobs.with_copies)")
        self.settings = settings
        self.finder = DuplicateFinder()
        self._reader = IdentityReader(registry, accept, budget=budget, letters=letters)
        self._reads = bool(settings.add_tags) or (settings.active and settings.verdicts is None)
        self._trust_tag = settings.identity_from is IdentityFrom.TAG and not settings.add_tags

    def verdict(self, game: "RawGame", identity: "Identity | None") -> Verdict | None:
        """The game kept of ``game``'s set when ``game`` (of ``identity``) is a copy, else
        None (it is remembered)."""
        verdicts = self.settings.verdicts
        if verdicts is not None:
            return verdicts.get((game.start_line, game.start_column))
        if identity is None:
            return None
        key = game_key(identity, game, self.settings.by_tags)
        first = self.finder.first(key, GameLocation(self.settings.source, game.start_line, game.number))
        return None if first is None else Verdict(first)

    def apply(self, game: "RawGame", result: "GameResult") -> "GameResult":
        """``result`` (of ``game``) with the settings applied: the tags ``add_tags`` asks for,
        then the policy: dropped (its text empty) or kept, with a ``duplicate-game`` warning
        when it is a copy. A rejected game (set aside for its set-up or moves) is neither,
        but it can be the first copy of a later one."""
        if not result.counted:
            return result
        identity = self._reader.identity(game, trust_tag=self._trust_tag) if self._reads else None
        # a rejected game is remembered too, as --jobs' first pass sees it
        verdict = self.verdict(game, identity) if self.settings.active else None
        if result.rejected:
            return result
        if identity is not None and self.settings.add_tags:
            self._add_tags(game, result, identity)
        if verdict is None:
            merged = self.settings.merged
            if merged is not None:
                self._merge(game, result, merged)
            return result
        first = verdict.kept
        dropped = self.settings.policy is DuplicatesPolicy.DROP
        if verdict.prefix:
            message = (f"a prefix of {first.describe()}, which is kept: the same variant and start, and its main "
                       "line the start of that game's")
        else:
            message = f"the same game as {first.describe()}: the same variant, start and main line"
        if self.settings.by_tags:
            message += f" and the same {', '.join(self.settings.by_tags)}"
        if dropped:
            message += "; left out of the output"
        problem: dict[str, Any] = {"code": DUPLICATE_GAME, "message": message,
                                   "first": {"input": first.source, "line": first.line, "game": first.number}}
        if verdict.prefix:
            problem["prefix"] = True
        _add_warning(result, game.start_line, problem)
        if dropped:
            result.text = ""
            result.dropped = True
        return result

    def _add_tags(self, game: "RawGame", result: "GameResult", identity: "Identity") -> None:
        """``PlyCount`` and ``NotationId`` set in the game's tag section (``tag_edits``)."""
        from notation.pgn.tag_edits import set_tags

        tags: list[tuple[str, str]] = []
        for added in self.settings.add_tags:
            if added is AddedTag.PLYCOUNT:
                tags.append(("PlyCount", str(identity.plies)))
            elif added is AddedTag.GAMEID:
                tags.append((IDENTITY_TAG, identity.digest.hex()))
        result.text = set_tags(result.text, tuple(tags))
        result.changed = result.text != game.text

    @staticmethod
    def _merge(game: "RawGame", result: "GameResult", merged: "Mapping[tuple[int, int], MergedTags]") -> None:
        """The tags ``game`` (kept) takes from its copies, and their conflicts, into ``result``."""
        found = merged.get((game.start_line, game.start_column))
        if found is None:
            return
        from notation.pgn.tag_edits import set_tags

        if found.tags:
            result.text = set_tags(result.text, found.tags, replace=False)
            result.changed = True
        for conflict in reversed(found.conflicts):
            _add_warning(result, game.start_line, dict(conflict))


def _add_warning(result: "GameResult", line: int, problem: dict[str, Any]) -> None:
    """``problem`` into the result's report as a warning on ``line`` (report entries are one
    per line, in line order: the game's first line comes first)."""
    result.codes.append(problem["code"])
    for entry in result.report:
        if entry["line"] == line:
            entry.setdefault("warnings", []).insert(0, problem)
            return
    result.report.insert(0, {"game": result.number, "line": line, "errors": [], "warnings": [problem]})
