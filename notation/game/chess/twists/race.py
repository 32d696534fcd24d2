"""Racing Kings (lichess's rules, as python-chess plays them): no move may give check, and
the first king on the last rank wins; when White's king gets there first, Black has one
move to reach it too, which draws. Nothing here raises."""

from __future__ import annotations

from typing import TYPE_CHECKING

from notation.game.chess.twists import MoveChange, TwistRule
from notation.game.move import Move
from notation.game.outcome import EndReason, Outcome
from notation.rules.chess_attacks import KING
from notation.rules.square_set import squares

if TYPE_CHECKING:
    from notation.game.chess.position import ChessPosition


class Race(TwistRule):
    """Kings race to the last rank; checks are never given."""

    move_change = MoveChange.JUDGES_EACH

    def allows(self, position: ChessPosition, move: Move) -> bool:
        return not position.gives_check(move)

    def filter(self, position: ChessPosition, moves: list[Move]) -> list[Move]:
        return [move for move in moves if not position.gives_check(move)]

    def end(self, position: ChessPosition) -> Outcome | None:
        rules = position.rules
        goal = rules.back_rank[1]
        white, black = position.royal(0), position.royal(1)
        if not (white | black) & goal:
            return None
        if position.turn_index == 0 or black & goal or not black:
            if white & goal and black & goal:
                return Outcome(None, EndReason.RACE)
            return Outcome("w" if white & goal else "b", EndReason.RACE)
        # White is there and Black is to move: Black may still draw by reaching it at once.
        occupied = position.occupied
        for king in squares(black):
            for target in squares(KING[king] & goal & ~position.side(1)):
                if not position.attackers(target, 0, occupied):
                    return None
        return Outcome("w", EndReason.RACE)
