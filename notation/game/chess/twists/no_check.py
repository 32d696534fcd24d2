"""No check (the itsyourturn rules page's Dark Chess): a player may leave or put the king
attacked, castle through attacked squares, and the game ends when a king is captured.
Nothing here raises."""

from __future__ import annotations

from typing import TYPE_CHECKING

from notation.game.chess.safety import Safety
from notation.game.chess.twists import TwistRule
from notation.game.outcome import EndReason, Outcome

if TYPE_CHECKING:
    from notation.game.chess.position import ChessPosition


class NoCheck(TwistRule):
    """Kings are captured, not mated."""

    def safety(self, base: Safety) -> Safety:
        return Safety.NONE

    def end(self, position: ChessPosition) -> Outcome | None:
        rules = position.rules
        for colour in (0, 1):
            if position.royal(colour):
                continue
            pockets = position.pockets
            if pockets is not None and any(pockets[colour][kind] for kind in rules.royal_kinds):
                continue  # the king is still to be placed
            return Outcome("b" if colour == 0 else "w", EndReason.ROYAL_CAPTURED)
        return None
