"""A placement phase (the itsyourturn Screen family, Fairy-Stockfish's placement): while the
side to move has pieces in hand, its move is placing one on its own region (the first
``Placement.ranks`` ranks), with the variant's restrictions: pawns never on the last rank
nor, unless the army allows, on the first; one pawn per file; bishops on both colours. As
any drop, a placement may not leave the placer's king attacked (where check exists): play
then starts from a legal position. Nothing here raises."""

from __future__ import annotations

from typing import TYPE_CHECKING

from notation.game.chess.twists import MoveChange, TwistRule
from notation.game.move import Move, MoveKind
from notation.rules.square_set import DARK_SQUARES, LIGHT_SQUARES, SquareSet
from notation.variants import BishopColours, Movement, PawnFiles, Placement, Variant

if TYPE_CHECKING:
    from notation.game.chess.position import ChessPosition

_DROP = MoveKind.DROP
_DARK = SquareSet(DARK_SQUARES)
_LIGHT = SquareSet(LIGHT_SQUARES)


class PlacementPhase(TwistRule):
    """Pieces are placed from the hand before play starts."""

    move_change = MoveChange.REPLACES

    def __init__(self, variant: Variant):
        self.placement = variant.placement or Placement()
        self.pawns_on_first_rank = tuple(army.pawns_on_first_rank for army in variant.armies)

    def only_moves(self, position: ChessPosition) -> list[Move] | None:
        pockets = position.pockets
        us = position.turn_index
        if pockets is None or not any(pockets[us]):
            return None
        rules = position.rules
        region = SquareSet()
        for rank in range(self.placement.ranks):
            region |= SquareSet.rank(rank if us == 0 else 7 - rank)
        empty = region - SquareSet(position.occupied)
        ours = position.side(us)
        moves: list[Move] = []
        for kind, count in enumerate(pockets[us]):
            if not count:
                continue
            targets = empty
            movement = rules.movements[kind]
            placed = SquareSet(position.board(kind) & ours)
            if movement is Movement.PAWN:
                targets -= SquareSet(rules.promotion_rank[us])
                if not self.pawns_on_first_rank[us]:
                    targets -= SquareSet(rules.back_rank[us])
                if self.placement.pawn_files is PawnFiles.ONE_PER_FILE:
                    for pawn in placed:
                        targets -= SquareSet.file(pawn & 7)
            elif movement is Movement.BISHOP and self.placement.bishop_colours is BishopColours.DIFFERENT:
                for bishop in placed:
                    targets -= _DARK if bishop in _DARK else _LIGHT
            letter = rules.letters[kind]
            for sq in targets:
                moves.append(Move(sq, sq, "", letter, _DROP))
        # A placement may not leave the placer's king attacked (Fairy-Stockfish judges drops
        # so; where check exists), so play starts from a legal position.
        return [move for move in moves if position.leaves_royal_safe(move)]

    def after(self, before: ChessPosition, move: Move, after: ChessPosition, captured: int, was_promoted: bool) -> None:
        if move.kind is _DROP and after.pockets is not None:
            after.pockets[before.turn_index][before.rules.kind_of[move.drop]] -= 1
