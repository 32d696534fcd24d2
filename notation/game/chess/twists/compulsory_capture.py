"""Compulsory capture (Antichess, Giveaway, Suicide, Losers): when a legal move captures
(en passant included), only capturing moves are legal; which capture is free. Nothing here
raises."""

from __future__ import annotations

from typing import TYPE_CHECKING

from notation.game.chess.twists import MoveChange, TwistRule
from notation.game.move import Move

if TYPE_CHECKING:
    from notation.game.chess.position import ChessPosition


class CompulsoryCapture(TwistRule):
    """Captures first, and only captures when there are any.

    Where nothing is royal (Antichess, Giveaway, Suicide) every pseudo-legal move is legal,
    so whether a capture exists is told from the board (``ChessPosition.can_capture``) and
    each move is judged on its own (``JUDGES_EACH``); with a royal king (Losers) a capture
    may be illegal, and the legal moves are filtered as a whole."""

    keeps_one = True

    def __init__(self, royal: bool) -> None:
        self.move_change = MoveChange.FILTERS if royal else MoveChange.JUDGES_EACH

    def allows(self, position: ChessPosition, move: Move) -> bool:
        return position.is_capture(move) or not position.can_capture()

    def filter(self, position: ChessPosition, moves: list[Move]) -> list[Move]:
        captures = [move for move in moves if position.is_capture(move)]
        return captures if captures else moves
