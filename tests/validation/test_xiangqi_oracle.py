"""Xiangqi against Fairy-Stockfish's Python binding (pyffish, GPL: a test-only oracle).

Positions come from seeded random legal play from pyffish's start position: each must be
legal for us, our ``fairy-stockfish`` profile must write it exactly as pyffish's
``get_fen`` does, and every dialect (Fairy-Stockfish, WXF, CXBoard) must convert to every
other and back to the same setup. pyffish's own ``validate_fen`` is lenient (it accepts
facing generals and generals outside the palace), so the rules are pinned by the tables
in fixtures/xiangqi/ (test_xiangqi_validation.py), not by it.
"""

from __future__ import annotations

import random

import pyffish
import pytest
from hypothesis import given
from hypothesis import strategies as st

from notation.fen.profiles import PROFILES
from notation.fen.ranks import placement_of_board
from notation.fen.reader import read_fen
from notation.fen.writer import write_fen
from notation.operations import convert_fen, validate_fen
from notation.options import FieldLayout, PieceLetters, SideLetters
from notation.rules.xiangqi_moves import attackers, generals, generals_facing
from notation.variants import find_variant

GAMES = 8
PLIES = 50  # per game: GAMES * PLIES positions at most (games may end sooner)
DIALECTS = {
    "fairy-stockfish": (PieceLetters.STANDARD, SideLetters.WB, FieldLayout.FULL),
    "wxf": (PieceLetters.WXF, SideLetters.WB, FieldLayout.FULL),
    "cxboard": (PieceLetters.WXF, SideLetters.RB, FieldLayout.CFEN),
}


def _random_play(seed: int) -> list[str]:
    """The FENs pyffish writes along one seeded random game from its start position."""
    rng = random.Random(seed)
    fen = pyffish.start_fen("xiangqi")
    fens = [fen]
    for _ in range(PLIES):
        moves = sorted(pyffish.legal_moves("xiangqi", fen, []))
        if not moves:
            break
        fen = pyffish.get_fen("xiangqi", fen, [rng.choice(moves)])
        fens.append(fen)
    return fens


POSITIONS = [fen for seed in range(GAMES) for fen in _random_play(seed)]


@pytest.mark.slow
def test_the_oracle_played_enough_positions():
    assert len(set(POSITIONS)) > 200
    checks = [fen for fen in POSITIONS if pyffish.gives_check("xiangqi", fen, [])]
    assert checks, "no position in check: the check rules would go untested"


def test_start_position_is_fairy_stockfishs():
    assert read_fen(pyffish.start_fen("xiangqi"), "xiangqi").variant.start_fen == pyffish.start_fen("xiangqi")


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(GAMES))
def test_random_play_is_legal_and_written_as_fairy_stockfish_writes_it(seed):
    for fen in _random_play(seed):
        result = validate_fen(fen, "xiangqi")
        assert result.errors == [], (fen, [p.describe() for p in result.errors])
        read = read_fen(fen, "xiangqi")
        assert read.dialect.letters is PieceLetters.STANDARD
        written = write_fen(read.setup, read.variant, PROFILES["fairy-stockfish"])
        assert written == (fen, [])
        assert pyffish.validate_fen(fen, "xiangqi") == pyffish.FEN_OK


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(GAMES))
def test_our_attacks_see_the_checks_fairy_stockfish_sees(seed):
    """The side to move is attacked exactly when pyffish says it is in check."""
    for fen in _random_play(seed):
        read = read_fen(fen, "xiangqi")
        setup, variant = read.setup, read.variant
        red_to_move = setup.turn == "w"
        (general,) = generals(setup.cells, variant, red_to_move)
        ours = bool(attackers(setup.cells, setup.geometry, variant, general, not red_to_move))
        assert ours == pyffish.gives_check("xiangqi", fen, []), fen


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(0, GAMES, 2))
def test_every_dialect_converts_to_every_other_and_back(seed):
    for fen in _random_play(seed):
        setup = read_fen(fen, "xiangqi").setup
        for source, seen in DIALECTS.items():
            text = convert_fen(fen, "xiangqi", options=PROFILES[source]).fen
            assert text is not None
            read = read_fen(text, "xiangqi")
            assert (read.dialect.letters, read.dialect.sides, read.dialect.layout) == _seen(seen, text)
            # CFEN has no halfmove clock: it reads back as 0.
            expected = setup.with_changes(halfmove=0) if seen[2] is FieldLayout.CFEN else setup
            assert read.setup == expected
            for target in DIALECTS:
                other = convert_fen(text, "xiangqi", options=PROFILES[target])
                assert other.ok, other.errors
                back = convert_fen(other.fen, "xiangqi", options=PROFILES[source])
                if DIALECTS[target][2] is FieldLayout.CFEN:  # the halfmove clock is gone
                    assert read_fen(back.fen, "xiangqi").setup == read.setup.with_changes(halfmove=0)
                else:
                    assert back.fen == text


def _seen(seen: tuple, text: str) -> tuple:
    """What the reader reports for a dialect's FEN: a placement without a horse or an
    elephant has letters both sets share; a FEN with "b" to move has no red letter."""
    letters, sides, layout = seen
    placement, turn = text.split()[:2]
    if not set(placement.lower()) & set("nbhe"):
        letters = PieceLetters.WXF if layout is FieldLayout.CFEN else PieceLetters.STANDARD
    if turn == "b":
        sides = SideLetters.RB if layout is FieldLayout.CFEN else SideLetters.WB
    return letters, sides, layout


XIANGQI = find_variant("xiangqi")
_PALACE_RED = [f + r for f in "def" for r in "123"]
_PALACE_BLACK = [f + r for f in "def" for r in ("8", "9", "10")]


@st.composite
def crowded_boards(draw: st.DrawFn) -> str:
    """Generals in their palaces and chariots, horses and cannons of both sides anywhere:
    the crowded boards where horse legs and cannon screens matter."""
    geometry = XIANGQI.geometry
    cells = ["."] * geometry.size
    cells[geometry.parse_square(draw(st.sampled_from(_PALACE_RED)))] = "K"
    black = geometry.parse_square(draw(st.sampled_from(_PALACE_BLACK)))
    cells[black] = "k"
    empty = [sq for sq, cell in enumerate(cells) if cell == "."]
    squares = draw(st.lists(st.sampled_from(empty), min_size=2, max_size=24, unique=True))
    for sq in squares:
        cells[sq] = draw(st.sampled_from("rncRNC"))
    return "".join(cells)


@pytest.mark.slow
@given(crowded_boards(), st.sampled_from("wb"))
def test_check_on_crowded_boards_agrees_with_fairy_stockfish(cells, turn):
    geometry = XIANGQI.geometry
    (red,) = generals(cells, XIANGQI, True)
    (black,) = generals(cells, XIANGQI, False)
    if generals_facing(cells, geometry, red, black):
        return  # flying general: our own rule, not a check
    fen = f"{placement_of_board(cells, geometry, frozenset())} {turn} - - 0 1"
    mover_general = red if turn == "w" else black
    ours = bool(attackers(cells, geometry, XIANGQI, mover_general, turn != "w"))
    assert ours == pyffish.gives_check("xiangqi", fen, []), fen
