"""The chess family's signed 64-bit bitboards (``notation.game.chess.bits``) against the
plain-int tables of ``notation.rules.attacks``: the same squares for every operation, in
whichever build runs the tests (compiled, each value is a machine integer that wraps;
interpreted, a Python int that does not), and every value a signed 64-bit integer."""

from __future__ import annotations

import random

import pytest

from notation.game.chess import bits
from notation.rules import attacks

MASK = (1 << 64) - 1
RNG_SEED = 1


def _occupancies(count: int) -> list[int]:
    rng = random.Random(RNG_SEED)
    found = [0, MASK, 1 << 63, (1 << 63) | 1, 0xFF << 56, 0x8100000000000081]
    while len(found) < count:
        found.append(rng.getrandbits(64) & rng.getrandbits(64))
    return found


def _fits(value: int) -> bool:
    return -(1 << 63) <= value < (1 << 63)


@pytest.mark.parametrize("occupied", _occupancies(300))
def test_sliders_and_hoppers_attack_what_the_plain_tables_say(occupied: int) -> None:
    signed = bits.signed(occupied)
    for sq in range(64):
        for ours, theirs in (
            (bits.rook_attacks(sq, signed), attacks.rook_attacks(sq, occupied)),
            (bits.bishop_attacks(sq, signed), attacks.bishop_attacks(sq, occupied)),
            (bits.grasshopper_attacks(sq, signed), attacks.grasshopper_attacks(sq, occupied)),
        ):
            assert _fits(ours) and ours & MASK == theirs, (sq, hex(occupied))


@pytest.mark.parametrize("occupied", _occupancies(300))
def test_counting_listing_and_shifting_agree_with_plain_ints(occupied: int) -> None:
    signed = bits.signed(occupied)
    assert bits.count(signed) == occupied.bit_count()
    assert bits.squares(signed) == [sq for sq in range(64) if occupied >> sq & 1]
    if occupied:
        assert bits.first(signed) == (occupied & -occupied).bit_length() - 1
        assert bits.last(signed) == occupied.bit_length() - 1
        assert bits.several(signed) == (occupied.bit_count() > 1)
    for n in range(1, 64):
        up, down = bits.up(signed, n), bits.down(signed, n)
        assert _fits(up) and up & MASK == (occupied << n) & MASK
        assert _fits(down) and down & MASK == occupied >> n


def test_one_square_sets() -> None:
    for sq in range(64):
        bit = bits.BIT[sq]
        assert bits.squares(bit) == [sq] and bits.first(bit) == bits.last(bit) == sq
        assert bits.count(bit) == 1 and not bits.several(bit) and bits.lowest(bit) == bit


def test_tables_are_the_plain_tables_signed() -> None:
    source = attacks.CHESS_TABLES
    for sq in range(64):
        assert bits.KNIGHT[sq] & MASK == source.knight[sq]
        assert bits.KING[sq] & MASK == source.king[sq]
        for colour in (0, 1):
            assert bits.PAWN[colour][sq] & MASK == source.pawn[colour][sq]
        for other in range(64):
            assert bits.BETWEEN[sq][other] & MASK == source.between[sq][other]
            assert bits.LINE[sq][other] & MASK == source.line[sq][other]
