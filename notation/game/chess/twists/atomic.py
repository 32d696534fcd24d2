"""Atomic chess (lichess's rules, as python-chess plays them): a capture explodes the
capturing piece and every piece but pawns next to the capture square; a move must not blow
up the mover's own king, and one that blows up the enemy king wins even if it leaves the
mover in check; kings that touch cannot check each other. Castling rights go with exploded
rooks and kings. Nothing here raises."""

from __future__ import annotations

from typing import TYPE_CHECKING

from notation.game.chess.bits import BIT, KING
from notation.game.chess.safety import Safety
from notation.game.chess.twists import TwistRule, royal_loss
from notation.game.move import Move
from notation.game.outcome import EndReason, Outcome

if TYPE_CHECKING:
    from notation.game.chess.position import ChessPosition


class Explosions(TwistRule):
    """Captures explode."""

    def safety(self, base: Safety) -> Safety:
        return Safety.ATOMIC

    def end(self, position: ChessPosition) -> Outcome | None:
        return royal_loss(position, EndReason.ROYAL_EXPLODED)

    def after(self, before: ChessPosition, move: Move, after: ChessPosition, captured: int, was_promoted: bool) -> None:
        if captured < 0:
            return
        rules = before.rules
        target = move.target
        pawns = after.board(rules.pawn) if rules.pawn >= 0 else 0
        blast = (KING[target] & ~pawns) | BIT[target]
        occupied = after.occupied
        for colour in (0, 1):
            royal = after.royal(colour)
            if royal & blast & occupied:
                after.castling &= ~rules.back_rank[colour]
        keep = ~blast
        after.castling &= keep
        after.promoted &= keep
        after.remove(blast)
