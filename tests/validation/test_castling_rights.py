"""Castling rights judged (``validation.castling.judge_rights``) where a fixed start array
or a Chess960 array would take them at a glance: two rights on one side of the king, a
promotion mark on a king, a right off the board.
"""

from __future__ import annotations

import pytest

from notation.fen.profiles import PROFILES
from notation.fen.reader import read_fen
from notation.fen.writer import write_fen
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
