"""Fast paths of validation pinned to the general paths they short-cut (hypothesis).

Each fast path may only answer "no problem" where the general path also finds none; the
setups here are start arrays (the variant's own, or a Chess960 array in a variant always
read as Chess960) with a few squares changed, so both answers come up often.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.fen.profiles import PROFILES
from notation.fen.reader import read_fen
from notation.fen.writer import write_fen
from notation.start import has_chess960, start_setup
from notation.validation import castling, validate
from notation.validation.context import Context
from notation.variants import DEFAULT_REGISTRY, RuleFamily

# A made-up fixed start array with two rooks on one side of each king: both rights on one
# side are never all good, so the castling fast path must not apply.
TWIN_ROOKS = dataclasses.replace(
    DEFAULT_REGISTRY.get("standard"), key="twin-rooks", name="Twin Rooks", aliases=(),
    start_fen="rr2k3/pppppppp/8/8/8/8/PPPPPPPP/RR2K3 w - - 0 1",
)
VARIANTS = [*(v for v in DEFAULT_REGISTRY if v.family is RuleFamily.CHESS), TWIN_ROOKS]
# Variants judged in the Chess960 reading always (``random_start``) that have the arrays.
RANDOM_START = [v for v in VARIANTS if v.random_start and v.castling and has_chess960(v)]
BACK_RANKS = [*range(8), *range(56, 64)]
# Corner (and b-file) rooks; anything, squares off the board included (a Setup built in
# code may name any number).
RIGHTS = ([0, 1, 7, 56, 57, 63], [*BACK_RANKS, 12, 52, -1, 64, 10**20])


@st.composite
def near_start(draw):
    """A variant's start setup with some back-rank squares changed, promotion marks and
    castling rights drawn mostly from the back ranks."""
    variant = draw(st.sampled_from(VARIANTS))
    setup = read_fen(variant.start_fen, variant).setup
    cells = list(setup.cells)
    letters = variant.piece_letters + variant.piece_letters.upper() + "."
    for sq in draw(st.lists(st.sampled_from(BACK_RANKS), max_size=3)):
        cells[sq] = draw(st.sampled_from(letters))
    return setup.with_changes(
        cells="".join(cells),
        turn=draw(st.sampled_from("wb")),
        castling=draw(st.frozensets(st.sampled_from(draw(st.sampled_from(RIGHTS))), max_size=4)),
        promoted=draw(st.frozensets(st.sampled_from(BACK_RANKS), max_size=2)),
    ), variant


@st.composite
def near_chess960_start(draw):
    """A Chess960 array of a ``random_start`` variant with some back-rank squares changed,
    promotion marks, and castling rights drawn from the back ranks."""
    variant = draw(st.sampled_from(RANDOM_START))
    setup = start_setup(variant, draw(st.integers(0, 959)))
    cells = list(setup.cells)
    letters = variant.piece_letters + variant.piece_letters.upper() + "."
    for sq in draw(st.lists(st.sampled_from(BACK_RANKS), max_size=3)):
        cells[sq] = draw(st.sampled_from(letters))
    rights = draw(st.one_of(st.just(setup.castling), st.frozensets(st.sampled_from(RIGHTS[1]), max_size=5)))
    return setup.with_changes(
        cells="".join(cells),
        turn=draw(st.sampled_from("wb")),
        castling=rights,
        promoted=draw(st.frozensets(st.sampled_from(BACK_RANKS), max_size=2)),
    ), variant


@pytest.mark.slow
@settings(max_examples=600, deadline=None)
@given(st.one_of(near_start(), near_chess960_start()))
def test_castling_fast_path_agrees_with_judging_each_right(case):
    setup, variant = case
    ctx = Context.of(setup, variant)
    assert castling.judge_rights(ctx) == castling.judge_each_right(ctx)


def test_castling_fast_path_leaves_two_rights_on_one_side_to_the_general_path():
    setup = read_fen(TWIN_ROOKS.start_fen, TWIN_ROOKS).setup.with_changes(castling=frozenset({0, 1}))
    ctx = Context.of(setup, TWIN_ROOKS)
    assert castling.judge_rights(ctx) == {1: "white already has a right on that side (a1)"}


@pytest.mark.parametrize(
    ("fen", "variant"),
    [
        ("4k3/8/8/8/8/8/8/K3K~2R w K - 0 1", DEFAULT_REGISTRY.get("standard")),
        # found by the fuzz profile: a second king off its square, the start-square one marked
        ("rr2k3/pppppppp/8/8/8/8/PPPPPPPP/KR2K~3 w B - 0 1", TWIN_ROOKS),
    ],
)
def test_a_mark_on_a_king_is_ignored_when_the_reading_is_chosen(fen, variant):
    """A ``~`` on a piece no pawn can become (a Standard king) counts nowhere in validation
    (``AttackView.promoted``); choosing the reading of the rights ignores it too, so the
    marked king on its start square keeps the classical reading, in which the fast path
    and the right-by-right judgement agree."""
    ctx = Context.of(read_fen(fen, variant).setup, variant)
    assert castling.reading_of(ctx) is castling.Reading.CLASSICAL
    assert castling.judge_rights(ctx) == castling.judge_each_right(ctx) == {}


def test_chess960_fast_path_leaves_two_rights_on_one_side_to_the_general_path():
    chess960 = DEFAULT_REGISTRY.get("chess960")
    setup = read_fen("rrknnbbq/pppppppp/8/8/8/8/PPPPPPPP/RRKNNBBQ w BAba - 0 1", chess960).setup
    ctx = Context.of(setup, chess960)
    assert castling.judge_rights(ctx) == {
        1: "white already has a right on that side (a1)", 57: "black already has a right on that side (a8)",
    }


@pytest.mark.parametrize("key", ["standard", "chess960"])
@pytest.mark.parametrize("off_board", [-1, 64, 10**20])
def test_a_right_off_the_board_is_reported_and_written_without_an_error(key, off_board):
    """Only a setup built in code can name such a square: validation reports it, the
    writer leaves it out, and neither fails on it."""
    variant = DEFAULT_REGISTRY.get(key)
    setup = read_fen("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", variant).setup
    setup = setup.with_changes(castling=setup.castling | {off_board})
    ctx = Context.of(setup, variant)
    assert castling.judge_rights(ctx) == {off_board: "it is not on the 8x8 board"}
    assert "bad-castling-rights" in [problem.code for problem in validate(setup, variant)]
    assert write_fen(setup, variant, PROFILES["xboard"]).fen.split()[2] in ("KQkq", "HAha")
