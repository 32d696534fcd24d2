"""The 8x8 board's attacks on square-set words (``notation.rules.square_set``): leapers,
sliders, grasshoppers (the lines through two squares, which only the move generator needs,
are ``notation.rules.chess_lines``). The one slider library of the 8x8 board: the move
generator (``notation.game.chess``) and the attack view (``notation.rules.attack_view``)
both look attacks up here. Boards of other sizes (Xiangqi's 9x10, Tablut's 9x9, any
``Geometry`` up to 12x12) cannot be held in one machine word: their attacks are
``notation.rules.attacks.Tables``, on plain ints, whose 8x8 tables are the source these
words are made from.

Sliders are looked up "kindergarten" style: the occupancy of a line's inner squares is
gathered into a six-bit index by a mask, a multiplication and a shift, and the index
selects the attacks from a table of the first rank, spread over the line. Nothing here
raises for a square on the board.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from mypy_extensions import i64

from notation.rules.attacks import CHESS_TABLES
from notation.rules.square_set import BIT, FILE_A, RANKS, empty_table, first, last, up, words

if TYPE_CHECKING:
    from notation.rules.square_set import Table


_SOURCE = CHESS_TABLES
KNIGHT: Final = words(_SOURCE.knight)
KING: Final = words(_SOURCE.king)
# [colour][square]: the squares a pawn of that colour attacks. A tuple of any length to mypyc:
# a pair would be kept unboxed and boxed again at each PAWN[colour].
PAWN: Final[tuple[Table, ...]] = (words(_SOURCE.pawn[0]), words(_SOURCE.pawn[1]))
ROOK_PSEUDO: Final = words(_SOURCE.rook_pseudo)
BISHOP_PSEUDO: Final = words(_SOURCE.bishop_pseudo)
# [direction][square]: the squares from it to the edge, and the one square beyond it.
RAYS: Final = tuple(words(row) for row in _SOURCE.rays)
BEYOND: Final = tuple(words(row) for row in _SOURCE.beyond)

# --- sliders -------------------------------------------------------------------------------

_DIAGONAL_GATHER: Final = 0x0202020202020202  # a line's squares, one per file, onto the top rank
_FILE_GATHER: Final = 0x0080402010080400  # the a-file's inner squares onto the top rank
# SPREAD[pattern]: an eight-bit pattern of files copied onto every rank (then masked to a line).
SPREAD: Final = words(pattern * 0x0101010101010101 for pattern in range(256))


def _first_rank_attacks() -> Table:
    """[file * 64 + inner]: the squares of the first rank a slider on ``file`` attacks when
    the inner squares b1-g1 hold ``inner`` (bit 0 = b1)."""
    found: list[int] = []
    for file in range(8):
        for inner in range(64):
            occupied = inner << 1
            attacks = 0
            for step in (1, -1):
                f = file + step
                while 0 <= f < 8:
                    attacks |= 1 << f
                    if occupied >> f & 1:
                        break
                    f += step
            found.append(attacks)
    return words(found)


FIRST_RANK: Final = _first_rank_attacks()


def _mask_without(line: int, sq: int) -> int:
    return line & ~(1 << sq)


_FILE_OF: Final = words(sq & 7 for sq in range(64))
_RANK_MASK: Final = words(RANKS[sq >> 3] for sq in range(64))
_RANK_SHIFT: Final = words(8 * (sq >> 3) + 1 for sq in range(64))
# Per square, its diagonal and anti-diagonal (the square itself left out).
_DIAGONAL: Final = words(
    _mask_without(_SOURCE.rays[2][sq] | _SOURCE.rays[6][sq], sq) for sq in range(64)
)
_ANTI_DIAGONAL: Final = words(
    _mask_without(_SOURCE.rays[3][sq] | _SOURCE.rays[7][sq], sq) for sq in range(64)
)


def _file_attacks() -> Table:
    """[sq * 64 + index]: the squares of ``sq``'s file a slider there attacks, by the
    six-bit index ``file_attacks`` gathers from the file's inner squares. The index of an
    occupancy is the same on every file (the file is shifted onto the a-file first), and
    the attacks of the a-file square on ``sq``'s rank are shifted onto ``sq``'s file.
    Built on words in place (``BIT``, ``up``): compiled, each step is a machine
    operation, and no int object is made for an entry."""
    index_of: list[int] = []  # by inner pattern (bit r: the square on rank r + 2 is occupied)
    for inner in range(64):
        occupied = 0
        for r in range(6):
            if inner >> r & 1:
                occupied |= 1 << ((r + 1) * 8)  # a2..a7
        index_of.append((((occupied * _FILE_GATHER) & ((1 << 64) - 1)) >> 58) & 63)
    if sorted(index_of) != list(range(64)):
        raise AssertionError("the file index is not one to one")  # pragma: no cover
    found = empty_table(64 * 64)
    for rank in range(8):
        for inner in range(64):
            attacks: i64 = 0
            for step in (1, -1):
                r = rank + step
                while 0 <= r < 8:
                    attacks |= BIT[r * 8]
                    if 1 <= r <= 6 and inner >> (r - 1) & 1:
                        break
                    r += step
            index = index_of[inner]
            for file in range(7):  # up to the g-file: below h8, a plain shift
                found[(rank * 8 + file) * 64 + index] = attacks << file
            found[(rank * 8 + 7) * 64 + index] = up(attacks, 7)  # onto h8, the sign bit
    return found


_FILE_ATTACKS: Final = _file_attacks()


def file_attacks(sq: int, occupied: i64) -> i64:
    found: i64 = _FILE_ATTACKS[sq * 64 + (((((occupied >> _FILE_OF[sq]) & FILE_A) * _FILE_GATHER) >> 58) & 63)]
    return found


def rank_attacks(sq: int, occupied: i64) -> i64:
    spread: i64 = SPREAD[FIRST_RANK[_FILE_OF[sq] * 64 + ((occupied >> _RANK_SHIFT[sq]) & 63)]]
    return spread & _RANK_MASK[sq]


def _line_attacks(sq: int, occupied: i64, line: i64) -> i64:
    inner: i64 = (((occupied & line) * _DIAGONAL_GATHER) >> 58) & 63
    spread: i64 = SPREAD[FIRST_RANK[_FILE_OF[sq] * 64 + inner]]
    return spread & line


def rook_attacks(sq: int, occupied: i64) -> i64:
    return rank_attacks(sq, occupied) | file_attacks(sq, occupied)


def bishop_attacks(sq: int, occupied: i64) -> i64:
    return _line_attacks(sq, occupied, _DIAGONAL[sq]) | _line_attacks(sq, occupied, _ANTI_DIAGONAL[sq])


def queen_attacks(sq: int, occupied: i64) -> i64:
    return rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)


def hurdle(direction: int, sq: int, occupied: i64) -> int:
    """The first occupied square from ``sq`` in ``direction`` (``DIRECTIONS`` order of
    ``notation.rules.attacks``: the first four increase the index), or -1."""
    blockers: i64 = RAYS[direction][sq] & occupied
    if not blockers:
        return -1
    return first(blockers) if direction < 4 else last(blockers)


def grasshopper_attacks(sq: int, occupied: i64) -> i64:
    """The squares a grasshopper on ``sq`` moves to: just past the first piece on each line."""
    found: i64 = 0
    for direction in range(8):
        hurdle_sq = hurdle(direction, sq, occupied)
        if hurdle_sq >= 0:
            found |= BEYOND[direction][hurdle_sq]
    return found


def hopper_attackers(sq: int, occupied: i64, hoppers: i64) -> i64:
    """Grasshoppers among ``hoppers`` that attack ``sq``: each sits behind a hurdle next to it."""
    found: i64 = 0
    for direction in range(8):
        next_to: i64 = BEYOND[direction][sq]
        if next_to & occupied:
            beyond = hurdle(direction, first(next_to), occupied)
            if beyond >= 0:
                found |= BIT[beyond] & hoppers
    return found
