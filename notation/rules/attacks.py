"""Attack tables for every board geometry, on plain ints (bit ``n``: square ``n``).

``tables_for(geometry)`` gives the ``Tables`` of any board (``notation.geometry.Geometry``,
up to 12x12: Xiangqi's 9x10 and Tablut's 9x9 among them), built on first use and kept:
leaper and ray tables for its size (its line and between tables on their own first use),
with sliders found by scanning rays to the first blocker (occupancy tables would cost a
second per board to build), and the grasshopper, which follows queen lines to the first
piece (the hurdle) and attacks the square just beyond it. ``CHESS_TABLES`` is the 8x8
board's, and its tables are also named below (``KNIGHT_ATTACKS``, ``RAYS``, ...). The 8x8
board's fast attacks (one machine word a set, sliders by table look-up) are
``notation.rules.chess_attacks``, made from these tables. Nothing here raises for a square
on the board.
"""

from __future__ import annotations

import functools
from typing import Final

from notation.geometry import CHESS_BOARD, Geometry
from notation.variants import Movement

WHITE, BLACK = 0, 1

# (file step, rank step) of the eight queen directions; the first four increase the index.
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (1, 1), (-1, 1), (-1, 0), (0, -1), (-1, -1), (1, -1))
ORTHOGONAL = (0, 1, 4, 5)
DIAGONAL = (2, 3, 6, 7)


def _geometry_walk(geometry: Geometry, sq: int, df: int, dr: int) -> tuple[int, ...]:
    """Squares from ``sq`` (exclusive) to the edge of ``geometry`` in one direction."""
    files, ranks = geometry.files, geometry.ranks  # (Geometry.on_board, without a call a step)
    out = []
    f, r = sq % files + df, sq // files + dr
    while 0 <= f < files and 0 <= r < ranks:
        out.append(r * files + f)
        f, r = f + df, r + dr
    return tuple(out)


def _geometry_leaper(geometry: Geometry, steps: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    files, ranks = geometry.files, geometry.ranks
    table = []
    for sq in range(geometry.size):
        f, r = sq % files, sq // files
        bb = 0
        for df, dr in steps:
            if 0 <= f + df < files and 0 <= r + dr < ranks:
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
        "ray_squares", "rays", "beyond", "rook_pseudo", "bishop_pseudo", "_lines",
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
        knight_steps = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
        self.knight = _geometry_leaper(geometry, knight_steps)
        self.king = _geometry_leaper(geometry, DIRECTIONS)
        # [colour][square]; a tuple of any length (see bitboard.ByColour): indexed by a variable colour
        self.pawn: tuple[tuple[int, ...], ...] = (
            _geometry_leaper(geometry, ((-1, 1), (1, 1))), _geometry_leaper(geometry, ((-1, -1), (1, -1)))
        )
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
        self._lines: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]] | None = None

    @property
    def line(self) -> tuple[tuple[int, ...], ...]:
        """[a][b]: the whole line through ``a`` and ``b`` (0 if they share none)."""
        return self._line_tables()[0]

    @property
    def between(self) -> tuple[tuple[int, ...], ...]:
        """[a][b]: the squares strictly between ``a`` and ``b`` on their line (0 if none)."""
        return self._line_tables()[1]

    def _line_tables(self) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
        """``line`` and ``between``, built on first use: size x size entries each, which most
        commands never read (pins, the move generator), so a FEN's check does not build them."""
        if self._lines is None:
            size, rays = self.size, self.rays
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
            self._lines = (tuple(map(tuple, line)), tuple(map(tuple, between)))
        return self._lines

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
        return self._slide(sq, occupied, ORTHOGONAL)

    def bishop_attacks(self, sq: int, occupied: int) -> int:
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
# The 8x8 board's tables by name (plain ints; ``notation.rules.chess_attacks`` holds them
# as square-set words).
KNIGHT_ATTACKS: Final = CHESS_TABLES.knight
KING_ATTACKS: Final = CHESS_TABLES.king
PAWN_ATTACKS: Final = CHESS_TABLES.pawn
# RAYS[d][sq]: squares from sq to the edge in direction d (sq excluded), and their lists.
RAY_SQUARES: Final = CHESS_TABLES.ray_squares
RAYS: Final = CHESS_TABLES.rays
# BEYOND[d][sq]: the square one step past sq in direction d (0 off the board).
BEYOND: Final = CHESS_TABLES.beyond
ROOK_PSEUDO: Final = CHESS_TABLES.rook_pseudo
BISHOP_PSEUDO: Final = CHESS_TABLES.bishop_pseudo


@functools.cache
def _tables_of(geometry: Geometry) -> Tables:
    return Tables(geometry)


def tables_for(geometry: Geometry) -> Tables:
    """The tables of ``geometry``: ``CHESS_TABLES`` for 8x8, else built once and kept (at
    most 144 sizes exist, so the cache is bounded by the geometry's own limits)."""
    if geometry.is_chess_board:
        return CHESS_TABLES
    return _tables_of(geometry)
