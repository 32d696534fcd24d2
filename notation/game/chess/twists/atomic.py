"""Atomic chess (lichess's rules, as python-chess plays them), the whole of its move rules:
a capture explodes the capturing piece and every piece but pawns next to the capture
square; a move must not blow up the mover's own king, and one that blows up the enemy king
wins even if it leaves the mover in check; kings that touch cannot check each other (a king
cannot capture, and a capture beside one's own king explodes it), so a king beside the
enemy king is safe, on its castling path too. Castling rights go with exploded rooks and
kings. What a setup of Atomic may hold (a side to move without its king, checks that
explosions opened) is the rules layer's ``notation.rules.king_rules.AtomicKings``, below
the game in the layer order. Nothing here raises."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from notation.game.chess.twists import TwistRule, royal_loss
from notation.game.move import Move, MoveKind
from notation.game.outcome import EndReason, Outcome
from notation.rules.chess_attacks import KING
from notation.rules.square_set import BIT, first, several, squares

if TYPE_CHECKING:  # i64: compiled, a machine integer (notation.rules.square_set)
    from mypy_extensions import i64

    from notation.game.chess.position import ChessPosition

_NORMAL: Final = MoveKind.NORMAL


class Explosions(TwistRule):
    """Captures explode; touching kings never check."""

    changes_king_safety = True

    def end(self, position: ChessPosition) -> Outcome | None:
        return royal_loss(position, EndReason.ROYAL_EXPLODED)

    def king_attackers(self, position: ChessPosition, colour: int) -> i64:
        if _kings_touch(position):
            return 0
        return position.royal_attackers(colour)

    def king_safe_squares(self, position: ChessPosition) -> i64:
        safe: i64 = 0
        for enemy in squares(position.royal(position.turn_index ^ 1)):
            safe |= KING[enemy]
        return safe

    def leaves_king_safe(self, position: ChessPosition, move: Move) -> bool:
        us = position.turn_index
        if move.kind is _NORMAL and not position.side(us ^ 1) >> move.target & 1:
            quiet = _quiet_move_is_safe(position, move)
            if quiet >= 0:
                return quiet == 1
        after = position.play_legal(move)
        mine: i64 = after.royal(us)
        theirs: i64 = after.royal(us ^ 1)
        if not mine:
            return False
        if not theirs:
            return True
        return _kings_touch(after) or not after.is_attacked(mine, us ^ 1)

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


def _kings_touch(position: ChessPosition) -> bool:
    """Whether a white and a black royal piece stand side by side."""
    black: i64 = position.royal(1)
    return any(KING[sq] & black for sq in squares(position.royal(0)))


def _quiet_move_is_safe(position: ChessPosition, move: Move) -> int:
    """For a move that captures nothing (so nothing explodes): 1 if it leaves the mover's
    king safe, 0 if not, -1 where the position it leads to must judge (several kings).
    Safe: the other king is gone, the kings stand side by side afterwards (touching kings
    never check), or no enemy piece attacks the king on the board after the move."""
    us = position.turn_index
    mine: i64 = position.royal(us)
    theirs: i64 = position.royal(us ^ 1)
    if not mine or several(mine) or several(theirs):
        return -1
    if not theirs:
        return 1
    king = first(mine)
    if move.origin == king:
        king = move.target
    if KING[king] & theirs:
        return 1
    occupied: i64 = position.occupied ^ BIT[move.origin] | BIT[move.target]
    return 0 if position.attackers(king, us ^ 1, occupied) else 1
