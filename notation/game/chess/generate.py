"""Pseudo-legal moves of a chess-family position: every move its pieces can make by their
movement, castling included, before royal safety and the twists judge them.

``ChessPosition.legal_moves`` is the only caller; it filters these by safety
(``ChessRules.safety``) and the twists. Moves come in one stable order: by piece square
(a1 first), then target square, promotions in the variant's ``promotions`` order;
castling after the castling piece's other moves. Nothing here raises.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from notation.game.move import Move, MoveKind
from notation.rules.attacks import Tables, bishop_attacks, rook_attacks
from notation.rules.bitboard import squares
from notation.variants import Movement

if TYPE_CHECKING:
    from notation.game.chess.position import ChessPosition

# Bound once as C statics (compiled): an enum member read off its class is an attribute
# look-up through the enum's metaclass each time.
_CASTLE: Final = MoveKind.CASTLE
_EN_PASSANT: Final = MoveKind.EN_PASSANT
_PAWN: Final = Movement.PAWN
_KNIGHT: Final = Movement.KNIGHT
_KING: Final = Movement.KING
_BISHOP: Final = Movement.BISHOP
_ROOK: Final = Movement.ROOK
_QUEEN: Final = Movement.QUEEN


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
    kinds = rules.kinds
    # Square by square (a1 first), so that moves come in the order of their pieces.
    for sq in squares(ours):
        kind = 0
        for kind in kinds:
            if pieces[kind] >> sq & 1:
                break
        movement = movements[kind]
        if movement is _PAWN:
            _pawn_moves(position, sq, us, occupied, theirs, moves)
            continue
        if movement is _KNIGHT:
            targets = tables.knight[sq]
        elif movement is _KING:
            targets = tables.king[sq]
        else:
            targets = _targets(tables, movement, sq, occupied, rules.chess_board)
        for target in squares(targets & ~ours):
            moves.append(Move(sq, target))
        if kind == rules.castling_kind and position.castling:
            _castling_moves(position, sq, us, moves)
    return moves


def piece_moves_to(position: ChessPosition, kind: int, target: int) -> list[Move]:
    """The pseudo-legal moves of the side to move's pieces of ``kind`` to ``target``
    (promotions and en passant included, castling not), in ``pseudo_legal_moves``'s order:
    what a SAN or UCI move names, found without generating the rest."""
    rules = position.rules
    us = position.turn_index
    ours = position.colours[us]
    if ours >> target & 1:
        return []
    theirs = position.colours[us ^ 1]
    occupied = ours | theirs
    mine = position.pieces[kind] & ours
    moves: list[Move] = []
    movement = rules.movements[kind]
    if movement is _PAWN:
        # The pawns that may reach ``target``: those attacking it, and the one or two
        # squares behind it on its file; their moves say which do.
        step = rules.files if us == 0 else -rules.files
        near = rules.tables.pawn[us ^ 1][target]
        for behind in (target - step, target - 2 * step):
            if 0 <= behind < rules.size:
                near |= 1 << behind
        found: list[Move] = []
        for sq in squares(mine & near):
            _pawn_moves(position, sq, us, occupied, theirs, found)
        for move in found:
            if move.target == target:
                moves.append(move)
        return moves
    tables = rules.tables
    for sq in squares(mine):
        if _targets(tables, movement, sq, occupied, rules.chess_board) >> target & 1:
            moves.append(Move(sq, target))
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
    counted from their target squares without making a ``Move`` (but for en passant,
    castling and pinned pawns, which are few): perft's last ply. ``guard`` is
    ``ChessPosition._guard()``."""
    king, checkers, pinned, allowed = guard
    rules = position.rules
    tables = rules.tables
    chess_board = rules.chess_board
    us = position.turn_index
    them = us ^ 1
    ours = position.colours[us]
    theirs = position.colours[them]
    occupied = ours | theirs
    pieces = position.pieces
    movements = rules.movements
    lines = tables.line[king] if king >= 0 else tables.line[0]
    count = 0
    pawn_kind = rules.pawn
    for kind in rules.kinds:
        movement = movements[kind]
        mine = pieces[kind] & ours
        if not mine:
            continue
        if kind == pawn_kind:
            count += _count_pawns(position, mine & ~pinned, us, occupied, theirs, allowed)
            mine &= pinned
        for sq in squares(mine):
            if sq == king:
                without = occupied ^ (1 << king)
                for target in squares(_targets(tables, movement, sq, occupied, chess_board) & ~ours):
                    if not position.attackers(target, them, without):
                        count += 1
            else:
                limit = allowed
                if pinned >> sq & 1:
                    limit &= lines[sq]
                if movement is _PAWN:
                    count += _count_pawn(position, sq, us, occupied, theirs, limit)
                else:
                    targets = _targets(tables, movement, sq, occupied, chess_board) & ~ours & limit
                    if targets:
                        count += targets.bit_count()
            if kind == rules.castling_kind and position.castling and not checkers:
                castles: list[Move] = []
                _castling_moves(position, sq, us, castles)
                count += len(castles)
    return count


def _targets(tables: Tables, movement: Movement, sq: int, occupied: int, chess_board: bool) -> int:
    """The squares a piece of ``movement`` on ``sq`` attacks (moves to), pawns aside; the
    8x8 board's sliders straight from its line tables."""
    if movement is _KNIGHT:
        return tables.knight[sq]
    if movement is _KING:
        return tables.king[sq]
    if chess_board:
        if movement is _BISHOP:
            return bishop_attacks(sq, occupied)
        if movement is _ROOK:
            return rook_attacks(sq, occupied)
        if movement is _QUEEN:
            return rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
        return tables.grasshopper_attacks(sq, occupied)
    if movement is _BISHOP:
        return tables.bishop_attacks(sq, occupied)
    if movement is _ROOK:
        return tables.rook_attacks(sq, occupied)
    if movement is _QUEEN:
        return tables.queen_attacks(sq, occupied)
    return tables.grasshopper_attacks(sq, occupied)


def _count_pawns(position: ChessPosition, pawns: int, us: int, occupied: int, theirs: int, allowed: int) -> int:
    """The legal moves of the unpinned ``pawns``, counted a whole set of pawns at a time by
    shifting it: pushes, double steps, each capture direction, promotions counted once per
    piece they may become; en passant move by move."""
    if not pawns:
        return 0
    rules = position.rules
    files = rules.files
    board = rules.all
    empty = board & ~occupied
    first_file, last_file = rules.first_file, rules.last_file
    if us == 0:
        single = (pawns << files) & empty
        steppers = 0
        if rules.double_step[0]:
            steppers = rules.second_rank[0] | (rules.back_rank[0] if rules.first_rank_double_step[0] else 0)
        double = (((pawns & steppers) << files) & empty) << files & empty
        left = ((pawns & ~first_file) << (files - 1)) & theirs & board
        right = ((pawns & ~last_file) << (files + 1)) & theirs & board
    else:
        single = (pawns >> files) & empty
        steppers = 0
        if rules.double_step[1]:
            steppers = rules.second_rank[1] | (rules.back_rank[1] if rules.first_rank_double_step[1] else 0)
        double = (((pawns & steppers) >> files) & empty) >> files & empty
        left = ((pawns & ~first_file) >> (files + 1)) & theirs
        right = ((pawns & ~last_file) >> (files - 1)) & theirs
    promotion = rules.promotion_rank[us]
    promotions = len(rules.promotions)
    count = 0
    for targets in (single & allowed, left & allowed, right & allowed):
        promoting = targets & promotion
        count += (targets ^ promoting).bit_count() + promoting.bit_count() * promotions
    count += (double & allowed).bit_count()
    ep = position.ep
    if ep >= 0 and rules.en_passant and not occupied >> ep & 1:
        for sq in squares(rules.tables.pawn[us ^ 1][ep] & pawns):
            count += position.legal_en_passant(Move(sq, ep, "", "", _EN_PASSANT))
    return count


def _count_pawn(position: ChessPosition, sq: int, us: int, occupied: int, theirs: int, limit: int) -> int:
    """The legal moves of the pinned pawn on ``sq``, limited to ``limit``."""
    moves: list[Move] = []
    _pawn_moves(position, sq, us, occupied, theirs, moves)
    count = 0
    for move in moves:
        if move.kind is _EN_PASSANT:
            count += position.legal_en_passant(move)
        elif limit >> move.target & 1:
            count += 1
    return count
