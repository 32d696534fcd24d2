"""Castling letters (notation.fen.castling): a setup's cells (a str) are searched with
``str.find``; any other sequence of cells square by square. Both must name the same king
file and the same outer rook on every board width, either side of the king, with the king
or the rook missing, and with several of either on the back rank."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from notation.fen.castling import king_file, outer_rook, xfen_letter


@st.composite
def back_ranks(draw):
    """(cells as a str, back rank's first square, files, king letter, rook letter)."""
    files = draw(st.integers(1, 12))
    ranks = draw(st.integers(1, 10))
    white = draw(st.booleans())
    king, rook = ("K", "R") if white else ("k", "r")
    alphabet = [".", ".", king, rook, rook, "N", "n", king.swapcase(), rook.swapcase()]
    cells = "".join(draw(st.lists(st.sampled_from(alphabet), min_size=files * ranks, max_size=files * ranks)))
    back = 0 if white else files * (ranks - 1)
    return cells, back, files, king, rook


@pytest.mark.slow
@settings(max_examples=examples(1500))
@given(back_ranks())
def test_the_str_search_agrees_with_the_square_by_square_one(case):
    cells, back, files, king, rook = case
    as_list = list(cells)  # not a str: the loop over squares
    assert king_file(cells, back, king, files) == king_file(as_list, back, king, files)
    for kingside in (True, False):
        assert outer_rook(cells, back, rook, king, kingside, files) == outer_rook(
            as_list, back, rook, king, kingside, files
        )
    for square in range(back, back + files):
        assert xfen_letter(cells, back, rook, king, square, files) == xfen_letter(
            as_list, back, rook, king, square, files
        )


def test_examples_on_the_standard_board():
    rank = "R...K..R" + "." * 48 + "r..k.r.r"
    assert king_file(rank, 0, "K") == 4
    assert outer_rook(rank, 0, "R", "K", True) == 7
    assert outer_rook(rank, 0, "R", "K", False) == 0
    assert king_file(rank, 56, "k") == 3
    assert outer_rook(rank, 56, "r", "k", True) == 63  # the outermost of two
    assert outer_rook(rank, 56, "r", "k", False) == 56  # no rook there: the corner
    assert king_file("." * 64, 0, "K") is None
    assert outer_rook("." * 64, 0, "R", "K", True) == 7  # no king: the corner
    assert outer_rook("RK" + "." * 62, 0, "R", "K", False) == 0
    assert outer_rook("RK" + "." * 62, 0, "R", "K", True) == 7


def test_every_character_whose_lower_case_is_k_or_q_reads_as_that_right():
    """The reader looks the side letters up in a table: every character whose lower case
    is ``k`` or ``q`` reads as ``str.lower`` and ``str.isupper`` say (the Kelvin sign as
    ``K``), as when each letter was read through those methods."""
    import sys

    from notation import read_fen

    # Each such character but the four letters, with the letter it reads as (one scan).
    others = {}
    for code in range(128, sys.maxunicode + 1):
        lower = chr(code).lower()
        if lower in ("k", "q"):
            others[chr(code)] = lower.upper() if chr(code).isupper() else lower
    assert others == {"\u212a": "K"}  # the Kelvin sign: the one such character today
    board = "r3k2r/8/8/8/8/8/8/R3K2R"
    moved = "1r2k2r/8/8/8/8/8/8/R3K1R1"  # rooks off their corners: the reader's slower path
    for placement in (board, moved):
        for other, letter in others.items():
            expected = read_fen(f"{placement} w {letter} - 0 1").setup.castling
            assert read_fen(f"{placement} w {other} - 0 1").setup.castling == expected, (placement, other)
