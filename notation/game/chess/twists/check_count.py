"""Three-check (and n-check): each check a move gives is counted against the checks the
mover still has to give; the side that gives its last one wins. Nothing here raises."""

from __future__ import annotations

from typing import TYPE_CHECKING

from notation.game.chess.twists import TwistRule
from notation.game.move import Move
from notation.game.outcome import EndReason, Outcome

if TYPE_CHECKING:
    from notation.game.chess.position import ChessPosition


class CheckCounting(TwistRule):
    """Counts checks given; none left to give wins."""

    def end(self, position: ChessPosition) -> Outcome | None:
        checks = position.checks
        if checks is None:
            return None
        if checks[0] <= 0:
            return Outcome("w", EndReason.THIRD_CHECK)
        if checks[1] <= 0:
            return Outcome("b", EndReason.THIRD_CHECK)
        return None

    def after(self, before: ChessPosition, move: Move, after: ChessPosition, captured: int, was_promoted: bool) -> None:
        checks = after.checks
        if checks is not None and after.is_check():
            checks[before.turn_index] -= 1
