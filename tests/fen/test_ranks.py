"""Placements <-> cells on 8x8 (notation.fen.ranks): the memoised directions agree with a
plain rank-by-rank rewrite, and the placement just read is given back only where it is
exactly what would be written."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from notation.fen import ranks

cells_8x8 = st.text(alphabet="....pnbrqkPNBRQK", min_size=64, max_size=64)


def plain_placement(cells: str) -> str:
    rows = [cells[start:start + 8] for start in range(56, -1, -8)]
    return "/".join(re.sub(r"\.+", lambda run: str(len(run.group())), row) for row in rows)


def spelled_loosely(placement: str, draw) -> str:
    """The same board with some empty runs split into several digits (``8`` -> ``35``)."""
    def split(run: re.Match[str]) -> str:
        n = int(run.group())
        if n < 2 or not draw(st.booleans()):
            return run.group()
        first = draw(st.integers(1, n - 1))
        return f"{first}{n - first}"

    return re.sub(r"[2-8]", split, placement)


LETTER_TABLE = ranks.letter_table("pnbrqkPNBRQK")  # the pieces' letters, as ``checked_cells`` takes them


@pytest.mark.slow
@settings(max_examples=examples(300))
@given(cells_8x8, st.data())
def test_reading_then_writing_gives_the_written_form(cells, data):
    written = plain_placement(cells)
    assert ranks.placement_of_cells(cells) == written
    for placement in (written, spelled_loosely(written, data.draw)):
        for reader in (ranks.cells_of_placement, lambda text: ranks.checked_cells(text, LETTER_TABLE)):
            read = reader(placement)
            assert read == cells
            assert ranks.placement_of_cells(read) == written  # never the loose spelling back


@pytest.mark.parametrize("reader", [ranks.cells_of_placement, lambda text: ranks.checked_cells(text, LETTER_TABLE)],
                         ids=["expanded", "by-code"])
def test_a_loose_spelling_read_last_is_not_given_back(reader):
    written = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"
    assert ranks.placement_of_cells(reader(written)) == written
    for loose in ("rnbqkbnr/pppppppp/44/8/4P3/8/PPPP1PPP/RNBQKBNR", "rnbqkbnr/pppppppp/8/8/4P21/8/PPPP1PPP/RNBQKBNR",
                  "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR".replace("8/8", "71/8")):
        assert ranks.placement_of_cells(reader(loose)) == written
    dotted = ranks.cells_of_placement("rnbqkbnr/pppppppp/..6/8/4P3/8/PPPP1PPP/RNBQKBNR")
    assert ranks.placement_of_cells(dotted) == written


def test_a_placement_read_by_code_and_written_so_is_given_back_as_it_is():
    written = "r3k2r/8/8/8/8/8/8/R3K2R"
    read = ranks.checked_cells(written, LETTER_TABLE)
    assert ranks.placement_of_cells(read) is written  # the text read, not a copy compressed again


def rank_by_rank(placement: str) -> str | None:
    """The cells of eight ranks of eight squares, each rank expanded on its own; None otherwise."""
    rows = placement.split("/")
    if len(rows) != 8:
        return None
    expanded = [re.sub(r"[1-8]", lambda digit: "." * int(digit.group()), row) for row in rows]
    if any(len(row) != 8 for row in expanded):
        return None
    return "".join(reversed(expanded))


@pytest.mark.slow
@settings(max_examples=examples(500))
@given(st.text(alphabet="/0123456789pkPK.~x", max_size=90))
def test_any_text_reads_as_a_rank_by_rank_expansion_would(text):
    """Wrong rank counts and widths, ``0`` and ``9``, stray slashes: the whole-placement
    expansion accepts exactly what expanding each rank on its own accepts."""
    assert ranks.cells_of_placement(text) == rank_by_rank(text)


def test_near_misses_are_refused():
    good = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"
    assert ranks.cells_of_placement(good) is not None
    for bad in (good + "/8", good[:-2], good.replace("4P3", "4P4"), good.replace("4P3", "4P2"),
                good.replace("/8/4P3", "/84P3/"), "8/8/8/8/8/8/8/8/", "/8/8/8/8/8/8/8/8", "8" * 8 + "/" * 7):
        assert ranks.cells_of_placement(bad) is None, bad


LETTERS = "pnbrqkPNBRQK"


def checked_rank_by_rank(placement: str, letters: str) -> str | None:
    """``rank_by_rank``, and None too where a cell is not one of ``letters`` or empty."""
    cells = rank_by_rank(placement)
    if cells is None or any(cell not in letters + "." for cell in cells):
        return None
    return cells


@pytest.mark.slow
@settings(max_examples=examples(500))
@given(st.text(alphabet="/0123456789pkPKxé ", max_size=90))
def test_checked_cells_accept_what_a_rank_by_rank_expansion_with_the_letters_accepts(text):
    """Compiled, the reader takes an 8x8 placement's cells from ``checked_cells``: eight
    ranks of eight, digits 1-8 and the variant's letters, anything else None (``x``, a
    non-ASCII letter, ``0`` and ``9``, stray slashes, too long)."""
    assert ranks.checked_cells(text, ranks.letter_table(LETTERS)) == checked_rank_by_rank(text, LETTERS)


near_placements = st.lists(st.text(alphabet="1234567889pkPKx", min_size=1, max_size=9), min_size=7, max_size=9).map(
    "/".join
)


@pytest.mark.slow
@settings(max_examples=examples(500))
@given(near_placements)
def test_checked_cells_refuse_near_misses_as_a_rank_by_rank_expansion_does(text):
    """Seven to nine ranks of about eight squares: a rank one square short or long, a
    letter past the eighth file, a rank too many or too few."""
    assert ranks.checked_cells(text, ranks.letter_table(LETTERS)) == checked_rank_by_rank(text, LETTERS)


def test_checked_cells_refuse_the_near_misses():
    good = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"
    table = ranks.letter_table(LETTERS)
    assert ranks.checked_cells(good, table) == ranks.cells_of_placement(good)
    for bad in (good + "/8", good[:-2], good.replace("4P3", "4P4"), good.replace("4P3", "4P2"),
                good.replace("4P3", "4P3p"), good.replace("/8/4P3", "/84P3/"), "8/8/8/8/8/8/8/8/",
                "/8/8/8/8/8/8/8/8", "8" * 8 + "/" * 7, good.replace("4P3", "4X3"), good.replace("8", "08")):
        assert ranks.checked_cells(bad, table) is None, bad


@pytest.mark.slow
@settings(max_examples=examples(300))
@given(cells_8x8, st.data())
def test_checked_cells_read_every_board_and_spelling(cells, data):
    written = plain_placement(cells)
    for placement in (written, spelled_loosely(written, data.draw)):
        assert ranks.checked_cells(placement, ranks.letter_table(LETTERS)) == cells
        assert ranks.placement_of_cells(cells) == written  # the memo of the last read holds
