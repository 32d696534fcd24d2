"""Extinction chess (as Fairy-Stockfish plays it): a side that has lost every piece of one
of the kinds it started with loses; nothing is royal, so there is no check and kings may be
captured. The kinds are those of the variant's start array. Nothing here raises."""

from __future__ import annotations

from typing import TYPE_CHECKING

from notation.game.chess.twists import TwistRule
from notation.game.outcome import EndReason, Outcome
from notation.variants import Variant

if TYPE_CHECKING:
    from notation.game.chess.position import ChessPosition


class Extinction(TwistRule):
    """Each kind of the start army must survive."""

    def __init__(self, variant: Variant):
        placement = variant.start_fen.split()[0]
        self.kinds = (
            frozenset(ch.lower() for ch in placement if ch.isupper()),
            frozenset(ch for ch in placement if ch.islower()),
        )

    def end(self, position: ChessPosition) -> Outcome | None:
        rules = position.rules
        # The side that just moved is judged last: its own move cannot leave it extinct
        # unless it also made the mover's opponent extinct, and then the opponent loses.
        for colour in (position.turn_index, position.turn_index ^ 1):
            mine = position.side(colour)
            for letter in sorted(self.kinds[colour]):
                if not position.board(rules.kind_of[letter]) & mine:
                    return Outcome("b" if colour == 0 else "w", EndReason.EXTINCTION)
        return None
