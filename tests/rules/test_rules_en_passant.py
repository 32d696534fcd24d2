"""En passant modes on hand-made cases (fixtures/validation/en_passant.json), with
python-chess as a second opinion where it knows the variant."""

from __future__ import annotations

import json

import chess
import chess.variant
import pytest
from paths import ROOT

from notation.fen.reader import read_fen
from notation.options import EnPassantMode
from notation.rules.en_passant import en_passant_square
from notation.squares import SQUARE_NAMES

FIXTURES = ROOT / "fixtures" / "validation"
CASES = json.loads((FIXTURES / "en_passant.json").read_text(encoding="utf-8"))
ORACLE = {
    "standard": chess.Board,
    "atomic": chess.variant.AtomicBoard,
    "antichess": chess.variant.AntichessBoard,
    "horde": chess.variant.HordeBoard,
}


def name(sq):
    return None if sq is None else SQUARE_NAMES[sq]


@pytest.mark.parametrize("case", CASES, ids=[f"{c['variant']}:{c['fen']}" for c in CASES])
def test_modes(case):
    parsed = read_fen(case["fen"], case["variant"])
    setup, variant = parsed.setup, parsed.variant
    assert en_passant_square(setup, variant, EnPassantMode.ALWAYS) == setup.ep_square
    assert name(en_passant_square(setup, variant, EnPassantMode.PSEUDO_LEGAL)) == case["pseudo"]
    assert name(en_passant_square(setup, variant, EnPassantMode.LEGAL)) == case["legal"]
    oracle = ORACLE.get(case["variant"])
    if oracle is not None:
        # Where python-chess answers otherwise, the case says what it answers and why.
        expected = case.get("python_chess", case)
        board = oracle(case["fen"])
        assert (name(board.ep_square) if board.has_legal_en_passant() else None) == expected["legal"]
        assert (name(board.ep_square) if board.has_pseudo_legal_en_passant() else None) == expected["pseudo"]
