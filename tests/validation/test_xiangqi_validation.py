"""Xiangqi's setup rules, pinned by a table of hand-made illegal setups and their legal
neighbours (fixtures/xiangqi/validation.json): one case per rule and per code."""

from __future__ import annotations

import json
import re

import pytest
from paths import ROOT

from notation.fen.reader import read_fen
from notation.validation import CODES, validate

CASES = json.loads((ROOT / "fixtures" / "xiangqi" / "validation.json").read_text(encoding="utf-8"))
XIANGQI_CODES = {
    "missing-king", "too-many-kings", "misplaced-general", "misplaced-advisor", "misplaced-elephant",
    "misplaced-soldier", "too-many-pieces", "too-many-pawns", "flying-general", "opposite-check",
    "impossible-check", "invalid-ep-square",
}


@pytest.mark.parametrize("case", CASES, ids=[c["fen"] for c in CASES])
def test_case(case):
    parsed = read_fen(case["fen"], "xiangqi")
    problems = validate(parsed.setup, parsed.variant)
    assert sorted({p.code for p in problems}) == sorted(case["codes"]), [p.describe() for p in problems]
    text = " | ".join(p.message for p in problems)
    for expected in case.get("messages", []):
        assert expected in text
    for problem in problems:
        assert problem.code in CODES
        assert problem.field in ("placement", "turn", "castling", "en-passant")


def test_every_code_has_an_illegal_case_and_the_table_has_legal_neighbours():
    assert {code for case in CASES for code in case["codes"]} == XIANGQI_CODES
    assert sum(1 for case in CASES if not case["codes"]) >= 20


def test_the_same_setup_in_every_dialect_has_the_same_problems():
    for case in CASES:
        fen = case["fen"]
        wxf = fen.split()[0].translate(str.maketrans("nbNB", "heHE"))
        turn = "r" if fen.split()[1] == "w" else "b"
        cfen = f"{wxf} {turn} {fen.split()[-1]}"
        codes = sorted({p.code for p in validate(read_fen(fen, "xiangqi").setup, "xiangqi")})
        if "invalid-ep-square" in codes:
            continue  # CFEN has no en passant field
        assert sorted({p.code for p in validate(read_fen(cfen, "xiangqi").setup, "xiangqi")}) == codes


def test_docs_explain_every_xiangqi_code():
    doc = (ROOT / "docs" / "validation.md").read_text(encoding="utf-8")
    for code in XIANGQI_CODES:
        assert re.search(rf"`{re.escape(code)}`", doc), code
    assert "## Xiangqi" in doc
