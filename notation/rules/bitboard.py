"""Bitboards: a set of squares as a Python ``int`` (bit ``n`` is square ``n``, a1 = 0).

The masks the rules and validators use, square iteration, and ``ByColour``. Nothing here
knows about pieces or variants, and nothing raises: an empty bitboard has no squares.
"""

from __future__ import annotations

from typing import Final

from notation.rules import square_set
from notation.setup import COMPILED

# A value per colour, (white, black), indexed by colour. Typed as a tuple of any length, not
# as a pair: compiled (mypyc), a pair is a C struct, and indexing one by a colour held in a
# variable first builds a Python tuple of it (three allocations per look-up, a score of
# look-ups per setup); a tuple object is indexed in place.
ByColour = tuple[int, ...]

ALL = (1 << 64) - 1
RANK_1 = 0xFF
RANK_8 = 0xFF << 56


# Compiled (mypyc), an int below 2**62 is a machine word; above, each operation on it is a
# call into CPython's long arithmetic that allocates its result. So is 2**62 itself: a
# bitboard is asked whether it is below it as ``bb >> _WORD_BITS == 0``, a shift of a
# machine word, where ``bb < 2**62`` would compare with a long every time.
_WORD_BITS: Final = 62
# Each byte value -> the offsets of its set bits, lowest first.
_BYTE_BITS: Final = tuple(tuple(bit for bit in range(8) if value >> bit & 1) for value in range(256))


def squares(bb: int) -> list[int]:
    """The squares of ``bb`` from a1 towards h8. A list, not a generator: compiled, each
    step of a generator is a call through the iterator protocol, several times the cost of
    finding the square. A bitboard past bit 61 (the 8x8 board's last rank, larger boards)
    is read a byte at a time: a few calls instead of three long operations a square."""
    found = []
    if bb >> _WORD_BITS == 0:
        while bb:
            low = bb & -bb
            found.append(low.bit_length() - 1)
            bb ^= low
        return found
    data = bb.to_bytes((bb.bit_length() + 7) // 8, "little")
    for index in range(len(data)):
        for bit in _BYTE_BITS[data[index]]:
            found.append(index * 8 + bit)
    return found


def square_count(bb: int) -> int:
    """The number of squares of ``bb`` (``int.bit_count``). Compiled, ``bit_count`` is a
    method looked up by name and called on a boxed int, several times the instructions of
    counting a machine word: a bitboard below 2**62 (on 8x8, any set without g8 and h8)
    is counted as a word (``square_set.count``). Interpreted, this name is
    ``int.bit_count`` itself (below)."""
    if bb >> _WORD_BITS == 0:
        return square_set.count(bb)
    return bb.bit_count()


if not COMPILED:
    # Interpreted, callers import ``int.bit_count`` itself under this name: a C method,
    # called without a Python frame around it (about six counts a setup validated).
    globals()["square_count"] = int.bit_count
