"""A game's identity: a fixed-size digest of its variant, start position and main line.

Two games have the same identity when they are the same game whatever was written around
it: the same variant (as played: a Standard game from a FEN with Chess960 castling rights
plays Chess960, as ``gamestart`` reads it), the same start position and the same main-line
moves. What is left out, on purpose:

- the move counters of the start (the FEN's halfmove clock and fullmove number): the same
  position reached at move 1 or move 30 starts the same game; the side to move, castling
  rights, the en passant square (written only where a capture there is legal), pockets and
  check counters are the position and count;
- how the moves were written: each move is hashed as the squares and letters it plays
  (``notation.game.move.Move``), so SAN, long algebraic, UCI, German piece letters, WXF or
  ICCS all give the same digest;
- tags, comments, NAGs, variations, move numbers and the result token.

``IDENTITY_BYTES`` (16) bytes of BLAKE2b: at a billion games the chance that two different
games share a digest is about 10**-21. ``IdentityReader.identity(game)`` reads a game's
moves (``gamemoves.read_game_moves``, the walk ``check`` uses) and gives its ``Identity``,
or None for a game with no identity: its variant unknown, its start unreadable or illegal
beyond repair (or drawn, Chess960 without a FEN), a main-line move that cannot be read or
played, a movetext over budget, a part of a game too large to hold, or text outside any
game. A game without moves has one (its start alone). ``IdentityReader.line(game)`` gives
what the digest is taken of (``LineCodes``: the start's bytes and ``MOVE_CODE_BYTES`` a
move), from which ``prefixes`` takes the digest of a shorter main line (``--duplicates-by
prefix``). ``MainLine`` is the visitor that records the main line, for a caller that walks
the moves itself (``check``).

Nothing here raises on bad input.
"""

from __future__ import annotations

import hashlib
import re
from typing import Final, NamedTuple

from notation.errors import NotationError
from notation.fen.profiles import resolve_options
from notation.fen.writer import write_fen
from notation.game.family import GamePosition
from notation.game.move import Move, MoveKind
from notation.move_options import MoveLanguage
from notation.moves.reading import ReadMove
from notation.options import EnPassantMode
from notation.pgn.gamemoves import read_game_moves
from notation.pgn.games import STRAY_TEXT, RawGame
from notation.pgn.gamestart import StartPositions
from notation.pgn.key_tags import setup_tags
from notation.pgn.main_line import MainLineVisitor
from notation.pgn.movetext import DEFAULT_BUDGET, Budget
from notation.variants import Registry, Variant

IDENTITY_BYTES: Final = 16
MOVE_CODE_BYTES: Final = 5  # the bytes one move is hashed as (``move_code``)
IDENTITY_TAG: Final = "NotationId"  # the tag ``--add-tags gameid`` writes the digest into
_HEX_DIGEST: Final = re.compile(f"[0-9a-f]{{{2 * IDENTITY_BYTES}}}")
_PERSON: Final = b"notation-game1"  # changes if the encoding ever does: old digests then never match new ones
_CACHE_SIZE: Final = 4096
_KINDS: Final = {kind: index for index, kind in enumerate(MoveKind)}
_NORMAL: Final = MoveKind.NORMAL  # index 0
_START_OPTIONS: Final = resolve_options("python-chess", en_passant=EnPassantMode.LEGAL.value)
_OVER_BUDGET: Final = ("pgn-movetext-too-long", "pgn-movetext-too-deep")


class Identity(NamedTuple):
    """A game's ``digest`` (``IDENTITY_BYTES`` bytes) and the ``plies`` of its main line."""

    digest: bytes
    plies: int

    @property
    def hex(self) -> str:
        return self.digest.hex()


def move_code(move: Move) -> bytes:
    """The bytes one move is hashed as (``MOVE_CODE_BYTES``): its squares (boards up to
    12x12: under 256), its promotion and drop letters and its kind; no notation's spelling."""
    return bytes(_codes_of(move, []))


def move_codes(moves: list[Move]) -> bytes:
    """``move_code`` of each move, one after another."""
    out: list[int] = []
    for move in moves:
        _codes_of(move, out)
    return bytes(out)


def _codes_of(move: Move, out: list[int]) -> list[int]:
    kind = move.kind
    promotion = move.promotion
    drop = move.drop
    out.append((move.origin + 1) & 0xFF)
    out.append((move.target + 1) & 0xFF)
    out.append(ord(promotion) & 0xFF if promotion else 0)
    out.append(ord(drop) & 0xFF if drop else 0)
    out.append(0 if kind is _NORMAL else _KINDS[kind])  # an enum's hash is a Python call: most moves skip it
    return out


def line_digest(start: bytes, moves: bytes) -> bytes:
    """The digest of a main line from ``start`` (``start_code``) playing ``moves`` (``move_codes``)."""
    hasher = hashlib.blake2b(start, digest_size=IDENTITY_BYTES, person=_PERSON)
    hasher.update(moves)
    return hasher.digest()


class LineCodes(NamedTuple):
    """A main line as its identity hashes it: the ``start`` (``start_code``) and the
    ``moves`` (``move_codes``, ``MOVE_CODE_BYTES`` a move)."""

    start: bytes
    moves: bytes

    @property
    def plies(self) -> int:
        return len(self.moves) // MOVE_CODE_BYTES

    def identity(self) -> Identity:
        return Identity(line_digest(self.start, self.moves), self.plies)


def start_code(position: GamePosition) -> bytes:
    """The bytes a start position is hashed as: the variant played and its FEN without
    the move counters (en passant written only where legal)."""
    setup = position.to_setup().with_changes(halfmove=0, fullmove=1)
    variant = position.variant
    fen = write_fen(setup, variant, _START_OPTIONS).fen
    return f"{variant.key}\n{fen}\n".encode()


class StartCodes:
    """``start_code`` of game starts, cached by the game's FEN tag and variant."""

    def __init__(self) -> None:
        self._codes: dict[tuple[str | None, str], bytes] = {}

    def code(self, position: GamePosition, fen: str | None, variant: Variant) -> bytes:
        key = (fen, variant.key)
        found = self._codes.get(key)
        if found is None:
            found = start_code(position)
            if len(self._codes) >= _CACHE_SIZE:
                self._codes.clear()
            self._codes[key] = found
        return found


class MainLine(MainLineVisitor):
    """Records the main line's moves from ``start`` (the bytes of ``start_code``): the walk
    is the hot loop, so hashing waits until it is done (``line``, ``identity``)."""

    __slots__ = ("start", "moves")

    def __init__(self, start: bytes) -> None:
        super().__init__()
        self.start = start
        self.moves: list[Move] = []

    def played(self, offset: int, word: str, read: ReadMove, before: GamePosition, after: GamePosition,
               ply: int) -> None:
        if self.depth == 0:  # ``main_move``'s test, here: one call a move fewer
            self.moves.append(read.move)

    def main_move(self, read: ReadMove, after: GamePosition) -> None:
        self.moves.append(read.move)

    def line(self) -> LineCodes | None:
        """The main line as hashed (None after a main-line move that failed: the walk
        stops the line there)."""
        if self.broken:
            return None
        return LineCodes(self.start, move_codes(self.moves))

    def identity(self) -> Identity | None:
        """The main line's identity (None as ``line``)."""
        line = self.line()
        return None if line is None else line.identity()


class IdentityReader:
    """Identities of games read with fixed options (the registry, whose default variant a
    game without a ``Variant`` tag plays; validation codes accepted in a FEN; the budget
    and piece letters the moves are read with). Variants and starts are cached."""

    def __init__(self, registry: Registry, accept: frozenset[str] = frozenset(), *, budget: Budget = DEFAULT_BUDGET,
                 letters: MoveLanguage = MoveLanguage.EN) -> None:
        self._registry = registry
        self._starts = StartPositions(registry, accept)
        self._budget = budget
        self._letters = letters
        self._variants: dict[str, Variant | None] = {}
        self._start_codes = StartCodes()

    def identity(self, game: RawGame, *, trust_tag: bool = False) -> Identity | None:
        """``game``'s identity, or None when it has none (see the module doc).
        ``trust_tag``: a ``NotationId`` tag of ``2 * IDENTITY_BYTES`` hex digits (``normalize
        --add-tags gameid`` writes it) is taken as the digest, the moves unread (``plies`` is
        then -1: unknown)."""
        if trust_tag and game.part == 0 and not game.continues and not game.is_blank:
            for tag in game.find_tags(IDENTITY_TAG):
                if _HEX_DIGEST.fullmatch(tag.value):
                    return Identity(bytes.fromhex(tag.value), -1)
                break
        line = self.line(game)
        return None if line is None else line.identity()

    def line(self, game: RawGame) -> LineCodes | None:
        """``game``'s main line as its identity hashes it, or None when it has no identity."""
        if game.part != 0 or game.continues or game.is_blank:
            return None
        for problem in game.problems:
            if problem.code == STRAY_TEXT:
                return None
        variant_tag, fen_tag = setup_tags(game)
        variant = self._registry.default if variant_tag is None else self._variant(variant_tag.value)
        fen = None if fen_tag is None else fen_tag.value
        if variant is None:
            return None
        start = self._starts.start(variant, fen)
        if start.position is None:
            return None
        visitor = MainLine(self._start_codes.code(start.position, fen, variant))
        found = read_game_moves(game.read_text, game.start_line, start, budget=self._budget, visitor=visitor,
                                letters=self._letters, first_column=game.start_column)
        for placed in found.problems:
            if placed.problem.code in _OVER_BUDGET:
                return None
        return visitor.line()

    def _variant(self, name: str) -> Variant | None:
        if name in self._variants:
            return self._variants[name]
        try:
            found: Variant | None = self._registry.find(name)
        except NotationError:
            found = None
        if len(self._variants) >= _CACHE_SIZE:
            self._variants.clear()
        self._variants[name] = found
        return found
