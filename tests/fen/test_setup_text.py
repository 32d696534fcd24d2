"""A readable position in Python: ``repr(setup)`` is the FEN it holds, ``str(setup)`` a
board diagram, for every variant and any board geometry."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples
from paths import ROOT
from test_fen_properties import setups

from notation import DEFAULT_REGISTRY, Pockets, Setup, read_fen
from notation.diagram import fen_text
from notation.geometry import Geometry

CASES = json.loads((ROOT / "fixtures" / "fen" / "conversions.json").read_text(encoding="utf-8"))["cases"]


def shown(setup, fen: str) -> str:
    """What repr says: the FEN, after the board's size when it is not 8x8."""
    size = "" if setup.geometry.is_chess_board else f"{setup.geometry} "
    return f"<Setup {size}{fen!r}>"


@pytest.mark.slow
@settings(max_examples=examples(300))
@given(setups())
def test_the_fen_of_repr_reads_back_as_the_same_setup(case):
    variant, setup = case
    assert repr(setup) == shown(setup, fen_text(setup))
    assert read_fen(fen_text(setup), variant).setup == setup


@pytest.mark.parametrize("variant", list(DEFAULT_REGISTRY), ids=lambda v: v.key)
def test_every_variants_start_shows_its_start_fen(variant):
    setup = read_fen(variant.start_fen, variant).setup
    assert repr(setup) == shown(setup, variant.start_fen)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_diagram_of_the_fixture_positions(case):
    setup = read_fen(case["fen"], case["variant"]).setup
    lines = str(setup).splitlines()
    board = lines[:8]
    for row, rank in zip(board, range(8, 0, -1), strict=True):
        assert row.startswith(f"{rank} ")
        letters = row[2:].replace("~", " ")[::2]
        assert letters.ljust(8, ".") == "".join(setup.cells[(rank - 1) * 8 + f] for f in range(8))
    assert lines[8] == "  a b c d e f g h"
    assert any(line.startswith("pockets: ") for line in lines) == (setup.pockets is not None)
    assert any(line.startswith("checks remaining: ") for line in lines) == (setup.remaining_checks is not None)
    assert lines[-1].startswith(("white to move", "black to move"))


@pytest.mark.slow
@settings(max_examples=examples(100))
@given(st.integers(1, 12), st.integers(1, 12), st.data())
def test_diagram_of_any_geometry(files, ranks, data):
    geometry = Geometry(files, ranks)
    cells = "".join(data.draw(st.lists(st.sampled_from(".pPkK"), min_size=geometry.size, max_size=geometry.size)))
    setup = Setup(cells=cells, geometry=geometry)
    lines = str(setup).splitlines()
    assert len(lines) == ranks + 2
    width = len(str(ranks))
    for row, rank in zip(lines[:ranks], range(ranks, 0, -1), strict=True):
        assert row[:width].strip() == str(rank)
        assert row[width + 1 :].split() == list(geometry.rank_cells(cells, rank - 1))
    assert lines[ranks].split() == list(geometry.file_names)
    size = "" if geometry.is_chess_board else f"{geometry} "
    assert repr(setup).startswith(f"<Setup {size}'")


def test_pockets_promotions_and_counters_are_drawn():
    setup = read_fen("rnbq2nQ~/ppppk2p/5p1B/8/8/1P6/P1P1PPPP/q~N1QKBNR/PBRr w K - 1 8", "crazyhouse").setup
    lines = str(setup).splitlines()
    assert lines[0] == "8 r n b q . . n Q~"
    assert "pockets: white [RBP] black [r]" in lines
    assert lines[-1] == "white to move, castling K, en passant -, halfmove 1, fullmove 8"
    three = read_fen("5k2/8/8/8/8/8/8/4K3 b - - 1+3 4 34", "threecheck").setup
    assert "checks remaining: white 1, black 3" in str(three)
    assert repr(Setup.empty().with_changes(pockets=Pockets("q", ""))).startswith("<Setup '8/8/8/8/8/8/8/8[Q] w")


def test_in_the_installed_package(tmp_path):
    """As a user sees it: a fresh interpreter, outside the source tree."""
    code = (
        "import notation\n"
        "setup = notation.read_fen('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 1', 'zh').setup\n"
        "print(repr(setup))\n"
        "print(setup)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "<Setup 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 1'>"
    assert lines[5] == "4 . . . . P . . ."
    assert lines[-2] == "pockets: white [] black []"
