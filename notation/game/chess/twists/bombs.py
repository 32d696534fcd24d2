"""itsyourturn Atomic (the itsyourturn rules page, "Atomic Chess (CT)"): each side's bomb
is one of its pieces, named in the FEN's bomb field; detonating it is a whole move that
destroys the bomb and every piece on the squares around it, pawns and kings included. It
may get a player out of check; it must not leave the mover's surviving king in check.
Blowing up the enemy king wins, one's own loses, both at once draws. Captures are
ordinary. The bomb travels with its piece and is gone once that piece is captured or
destroyed. Designating the bombs happens before the game (the FEN field), not as a move.

Notation (our choice, documented in docs/moves.md): UCI writes a detonation as the bomb's
square twice (``e4e4``, which no other move is), SAN and LAN as ``@@e4``.
Nothing here raises."""

from __future__ import annotations

from typing import TYPE_CHECKING

from notation.game.chess.twists import MoveChange, TwistRule, royal_loss
from notation.game.move import Move, MoveKind
from notation.game.outcome import EndReason, Outcome
from notation.rules.chess_attacks import KING
from notation.rules.square_set import BIT

if TYPE_CHECKING:
    from notation.game.chess.position import ChessPosition

_DETONATE = MoveKind.DETONATE
_CASTLE = MoveKind.CASTLE
_EN_PASSANT = MoveKind.EN_PASSANT


class Bombs(TwistRule):
    """Each side's bomb may be detonated as a move."""

    move_change = MoveChange.ADDS

    def end(self, position: ChessPosition) -> Outcome | None:
        return royal_loss(position, EndReason.ROYAL_EXPLODED)

    def extra_moves(self, position: ChessPosition) -> list[Move]:
        bombs = position.bombs
        if bombs is None:
            return []
        sq = bombs[position.turn_index]
        if sq < 0 or not position.side(position.turn_index) >> sq & 1:
            return []
        return [Move(sq, sq, "", "", _DETONATE)]

    def count_extra_moves(self, position: ChessPosition, allowed: int) -> int:
        return -1  # a detonation's legality is judged on the position it leads to

    def offers(self, position: ChessPosition, move: Move) -> bool:
        return move.kind is _DETONATE and move in self.extra_moves(position)

    def after(self, before: ChessPosition, move: Move, after: ChessPosition, captured: int, was_promoted: bool) -> None:
        bombs = after.bombs
        if bombs is None:
            return
        rules = before.rules
        us, them = before.turn_index, before.turn_index ^ 1
        if move.kind is _DETONATE:
            blast = KING[move.origin] | BIT[move.origin]
            for colour in (0, 1):
                if after.royal(colour) & blast:
                    after.castling &= ~rules.back_rank[colour]
                if bombs[colour] >= 0 and blast >> bombs[colour] & 1:
                    bombs[colour] = -1
            keep = ~blast
            after.castling &= keep
            after.remove(blast)
            return
        if move.kind is _CASTLE:
            if bombs[us] == move.origin:
                bombs[us] = before.castling_target(move)
            elif bombs[us] == move.target:
                files = rules.files
                start = move.origin - move.origin % files
                bombs[us] = start + (3 if move.target < move.origin else files - 3)
            return
        if captured >= 0:
            taken = move.target
            if move.kind is _EN_PASSANT:
                taken = move.target - rules.files if us == 0 else move.target + rules.files
            if bombs[them] == taken:
                bombs[them] = -1
        if bombs[us] == move.origin and move.origin != move.target:
            bombs[us] = move.target
