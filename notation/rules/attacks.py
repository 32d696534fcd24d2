"""Attack sets for every ``Movement``, from tables built once at import.

Leapers (knight, king, pawn) are one table lookup. Sliders look up each of the square's
lines (rank, file, two diagonals) in a table keyed by the occupancy of that line's inner
squares. The grasshopper follows queen lines to the first piece (the hurdle) and attacks
the square just beyond it. ``attacks(movement, sq, colour, occupied)`` is the one entry
point that knows every movement; nothing here raises for a square in 0..63.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from notation.variants import Movement

WHITE, BLACK = 0, 1

# (file step, rank step) of the eight queen directions; the first four increase the index.
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (1, 1), (-1, 1), (-1, 0), (0, -1), (-1, -1), (1, -1))
ORTHOGONAL = (0, 1, 4, 5)
DIAGONAL = (2, 3, 6, 7)


def _walk(sq: int, df: int, dr: int) -> list[int]:
    """Squares from ``sq`` (exclusive) to the edge in one direction."""
    out = []
    f, r = (sq & 7) + df, (sq >> 3) + dr
    while 0 <= f < 8 and 0 <= r < 8:
        out.append(r * 8 + f)
        f, r = f + df, r + dr
    return out


def _leaper(steps: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    table = []
    for sq in range(64):
        f, r = sq & 7, sq >> 3
        bb = 0
        for df, dr in steps:
            if 0 <= f + df < 8 and 0 <= r + dr < 8:
                bb |= 1 << ((r + dr) * 8 + f + df)
        table.append(bb)
    return tuple(table)


KNIGHT_ATTACKS = _leaper(((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)))
KING_ATTACKS = _leaper(tuple(DIRECTIONS))
PAWN_ATTACKS = (_leaper(((-1, 1), (1, 1))), _leaper(((-1, -1), (1, -1))))  # [colour][square]

# RAYS[d][sq]: squares from sq to the edge in direction d (sq excluded), and their lists.
RAY_SQUARES: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(_walk(sq, df, dr)) for sq in range(64)) for df, dr in DIRECTIONS
)
RAYS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(1 << s for s in ray) for ray in per_direction) for per_direction in RAY_SQUARES
)


def _subsets(mask: int) -> Iterator[int]:
    subset = 0
    while True:
        yield subset
        subset = (subset - mask) & mask
        if not subset:
            return


def _line_tables(directions: tuple[int, int]) -> tuple[tuple[int, ...], tuple[dict[int, int], ...]]:
    """Per square: (inner mask, {occupancy & mask: attacks}) for one line through it."""
    masks: list[int] = []
    tables: list[dict[int, int]] = []
    for sq in range(64):
        rays = [RAY_SQUARES[d][sq] for d in directions]
        mask = 0
        for ray in rays:
            for s in ray[:-1]:  # the last square of a ray never blocks anything further
                mask |= 1 << s
        table: dict[int, int] = {}
        for occ in _subsets(mask):
            bb = 0
            for ray in rays:
                for s in ray:
                    bb |= 1 << s
                    if occ >> s & 1:
                        break
            table[occ] = bb
        masks.append(mask)
        tables.append(table)
    return tuple(masks), tuple(tables)


_RANK_MASK, _RANK_TABLE = _line_tables((0, 4))
_FILE_MASK, _FILE_TABLE = _line_tables((1, 5))
_DIAG_MASK, _DIAG_TABLE = _line_tables((2, 6))
_ANTI_MASK, _ANTI_TABLE = _line_tables((3, 7))

ROOK_PSEUDO = tuple(RAYS[0][s] | RAYS[1][s] | RAYS[4][s] | RAYS[5][s] for s in range(64))
BISHOP_PSEUDO = tuple(RAYS[2][s] | RAYS[3][s] | RAYS[6][s] | RAYS[7][s] for s in range(64))


def _line_and_between() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    line = [[0] * 64 for _ in range(64)]
    between = [[0] * 64 for _ in range(64)]
    for a in range(64):
        for d in range(8):
            opposite = (d + 4) % 8
            full = RAYS[d][a] | RAYS[opposite][a] | (1 << a)
            inner = 0
            for b in RAY_SQUARES[d][a]:
                line[a][b] = full
                between[a][b] = inner
                inner |= 1 << b
    return tuple(map(tuple, line)), tuple(map(tuple, between))


# LINE[a][b]: the whole line through a and b (0 if they share none); BETWEEN: strictly between.
LINE, BETWEEN = _line_and_between()


def rook_attacks(sq: int, occupied: int) -> int:
    return _RANK_TABLE[sq][occupied & _RANK_MASK[sq]] | _FILE_TABLE[sq][occupied & _FILE_MASK[sq]]


def bishop_attacks(sq: int, occupied: int) -> int:
    return _DIAG_TABLE[sq][occupied & _DIAG_MASK[sq]] | _ANTI_TABLE[sq][occupied & _ANTI_MASK[sq]]


def queen_attacks(sq: int, occupied: int) -> int:
    return rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)


def _beyond() -> tuple[tuple[int, ...], ...]:
    """BEYOND[d][sq]: the bitboard of the square one step past sq in direction d (0 off board)."""
    return tuple(tuple((1 << ray[0]) if ray else 0 for ray in per_direction) for per_direction in RAY_SQUARES)


BEYOND = _beyond()


def hurdle(direction: int, sq: int, occupied: int) -> int:
    """The first occupied square from ``sq`` in ``direction``, or -1."""
    blockers = RAYS[direction][sq] & occupied
    if not blockers:
        return -1
    if direction < 4:
        return (blockers & -blockers).bit_length() - 1
    return blockers.bit_length() - 1


def grasshopper_attacks(sq: int, occupied: int) -> int:
    bb = 0
    for d in range(8):
        h = hurdle(d, sq, occupied)
        if h >= 0:
            bb |= BEYOND[d][h]
    return bb


def knight_attacks(sq: int, occupied: int = 0) -> int:
    return KNIGHT_ATTACKS[sq]


def king_attacks(sq: int, occupied: int = 0) -> int:
    return KING_ATTACKS[sq]


_BY_MOVEMENT: dict[Movement, Callable[[int, int], int]] = {
    Movement.KNIGHT: knight_attacks,
    Movement.BISHOP: bishop_attacks,
    Movement.ROOK: rook_attacks,
    Movement.QUEEN: queen_attacks,
    Movement.KING: king_attacks,
    Movement.GRASSHOPPER: grasshopper_attacks,
}


def attacks(movement: Movement, sq: int, colour: int, occupied: int) -> int:
    """Squares a piece with ``movement`` standing on ``sq`` attacks (``colour`` for pawns)."""
    if movement is Movement.PAWN:
        return PAWN_ATTACKS[colour][sq]
    return _BY_MOVEMENT[movement](sq, occupied)
