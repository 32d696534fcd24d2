"""What every rule family's legal position offers (``GamePosition``), whatever its board.

A legal position is made once from a ``Setup`` that validation accepts and never holds an
illegal state; playing a legal move returns the next one. The chess family
(``notation.game.chess``), Xiangqi (``notation.game.xiangqi``) and tafl
(``notation.game.tafl``) each implement it; ``notation.game.legal_position`` picks one by
the variant's ``RuleFamily``. The protocol itself checks and raises nothing.
"""

from __future__ import annotations

from typing import Protocol

from notation.game.move import Move
from notation.game.outcome import Outcome
from notation.setup import Color, Setup
from notation.variants import Variant


class GamePosition(Protocol):
    """A legal position of some variant."""

    @property
    def variant(self) -> Variant: ...

    @property
    def turn(self) -> Color: ...

    def legal_moves(self) -> list[Move]:
        """Every legal move, in one stable order (empty once the game is over)."""
        ...

    def count_legal(self) -> int:
        """``len(legal_moves())``, counted as cheaply as the family can (perft's last ply)."""
        ...

    def play(self, move: Move) -> GamePosition:
        """The position after ``move``; raises ``ValueError`` if it is not a legal move
        here (front ends check with ``legal_moves`` first and raise ``MoveError``)."""
        ...

    def play_legal(self, move: Move) -> GamePosition:
        """``play`` for a move taken from ``legal_moves()`` (not checked again; perft)."""
        ...

    def outcome(self) -> Outcome | None:
        """How the game has ended, or None while it goes on."""
        ...

    def is_check(self) -> bool:
        """Whether the side to move is in check (always False where nothing is royal)."""
        ...

    def to_setup(self) -> Setup:
        """The position as a ``Setup``, for the FEN writer."""
        ...
