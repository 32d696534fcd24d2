"""Castling rights judged (``validation.castling.judge_rights``) where a fixed start array
or a Chess960 array would take them at a glance: two rights on one side of the king, a
promotion mark on a king, a right off the board; and the glance itself
(``chess960.rights_at_home``) against judging each right.
"""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from notation.fen.profiles import PROFILES
from notation.fen.reader import read_fen
from notation.fen.writer import write_fen
from notation.rules.chess960 import rights_at_home
from notation.validation import castling, validate
from notation.validation.context import Context
from notation.variants import DEFAULT_REGISTRY

# A made-up fixed start array with two rooks on one side of each king: both rights on one
# side cannot both be kept.
TWIN_ROOKS = DEFAULT_REGISTRY.get("standard").replace(
    key="twin-rooks", name="Twin Rooks", aliases=(),
    start_fen="rr2k3/pppppppp/8/8/8/8/PPPPPPPP/RR2K3 w - - 0 1",
)


def test_two_rights_on_one_side_of_a_fixed_start_array_keep_the_outer_one():
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
    marked king on its start square keeps the classical reading, and its rights are good."""
    ctx = Context.of(read_fen(fen, variant).setup, variant)
    assert castling.reading_of(ctx) is castling.Reading.CLASSICAL
    assert castling.judge_rights(ctx) == {}


def test_two_rights_on_one_side_of_a_chess960_array_keep_the_outer_one():
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


# Variants with castling and a fixed start array (``rights_at_home`` may answer for them),
# Chess960 (it never does) and the twin rooks' array (not ``StartArray.simple``).
_CASTLING_VARIANTS = [
    *(DEFAULT_REGISTRY.get(key) for key in ("standard", "crazyhouse", "atomic", "threecheck", "kingofthehill",
                                             "chess960")),
    TWIN_ROOKS,
]
_BACK_RANKS = (*range(8), *range(56, 64))
_CORNERS = (0, 7, 56, 63)  # the rook squares of most start arrays
_CORNERS_AND_KINGS = (*_CORNERS, 4, 60)
_D4 = 27


def test_the_start_position_s_rights_are_at_home():
    standard = DEFAULT_REGISTRY.get("standard")
    setup = read_fen(standard.start_fen, standard).setup
    assert rights_at_home(setup.cells, setup.castling, standard)
    assert not rights_at_home(setup.cells, setup.castling, TWIN_ROOKS)
    moved = read_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1KNR w KQkq - 0 1", standard).setup
    assert not rights_at_home(moved.cells, moved.castling, standard)


@settings(max_examples=examples(300))
@given(
    variant=st.sampled_from(_CASTLING_VARIANTS),
    changes=st.dictionaries(
        st.one_of(st.sampled_from(_CORNERS_AND_KINGS), st.sampled_from(_BACK_RANKS)),
        st.sampled_from("KRNBQP.krnbqp"),
        max_size=4,
    ),
    rights=st.one_of(
        st.frozensets(st.sampled_from(_CORNERS), min_size=1),
        st.frozensets(st.sampled_from(_BACK_RANKS), max_size=5),
    ),
)
@example(variant=_CASTLING_VARIANTS[0], changes={}, rights=frozenset({0, 7, 56, 63}))
def test_rights_taken_at_a_glance_are_judged_as_one_by_one(variant, changes, rights):
    """A setup near its start array, rights on any back-rank squares: the judgement is the
    same as for that setup with a promoted knight on d4, which keeps ``judge_rights`` from
    its glance (``rights_at_home`` is for setups without promoted pieces) and changes
    nothing castling looks at."""
    cells = list(read_fen(variant.start_fen, variant).setup.cells)
    for sq, letter in changes.items():
        cells[sq] = letter
    cells[_D4] = "N"
    setup = read_fen(variant.start_fen, variant).setup.with_changes(cells="".join(cells), castling=rights)
    marked = setup.with_changes(promoted=frozenset({_D4}))
    glanced = castling.judge_rights(Context.of(setup, variant))
    assert glanced == castling.judge_rights(Context.of(marked, variant))
