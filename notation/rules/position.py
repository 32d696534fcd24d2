"""``Position``: the bitboards of a ``Setup`` as its variant's rules see them.

Built once per setup (``position_of`` keeps the last one, so the validator and the writer
share it). Pieces are grouped by how they attack (``Movement``), taken from the variant's
``pieces``; royal pieces come from ``Variant.royal``. Colours are indices: 0 White, 1 Black.
A letter the variant does not know occupies its square but attacks nothing (the reader
reports such letters). Bitboards are made by translating ``Setup.cells``, as bytes, to 0/1
per group and reading that as a binary number: a handful of C calls instead of a loop.
The board is the setup's ``geometry``: bit ``n`` is square ``n`` on any size, and
``Position.tables`` holds that board's attack tables (``notation.rules.attacks.tables_for``).
On 8x8 ``attackers`` reads the module-level tables directly; other boards get a
``BoardPosition``, the same bitboards with attacks looked up in their own tables.
Nothing here judges legality; nothing raises on a Setup whose cells fit its geometry.
"""

from __future__ import annotations

from typing import Any, Final

from notation.geometry import CHESS_BOARD
from notation.identity_cache import IdentityCache
from notation.rules.attacks import (
    BISHOP_PSEUDO,
    CHESS_TABLES,
    KING_ATTACKS,
    KNIGHT_ATTACKS,
    PAWN_ATTACKS,
    ROOK_PSEUDO,
    Tables,
    bishop_attacks,
    rook_attacks,
    tables_for,
)
from notation.setup import Setup
from notation.variants import Movement, Twist, Variant

WHITE, BLACK = 0, 1
COLOUR_NAMES = ("white", "black")

# Attack groups: which bitboard of a Position a movement adds its pieces to.
_GROUPS = {
    Movement.PAWN: ("pawns",),
    Movement.KNIGHT: ("knights",),
    Movement.KING: ("kings",),
    Movement.BISHOP: ("diagonal",),
    Movement.ROOK: ("orthogonal",),
    Movement.QUEEN: ("diagonal", "orthogonal"),
    Movement.GRASSHOPPER: ("hoppers",),
}
_GROUP_NAMES = ("pawns", "knights", "kings", "diagonal", "orthogonal", "hoppers")


def _table(letters: str) -> bytes:
    """A ``bytes.translate`` table sending ``letters`` to ``1`` and every other byte to ``0``."""
    wanted = {ord(ch) for ch in letters}
    return bytes(49 if i in wanted else 48 for i in range(256))


_WHITE_TABLE: Final = _table("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_BLACK_TABLE: Final = _table("abcdefghijklmnopqrstuvwxyz")
_LETTER_TABLES = {chr(i): _table(chr(i)) for i in range(128) if chr(i).isalpha()}
_PAIR_TABLES: dict[str, bytes] = {}


class _PieceMap:
    """Per variant, computed once: translate tables for each attack group and the royal
    pieces, the letters a pawn may become, and which twists apply."""

    __slots__ = (
        "variant", "tables", "royal", "royal_is_kings", "promotions", "atomic", "race", "no_double_step", "pockets",
        "no_en_passant", "no_check", "placement",
    )

    def __init__(self, variant: Variant):
        self.variant = variant
        letters: dict[str, str] = {name: "" for name in _GROUP_NAMES}
        for kind in variant.pieces:
            for name in _GROUPS[kind.movement]:
                letters[name] += kind.letter
        # One table per group, in _GROUP_NAMES order; None for a group the variant lacks.
        self.tables = tuple(
            _table(letters[name].upper() + letters[name]) if letters[name] else None for name in _GROUP_NAMES
        )
        self.royal = _table(variant.royal.upper() + variant.royal) if variant.royal else None
        # Standard armies: the royal pieces are exactly the king-movers, one conversion saved.
        self.royal_is_kings = bool(variant.royal) and sorted(variant.royal) == sorted(letters["kings"])
        self.promotions = frozenset(variant.promotions + variant.promotions.upper())
        self.pockets = Twist.POCKETS in variant.twists
        self.atomic = Twist.ATOMIC in variant.twists
        self.race = Twist.RACE in variant.twists
        # (white, black): True for a side whose pawns never step two squares.
        never = Twist.NO_PAWN_DOUBLE_STEP in variant.twists
        self.no_double_step = tuple(never or not army.pawn_double_step for army in variant.armies)
        self.no_en_passant = Twist.NO_EN_PASSANT in variant.twists
        self.no_check = Twist.NO_CHECK in variant.twists
        self.placement = Twist.PLACEMENT in variant.twists


_NONE: Final = (0, 0)  # the (white, black) of a group the variant lacks


_PIECE_MAPS: Final = IdentityCache(_PieceMap)  # variant -> its _PieceMap


def _split(both: int, white: int) -> tuple[int, int]:
    """(white, black) of a group bitboard holding letters only."""
    ours = both & white
    return (ours, both ^ ours)


class Position:
    """Bitboards of one setup. Every per-colour attribute is a pair ``(white, black)``."""

    __slots__ = (
        "setup", "variant", "turn", "occupied", "colours", "_letters", "_encoded", "royal",
        "pawns", "knights", "kings", "diagonal", "orthogonal", "hoppers", "promoted",
        "atomic", "race", "no_double_step", "pockets", "tables", "no_en_passant", "no_check", "placing",
    )

    _letters: dict[str, int] | None
    tables: Tables

    def __init__(self, setup: Setup, variant: Variant):
        pieces = _PIECE_MAPS.get(variant)
        self.setup = setup
        self.variant = variant
        geometry = setup.geometry
        self.tables = CHESS_TABLES if geometry is CHESS_BOARD else tables_for(geometry)
        self.turn = WHITE if setup.turn == "w" else BLACK
        cells = setup.cells
        encoded = self._encoded = cells.encode()[::-1]
        self._letters = None
        # One conversion per group for both colours, split with the white mask.
        white = int(encoded.translate(_WHITE_TABLE), 2)
        black = int(encoded.translate(_BLACK_TABLE), 2)
        self.colours = (white, black)
        self.occupied = white | black
        # Each group as (white, black): ``ours`` is White's part, ``both ^ ours`` Black's.
        pawns, knights, kings, diagonal, orthogonal, hoppers = pieces.tables
        if pawns:
            both = int(encoded.translate(pawns), 2)
            ours = both & white
            self.pawns = (ours, both ^ ours)
        else:
            self.pawns = _NONE
        if knights:
            both = int(encoded.translate(knights), 2)
            ours = both & white
            self.knights = (ours, both ^ ours)
        else:
            self.knights = _NONE
        if kings:
            both = int(encoded.translate(kings), 2)
            ours = both & white
            self.kings = (ours, both ^ ours)
        else:
            self.kings = _NONE
        if diagonal:
            both = int(encoded.translate(diagonal), 2)
            ours = both & white
            self.diagonal = (ours, both ^ ours)
        else:
            self.diagonal = _NONE
        if orthogonal:
            both = int(encoded.translate(orthogonal), 2)
            ours = both & white
            self.orthogonal = (ours, both ^ ours)
        else:
            self.orthogonal = _NONE
        self.hoppers = _split(int(encoded.translate(hoppers), 2), white) if hoppers else _NONE
        # Promotion marks count only on pieces a pawn can become in this variant: a ``~`` on
        # a Crazyhouse king or pawn is ignored (python-chess does the same).
        promoted = 0
        if setup.promoted:
            promotions = pieces.promotions
            for sq in setup.promoted:
                if cells[sq] in promotions:
                    promoted |= 1 << sq
        self.promoted = promoted
        # A promoted royal piece (a king made from a pawn where kings may be promoted) is
        # not the original royal piece; Crazyhouse marks are honoured the same way.
        if pieces.royal_is_kings:
            self.royal = self.kings if not promoted else (self.kings[0] & ~promoted, self.kings[1] & ~promoted)
        elif pieces.royal:
            self.royal = _split(int(encoded.translate(pieces.royal), 2) & ~promoted, white)
        else:
            self.royal = _NONE
        self.atomic = pieces.atomic
        self.race = pieces.race
        self.no_double_step = pieces.no_double_step
        self.pockets = pieces.pockets
        self.no_en_passant = pieces.no_en_passant
        self.no_check = pieces.no_check
        # A placement phase lasts while a piece is left in hand: nobody has moved yet.
        self.placing = pieces.placement and bool(setup.pockets)

    def pair_bb(self, letter: str) -> tuple[int, int]:
        """(white, black) squares of a piece letter of either case, in one conversion."""
        lower = letter.lower()
        if self._letters is None:
            self._letters = {}
        found = self._letters.get(lower + "*")
        if found is None:
            table = _LETTER_TABLES.get(lower)
            if table is None:
                return (0, 0)
            both_table = _PAIR_TABLES.get(lower)
            if both_table is None:
                both_table = _PAIR_TABLES[lower] = _table(lower + lower.upper())
            found = int(self._encoded.translate(both_table), 2)
            self._letters[lower + "*"] = found
        return (found & self.colours[0], found & self.colours[1])

    def letter_bb(self, letter: str) -> int:
        """Squares holding exactly this FEN letter."""
        if self._letters is None:
            self._letters = {}
        found = self._letters.get(letter)
        if found is None:
            table = _LETTER_TABLES.get(letter)
            found = int(self._encoded.translate(table), 2) if table else 0
            self._letters[letter] = found
        return found

    def attackers(self, sq: int, colour: int, occupied: int | None = None) -> int:
        """Pieces of ``colour`` attacking ``sq`` given ``occupied`` (default: the board).

        Only pieces still in ``occupied`` count, so callers remove a captured piece by
        clearing its bit.
        """
        occ = self.occupied if occupied is None else occupied
        found = (
            (KNIGHT_ATTACKS[sq] & self.knights[colour])
            | (KING_ATTACKS[sq] & self.kings[colour])
            | (PAWN_ATTACKS[colour ^ 1][sq] & self.pawns[colour])
        )
        # A slider off every line through ``sq`` cannot attack it: skip the table look-ups.
        sliders = self.orthogonal[colour]
        if ROOK_PSEUDO[sq] & sliders:
            found |= rook_attacks(sq, occ) & sliders
        sliders = self.diagonal[colour]
        if BISHOP_PSEUDO[sq] & sliders:
            found |= bishop_attacks(sq, occ) & sliders
        if self.hoppers[colour]:
            found |= hopper_attackers(sq, occ, self.hoppers[colour], CHESS_TABLES)
        return found & occ


class BoardPosition(Position):
    """A Position on a board other than 8x8: ``attackers`` looks up this board's tables."""

    __slots__ = ()

    def attackers(self, sq: int, colour: int, occupied: int | None = None) -> int:
        occ = self.occupied if occupied is None else occupied
        tables = self.tables
        found = (
            (tables.knight[sq] & self.knights[colour])
            | (tables.king[sq] & self.kings[colour])
            | (tables.pawn[colour ^ 1][sq] & self.pawns[colour])
        )
        sliders = self.orthogonal[colour]
        if tables.rook_pseudo[sq] & sliders:
            found |= tables.rook_attacks(sq, occ) & sliders
        sliders = self.diagonal[colour]
        if tables.bishop_pseudo[sq] & sliders:
            found |= tables.bishop_attacks(sq, occ) & sliders
        if self.hoppers[colour]:
            found |= hopper_attackers(sq, occ, self.hoppers[colour], tables)
        return found & occ


def hopper_attackers(sq: int, occupied: int, hoppers: int, tables: Tables = CHESS_TABLES) -> int:
    """Grasshoppers among ``hoppers`` that attack ``sq``: each sits behind a hurdle next to it."""
    found = 0
    beyond_of = tables.beyond
    for d in range(8):
        next_to = beyond_of[d][sq]
        if next_to & occupied:
            beyond = tables.hurdle(d, next_to.bit_length() - 1, occupied)
            if beyond >= 0 and hoppers >> beyond & 1:
                found |= 1 << beyond
    return found


_last: tuple[Any, Any, Any] = (None, None, None)  # (setup, variant, position)


def position_of(setup: Setup, variant: Variant) -> Position:
    """The Position of ``setup``; the last one built is reused for the same objects.

    The cache is one tuple swapped whole, so concurrent callers never mix entries.
    """
    global _last
    last = _last
    if last[0] is setup and last[1] is variant:
        return last[2]
    geometry = setup.geometry
    if geometry is CHESS_BOARD or geometry.is_chess_board:
        position = Position(setup, variant)
    else:
        position = BoardPosition(setup, variant)
    _last = (setup, variant, position)
    return position
