"""Tables of real FENs on boards beyond 8x8 (fixtures/geometry/cases.json): what the reader
refuses and where, and every validation code a readable one gets, on a 10x10 and a 12x12
chess variant with the Standard pieces (tests/geometry_variants.py)."""

from __future__ import annotations

import json

import pytest
from geometry_variants import TEST_VARIANTS
from paths import ROOT

from notation import NotationError, read_fen, write_fen
from notation.fen.profiles import WriteOptions
from notation.options import EnPassantMode
from notation.validation import CODES, validate

CASES = json.loads(
    (ROOT / "fixtures" / "geometry" / "cases.json").read_text(encoding="utf-8")
)

KEEP_EN_PASSANT = WriteOptions(en_passant=EnPassantMode.ALWAYS)


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES["syntax"], ids=[f"{c['variant']}:{c['fen']}" for c in CASES["syntax"]])
def test_unreadable_fen_names_field_and_column(case):
    with pytest.raises(NotationError) as raised:
        read_fen(case["fen"], TEST_VARIANTS[case["variant"]])
    problem = raised.value.problems[0]
    assert (problem.code, problem.field, problem.column) == ("fen-syntax", case["field"], case["column"])
    assert case.get("message", "") in problem.message


@pytest.mark.parametrize("case", CASES["codes"], ids=[f"{c['variant']}:{c['fen']}" for c in CASES["codes"]])
def test_validation_codes_and_messages(case):
    variant = TEST_VARIANTS[case["variant"]]
    setup = read_fen(case["fen"], variant).setup
    assert setup.geometry == variant.geometry
    problems = validate(setup, variant)
    assert sorted({p.code for p in problems}) == sorted(set(case["codes"])), problems
    text = " | ".join(p.message for p in problems)
    for expected in case["messages"]:
        assert expected in text
    assert all(p.code in CODES for p in problems)
    # What reads is written back to the same setup (en passant squares kept as written).
    assert read_fen(write_fen(setup, variant, KEEP_EN_PASSANT).fen, variant).setup == setup
