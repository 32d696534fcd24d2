"""Properties over arbitrary setups of every registry variant: validation never raises,
every problem has a known code and field, repair removes exactly what it reports, and
the en passant modes nest (legal within pseudo-legal within always)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from notation.options import EnPassantMode
from notation.rules.en_passant import en_passant_square
from notation.setup import Pockets, Setup
from notation.validation import CODES, repair, validate
from notation.variants import DEFAULT_REGISTRY, RuleFamily

# Chess-family rules (Xiangqi has its own: test_xiangqi_validation.py).
VARIANTS = [v for v in DEFAULT_REGISTRY if v.family is RuleFamily.CHESS]
FIELDS = {"placement", "pockets", "turn", "castling", "en-passant", "checks"}


@st.composite
def setups(draw):
    variant = draw(st.sampled_from(VARIANTS))
    letters = variant.piece_letters + variant.piece_letters.upper()
    size = variant.geometry.size
    cells = draw(st.lists(st.one_of(st.none(), st.none(), st.sampled_from(letters)), min_size=size, max_size=size))
    pockets = None
    if variant.has_pockets:
        pocket_letters = st.text(variant.piece_letters, max_size=4)
        pockets = Pockets(draw(pocket_letters), draw(pocket_letters))
    counters = None
    if variant.has_check_counters:
        counters = (draw(st.integers(-1, 5)), draw(st.integers(-1, 5)))
    setup = Setup(
        board=tuple(cells),
        turn=draw(st.sampled_from("wb")),
        castling=draw(st.frozensets(st.integers(0, size - 1), max_size=4)),
        ep_square=draw(st.one_of(st.none(), st.integers(0, size - 1))),
        promoted=draw(st.frozensets(st.integers(0, size - 1), max_size=3)),
        pockets=pockets,
        remaining_checks=counters,
        geometry=variant.geometry,
    )
    return setup, variant


@pytest.mark.slow
@settings(max_examples=examples(300))
@given(setups())
def test_validate_reports_known_codes_and_fields(case):
    setup, variant = case
    for problem in validate(setup, variant):
        assert problem.code in CODES
        assert problem.field in FIELDS
        assert problem.message


@pytest.mark.slow
@settings(max_examples=examples(300))
@given(setups())
def test_repair_is_exact_and_idempotent(case):
    setup, variant = case
    fixed, warnings = repair(setup, variant)
    assert not {p.code for p in validate(fixed, variant)} & {"bad-castling-rights", "invalid-ep-square"}
    assert len(setup.castling - fixed.castling) + (setup.ep_square != fixed.ep_square) == len(warnings)
    assert fixed.castling <= setup.castling and fixed.board == setup.board
    assert repair(fixed, variant) == (fixed, [])


@pytest.mark.slow
@settings(max_examples=examples(300))
@given(setups())
def test_en_passant_modes_nest(case):
    setup, variant = case
    always = en_passant_square(setup, variant, EnPassantMode.ALWAYS)
    pseudo = en_passant_square(setup, variant, EnPassantMode.PSEUDO_LEGAL)
    legal = en_passant_square(setup, variant, EnPassantMode.LEGAL)
    assert always == setup.ep_square
    assert pseudo in (None, always)
    assert legal in (None, pseudo)
