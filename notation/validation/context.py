"""What every validator reads: the setup, its variant, its attack view, and how to name things.

``Context`` is built once per ``validate`` call; the ``describe`` helpers write the names
used in messages (``white king on e1``, ``the rook on e8``), with square names of the
setup's board (``Setup.geometry``: ``i10`` on a 10x10 board). Nothing here raises.
"""

from __future__ import annotations

from typing import Final

from notation.geometry import CHESS_BOARD
from notation.identity_cache import IdentityCache
from notation.rules.attack_view import COLOUR_NAMES, AttackView, attack_view_of
from notation.rules.bitboard import squares
from notation.setup import BLACK, WHITE, Setup
from notation.squares import SQUARE_NAMES
from notation.variants import Variant

COLOURS = (WHITE, BLACK)  # an attack view's colour index -> a Setup's colour


def _piece_names_of(variant: Variant) -> dict[str, str]:
    """Each FEN letter of ``variant``, both cases, -> its piece's name."""
    names: dict[str, str] = {}
    for kind in variant.pieces:  # the first kind of a letter, as ``Variant.piece_kind``
        names.setdefault(kind.letter, kind.name)
        names.setdefault(kind.letter.upper(), kind.name)
    return names


def _coloured_names_of(variant: Variant) -> dict[str, str]:
    """Each FEN letter of ``variant``, both cases, -> its side and name: ``white pawn``."""
    names = _PIECE_NAMES.get(variant)
    return {letter: f"{'white' if letter.isupper() else 'black'} {name}" for letter, name in names.items()}


# variant -> _piece_names_of(variant): a dictionary look-up per name instead of a call
# into ``Variant.piece_kind`` (a loop over its pieces); messages name pieces often.
_PIECE_NAMES: Final = IdentityCache(_piece_names_of)
_COLOURED_NAMES: Final = IdentityCache(_coloured_names_of)  # variant -> _coloured_names_of(variant)


class Context:
    """One validation's inputs: ``setup``, ``variant``, the setup's attack view ``position``
    (an ``AttackView``: its bitboards) and the variant's ``rules`` (``VariantRules``)."""

    __slots__ = ("setup", "variant", "position", "rules")

    def __init__(self, setup: Setup, variant: Variant, position: AttackView):
        self.setup = setup
        self.variant = variant
        self.position = position
        self.rules = position.rules

    @classmethod
    def of(cls, setup: Setup, variant: Variant) -> Context:
        return cls(setup, variant, attack_view_of(setup, variant))

    def square_name(self, sq: int) -> str:
        """The name of a square of the setup's board (``e4``, ``j10``); ``square 130`` for a
        number off the board (only a setup built in code has one)."""
        names = _square_names(self.setup)
        return names[sq] if 0 <= sq < len(names) else f"square {sq}"

    def square_list(self, bb: int) -> list[str]:
        """The names of the squares of ``bb``, first square first."""
        names = _square_names(self.setup)
        return [names[sq] for sq in squares(bb)]

    def piece_name(self, letter: str) -> str:
        """The variant's name for a FEN letter (``royal knight`` in Knightmate)."""
        name = _PIECE_NAMES.get(self.variant).get(letter)
        return name if name is not None else f"'{letter}'"

    def piece_on(self, sq: int, *, colour: bool = True) -> str:
        """``white king on e1`` (or ``king on e1`` without the colour)."""
        letter = self.setup.cells[sq]
        where = self.square_name(sq)
        if letter == ".":
            return f"empty square {where}"
        name = self.piece_name(letter)
        if colour:
            return f"{'white' if letter.isupper() else 'black'} {name} on {where}"
        return f"{name} on {where}"

    def pieces_on(self, bb: int, *, colour: bool = True) -> str:
        """``white pawn on e8, black pawn on a1``; ``the`` before each without colour."""
        if not colour:
            return join_and([f"the {self.piece_on(sq, colour=False)}" for sq in squares(bb)])
        # As piece_on for each square; the names of the variant's pieces looked up once.
        cells, names = self.setup.cells, _square_names(self.setup)
        coloured = _COLOURED_NAMES.get(self.variant)
        parts = []
        for sq in squares(bb):
            name = coloured.get(cells[sq]) if sq < len(names) else None
            parts.append(f"{name} on {names[sq]}" if name is not None else self.piece_on(sq))
        return ", ".join(parts)

    def royal_name(self) -> str:
        """The name of the variant's (first) royal piece: ``king``, ``royal knight``."""
        return self.piece_name(self.variant.royal[0]) if self.variant.royal else "king"


# Compiled, C statics: a name imported from a module that is not compiled (or not Final)
# is looked up in that module's dictionary at each use.
_CHESS_BOARD: Final = CHESS_BOARD
_CHESS_SQUARE_NAMES: Final = SQUARE_NAMES
_COLOUR_NAMES: Final = COLOUR_NAMES


def _square_names(setup: Setup) -> tuple[str, ...]:
    """The names of the squares of ``setup``'s board, a1 first: 8x8's a constant (compiled,
    a board's ``square_names`` is an attribute of a Python object, a dictionary look-up)."""
    geometry = setup.geometry
    return _CHESS_SQUARE_NAMES if geometry is _CHESS_BOARD else geometry.square_names


def join_and(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def side(colour: int) -> str:
    return _COLOUR_NAMES[colour]

