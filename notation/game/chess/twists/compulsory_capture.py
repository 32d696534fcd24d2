"""Compulsory capture (Antichess, Giveaway, Suicide, Losers): when a legal move captures
(en passant included), only capturing moves are legal; which capture is free. Nothing here
raises."""

from __future__ import annotations

from typing import TYPE_CHECKING

from notation.game.chess.twists import MoveChange, Twist
from notation.game.move import Move

if TYPE_CHECKING:
    from notation.game.chess.position import ChessPosition


class CompulsoryCapture(Twist):
    """Captures first, and only captures when there are any."""

    move_change = MoveChange.FILTERS

    def filter(self, position: ChessPosition, moves: list[Move]) -> list[Move]:
        captures = [move for move in moves if position.is_capture(move)]
        return captures if captures else moves
