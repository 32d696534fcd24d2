"""``Position``: the bitboards of a ``Setup`` as its variant's rules see them.

Built once per setup (``position_of`` keeps the last one, so the validator and the writer
share it). Pieces are grouped by how they attack (``Movement``), taken from the variant's
``pieces``; royal pieces come from ``Variant.royal``. Colours are indices: 0 White, 1 Black.
A letter the variant does not know occupies its square but attacks nothing (the reader
reports such letters). Nothing here judges legality; nothing raises on a 64-square Setup.
"""

from __future__ import annotations

from notation.rules.attacks import (
    BEYOND,
    KING_ATTACKS,
    KNIGHT_ATTACKS,
    PAWN_ATTACKS,
    bishop_attacks,
    hurdle,
    rook_attacks,
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


class _PieceMap:
    """Per variant: FEN letter -> (colour, attack-group names, royal?)."""

    __slots__ = ("variant", "groups", "royal_letters")

    def __init__(self, variant: Variant):
        self.variant = variant
        self.groups: dict[str, tuple[str, ...]] = {}
        for kind in variant.pieces:
            self.groups[kind.letter] = _GROUPS[kind.movement]
            self.groups[kind.letter.upper()] = _GROUPS[kind.movement]
        self.royal_letters = frozenset(variant.royal) | frozenset(variant.royal.upper())


_PIECE_MAPS: dict[int, _PieceMap] = {}


def _piece_map(variant: Variant) -> _PieceMap:
    found = _PIECE_MAPS.get(id(variant))
    if found is None or found.variant is not variant:
        found = _PIECE_MAPS[id(variant)] = _PieceMap(variant)
    return found


class Position:
    """Bitboards of one setup. Every per-colour attribute is a pair ``(white, black)``."""

    __slots__ = (
        "setup", "variant", "turn", "occupied", "colours", "by_letter", "royal",
        "pawns", "knights", "kings", "diagonal", "orthogonal", "hoppers", "promoted",
        "atomic", "race",
    )

    def __init__(self, setup: Setup, variant: Variant):
        self.setup = setup
        self.variant = variant
        self.turn = WHITE if setup.turn == "w" else BLACK
        by_letter: dict[str, int] = {}
        bit = 1
        for piece in setup.board:
            if piece is not None:
                by_letter[piece] = by_letter.get(piece, 0) | bit
            bit <<= 1
        self.by_letter = by_letter
        white = black = 0
        groups = {name: [0, 0] for name in _GROUP_NAMES}
        royal = [0, 0]
        pieces = _piece_map(variant)
        for letter, bb in by_letter.items():
            colour = WHITE if letter.isupper() else BLACK
            if colour == WHITE:
                white |= bb
            else:
                black |= bb
            for name in pieces.groups.get(letter, ()):
                groups[name][colour] |= bb
            if letter in pieces.royal_letters:
                royal[colour] |= bb
        self.colours = (white, black)
        self.occupied = white | black
        self.pawns = tuple(groups["pawns"])
        self.knights = tuple(groups["knights"])
        self.kings = tuple(groups["kings"])
        self.diagonal = tuple(groups["diagonal"])
        self.orthogonal = tuple(groups["orthogonal"])
        self.hoppers = tuple(groups["hoppers"])
        promoted = 0
        for sq in setup.promoted:
            promoted |= 1 << sq
        self.promoted = promoted
        # A promoted royal piece (a king made from a pawn where kings may be promoted) is
        # not the original royal piece; Crazyhouse marks are honoured the same way.
        self.royal = (royal[0] & ~promoted, royal[1] & ~promoted)
        self.atomic = Twist.ATOMIC in variant.twists
        self.race = Twist.RACE in variant.twists

    def letter_bb(self, letter: str) -> int:
        """Squares holding exactly this FEN letter."""
        return self.by_letter.get(letter, 0)

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
        if self.orthogonal[colour]:
            found |= rook_attacks(sq, occ) & self.orthogonal[colour]
        if self.diagonal[colour]:
            found |= bishop_attacks(sq, occ) & self.diagonal[colour]
        if self.hoppers[colour]:
            found |= hopper_attackers(sq, occ, self.hoppers[colour])
        return found & occ


def hopper_attackers(sq: int, occupied: int, hoppers: int) -> int:
    """Grasshoppers among ``hoppers`` that attack ``sq``: each sits behind a hurdle next to it."""
    found = 0
    for d in range(8):
        next_to = BEYOND[d][sq]
        if next_to & occupied:
            beyond = hurdle(d, next_to.bit_length() - 1, occupied)
            if beyond >= 0 and hoppers >> beyond & 1:
                found |= 1 << beyond
    return found


_last: tuple = (None, None, None)


def position_of(setup: Setup, variant: Variant) -> Position:
    """The Position of ``setup``; the last one built is reused for the same objects.

    The cache is one tuple swapped whole, so concurrent callers never mix entries.
    """
    global _last
    last = _last
    if last[0] is setup and last[1] is variant:
        return last[2]
    position = Position(setup, variant)
    _last = (setup, variant, position)
    return position
