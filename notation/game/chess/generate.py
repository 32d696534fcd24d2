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
from notation.rules.chess_attacks import (
    KING,
    KNIGHT,
    PAWN,
    bishop_attacks,
    grasshopper_attacks,
    queen_attacks,
    rook_attacks,
)
from notation.rules.chess_lines import BETWEEN, LINE
from notation.rules.square_set import BIT, count, down, pop_square, squares, up
from notation.variants import Movement

if TYPE_CHECKING:  # i64: compiled, a machine integer (notation.rules.square_set)
    from mypy_extensions import i64

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
_GRASSHOPPER: Final = Movement.GRASSHOPPER


def pseudo_legal_moves(position: ChessPosition) -> list[Move]:
    """Every move the side to move's pieces can make, castling and en passant included."""
    rules = position.rules
    us = position.turn_index
    ours: i64 = position.side(us)
    theirs: i64 = position.side(us ^ 1)
    occupied: i64 = ours | theirs
    moves: list[Move] = []
    movements = rules.movements
    kinds = rules.kinds
    # Square by square (a1 first), so that moves come in the order of their pieces.
    rest: i64 = ours
    while rest:
        sq, rest = pop_square(rest)
        kind = 0
        for kind in kinds:
            board: i64 = position.board(kind)
            if board >> sq & 1:
                break
        movement = movements[kind]
        if movement is _PAWN:
            _pawn_moves(position, sq, us, occupied, theirs, moves)
            continue
        targets: i64 = movement_targets(movement, sq, occupied) & ~ours
        while targets:
            target, targets = pop_square(targets)
            moves.append(Move(sq, target))
        if kind == rules.castling_kind and position.castling:
            add_castling_moves(position, sq, us, moves)
    return moves


def piece_moves_to(position: ChessPosition, kind: int, target: int) -> list[Move]:
    """The pseudo-legal moves of the side to move's pieces of ``kind`` to ``target``
    (promotions and en passant included, castling not), in ``pseudo_legal_moves``'s order:
    what a SAN or UCI move names, found without generating the rest."""
    rules = position.rules
    us = position.turn_index
    ours: i64 = position.side(us)
    if ours >> target & 1:
        return []
    theirs: i64 = position.side(us ^ 1)
    occupied: i64 = ours | theirs
    mine: i64 = position.board(kind) & ours
    moves: list[Move] = []
    movement = rules.movements[kind]
    if movement is _PAWN:
        # The pawns that may reach ``target``: those attacking it, and the one or two
        # squares behind it on its file; their moves say which do.
        step = rules.files if us == 0 else -rules.files
        near: i64 = PAWN[us ^ 1][target]
        for behind in (target - step, target - 2 * step):
            if 0 <= behind < rules.size:
                near |= BIT[behind]
        found: list[Move] = []
        for sq in squares(mine & near):
            _pawn_moves(position, sq, us, occupied, theirs, found)
        for move in found:
            if move.target == target:
                moves.append(move)
        return moves
    for sq in squares(mine):
        if movement_targets(movement, sq, occupied) >> target & 1:
            moves.append(Move(sq, target))
    return moves


def piece_origins(position: ChessPosition, kind: int, target: int) -> tuple[bool, i64]:
    """(True, the squares of the side to move's pieces of ``kind`` that reach ``target`` by
    their movement), found backwards from ``target``: a knight, king or slider reaches it
    from where the same piece on ``target`` would reach; a pawn by a push to an empty square
    or a capture of a piece standing there (en passant is not looked for). Nothing is
    judged but movement: not pins, checks, promotion or the twists. (False, 0) for a
    movement whose moves are not found backwards (grasshoppers, whose hurdle is before
    them)."""
    rules = position.rules
    us = position.turn_index
    ours: i64 = position.side(us)
    if ours >> target & 1:
        return True, 0
    theirs: i64 = position.side(us ^ 1)
    occupied: i64 = ours | theirs
    mine: i64 = position.board(kind) & ours
    movement = rules.movements[kind]
    if movement is _PAWN:
        if theirs >> target & 1:
            found: i64 = PAWN[us ^ 1][target] & mine
            return True, found
        step = rules.files if us == 0 else -rules.files
        one = target - step
        if not 0 <= one < rules.size:
            return True, 0
        if mine >> one & 1:
            found = BIT[one]
            return True, found
        two = one - step
        if occupied >> one & 1 or not 0 <= two < rules.size or not mine >> two & 1:
            return True, 0
        start: i64 = BIT[two] & rules.double_step_from[us]
        return True, start
    if movement is _GRASSHOPPER:
        return False, 0
    found = movement_targets(movement, target, occupied) & mine
    return True, found


def _pawn_moves(position: ChessPosition, sq: int, us: int, occupied: i64, theirs: i64, moves: list[Move]) -> None:
    rules = position.rules
    files = rules.files
    step = files if us == 0 else -files
    promotion_rank: i64 = rules.promotion_rank[us]
    targets: i64 = PAWN[us][sq] & theirs
    one = sq + step
    if 0 <= one < rules.size and not occupied >> one & 1:
        targets |= BIT[one]
        if rules.double_step_from[us] >> sq & 1:
            two = one + step
            if not occupied >> two & 1:
                targets |= BIT[two]
    while targets:
        target, targets = pop_square(targets)
        if promotion_rank >> target & 1:
            for kind in rules.promotions:
                moves.append(Move(sq, target, rules.letters[kind]))
        else:
            moves.append(Move(sq, target))
    ep = position.ep
    if ep >= 0 and rules.en_passant and PAWN[us][sq] >> ep & 1 and not occupied >> ep & 1:
        behind = ep - step
        their_pawns: i64 = position.board(rules.pawn) & theirs
        if their_pawns >> behind & 1:
            moves.append(Move(sq, ep, "", "", _EN_PASSANT))


def add_castling_moves(position: ChessPosition, king: int, us: int, moves: list[Move]) -> None:
    """Castling with each rook ``castling_rooks`` finds, in the order of the rooks' squares."""
    rooks: i64 = castling_rooks(position, king, us)
    while rooks:
        rook, rooks = pop_square(rooks)
        moves.append(Move(king, rook, "", "", _CASTLE))


def castling_rooks(position: ChessPosition, king: int, us: int) -> i64:
    """The squares of the rooks the castling piece on ``king`` may castle with: those the
    side still has a right for, the squares between king and rook targets empty but for
    the two, and (where check exists) the king not attacked on its way, as the Chess960
    rules say (standard castling is the same rule)."""
    rules = position.rules
    back: i64 = rules.back_rank[us]
    rooks: i64 = position.castling & back & position.board(rules.rook_kind) & position.side(us)
    promoted: i64 = position.promoted
    if not rooks or not back >> king & 1 or promoted >> king & 1:
        return 0
    files = rules.files
    rank_start = king - king % files
    occupied: i64 = position.occupied
    king_bit: i64 = BIT[king]
    found: i64 = 0
    rest: i64 = rooks
    while rest:
        rook, rest = pop_square(rest)
        a_side = rook < king
        king_to = rank_start + (2 if a_side else files - 2)
        rook_to = rank_start + (3 if a_side else files - 3)
        rook_bit: i64 = BIT[rook]
        path: i64 = BETWEEN[king][king_to] | BETWEEN[rook][rook_to] | BIT[king_to] | BIT[rook_to]
        if (occupied ^ king_bit ^ rook_bit) & path:
            continue
        if position.castling_attacked(king, king_to, rook, rook_to):
            continue
        found |= rook_bit
    return found


def count_moves(position: ChessPosition, king: int, checkers: i64, pinned: i64, allowed: i64, enough: int = -1) -> int:
    """The number of legal moves of a position whose legal moves are its pieces' own,
    counted from their target squares without making a ``Move`` (but for en passant and
    pinned pawns, which are few): perft's last ply. ``king``, ``checkers``, ``pinned`` and
    ``allowed`` are ``ChessPosition._guard()``'s. With ``enough`` > 0 it stops once it has
    counted that many (the count is then at least ``enough``, not exact)."""
    rules = position.rules
    us = position.turn_index
    them = us ^ 1
    ours: i64 = position.side(us)
    theirs: i64 = position.side(them)
    occupied: i64 = ours | theirs
    movements = rules.movements
    lines = LINE[king] if king >= 0 else LINE[0]
    found = 0
    pawn_kind = rules.pawn
    if enough == 1 and checkers and _king_escapes(position, king, pawn_kind, ours, occupied, them):
        return 1  # in check, a king's step is the likeliest legal move: looked at first
    for kind in rules.kinds:
        movement = movements[kind]
        mine: i64 = position.board(kind) & ours
        if not mine:
            continue
        if kind == pawn_kind:
            found += _count_pawns(position, mine & ~pinned, us, occupied, theirs, allowed)
            mine &= pinned
        while mine:
            sq, mine = pop_square(mine)
            if sq == king:
                without: i64 = occupied ^ BIT[king]
                steps: i64 = movement_targets(movement, sq, occupied) & ~ours
                while steps:
                    target, steps = pop_square(steps)
                    if not position.attackers(target, them, without):
                        found += 1
            else:
                limit: i64 = allowed
                if pinned >> sq & 1:
                    limit &= lines[sq]
                if movement is _PAWN:
                    found += _count_pawn(position, sq, us, occupied, theirs, limit)
                else:
                    targets: i64 = movement_targets(movement, sq, occupied) & ~ours & limit
                    if targets:
                        found += count(targets)
            if kind == rules.castling_kind and position.castling and not checkers:
                found += count(castling_rooks(position, sq, us))
            if 0 < enough <= found:
                return found
    return found


def _king_escapes(position: ChessPosition, king: int, pawn_kind: int, ours: i64, occupied: i64, them: int) -> bool:
    """Whether the royal piece on ``king`` (-1: none) has a step to a square ``them`` do not
    attack, as ``count_moves`` counts the royal piece's moves."""
    if king < 0:
        return False
    for kind in position.rules.kinds:
        if kind != pawn_kind and position.board(kind) >> king & 1:
            without: i64 = occupied ^ BIT[king]
            steps: i64 = movement_targets(position.rules.movements[kind], king, occupied) & ~ours
            while steps:
                target, steps = pop_square(steps)
                if not position.attackers(target, them, without):
                    return True
            return False
    return False


def movement_targets(movement: Movement, sq: int, occupied: i64) -> i64:
    """The squares a piece of ``movement`` on ``sq`` attacks (moves to), pawns aside."""
    if movement is _KNIGHT:
        found: i64 = KNIGHT[sq]
        return found
    if movement is _KING:
        found = KING[sq]
        return found
    if movement is _BISHOP:
        return bishop_attacks(sq, occupied)
    if movement is _ROOK:
        return rook_attacks(sq, occupied)
    if movement is _QUEEN:
        return queen_attacks(sq, occupied)
    return grasshopper_attacks(sq, occupied)


def _count_pawns(position: ChessPosition, pawns: i64, us: int, occupied: i64, theirs: i64, allowed: i64) -> int:
    """The legal moves of the unpinned ``pawns``, counted a whole set of pawns at a time by
    shifting it: pushes, double steps, each capture direction, promotions counted once per
    piece they may become; en passant move by move."""
    if not pawns:
        return 0
    rules = position.rules
    files = rules.files
    empty: i64 = ~occupied
    first_file: i64 = rules.first_file
    last_file: i64 = rules.last_file
    steppers: i64 = rules.double_step_from[us]
    if us == 0:
        single: i64 = up(pawns, files) & empty
        double: i64 = up(up(pawns & steppers, files) & empty, files) & empty
        left: i64 = up(pawns & ~first_file, files - 1) & theirs
        right: i64 = up(pawns & ~last_file, files + 1) & theirs
    else:
        single = down(pawns, files) & empty
        double = down(down(pawns & steppers, files) & empty, files) & empty
        left = down(pawns & ~first_file, files + 1) & theirs
        right = down(pawns & ~last_file, files - 1) & theirs
    steps: i64 = single & allowed
    captures_left: i64 = left & allowed
    captures_right: i64 = right & allowed
    found = count(steps) + count(captures_left) + count(captures_right) + count(double & allowed)
    promotion: i64 = rules.promotion_rank[us]
    if (steps | captures_left | captures_right) & promotion:  # a move per piece a pawn may become
        promoting = count(steps & promotion) + count(captures_left & promotion) + count(captures_right & promotion)
        found += promoting * (len(rules.promotions) - 1)
    ep = position.ep
    if ep >= 0 and rules.en_passant and not occupied >> ep & 1:
        for sq in squares(PAWN[us ^ 1][ep] & pawns):
            found += position.legal_en_passant(Move(sq, ep, "", "", _EN_PASSANT))
    return found


def _count_pawn(position: ChessPosition, sq: int, us: int, occupied: i64, theirs: i64, limit: i64) -> int:
    """The legal moves of the pinned pawn on ``sq``, limited to ``limit``."""
    moves: list[Move] = []
    _pawn_moves(position, sq, us, occupied, theirs, moves)
    found = 0
    for move in moves:
        if move.kind is _EN_PASSANT:
            found += position.legal_en_passant(move)
        elif limit >> move.target & 1:
            found += 1
    return found
