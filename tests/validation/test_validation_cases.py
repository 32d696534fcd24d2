"""The hand-made tables of edge cases per variant (fixtures/validation/cases.json, and
``*_cases.json`` beside it: one table per source of rules, each ``rule`` a sentence quoted
from that source)."""

from __future__ import annotations

import json

import pytest
from paths import ROOT

from notation.fen.reader import read_fen
from notation.validation import CODES, validate

FIXTURES = ROOT / "fixtures" / "validation"
# cases.json, then one more table per family of variants (``*_cases.json``).
CASES = [
    case
    for path in [FIXTURES / "cases.json", *sorted(FIXTURES.glob("*_cases.json"))]
    for case in json.loads(path.read_text(encoding="utf-8"))
]


@pytest.mark.parametrize("case", CASES, ids=[f"{c['variant']}:{c['fen']}" for c in CASES])
def test_case(case):
    parsed = read_fen(case["fen"], case["variant"])
    problems = validate(parsed.setup, parsed.variant)
    assert sorted({p.code for p in problems}) == sorted(set(case["codes"]))
    text = " | ".join(p.message for p in problems)
    for expected in case.get("messages", []):
        assert expected in text
    for problem in problems:
        assert problem.code in CODES
        assert problem.field in ("placement", "pockets", "turn", "castling", "en-passant", "checks", "bombs")


# Codes no FEN can earn (the reader gives a setup its variant's board): tested in code
# (test_geometry_validation.py).
CODES_OF_SETUPS_BUILT_IN_CODE = {"wrong-board-size"}


def test_every_code_has_a_case():
    seen = {code for case in CASES for code in case["codes"]}
    assert seen | CODES_OF_SETUPS_BUILT_IN_CODE == set(CODES)


def test_every_registry_variant_has_a_case():
    from notation.variants import DEFAULT_REGISTRY

    assert {case["variant"] for case in CASES} == {variant.key for variant in DEFAULT_REGISTRY}
