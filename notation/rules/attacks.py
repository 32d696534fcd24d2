"""Attack sets for every ``Movement``, from tables built once per board geometry.

On the 8x8 board (module-level tables, built at import; a square's slider tables when first
looked up): leapers (knight, king, pawn) are one table lookup; sliders look up each of the
square's lines (rank, file, two diagonals) in a table keyed by the occupancy of that line's
inner squares. The grasshopper follows queen lines to the first piece (the hurdle) and
attacks the square just beyond it.
``attacks(movement, sq, colour, occupied)`` is the one entry point that knows every movement.

Any other board (``notation.geometry.Geometry``, up to 12x12) gets a ``Tables`` from
``tables_for(geometry)``, built on first use and kept: the same leaper, ray, line and
between tables for its size, with sliders found by scanning rays to the first blocker
(occupancy tables would cost a second per board to build). ``CHESS_TABLES`` is the 8x8
``Tables``, made of the module-level tables. Nothing here raises for a square on the board.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Final

from notation.geometry import CHESS_BOARD, Geometry
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


KNIGHT_ATTACKS: Final = _leaper(((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)))
KING_ATTACKS: Final = _leaper(tuple(DIRECTIONS))
# [colour][square]; a tuple of any length (see bitboard.ByColour): indexed by a variable colour
PAWN_ATTACKS: Final[tuple[tuple[int, ...], ...]] = (_leaper(((-1, 1), (1, 1))), _leaper(((-1, -1), (1, -1))))

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


def _line_mask(directions: tuple[int, int], sq: int) -> int:
    """The squares of the line through ``sq`` along ``directions`` that can block: the ends
    of its rays left out (the last square of a ray never blocks anything further)."""
    mask = 0
    for d in directions:
        for s in RAY_SQUARES[d][sq][:-1]:
            mask |= 1 << s
    return mask


def _line_table(directions: tuple[int, int], sq: int) -> dict[int, int]:
    """{occupancy & the line's mask: the squares attacked along the line} for ``sq``."""
    rays = [RAY_SQUARES[d][sq] for d in directions]
    table: dict[int, int] = {}
    for occ in _subsets(_line_mask(directions, sq)):
        bb = 0
        for ray in rays:
            for s in ray:
                bb |= 1 << s
                if occ >> s & 1:
                    break
        table[occ] = bb
    return table


# Per line (rank, file, diagonal, anti-diagonal) through each square: the mask of its
# inner squares, and its table of attacks by occupancy. A square's table is built the
# first time a slider there is looked up (``_built``): building all 256 at import was a large
# part of a short command's start-up (bench_instructions counts it). Two threads may both
# build one table: equal tables, either kept.
# Final: compiled, a Final module constant is a C static, not a look-up in the module's
# dictionary on every use (these are read for every slider on every line).
_RANK_LINE: Final = (0, 4)
_FILE_LINE: Final = (1, 5)
_DIAG_LINE: Final = (2, 6)
_ANTI_LINE: Final = (3, 7)
_RANK_MASKS: Final = tuple(_line_mask(_RANK_LINE, sq) for sq in range(64))
_FILE_MASKS: Final = tuple(_line_mask(_FILE_LINE, sq) for sq in range(64))
_DIAG_MASKS: Final = tuple(_line_mask(_DIAG_LINE, sq) for sq in range(64))
_ANTI_MASKS: Final = tuple(_line_mask(_ANTI_LINE, sq) for sq in range(64))
_RANK_TABLES: Final[list[dict[int, int] | None]] = [None] * 64
_FILE_TABLES: Final[list[dict[int, int] | None]] = [None] * 64
_DIAG_TABLES: Final[list[dict[int, int] | None]] = [None] * 64
_ANTI_TABLES: Final[list[dict[int, int] | None]] = [None] * 64


def _built(tables: list[dict[int, int] | None], directions: tuple[int, int], sq: int) -> dict[int, int]:
    """The table of ``sq`` in ``tables`` (a line's), built and kept now."""
    table = tables[sq] = _line_table(directions, sq)
    return table


ROOK_PSEUDO: Final = tuple(RAYS[0][s] | RAYS[1][s] | RAYS[4][s] | RAYS[5][s] for s in range(64))
BISHOP_PSEUDO: Final = tuple(RAYS[2][s] | RAYS[3][s] | RAYS[6][s] | RAYS[7][s] for s in range(64))


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
    rank = _RANK_TABLES[sq]
    if rank is None:
        rank = _built(_RANK_TABLES, _RANK_LINE, sq)
    file = _FILE_TABLES[sq]
    if file is None:
        file = _built(_FILE_TABLES, _FILE_LINE, sq)
    return rank[occupied & _RANK_MASKS[sq]] | file[occupied & _FILE_MASKS[sq]]


def bishop_attacks(sq: int, occupied: int) -> int:
    diagonal = _DIAG_TABLES[sq]
    if diagonal is None:
        diagonal = _built(_DIAG_TABLES, _DIAG_LINE, sq)
    anti = _ANTI_TABLES[sq]
    if anti is None:
        anti = _built(_ANTI_TABLES, _ANTI_LINE, sq)
    return diagonal[occupied & _DIAG_MASKS[sq]] | anti[occupied & _ANTI_MASKS[sq]]


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


# --- Any board: one Tables per geometry -------------------------------------------------


def _geometry_walk(geometry: Geometry, sq: int, df: int, dr: int) -> tuple[int, ...]:
    """Squares from ``sq`` (exclusive) to the edge of ``geometry`` in one direction."""
    files = geometry.files
    out = []
    f, r = sq % files + df, sq // files + dr
    while geometry.on_board(f, r):
        out.append(r * files + f)
        f, r = f + df, r + dr
    return tuple(out)


def _geometry_leaper(geometry: Geometry, steps: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    files = geometry.files
    table = []
    for sq in range(geometry.size):
        f, r = sq % files, sq // files
        bb = 0
        for df, dr in steps:
            if geometry.on_board(f + df, r + dr):
                bb |= 1 << ((r + dr) * files + f + df)
        table.append(bb)
    return tuple(table)


class Tables:
    """The attack tables of one board geometry (``tables_for``). Square numbers and
    bitboards are the geometry's (``rank * files + file``); every per-square table has
    ``geometry.size`` entries. Rank masks: ``first_rank``, ``last_rank``; ``all`` is every
    square."""

    __slots__ = (
        "geometry", "files", "ranks", "size", "all", "first_rank", "last_rank", "knight", "king", "pawn",
        "ray_squares", "rays", "beyond", "rook_pseudo", "bishop_pseudo", "line", "between",
    )

    def __init__(self, geometry: Geometry):
        self.geometry = geometry
        files, size = geometry.files, geometry.size
        self.files = files
        self.ranks = geometry.ranks
        self.size = size
        self.all = (1 << size) - 1
        self.first_rank = (1 << files) - 1
        self.last_rank = self.first_rank << (size - files)
        if geometry.is_chess_board:  # the module-level tables, built at import
            self.knight, self.king, self.pawn = KNIGHT_ATTACKS, KING_ATTACKS, PAWN_ATTACKS
            self.ray_squares, self.rays, self.beyond = RAY_SQUARES, RAYS, BEYOND
            self.rook_pseudo, self.bishop_pseudo = ROOK_PSEUDO, BISHOP_PSEUDO
            self.line, self.between = LINE, BETWEEN
            return
        knight_steps = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
        self.knight = _geometry_leaper(geometry, knight_steps)
        self.king = _geometry_leaper(geometry, DIRECTIONS)
        self.pawn = (_geometry_leaper(geometry, ((-1, 1), (1, 1))), _geometry_leaper(geometry, ((-1, -1), (1, -1))))
        self.ray_squares = tuple(
            tuple(_geometry_walk(geometry, sq, df, dr) for sq in range(size)) for df, dr in DIRECTIONS
        )
        self.rays = tuple(
            tuple(sum(1 << s for s in ray) for ray in per_direction) for per_direction in self.ray_squares
        )
        self.beyond = tuple(
            tuple((1 << ray[0]) if ray else 0 for ray in per_direction) for per_direction in self.ray_squares
        )
        rays = self.rays
        self.rook_pseudo = tuple(rays[0][s] | rays[1][s] | rays[4][s] | rays[5][s] for s in range(size))
        self.bishop_pseudo = tuple(rays[2][s] | rays[3][s] | rays[6][s] | rays[7][s] for s in range(size))
        line = [[0] * size for _ in range(size)]
        between = [[0] * size for _ in range(size)]
        for a in range(size):
            for d in range(8):
                full = rays[d][a] | rays[(d + 4) % 8][a] | (1 << a)
                inner = 0
                for b in self.ray_squares[d][a]:
                    line[a][b] = full
                    between[a][b] = inner
                    inner |= 1 << b
        self.line = tuple(map(tuple, line))
        self.between = tuple(map(tuple, between))

    def _slide(self, sq: int, occupied: int, directions: tuple[int, ...]) -> int:
        """Squares reached along ``directions`` up to and including the first blocker."""
        rays = self.rays
        bb = 0
        for d in directions:
            ray = rays[d][sq]
            blockers = ray & occupied
            if blockers:
                first = (blockers & -blockers).bit_length() - 1 if d < 4 else blockers.bit_length() - 1
                ray ^= rays[d][first]
            bb |= ray
        return bb

    def rook_attacks(self, sq: int, occupied: int) -> int:
        if self.geometry.is_chess_board:
            return rook_attacks(sq, occupied)
        return self._slide(sq, occupied, ORTHOGONAL)

    def bishop_attacks(self, sq: int, occupied: int) -> int:
        if self.geometry.is_chess_board:
            return bishop_attacks(sq, occupied)
        return self._slide(sq, occupied, DIAGONAL)

    def queen_attacks(self, sq: int, occupied: int) -> int:
        return self.rook_attacks(sq, occupied) | self.bishop_attacks(sq, occupied)

    def hurdle(self, direction: int, sq: int, occupied: int) -> int:
        """The first occupied square from ``sq`` in ``direction``, or -1."""
        blockers = self.rays[direction][sq] & occupied
        if not blockers:
            return -1
        if direction < 4:
            return (blockers & -blockers).bit_length() - 1
        return blockers.bit_length() - 1

    def grasshopper_attacks(self, sq: int, occupied: int) -> int:
        bb = 0
        for d in range(8):
            h = self.hurdle(d, sq, occupied)
            if h >= 0:
                bb |= self.beyond[d][h]
        return bb

    def attacks(self, movement: Movement, sq: int, colour: int, occupied: int) -> int:
        """Squares a piece with ``movement`` on ``sq`` attacks (``colour`` for pawns)."""
        if movement is Movement.PAWN:
            return self.pawn[colour][sq]
        if movement is Movement.KNIGHT:
            return self.knight[sq]
        if movement is Movement.KING:
            return self.king[sq]
        if movement is Movement.BISHOP:
            return self.bishop_attacks(sq, occupied)
        if movement is Movement.ROOK:
            return self.rook_attacks(sq, occupied)
        if movement is Movement.QUEEN:
            return self.queen_attacks(sq, occupied)
        return self.grasshopper_attacks(sq, occupied)


CHESS_TABLES: Final = Tables(CHESS_BOARD)


@functools.cache
def _tables_of(geometry: Geometry) -> Tables:
    return Tables(geometry)


def tables_for(geometry: Geometry) -> Tables:
    """The tables of ``geometry``: ``CHESS_TABLES`` for 8x8, else built once and kept (at
    most 144 sizes exist, so the cache is bounded by the geometry's own limits)."""
    if geometry.is_chess_board:
        return CHESS_TABLES
    return _tables_of(geometry)
