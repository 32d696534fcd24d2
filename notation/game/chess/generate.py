"""Pseudo-legal moves of a chess-family position: every move its pieces can make by their
movement, castling included, before royal safety and the twists judge them.

``ChessPosition.legal_moves`` is the only caller; it filters these by safety
(``ChessRules.safety``) and the twists. Moves come in one stable order: by piece square
(a1 first), then target square, promotions in the variant's ``promotions`` order;
castling after the castling piece's other moves. Nothing here raises.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from notation.game.move import Move, MoveKind
from notation.rules.attacks import Tables
from notation.rules.bitboard import squares
from notation.variants import Movement

if TYPE_CHECKING:
    from notation.game.chess.position import ChessPosition

_CASTLE = MoveKind.CASTLE
_EN_PASSANT = MoveKind.EN_PASSANT


def pseudo_legal_moves(position: ChessPosition) -> list[Move]:
    """Every move the side to move's pieces can make, castling and en passant included."""
    rules = position.rules
    tables = rules.tables
    us = position.turn_index
    ours = position.colours[us]
    theirs = position.colours[us ^ 1]
    occupied = ours | theirs
    moves: list[Move] = []
    pieces = position.pieces
    movements = rules.movements
    # Every piece of ours, by square, so that moves come square by square.
    kind_at: dict[int, int] = {}
    for kind in rules.kinds:
        for sq in squares(pieces[kind] & ours):
            kind_at[sq] = kind
    for sq in sorted(kind_at):
        kind = kind_at[sq]
        movement = movements[kind]
        if movement is Movement.PAWN:
            _pawn_moves(position, sq, us, occupied, theirs, moves)
            continue
        if movement is Movement.KNIGHT:
            targets = tables.knight[sq]
        elif movement is Movement.KING:
            targets = tables.king[sq]
        elif movement is Movement.BISHOP:
            targets = tables.bishop_attacks(sq, occupied)
        elif movement is Movement.ROOK:
            targets = tables.rook_attacks(sq, occupied)
        elif movement is Movement.QUEEN:
            targets = tables.queen_attacks(sq, occupied)
        else:  # GRASSHOPPER; the other movements are Xiangqi's, never in the chess family
            targets = tables.grasshopper_attacks(sq, occupied)
        for target in squares(targets & ~ours):
            moves.append(Move(sq, target))
        if kind == rules.castling_kind and position.castling:
            _castling_moves(position, sq, us, moves)
    return moves


def _pawn_moves(position: ChessPosition, sq: int, us: int, occupied: int, theirs: int, moves: list[Move]) -> None:
    rules = position.rules
    files = rules.files
    step = files if us == 0 else -files
    promotion_rank = rules.promotion_rank[us]
    targets = rules.tables.pawn[us][sq] & theirs
    one = sq + step
    if 0 <= one < rules.size and not occupied >> one & 1:
        targets |= 1 << one
        rank_bit = 1 << sq
        if (rules.double_step[us] and rank_bit & rules.second_rank[us]) or (
            rules.first_rank_double_step[us] and rank_bit & rules.back_rank[us]
        ):
            two = one + step
            if not occupied >> two & 1:
                targets |= 1 << two
    for target in squares(targets):
        if promotion_rank >> target & 1:
            for kind in rules.promotions:
                moves.append(Move(sq, target, rules.letters[kind]))
        else:
            moves.append(Move(sq, target))
    ep = position.ep
    if ep >= 0 and rules.en_passant and rules.tables.pawn[us][sq] >> ep & 1 and not occupied >> ep & 1:
        behind = ep - step
        if (position.pieces[rules.pawn] & theirs) >> behind & 1:
            moves.append(Move(sq, ep, "", "", _EN_PASSANT))


def _castling_moves(position: ChessPosition, king: int, us: int, moves: list[Move]) -> None:
    """Castling with each rook the side still has a right for: the squares between king and
    rook targets empty but for the two, and (where check exists) the king not attacked on
    its way, as the Chess960 rules say (standard castling is the same rule)."""
    rules = position.rules
    back = rules.back_rank[us]
    if not (1 << king) & back or position.promoted >> king & 1:
        return
    tables = rules.tables
    files = rules.files
    rank_start = king - king % files
    occupied = position.colours[0] | position.colours[1]
    between = tables.between
    for rook in squares(position.castling & back & position.pieces[rules.rook_kind] & position.colours[us]):
        a_side = rook < king
        king_to = rank_start + (2 if a_side else files - 2)
        rook_to = rank_start + (3 if a_side else files - 3)
        king_bit, rook_bit = 1 << king, 1 << rook
        path = between[king][king_to] | between[rook][rook_to] | (1 << king_to) | (1 << rook_to)
        if (occupied ^ king_bit ^ rook_bit) & path:
            continue
        if position.castling_attacked(king, king_to, rook, rook_to):
            continue
        moves.append(Move(king, rook, "", "", _CASTLE))


def count_moves(position: ChessPosition, guard: tuple[int, int, int, int]) -> int:
    """The number of legal moves of a position whose legal moves are its pieces' own,
    counted from their target squares without making a ``Move`` (but for en passant and
    castling, which are few): perft's last ply. ``guard`` is ``ChessPosition._guard()``."""
    king, checkers, pinned, allowed = guard
    rules = position.rules
    tables = rules.tables
    us = position.turn_index
    them = us ^ 1
    ours = position.colours[us]
    theirs = position.colours[them]
    occupied = ours | theirs
    pieces = position.pieces
    movements = rules.movements
    lines = tables.line[king] if king >= 0 else tables.line[0]
    count = 0
    for kind in rules.kinds:
        movement = movements[kind]
        for sq in squares(pieces[kind] & ours):
            if sq == king:
                without = occupied ^ (1 << king)
                for target in squares(tables.king[sq] & ~ours if movement is Movement.KING else _targets(
                        tables, movement, sq, occupied) & ~ours):
                    if not position.attackers(target, them, without):
                        count += 1
                if kind == rules.castling_kind and position.castling and not checkers:
                    castles: list[Move] = []
                    _castling_moves(position, sq, us, castles)
                    count += len(castles)
                continue
            limit = allowed
            if pinned >> sq & 1:
                limit &= lines[sq]
            if movement is Movement.PAWN:
                count += _count_pawn(position, sq, us, occupied, theirs, limit)
                continue
            targets = _targets(tables, movement, sq, occupied) & ~ours & limit
            if targets:
                count += targets.bit_count()
            if kind == rules.castling_kind and position.castling and not checkers:
                castles = []
                _castling_moves(position, sq, us, castles)
                count += len(castles)
    return count


def _targets(tables: Tables, movement: Movement, sq: int, occupied: int) -> int:
    """The squares a piece of ``movement`` on ``sq`` attacks (moves to), pawns aside."""
    if movement is Movement.KNIGHT:
        return tables.knight[sq]
    if movement is Movement.KING:
        return tables.king[sq]
    if movement is Movement.BISHOP:
        return tables.bishop_attacks(sq, occupied)
    if movement is Movement.ROOK:
        return tables.rook_attacks(sq, occupied)
    if movement is Movement.QUEEN:
        return tables.queen_attacks(sq, occupied)
    return tables.grasshopper_attacks(sq, occupied)


def _count_pawn(position: ChessPosition, sq: int, us: int, occupied: int, theirs: int, limit: int) -> int:
    rules = position.rules
    moves: list[Move] = []
    _pawn_moves(position, sq, us, occupied, theirs, moves)
    count = 0
    for move in moves:
        if move.kind is _EN_PASSANT:
            count += position.legal_en_passant(move)
        elif limit >> move.target & 1:
            count += 1
    del rules
    return count
