"""``Setup``: a parsed, unchecked position, exactly as a FEN said it.

A Setup may be illegal (two white kings, a pawn on e8, castling without a rook); only
``notation.validation.validate`` judges it. Nothing here raises on chess grounds: the
constructors only normalise (pocket order) and build values.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from notation.squares import square_name

Color = Literal["w", "b"]
WHITE: Color = "w"
BLACK: Color = "b"

# Canonical order of pocket letters: kings, queens, ... pawns last (python-chess and
# Fairy-Stockfish write this order); any other letter after those, alphabetically.
_FIRST = "kqmrbngp"
_POCKET_RANK = {letter: i for i, letter in enumerate(_FIRST + "".join(c for c in "abcdefghijklmnopqrstuvwxyz" if c not in _FIRST))}
_pocket_key = _POCKET_RANK.__getitem__


@dataclass(frozen=True)
class Pockets:
    """Pieces in hand for each side, as lower-case letters in canonical order (``"qrrp"``)."""

    white: str = ""
    black: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "white", "".join(sorted(self.white.lower(), key=_pocket_key)))
        object.__setattr__(self, "black", "".join(sorted(self.black.lower(), key=_pocket_key)))

    @classmethod
    def from_letters(cls, letters: str) -> "Pockets":
        """Pockets from FEN letters: upper case for White, lower case for Black."""
        white = "".join(ch for ch in letters if ch.isupper())
        black = "".join(ch for ch in letters if ch.islower())
        return cls(white, black)

    def of(self, color: Color) -> str:
        return self.white if color == WHITE else self.black

    def count(self, color: Color, letter: str) -> int:
        return self.of(color).count(letter.lower())

    def __bool__(self) -> bool:
        return bool(self.white or self.black)

    def __len__(self) -> int:
        return len(self.white) + len(self.black)


@dataclass(frozen=True)
class Setup:
    """A position as written, not yet judged.

    - ``board``: 64 entries indexed a1 = 0 .. h8 = 63; a FEN letter (``"P"`` white pawn,
      ``"k"`` black king) or ``None`` for an empty square.
    - ``promoted``: squares whose piece is a promoted pawn (Crazyhouse ``~``).
    - ``pockets``: pieces in hand, or ``None`` when the FEN had no pockets at all.
    - ``castling``: castling rights as the squares of the rooks they name.
    - ``ep_square``: the en passant square as written, or ``None``.
    - ``remaining_checks``: (white, black) checks each side still has to give, or ``None``.
    """

    board: tuple[str | None, ...]
    turn: Color = WHITE
    castling: frozenset[int] = frozenset()
    ep_square: int | None = None
    halfmove: int = 0
    fullmove: int = 1
    promoted: frozenset[int] = frozenset()
    pockets: Pockets | None = None
    remaining_checks: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        if len(self.board) != 64:
            raise ValueError(f"a board has 64 squares, not {len(self.board)}")

    @classmethod
    def empty(cls) -> "Setup":
        return cls(board=(None,) * 64)

    def piece_at(self, sq: int) -> str | None:
        return self.board[sq]

    def squares_of(self, letter: str) -> list[int]:
        """Squares holding exactly this FEN letter, in a1..h8 order."""
        return [sq for sq, piece in enumerate(self.board) if piece == letter]

    def with_changes(self, **changes) -> "Setup":
        """A copy with the given fields replaced (``dataclasses.replace``)."""
        return replace(self, **changes)

    def describe_square(self, sq: int) -> str:
        return square_name(sq)
