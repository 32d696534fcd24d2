"""The chess family's bitboards as signed 64-bit integers, and the tables and operations
the move generator reads them with.

Every chess-family board has 64 squares or fewer, so a set of squares is a 64-bit word:
bit ``n`` is square ``n`` (a1 = 0) and square 63 (h8) is the sign bit. Compiled (mypyc),
such a word is a machine integer (``i64``) and an operation on it is one instruction;
as an ordinary int past 2**62 it would be a call into CPython's long arithmetic that
allocates its result, which was a third of perft's time. Interpreted, the same code runs
on Python ints holding the same signed values, and gives the same answers: every
operation here is one whose low 64 bits do not depend on how the integer is stored
(``& | ^ ~``, arithmetic ``>>`` followed by a mask, products read back through a shift
and a mask), and the few that do (a shift into bit 63, the lowest bit of h8 alone, a
count of bits) go through the helpers below. Nothing here raises for a square on the
board.

The tables are vectors of machine words (``vec[i64]``, from librt, mypyc's runtime
library), which compiled code indexes like a C array; interpreted, a vector's item is an
ordinary int, as a tuple's would be.

Sliders are looked up "kindergarten" style: the occupancy of a line's inner squares is
gathered into a six-bit index by a mask, a multiplication and a shift, and the index
selects the attacks from a table of the first rank, spread over the line.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

from librt.vecs import vec
from mypy_extensions import i64

from notation.rules.attacks import CHESS_TABLES

# A table of bitboards: ``vec[i64]`` (librt, the runtime library of mypyc) holds machine
# words, which compiled code reads straight from memory; a tuple holds Python ints, and
# compiled code converted each word past 2**62 it read back from CPython's long
# representation (the largest single item of a compiled check's profile). (The alias is
# for the type checker: compiled, ``i64`` is the type ``int`` at run time, which a vec refuses.)
if TYPE_CHECKING:
    from typing import TypeAlias

    Table: TypeAlias = vec[i64]


def _table(values: Iterable[int]) -> Table:
    """``values`` (bitboards, each already signed) as a table of machine words."""
    return vec[i64](values)


def _word(value: int) -> i64:
    """``value`` as a machine word, converted once. Compiled, a literal past 2**62 (and a
    final name holding one) stays a Python int that every use converts again; a final
    name set by a call is a native static."""
    return value


SQUARE_63: Final[i64] = _word(-0x8000000000000000)  # h8, the sign bit
BELOW_63: Final[i64] = _word(0x7FFFFFFFFFFFFFFF)  # every square but h8
_ODD_BITS: Final[i64] = _word(0x5555555555555555)  # for count: every other bit
ALL: Final = -1  # every square


def signed(value: int) -> int:
    """A bitboard of up to 64 squares (a non-negative int) as the signed value stored here."""
    value &= (1 << 64) - 1
    return value - (1 << 64) if value >> 63 else value


# The index of the bit a de Bruijn sequence's product with a single bit lands on.
_DE_BRUIJN: Final = 0x03F79D71B4CB0A89
_DE_BRUIJN_INDEX: Final = _table(
    sq for _, sq in sorted((((1 << sq) * 0x03F79D71B4CB0A89) >> 58 & 63, sq) for sq in range(64))
)


def lowest(bb: i64) -> i64:
    """The lowest square of ``bb`` (not empty) as a one-bit set."""
    if bb == SQUARE_63:
        return SQUARE_63
    low: i64 = bb & -bb
    return low


def index(bit: i64) -> int:
    """The square of a one-bit set."""
    return _DE_BRUIJN_INDEX[(bit * _DE_BRUIJN) >> 58 & 63]


def first(bb: i64) -> int:
    """The lowest square of ``bb`` (not empty)."""
    return index(lowest(bb))


def last(bb: i64) -> int:
    """The highest square of ``bb`` (not empty)."""
    if bb < 0:
        return 63
    return int(bb).bit_length() - 1


def several(bb: i64) -> bool:
    """Whether ``bb`` holds more than one square."""
    return bb != 0 and bb != lowest(bb)


def count(bb: i64) -> int:
    """The number of squares of ``bb``."""
    bb = bb - ((bb >> 1) & _ODD_BITS)
    bb = (bb & 0x3333333333333333) + ((bb >> 2) & 0x3333333333333333)
    bb = (bb + (bb >> 4)) & 0x0F0F0F0F0F0F0F0F
    return int((bb * 0x0101010101010101) >> 56 & 0xFF)


def squares(bb: i64) -> list[int]:
    """The squares of ``bb`` from a1 towards h8."""
    found: list[int] = []
    rest: i64 = bb & BELOW_63
    while rest:
        low: i64 = rest & -rest
        found.append(_DE_BRUIJN_INDEX[(low * _DE_BRUIJN) >> 58 & 63])
        rest ^= low
    if bb < 0:
        found.append(63)
    return found


def pop_square(bb: i64) -> tuple[int, i64]:
    """The lowest square of ``bb`` (not empty) and ``bb`` without it: a loop over a set's
    squares that builds no list (compiled, the pair is returned in registers)."""
    if bb == SQUARE_63:
        return 63, 0
    low: i64 = bb & -bb
    return _DE_BRUIJN_INDEX[(low * _DE_BRUIJN) >> 58 & 63], bb ^ low


# BIT[sq]: the one-square set of ``sq``.
BIT: Final = _table(signed(1 << sq) for sq in range(64))
# LOW[n]: the squares a shift up by ``n`` keeps below h8; HIGH_CLEAR[n]: those a shift down
# by ``n`` can fill.
_KEEP_BELOW: Final = _table((1 << (63 - n)) - 1 for n in range(64))
_SHIFT_DOWN_MASK: Final = _table((1 << (64 - n)) - 1 if n else -1 for n in range(64))


def up(bb: i64, n: int) -> i64:
    """``bb`` shifted towards h8 by ``n`` (1 to 63) squares; what passes h8 is gone."""
    shifted: i64 = (bb & _KEEP_BELOW[n]) << n
    if (bb >> (63 - n)) & 1:
        shifted |= SQUARE_63
    return shifted


def down(bb: i64, n: int) -> i64:
    """``bb`` shifted towards a1 by ``n`` (1 to 63) squares; what passes a1 is gone."""
    shifted: i64 = (bb >> n) & _SHIFT_DOWN_MASK[n]
    return shifted


def _signed_table(values: tuple[int, ...]) -> Table:
    return _table(signed(value) for value in values)


_SOURCE = CHESS_TABLES
KNIGHT: Final = _signed_table(_SOURCE.knight)
KING: Final = _signed_table(_SOURCE.king)
# [colour][square]: the squares a pawn of that colour attacks. A tuple of any length to mypyc:
# a pair would be kept unboxed and boxed again at each PAWN[colour].
PAWN: Final[tuple[Table, ...]] = (_signed_table(_SOURCE.pawn[0]), _signed_table(_SOURCE.pawn[1]))
ROOK_PSEUDO: Final = _signed_table(_SOURCE.rook_pseudo)
BISHOP_PSEUDO: Final = _signed_table(_SOURCE.bishop_pseudo)
# [a][b]: the whole line through a and b (0 if none); strictly between them.
LINE: Final = tuple(_signed_table(row) for row in _SOURCE.line)
BETWEEN: Final = tuple(_signed_table(row) for row in _SOURCE.between)
# [direction][square]: the squares from it to the edge, and the one square beyond it.
RAYS: Final = tuple(_signed_table(row) for row in _SOURCE.rays)
BEYOND: Final = tuple(_signed_table(row) for row in _SOURCE.beyond)

# --- sliders -------------------------------------------------------------------------------

_FILE_A: Final = 0x0101010101010101
_DIAGONAL_GATHER: Final = 0x0202020202020202  # a line's squares, one per file, onto the top rank
_FILE_GATHER: Final = 0x0080402010080400  # the a-file's inner squares onto the top rank
# SPREAD[pattern]: an eight-bit pattern of files copied onto every rank (then masked to a line).
SPREAD: Final = _table(signed(pattern * 0x0101010101010101) for pattern in range(256))


def _first_rank_attacks() -> Table:
    """[file * 64 + inner]: the squares of the first rank a slider on ``file`` attacks when
    the inner squares b1-g1 hold ``inner`` (bit 0 = b1)."""
    table: list[int] = []
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
            table.append(attacks)
    return _table(table)


FIRST_RANK: Final = _first_rank_attacks()


def _mask_without(line: int, sq: int) -> int:
    return signed(line & ~(1 << sq))


_FILE_OF: Final = _table(sq & 7 for sq in range(64))
_RANK_MASK: Final = _table(signed(0xFF << (8 * (sq >> 3))) for sq in range(64))
_RANK_SHIFT: Final = _table(8 * (sq >> 3) + 1 for sq in range(64))
# Per square, its diagonal and anti-diagonal (the square itself left out).
_DIAGONAL: Final = _table(
    _mask_without(_SOURCE.rays[2][sq] | _SOURCE.rays[6][sq], sq) for sq in range(64)
)
_ANTI_DIAGONAL: Final = _table(
    _mask_without(_SOURCE.rays[3][sq] | _SOURCE.rays[7][sq], sq) for sq in range(64)
)


def _file_attacks() -> Table:
    """[sq * 64 + index]: the squares of ``sq``'s file a slider there attacks, by the
    six-bit index ``file_attacks`` gathers from the file's inner squares. The index of an
    occupancy is the same on every file (the file is shifted onto the a-file first), and
    the attacks of the a-file square on ``sq``'s rank are shifted onto ``sq``'s file."""
    found_of: list[int] = []  # by inner pattern (bit r: the square on rank r + 2 is occupied)
    for inner in range(64):
        occupied = 0
        for r in range(6):
            if inner >> r & 1:
                occupied |= 1 << ((r + 1) * 8)  # a2..a7
        found_of.append((((occupied * _FILE_GATHER) & ((1 << 64) - 1)) >> 58) & 63)
    if sorted(found_of) != list(range(64)):
        raise AssertionError("the file index is not one to one")  # pragma: no cover
    table = [0] * (64 * 64)
    for rank in range(8):
        for inner in range(64):
            attacks = 0
            for step in (1, -1):
                r = rank + step
                while 0 <= r < 8:
                    attacks |= 1 << (r * 8)
                    if 1 <= r <= 6 and inner >> (r - 1) & 1:
                        break
                    r += step
            for file in range(8):
                table[(rank * 8 + file) * 64 + found_of[inner]] = signed(attacks << file)
    return _table(table)


_FILE_ATTACKS: Final = _file_attacks()


def file_attacks(sq: int, occupied: i64) -> i64:
    found: i64 = _FILE_ATTACKS[sq * 64 + (((((occupied >> _FILE_OF[sq]) & _FILE_A) * _FILE_GATHER) >> 58) & 63)]
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
