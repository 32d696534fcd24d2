"""Running out of pieces. A side without royal pieces (Horde's pawns, every side in the
losing games) that has no piece left loses where the variant is not a losing game (Horde)
and wins where it is (python-chess and lichess's Antichess, Giveaway, Suicide). In Losers,
a losing game with kings, a side left with its king alone wins (Fairy-Stockfish's Losers:
``extinctionPieceCount = 1``). Pieces in hand count as pieces. Nothing here raises."""

from __future__ import annotations

from typing import TYPE_CHECKING

from notation.game.chess.twists import TwistRule
from notation.game.outcome import EndReason, Outcome
from notation.setup import Color
from notation.variants import Stalemate, Variant

if TYPE_CHECKING:
    from notation.game.chess.position import ChessPosition


class NoPieces(TwistRule):
    """Losing every piece (every piece but the king, in a losing game) ends the game."""

    def __init__(self, variant: Variant):
        self.losing_game = variant.stalemate is not Stalemate.DRAW

    def end(self, position: ChessPosition) -> Outcome | None:
        for colour in (position.turn_index, position.turn_index ^ 1):
            royal = position.royal(colour)
            if position.side(colour) & ~royal:
                continue
            if position.pockets is not None and any(position.pockets[colour]):
                continue
            if royal and not self.losing_game:
                continue
            winner: Color = "w" if (colour == 0) == self.losing_game else "b"
            return Outcome(winner, EndReason.NO_PIECES)
        return None
