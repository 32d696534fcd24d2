"""Bitboards: a set of squares as a Python ``int`` (bit ``n`` is square ``n``, a1 = 0).

The masks the rules and validators use, square iteration, and ``ByColour``. Nothing here
knows about pieces or variants, and nothing raises: an empty bitboard has no squares.
"""

from __future__ import annotations

# A value per colour, (white, black), indexed by colour. Typed as a tuple of any length, not
# as a pair: compiled (mypyc), a pair is a C struct, and indexing one by a colour held in a
# variable first builds a Python tuple of it (three allocations per look-up, a score of
# look-ups per setup); a tuple object is indexed in place.
ByColour = tuple[int, ...]

ALL = (1 << 64) - 1
RANK_1 = 0xFF
RANK_8 = 0xFF << 56


def squares(bb: int) -> list[int]:
    """The squares of ``bb`` from a1 towards h8. A list, not a generator: compiled, each
    step of a generator is a call through the iterator protocol, several times the cost of
    finding the square."""
    found = []
    while bb:
        low = bb & -bb
        found.append(low.bit_length() - 1)
        bb ^= low
    return found
