"""Xiangqi FENs in every dialect: Fairy-Stockfish / UCCI letters, WXF letters (h horse,
e elephant) and CXBoard's CFEN (WXF letters, ``r``/``b`` to move, placement, side and move
number only). The reader reports which spelling each part had; the writer writes each
(profiles ``fairy-stockfish``, ``wxf``, ``cxboard`` and the options ``letters``, ``sides``
and ``layout``). Tables in fixtures/xiangqi/fen.json, property tests of read(write(s)) == s."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from paths import ROOT

from notation.errors import FenSyntaxError
from notation.fen.profiles import PROFILES, resolve_options
from notation.fen.reader import read_fen
from notation.fen.writer import write_fen
from notation.options import FieldLayout, PieceLetters, SideLetters
from notation.setup import Setup
from notation.variants import find_variant

TABLE = json.loads((ROOT / "fixtures" / "xiangqi" / "fen.json").read_text(encoding="utf-8"))
XIANGQI = find_variant("xiangqi")
START = XIANGQI.start_fen
WXF_START = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1"
CFEN_START = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r 1"
XIANGQI_PROFILES = ("fairy-stockfish", "wxf", "cxboard")


@pytest.mark.parametrize("name", ["Xiangqi", "xiangqi", "Chinese Chess", "CC", "Chinese", "chinese-chess"])
def test_aliases(name):
    assert find_variant(name) is XIANGQI


def test_registry_entry():
    assert (XIANGQI.geometry.files, XIANGQI.geometry.ranks) == (9, 10)
    assert XIANGQI.piece_letters == "rnbakcp"
    assert [kind.name for kind in XIANGQI.pieces] == [
        "chariot", "horse", "elephant", "advisor", "general", "cannon", "soldier",
    ]
    assert not XIANGQI.castling and XIANGQI.promotions == ""


@pytest.mark.parametrize("case", TABLE["reads"], ids=[c["fen"] for c in TABLE["reads"]])
def test_reads_every_dialect_and_says_which(case):
    read = read_fen(case["fen"], "xiangqi")
    seen = read.dialect.to_dict()
    assert (seen["letters"], seen["sides"], seen["layout"]) == (case["letters"], case["sides"], case["layout"])
    assert seen["counters"] == case.get("counters", "present")
    fen, warnings = write_fen(read.setup, XIANGQI, PROFILES["fairy-stockfish"])
    assert warnings == []
    assert fen == case["write"]


@pytest.mark.parametrize("case", TABLE["errors"], ids=[c["fen"] or "empty" for c in TABLE["errors"]])
def test_errors_name_field_and_column(case):
    with pytest.raises(FenSyntaxError) as caught:
        read_fen(case["fen"], "xiangqi")
    assert (caught.value.field, caught.value.column) == (case["field"], case["column"])
    assert case.get("message", "") in str(caught.value)


def test_three_dialects_of_the_start_are_one_setup():
    setups = {read_fen(fen, "xiangqi").setup for fen in (START, WXF_START, CFEN_START)}
    assert len(setups) == 1


@pytest.mark.parametrize(("profile", "expected"), [
    ("fairy-stockfish", START), ("wxf", WXF_START), ("cxboard", CFEN_START), ("python-chess", START),
])
def test_profiles_write_their_dialect(profile, expected):
    setup = read_fen(START, "xiangqi").setup
    assert write_fen(setup, XIANGQI, PROFILES[profile]) == (expected, [])


def test_single_options_override_the_profile():
    setup = read_fen(START, "xiangqi").setup
    assert write_fen(setup, XIANGQI, resolve_options("fairy-stockfish", sides="rb")).fen.split()[1] == "r"
    assert write_fen(setup, XIANGQI, resolve_options("cxboard", letters="standard")).fen == START.split()[0] + " r 1"
    assert write_fen(setup, XIANGQI, resolve_options("cxboard", layout="full")).fen == WXF_START.replace(" w ", " r ")


def test_cfen_says_what_it_drops():
    setup = read_fen("3k5/9/9/9/9/9/9/9/9/4K4 b - - 17 40", "xiangqi").setup
    fen, warnings = write_fen(setup, XIANGQI, PROFILES["cxboard"])
    assert fen == "3k5/9/9/9/9/9/9/9/9/4K4 b 40"
    assert [(w.code, w.field) for w in warnings] == [("lossy-fields", "halfmove")]
    assert "'17' was dropped" in warnings[0].message


def test_chess_variants_ignore_the_xiangqi_options():
    standard = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    read = read_fen(standard)
    assert write_fen(read.setup, read.variant, PROFILES["cxboard"]).fen == standard
    assert "letters" not in read.dialect.to_dict()


# -- properties -------------------------------------------------------------------------------

_CELL = st.sampled_from("." * 12 + XIANGQI.piece_letters + XIANGQI.piece_letters.upper())


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    cells = "".join(draw(st.lists(_CELL, min_size=90, max_size=90)))
    return Setup(
        cells=cells,
        turn=draw(st.sampled_from("wb")),
        halfmove=draw(st.integers(0, 300)),
        fullmove=draw(st.integers(1, 10_000)),
        geometry=XIANGQI.geometry,
    )


@pytest.mark.slow
@given(setups(), st.sampled_from(list(PieceLetters)), st.sampled_from(list(SideLetters)),
       st.sampled_from(list(FieldLayout)))
def test_read_of_write_is_the_setup_in_every_dialect(setup, letters, sides, layout):
    options = PROFILES["fairy-stockfish"].but(letters=letters, sides=sides, layout=layout)
    fen, _ = write_fen(setup, XIANGQI, options)
    read = read_fen(fen, "xiangqi")
    expected = setup.with_changes(halfmove=0) if layout is FieldLayout.CFEN else setup
    assert read.setup == expected
    assert read.dialect.layout is layout
    if set(fen.split()[0].lower()) & set("nbhe"):
        assert read.dialect.letters is letters
    if fen.split()[1] != "b":
        assert read.dialect.sides is sides


@pytest.mark.slow
@given(setups(), st.sampled_from(XIANGQI_PROFILES), st.sampled_from(XIANGQI_PROFILES))
def test_every_profile_reads_what_every_other_writes(setup, source, target):
    first, _ = write_fen(setup, XIANGQI, PROFILES[source])
    again, _ = write_fen(read_fen(first, "xiangqi").setup, XIANGQI, PROFILES[target])
    back, _ = write_fen(read_fen(again, "xiangqi").setup, XIANGQI, PROFILES[source])
    if "cxboard" in (source, target):
        assert read_fen(back, "xiangqi").setup == setup.with_changes(halfmove=0)
    else:
        assert back == first
