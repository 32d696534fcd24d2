"""Bitboards: a set of squares as a Python ``int`` (bit ``n`` is square ``n``, a1 = 0).

Masks, bit scans and square iteration. Nothing here knows about pieces or variants, and
nothing raises: an empty bitboard simply has no squares.
"""

from __future__ import annotations

from typing import Iterator

EMPTY = 0
ALL = (1 << 64) - 1
BB_SQUARES: tuple[int, ...] = tuple(1 << sq for sq in range(64))

FILES: tuple[int, ...] = tuple(0x0101010101010101 << f for f in range(8))
RANKS: tuple[int, ...] = tuple(0xFF << (8 * r) for r in range(8))
FILE_A, FILE_H = FILES[0], FILES[7]
RANK_1, RANK_8 = RANKS[0], RANKS[7]
BACK_RANKS = RANK_1 | RANK_8
EDGES = FILE_A | FILE_H | RANK_1 | RANK_8


def lsb(bb: int) -> int:
    """Index of the lowest set square; ``-1`` for an empty bitboard."""
    return (bb & -bb).bit_length() - 1


def msb(bb: int) -> int:
    """Index of the highest set square; ``-1`` for an empty bitboard."""
    return bb.bit_length() - 1


def squares(bb: int) -> Iterator[int]:
    """The squares of ``bb`` from a1 towards h8."""
    while bb:
        low = bb & -bb
        yield low.bit_length() - 1
        bb ^= low


def from_squares(sqs) -> int:
    """The bitboard of an iterable of square indices."""
    bb = 0
    for sq in sqs:
        bb |= 1 << sq
    return bb


def popcount(bb: int) -> int:
    return bb.bit_count()
