"""Crazyhouse's pockets: captured pieces go to the capturer's pocket (a promoted piece as a
pawn) and may be dropped on any empty square instead of a move; pawns never on the first or
last rank. Drops are judged by royal safety like any move. Nothing here raises."""

from __future__ import annotations

from typing import TYPE_CHECKING

from notation.game.chess.twists import MoveChange, TwistRule
from notation.game.move import Move, MoveKind
from notation.rules.square_set import count, squares

if TYPE_CHECKING:
    from notation.game.chess.position import ChessPosition

_DROP = MoveKind.DROP


class Drops(TwistRule):
    """Pieces in hand: dropped as moves, refilled by captures."""

    move_change = MoveChange.ADDS

    def extra_moves(self, position: ChessPosition) -> list[Move]:
        pockets = position.pockets
        if pockets is None:
            return []
        rules = position.rules
        held = pockets[position.turn_index]
        empty = rules.all & ~position.occupied
        moves: list[Move] = []
        for kind, held_count in enumerate(held):
            if not held_count:
                continue
            targets = empty
            if kind == rules.pawn:
                targets &= ~(rules.back_rank[0] | rules.back_rank[1])
            letter = rules.letters[kind]
            for sq in squares(targets):
                moves.append(Move(sq, sq, "", letter, _DROP))
        return moves

    def count_extra_moves(self, position: ChessPosition, allowed: int) -> int:
        pockets = position.pockets
        if pockets is None:
            return 0
        rules = position.rules
        empty = rules.all & ~position.occupied & allowed
        found = 0
        for kind, held in enumerate(pockets[position.turn_index]):
            if held:
                found += count(empty & ~(rules.back_rank[0] | rules.back_rank[1]) if kind == rules.pawn else empty)
        return found

    def offers(self, position: ChessPosition, move: Move) -> bool:
        pockets = position.pockets
        if pockets is None or move.kind is not _DROP:
            return False
        rules = position.rules
        kind = rules.kind_of.get(move.drop, -1)
        target = move.target
        if kind < 0 or not pockets[position.turn_index][kind] or not 0 <= target < rules.size:
            return False
        if position.occupied >> target & 1:
            return False
        return kind != rules.pawn or not (rules.back_rank[0] | rules.back_rank[1]) >> target & 1

    def after(self, before: ChessPosition, move: Move, after: ChessPosition, captured: int, was_promoted: bool) -> None:
        pockets = after.pockets
        if pockets is None:
            return
        rules = before.rules
        us = before.turn_index
        if move.kind is _DROP:
            pockets[us][rules.kind_of[move.drop]] -= 1
        elif captured >= 0:
            pockets[us][rules.pawn if was_promoted else captured] += 1
