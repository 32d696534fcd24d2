"""The 8x8 board's sets of squares: one 64-bit word a set, and the one module that knows
how that word is stored (the model is chessops' ``SquareSet``).

Bit ``n`` of a set is square ``n`` (a1 = 0, h8 = 63). Compiled (mypyc), a word is a
machine integer (``i64``), so an operation on it is one instruction, where a Python int
past 2**62 would be a call into CPython's long arithmetic that allocates its result (a
third of perft's time once). A signed machine word holds h8 in its sign bit: a set with h8
is a negative number. That is the one fact callers must not have to know, so it stays
here: ``to_word`` and ``from_word`` convert between a word and the plain non-negative int
that boards of any size use (``notation.rules.attacks``, the attack view), and every
operation whose answer depends on the sign (the lowest square of a set holding only h8, a
shift into bit 63, the highest square, a count, iteration) is a function below.
Interpreted, the same code runs on Python ints holding the same signed values and gives
the same answers.

Two ways in:

- ``SquareSet``, a readable value for code outside the move generator's loop:
  ``squares & FILE_A``, ``for sq in squares``, ``squares.count()``;
- the raw-word functions (``first``, ``pop_square``, ``count``, ``up``, ...) and constants
  (``BIT``, ``FILES``, ``RANKS``, ``FILE_A``, ``RANK_8``, ...) on bare words, for the move
  generator (``notation.game.chess``), where an object per set would cost its speed.

The tables are vectors of machine words (``vec[i64]``, from librt, mypyc's runtime
library), which compiled code indexes like a C array; interpreted, a vector's item is an
ordinary int, as a tuple's would be. Nothing here raises for a square on the board.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Final

from librt.vecs import vec
from mypy_extensions import i64

# A table of words: ``vec[i64]`` holds machine words, which compiled code reads straight
# from memory; a tuple holds Python ints, and compiled code converted each word past 2**62
# it read back from CPython's long representation. (The alias is for the type checker:
# compiled, ``i64`` is the type ``int`` at run time, which a vec refuses.)
if TYPE_CHECKING:
    from typing import TypeAlias

    Table: TypeAlias = vec[i64]

_SIXTY_FOUR_BITS: Final = (1 << 64) - 1


def words(values: Iterable[int]) -> Table:
    """``values`` (plain ints, or words already) as a table of machine words. (A list, not a
    generator, is handed to the vector: compiled, a generator's every step is a call; and
    a vector made whole from a list costs a fraction of one grown by ``append``.)"""
    return vec[i64]([to_word(value) for value in values])


def empty_table(size: int) -> Table:
    """A table of ``size`` empty words, to be filled in place (``table[i] = word``): no int
    object is made for an entry."""
    return vec[i64]([0] * size)


def to_word(squares: int) -> i64:
    """The word of ``squares``, a plain non-negative int (or a word already) (bit ``n``: square ``n``; bits past
    h8 are dropped). Compiled, a final name set by this call is a native static, where a
    literal past 2**62 stays a Python int that every use converts again."""
    if squares >> 62 == 0:  # below 2**62 (and not negative): the same value (and, compiled, no long arithmetic)
        return squares
    squares &= _SIXTY_FOUR_BITS
    word: i64 = squares - (1 << 64) if squares >> 63 else squares
    return word


def from_word(word: i64) -> int:
    """The plain non-negative int of ``word`` (h8 is bit 63 again)."""
    if word < 0:
        return int(word) + (1 << 64)
    return int(word)


# --- constants -----------------------------------------------------------------------------

ALL: Final[i64] = -1  # every square
EMPTY: Final[i64] = 0
H8: Final[i64] = to_word(1 << 63)  # the sign bit
BELOW_H8: Final[i64] = to_word((1 << 63) - 1)  # every square but h8
# BIT[sq]: the set of ``sq`` alone.
BIT: Final = words(1 << sq for sq in range(64))
# FILES[f], RANKS[r]: file ``f`` (0 = a), rank ``r`` (0 = the first rank).
FILES: Final = words(0x0101010101010101 << f for f in range(8))
RANKS: Final = words(0xFF << (8 * r) for r in range(8))
FILE_A: Final[i64] = to_word(0x0101010101010101)
FILE_H: Final[i64] = to_word(0x0101010101010101 << 7)
RANK_1: Final[i64] = to_word(0xFF)
RANK_2: Final[i64] = to_word(0xFF << 8)
RANK_7: Final[i64] = to_word(0xFF << 48)
RANK_8: Final[i64] = to_word(0xFF << 56)
# The dark squares (a1's colour) and the light squares.
DARK_SQUARES: Final[i64] = to_word(sum(1 << sq for sq in range(64) if (sq & 7) % 2 == (sq >> 3) % 2))
LIGHT_SQUARES: Final[i64] = ~DARK_SQUARES

# --- raw words: the move generator's operations --------------------------------------------

_ODD_BITS: Final[i64] = to_word(0x5555555555555555)  # for count: every other bit
# The index of the bit a de Bruijn sequence's product with a single bit lands on.
_DE_BRUIJN: Final = 0x03F79D71B4CB0A89
_DE_BRUIJN_INDEX: Final = words(
    sq for _, sq in sorted((((1 << sq) * 0x03F79D71B4CB0A89) >> 58 & 63, sq) for sq in range(64))
)


def lowest(bb: i64) -> i64:
    """The lowest square of ``bb`` (not empty) as a one-square set."""
    if bb == H8:
        return H8
    low: i64 = bb & -bb
    return low


def index(bit: i64) -> int:
    """The square of a one-square set."""
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
    """The number of squares of ``bb``. Counted by hand: compiled, ``int.bit_count`` is a
    call on a boxed int, about seven times the instructions of these few word operations
    (callgrind, mypyc 1.19), and this is perft's last ply."""
    bb = bb - ((bb >> 1) & _ODD_BITS)
    bb = (bb & 0x3333333333333333) + ((bb >> 2) & 0x3333333333333333)
    bb = (bb + (bb >> 4)) & 0x0F0F0F0F0F0F0F0F
    return int((bb * 0x0101010101010101) >> 56 & 0xFF)


def squares(bb: i64) -> list[int]:
    """The squares of ``bb`` from a1 towards h8. A list, not a generator: compiled, each
    step of a generator is a call through the iterator protocol."""
    found: list[int] = []
    rest: i64 = bb & BELOW_H8
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
    if bb == H8:
        return 63, 0
    low: i64 = bb & -bb
    return _DE_BRUIJN_INDEX[(low * _DE_BRUIJN) >> 58 & 63], bb ^ low


# The squares a shift up by ``n`` keeps below h8; those a shift down by ``n`` can fill.
_KEEP_BELOW: Final = words((1 << (63 - n)) - 1 for n in range(64))
_SHIFT_DOWN_MASK: Final = words((1 << (64 - n)) - 1 if n else -1 for n in range(64))


def up(bb: i64, n: int) -> i64:
    """``bb`` shifted towards h8 by ``n`` (1 to 63) squares; what passes h8 is gone. (A
    machine shift into the sign bit would overflow.)"""
    shifted: i64 = (bb & _KEEP_BELOW[n]) << n
    if (bb >> (63 - n)) & 1:
        shifted |= H8
    return shifted


def down(bb: i64, n: int) -> i64:
    """``bb`` shifted towards a1 by ``n`` (1 to 63) squares; what passes a1 is gone."""
    shifted: i64 = (bb >> n) & _SHIFT_DOWN_MASK[n]
    return shifted


# --- the readable type ---------------------------------------------------------------------


class SquareSet:
    """A set of the 8x8 board's squares, an immutable value: ``a & b``, ``a | b``, ``a ^ b``,
    ``a - b`` (difference), ``~a``, ``sq in a``, ``for sq in a`` (from a1 towards h8),
    ``a.count()``, ``bool(a)``. ``word`` is its raw word; ``SquareSet.of(squares)`` and
    ``SquareSet.from_int(value)`` build one from square numbers and from a plain int,
    ``SquareSet.file(f)`` and ``SquareSet.rank(r)`` a whole file or rank."""

    word: i64

    def __init__(self, word: i64 = 0) -> None:
        self.word = word

    @staticmethod
    def of(squares: Iterable[int]) -> SquareSet:
        found: i64 = 0
        for sq in squares:
            found |= BIT[sq]
        return SquareSet(found)

    @staticmethod
    def file(file: int) -> SquareSet:
        """File ``file`` (0 = the a-file)."""
        return SquareSet(FILES[file])

    @staticmethod
    def rank(rank: int) -> SquareSet:
        """Rank ``rank`` (0 = the first rank)."""
        return SquareSet(RANKS[rank])

    @staticmethod
    def from_int(value: int) -> SquareSet:
        return SquareSet(to_word(value))

    def to_int(self) -> int:
        return from_word(self.word)

    def __and__(self, other: SquareSet) -> SquareSet:
        return SquareSet(self.word & other.word)

    def __or__(self, other: SquareSet) -> SquareSet:
        return SquareSet(self.word | other.word)

    def __xor__(self, other: SquareSet) -> SquareSet:
        return SquareSet(self.word ^ other.word)

    def __sub__(self, other: SquareSet) -> SquareSet:
        return SquareSet(self.word & ~other.word)

    def __invert__(self) -> SquareSet:
        return SquareSet(~self.word)

    def __contains__(self, sq: int) -> bool:
        return bool(self.word & BIT[sq])

    def __iter__(self) -> Iterator[int]:
        return iter(squares(self.word))

    def __bool__(self) -> bool:
        return self.word != 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SquareSet) and self.word == other.word

    def __hash__(self) -> int:
        return hash(self.word)

    def __repr__(self) -> str:
        return f"SquareSet(0x{from_word(self.word):016x})"

    def count(self) -> int:
        return count(self.word)

    def first(self) -> int:
        """The lowest square (the set is not empty)."""
        return first(self.word)

    def last(self) -> int:
        """The highest square (the set is not empty)."""
        return last(self.word)
