"""A side without royal pieces (Horde's pawns, every side in the losing games) is judged by
its pieces: with none left, it wins where the variant is a losing game (python-chess and
lichess's Antichess) and loses where it is not (Horde). Nothing here raises."""

from __future__ import annotations

from typing import TYPE_CHECKING

from notation.game.chess.twists import Twist
from notation.game.outcome import EndReason, Outcome
from notation.setup import Color
from notation.variants import Stalemate, Variant

if TYPE_CHECKING:
    from notation.game.chess.position import ChessPosition


class NoPieces(Twist):
    """Losing every piece ends the game."""

    def __init__(self, variant: Variant):
        self.losing_game = variant.stalemate is not Stalemate.DRAW and not variant.royal

    def end(self, position: ChessPosition) -> Outcome | None:
        for colour in (position.turn_index, position.turn_index ^ 1):
            if position.colours[colour]:
                continue
            if position.pockets is not None and any(position.pockets[colour]):
                continue
            winner: Color = "w" if (colour == 0) == self.losing_game else "b"
            return Outcome(winner, EndReason.NO_PIECES)
        return None
