"""``Setup``: a parsed, unchecked position, exactly as a FEN said it.

A Setup may be illegal (two white kings, a pawn on e8, castling without a rook); only
``notation.validation.validate`` judges it. Nothing here raises on chess grounds: the
constructors only normalise (pocket order) and build values.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from typing import Any, Final, Literal, cast

from notation.geometry import CHESS_BOARD, Geometry

Color = Literal["w", "b"]
WHITE: Color = "w"
BLACK: Color = "b"
_CHESS_BOARD: Final = CHESS_BOARD  # a C static when compiled: read for every Setup made
_IS_ASCII: Final = str.isascii  # compiled, one C call, where ``cells.isascii()`` looks the method up by name

# Canonical order of pocket letters: kings, queens, ... pawns last (python-chess and
# Fairy-Stockfish write this order); any other letter after those, alphabetically.
_FIRST = "kqmrbngp"
_POCKET_ORDER = _FIRST + "".join(c for c in "abcdefghijklmnopqrstuvwxyz" if c not in _FIRST)
_POCKET_RANK = {letter: i for i, letter in enumerate(_POCKET_ORDER)}


def _pocket_key(letter: str) -> tuple[int, str]:
    return (_POCKET_RANK.get(letter, len(_POCKET_RANK)), letter)


_POCKET_CACHE_LIMIT = 10_000
_pockets_by_letters: dict[str, Pockets] = {}


class Pockets:
    """Pieces in hand for each side, as lower-case letters in canonical order (``"qrrp"``):
    given in any order and case, kept sorted and lower case.

    A value, equal to another with the same pieces and read-only: its fields are ``Final``
    (a write is a type error, and in the compiled build an ``AttributeError``). A plain
    class rather than a frozen dataclass: every command defines it at start-up, where
    ``dataclasses`` and the methods it compiles from source are dear (docs/architecture.md,
    "Start-up").
    """

    def __init__(self, white: str = "", black: str = "") -> None:
        self.white: Final = "".join(sorted(white.lower(), key=_pocket_key))
        self.black: Final = "".join(sorted(black.lower(), key=_pocket_key))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Pockets):
            return NotImplemented
        return self.white == other.white and self.black == other.black

    def __hash__(self) -> int:
        return hash((self.white, self.black))

    def __repr__(self) -> str:
        return f"Pockets(white={self.white!r}, black={self.black!r})"

    def __reduce__(self) -> tuple[type[Pockets], tuple[str, str]]:
        """Pickled and copied as its two texts."""
        return (Pockets, (self.white, self.black))

    @classmethod
    def from_letters(cls, letters: str) -> Pockets:
        """Pockets from FEN letters: upper case for White, lower case for Black.

        Pockets are immutable values and pocket texts repeat, so the answers for up to
        ``_POCKET_CACHE_LIMIT`` distinct texts are kept and shared.
        """
        found = _pockets_by_letters.get(letters)
        if found is None:
            white = "".join(ch for ch in letters if ch.isupper())
            black = "".join(ch for ch in letters if ch.islower())
            found = cls(white, black)
            if len(_pockets_by_letters) < _POCKET_CACHE_LIMIT:
                _pockets_by_letters[letters] = found
        return found

    def of(self, color: Color) -> str:
        return self.white if color == WHITE else self.black

    def count(self, color: Color, letter: str) -> int:
        return self.of(color).count(letter.lower())

    def __bool__(self) -> bool:
        return bool(self.white or self.black)

    def __len__(self) -> int:
        return len(self.white) + len(self.black)


_SETUP_FIELDS = (
    "turn", "castling", "ep_square", "halfmove", "fullmove", "promoted", "pockets", "remaining_checks", "geometry",
    "bombs",
)
_EMPTY_CELL = {None: "."}
_CELL_PIECE = {".": None}
_SLOTS = ("cells", *_SETUP_FIELDS, "_board")  # Setup.__slots__, in order


class Setup:
    """A position as written, not yet judged. Immutable; ``with_changes`` makes a copy.

    - ``geometry``: the board's files x ranks (``CHESS_BOARD``, 8x8, unless given).
    - ``board``: one entry per square (64 on 8x8) indexed a1 = 0 .. h8 = 63 as
      ``notation.geometry`` numbers them; a FEN letter (``"P"`` white pawn, ``"k"`` black
      king) or ``None`` for an empty square.
    - ``cells``: the same board as a string, ``"."`` for an empty square (the form the
      reader, writer and rules work on; ``board`` is built from it when asked).
    - ``promoted``: squares whose piece is a promoted pawn (Crazyhouse ``~``).
    - ``pockets``: pieces in hand, or ``None`` when the FEN had no pockets at all.
    - ``castling``: castling rights as the squares of the rooks they name.
    - ``ep_square``: the en passant square as written, or ``None``.
    - ``remaining_checks``: (white, black) checks each side still has to give, or ``None``.
    - ``bombs``: (white, black) squares of each side's designated bomb (None for a side
      without one; itsyourturn Atomic), or ``None`` when the variant has no bombs.

    Raises ``ValueError`` for a board that is not ``geometry.size`` squares of single ASCII
    letters or ``None`` (``cells``: that many ASCII characters, not otherwise checked).
    """

    __slots__ = ("cells", *_SETUP_FIELDS, "_board")

    cells: str
    turn: Color
    castling: frozenset[int]
    ep_square: int | None
    halfmove: int
    fullmove: int
    promoted: frozenset[int]
    pockets: Pockets | None
    remaining_checks: tuple[int, int] | None
    geometry: Geometry
    bombs: tuple[int | None, int | None] | None
    _board: tuple[str | None, ...] | None

    def __init__(
        self,
        board: tuple[str | None, ...] | list[str | None] | None = None,
        turn: Color = WHITE,
        castling: AbstractSet[int] = frozenset(),
        ep_square: int | None = None,
        halfmove: int = 0,
        fullmove: int = 1,
        promoted: AbstractSet[int] = frozenset(),
        pockets: Pockets | None = None,
        remaining_checks: tuple[int, int] | None = None,
        geometry: Geometry = CHESS_BOARD,
        bombs: tuple[int | None, int | None] | None = None,
        *,
        cells: str | None = None,
    ):
        size = 64 if geometry is _CHESS_BOARD else geometry.size  # 8x8: no look-up on the Python object
        if cells is None:
            if board is None:
                raise TypeError("a Setup needs a board (one letter or None per square) or cells")
            # Items as given, checked here: compiled, a board typed as letters would have its
            # items' types checked on the way in, with a TypeError that names no square.
            given: tuple[object, ...] = tuple(board)
            if len(given) != size:
                raise ValueError(f"a {geometry} board has {size} squares, not {len(given)}")
            for sq, piece in enumerate(given):
                letter = isinstance(piece, str) and len(piece) == 1 and piece.isascii() and piece.isalpha()
                if piece is not None and not letter:
                    name = geometry.square_name(sq)
                    raise ValueError(f"square {name} holds {piece!r}: expected one FEN letter or None")
            known: tuple[str | None, ...] | None = cast("tuple[str | None, ...]", given)
            cells = "".join(map(_EMPTY_CELL.get, known, known))  # type: ignore[arg-type]
        else:
            if len(cells) != size or not _IS_ASCII(cells):
                raise ValueError(f"cells of a {geometry} board must be {size} ASCII characters, not {cells!r}")
            known = None
        # A frozenset is kept as itself: compiled, ``frozenset(x)`` copies even a frozenset.
        rights = castling if type(castling) is frozenset else frozenset(castling)
        marks = promoted if type(promoted) is frozenset else frozenset(promoted)
        if COMPILED:
            # Compiled (mypyc), an assignment in the class's own code writes the attribute
            # directly, past ``__setattr__``: a dozen descriptor calls fewer per FEN read.
            self.cells = cells
            self.turn = turn
            self.castling = rights
            self.ep_square = ep_square
            self.halfmove = halfmove
            self.fullmove = fullmove
            self.promoted = marks
            self.pockets = pockets
            self.remaining_checks = remaining_checks
            self.geometry = geometry
            self.bombs = bombs
            self._board = known
            return
        # Interpreted, the same assignment would run ``__setattr__`` (which refuses every
        # change): the slot descriptors write past it, at C speed.
        _set_cells(self, cells)
        _set_turn(self, turn)
        _set_castling(self, rights)
        _set_ep_square(self, ep_square)
        _set_halfmove(self, halfmove)
        _set_fullmove(self, fullmove)
        _set_promoted(self, marks)
        _set_pockets(self, pockets)
        _set_remaining_checks(self, remaining_checks)
        _set_geometry(self, geometry)
        _set_bombs(self, bombs)
        _set_board(self, known)

    @property
    def board(self) -> tuple[str | None, ...]:
        board = self._board
        if board is None:
            cells = self.cells
            board = tuple(map(_CELL_PIECE.get, cells, cells))
            _set_board(self, board)
        return board

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Setup is immutable; use with_changes({name}=...)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Setup is immutable")

    def _key(self) -> tuple[object, ...]:
        return (self.cells, *(getattr(self, name) for name in _SETUP_FIELDS))

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Setup:
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        """``<Setup 'FEN'>`` (``<Setup 9x10 'FEN'>`` off the 8x8 board): the FEN it holds,
        written without a variant (``notation.diagram.fen_text``)."""
        from notation.diagram import fen_text  # here: a repr's alone (start-up)

        size = "" if self.geometry.is_chess_board else f"{self.geometry} "
        return f"<Setup {size}{fen_text(self)!r}>"

    def __str__(self) -> str:
        """A text diagram of the board, pockets and counters (``notation.diagram.diagram``)."""
        from notation.diagram import diagram  # here: a diagram's alone (start-up)

        return diagram(self)

    def __reduce__(self) -> tuple[Callable[..., Setup], tuple[object, ...]]:
        return (_rebuild, (self.cells, *(getattr(self, name) for name in _SETUP_FIELDS)))

    @classmethod
    def empty(cls, geometry: Geometry = CHESS_BOARD) -> Setup:
        return cls(cells="." * geometry.size, geometry=geometry)

    def piece_at(self, sq: int) -> str | None:
        piece = self.cells[sq]
        return None if piece == "." else piece

    def squares_of(self, letter: str) -> list[int]:
        """Squares holding exactly this FEN letter, in square order (a1 first)."""
        return [sq for sq, piece in enumerate(self.cells) if piece == letter]

    def with_changes(self, **changes: Any) -> Setup:
        """A copy with the given fields replaced; ``board`` or ``cells`` replace the board."""
        values = {name: getattr(self, name) for name in _SETUP_FIELDS}
        unknown = set(changes) - set(_SETUP_FIELDS) - {"board", "cells"}
        if unknown:
            raise TypeError(f"Setup has no field(s) {', '.join(sorted(unknown))}")
        values.update(changes)
        if "board" not in changes and "cells" not in changes:
            values["cells"] = self.cells
        return Setup(**values)


# Whether the class was compiled by mypyc (its attributes are then the compiled class's
# own descriptors, not slot members): ``Setup.__init__`` writes its attributes as the
# build allows.
COMPILED: Final = not isinstance(vars(Setup)["cells"], types.MemberDescriptorType)

(
    _set_cells, _set_turn, _set_castling, _set_ep_square, _set_halfmove, _set_fullmove,
    _set_promoted, _set_pockets, _set_remaining_checks, _set_geometry, _set_bombs, _set_board,
) = (getattr(Setup, name).__set__ for name in _SLOTS)


def _rebuild(cells: str, *fields: Any) -> Setup:
    return Setup(cells=cells, **dict(zip(_SETUP_FIELDS, fields, strict=True)))
