"""Bitboards (notation.rules.bitboard): ``squares`` lists the set bits lowest first and
``square_count`` counts them, for small bitboards (a machine word, compiled) and large
ones, on every side of the 2**62 boundary."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from notation.rules.bitboard import square_count, squares


def bits(bb: int) -> list[int]:
    return [n for n in range(bb.bit_length()) if bb >> n & 1]


@pytest.mark.slow
@settings(max_examples=examples(1000))
@given(st.one_of(st.integers(0, 1 << 70), st.integers(0, 1 << 130), st.sets(st.integers(0, 100)).map(
    lambda ns: sum(1 << n for n in ns))))
def test_squares_are_the_set_bits_lowest_first(bb):
    assert squares(bb) == bits(bb)
    assert square_count(bb) == len(bits(bb))


def test_squares_around_the_word_boundary():
    for n in range(55, 70):
        for bb in (1 << n, (1 << n) - 1, (1 << n) | 1, (1 << n) | (1 << 61)):
            assert squares(bb) == bits(bb), bb
    assert squares(0) == []
    assert squares(0xFF << 56) == list(range(56, 64))  # the 8x8 board's last rank


def test_square_count_around_the_word_boundary():
    for n in range(0, 70):
        for bb in (1 << n, (1 << n) - 1, (1 << n) | 1, (1 << n) | (1 << 61)):
            assert square_count(bb) == len(bits(bb)), bb
    assert square_count((1 << 64) - 1) == 64
    assert square_count((1 << 62) - 1) == 62
