"""The 8x8 board's square sets (``notation.rules.square_set``) and its word attacks
(``notation.rules.chess_attacks``) against plain ints and Python sets: the same squares for
every operation, in whichever build runs the tests (compiled, each word is a machine
integer that wraps; interpreted, a Python int that does not), every word a signed 64-bit
integer, and h8 (the sign bit) treated as any other square."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.rules import attacks, chess_attacks, chess_lines, square_set
from notation.rules.square_set import (
    BIT,
    FILE_A,
    FILE_H,
    FILES,
    RANK_1,
    RANK_8,
    RANKS,
    SquareSet,
    empty_table,
    from_word,
    to_word,
    words,
)

MASK = (1 << 64) - 1
RNG_SEED = 1
boards = st.integers(0, MASK)


def _occupancies(count: int) -> list[int]:
    rng = random.Random(RNG_SEED)
    found = [0, MASK, 1 << 63, (1 << 63) | 1, 0xFF << 56, 0x8100000000000081]
    while len(found) < count:
        found.append(rng.getrandbits(64) & rng.getrandbits(64))
    return found


def _fits(value: int) -> bool:
    return -(1 << 63) <= value < (1 << 63)


@pytest.mark.parametrize("occupied", _occupancies(300))
def test_word_sliders_and_hoppers_attack_what_the_ray_scan_says(occupied: int) -> None:
    word = to_word(occupied)
    tables = attacks.CHESS_TABLES
    for sq in range(64):
        for ours, theirs in (
            (chess_attacks.rook_attacks(sq, word), tables.rook_attacks(sq, occupied)),
            (chess_attacks.bishop_attacks(sq, word), tables.bishop_attacks(sq, occupied)),
            (chess_attacks.grasshopper_attacks(sq, word), tables.grasshopper_attacks(sq, occupied)),
        ):
            assert _fits(ours) and from_word(ours) == theirs, (sq, hex(occupied))


@pytest.mark.parametrize("occupied", _occupancies(300))
def test_counting_listing_and_shifting_agree_with_plain_ints(occupied: int) -> None:
    word = to_word(occupied)
    assert _fits(word) and from_word(word) == occupied
    assert square_set.count(word) == occupied.bit_count()
    assert square_set.squares(word) == [sq for sq in range(64) if occupied >> sq & 1]
    if occupied:
        assert square_set.first(word) == (occupied & -occupied).bit_length() - 1
        assert square_set.last(word) == occupied.bit_length() - 1
        assert square_set.several(word) == (occupied.bit_count() > 1)
        sq, rest = square_set.pop_square(word)
        assert sq == square_set.first(word) and from_word(rest) == occupied & (occupied - 1)
    for n in range(1, 64):
        up, down = square_set.up(word, n), square_set.down(word, n)
        assert _fits(up) and from_word(up) == (occupied << n) & MASK
        assert _fits(down) and from_word(down) == occupied >> n


def test_one_square_sets() -> None:
    for sq in range(64):
        bit = BIT[sq]
        assert from_word(bit) == 1 << sq
        assert square_set.squares(bit) == [sq] and square_set.first(bit) == square_set.last(bit) == sq
        assert square_set.count(bit) == 1 and not square_set.several(bit) and square_set.lowest(bit) == bit


def test_files_ranks_and_colours() -> None:
    for f in range(8):
        assert square_set.squares(FILES[f]) == [r * 8 + f for r in range(8)]
    for r in range(8):
        assert square_set.squares(RANKS[r]) == [r * 8 + f for f in range(8)]
    assert (FILE_A, FILE_H, RANK_1, RANK_8) == (FILES[0], FILES[7], RANKS[0], RANKS[7])
    assert 0 in SquareSet(square_set.DARK_SQUARES) and 63 in SquareSet(square_set.DARK_SQUARES)  # a1, h8
    assert 7 in SquareSet(square_set.LIGHT_SQUARES) and 56 in SquareSet(square_set.LIGHT_SQUARES)  # h1, a8
    assert SquareSet(square_set.DARK_SQUARES).count() == SquareSet(square_set.LIGHT_SQUARES).count() == 32
    assert square_set.DARK_SQUARES & square_set.LIGHT_SQUARES == 0
    assert square_set.DARK_SQUARES | square_set.LIGHT_SQUARES == square_set.ALL


def test_tables_are_made_from_plain_ints_or_filled_in_place() -> None:
    made = words(iter([0, 1 << 63, MASK, 5]))
    assert [from_word(word) for word in made] == [0, 1 << 63, MASK, 5]
    blank = empty_table(3)
    assert list(blank) == [0, 0, 0]
    blank[2] = to_word(1 << 63)
    assert [from_word(word) for word in blank] == [0, 0, 1 << 63]
    assert list(words([])) == [] and list(empty_table(0)) == []


def test_a_plain_int_past_h8_loses_its_high_bits() -> None:
    assert from_word(to_word((1 << 64) | (1 << 63) | 1)) == (1 << 63) | 1


def test_tables_are_the_plain_tables_as_words() -> None:
    source = attacks.CHESS_TABLES
    for sq in range(64):
        assert from_word(chess_attacks.KNIGHT[sq]) == source.knight[sq]
        assert from_word(chess_attacks.KING[sq]) == source.king[sq]
        for colour in (0, 1):
            assert from_word(chess_attacks.PAWN[colour][sq]) == source.pawn[colour][sq]
        for other in range(64):
            assert from_word(chess_lines.BETWEEN[sq][other]) == source.between[sq][other]
            assert from_word(chess_lines.LINE[sq][other]) == source.line[sq][other]


# --- SquareSet against Python sets ---------------------------------------------------------


def _set(value: int) -> set[int]:
    return {sq for sq in range(64) if value >> sq & 1}


@settings(max_examples=300, deadline=None)
@given(a=boards, b=boards, sq=st.integers(0, 63))
def test_square_set_is_a_set_of_squares(a: int, b: int, sq: int) -> None:
    left, right = SquareSet.from_int(a), SquareSet.from_int(b)
    assert list(left) == sorted(_set(a))
    assert left.count() == len(_set(a)) and bool(left) == bool(a)
    assert set(left & right) == _set(a) & _set(b)
    assert set(left | right) == _set(a) | _set(b)
    assert set(left ^ right) == _set(a) ^ _set(b)
    assert set(left - right) == _set(a) - _set(b)
    assert set(~left) == set(range(64)) - _set(a)
    assert (sq in left) == (sq in _set(a))
    assert left.to_int() == a and SquareSet.of(_set(a)) == left and hash(SquareSet.of(_set(a))) == hash(left)
    if a:
        assert left.first() == min(_set(a)) and left.last() == max(_set(a))


def test_square_set_reads_like_the_board() -> None:
    corners = SquareSet.of([0, 7, 56, 63])  # a1, h1, a8, h8
    assert list(corners & SquareSet(FILE_H)) == [7, 63]
    assert list(corners - SquareSet.rank(7)) == [0, 7]
    assert (corners | SquareSet.file(4)).count() == 12
    assert 63 in corners and 62 not in corners
    assert repr(SquareSet(BIT[63])) == "SquareSet(0x8000000000000000)"
    assert SquareSet() != corners and not SquareSet()
