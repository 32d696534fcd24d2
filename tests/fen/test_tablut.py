"""Tablut: the registry entry, OpenTafl position records <-> the FEN-style form, the tafl
judge, and the front ends (installed command, service) on tables in fixtures/tafl/."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st
from installed import installed_script
from paths import ROOT
from service_fixtures import app, client  # noqa: F401

from notation.errors import FenSyntaxError
from notation.fen import opentafl
from notation.fen.profiles import PROFILES, resolve_options
from notation.fen.reader import read_fen
from notation.fen.writer import write_fen
from notation.geometry import Geometry
from notation.operations import convert_fen, validate_fen
from notation.options import IllegalPolicy, PositionNotation
from notation.setup import BLACK, WHITE, Setup
from notation.validation import CODES, FINISHED_GAME_CODES, validate
from notation.variants import RuleFamily, find_variant

FIXTURES = ROOT / "fixtures" / "tafl"
POSITIONS = json.loads((FIXTURES / "positions.json").read_text())
VALIDATION = json.loads((FIXTURES / "validation.json").read_text())
READER_ERRORS = json.loads((FIXTURES / "reader_errors.json").read_text())
TABLUT = find_variant("tablut")
START_RECORD = "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"
OPENTAFL = PROFILES["opentafl"]


def _note(case: dict) -> str:
    return case["note"]


# -- registry ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["Tablut", "TB", "tb", "tablut", "Linnaeus Tablut", "Tablut 9x9"])
def test_tablut_is_found_by_its_names(name):
    assert find_variant(name) is TABLUT


def test_tablut_entry_holds_the_seed_rules_as_data():
    assert TABLUT.geometry == Geometry(9, 9)
    assert TABLUT.family is RuleFamily.TAFL
    assert TABLUT.royal == "k"
    assert set(TABLUT.piece_letters) == {"t", "k"}
    white, black = TABLUT.armies
    assert (white.royal_count, dict(white.max_by_kind)["t"]) == (0, 16)
    assert (black.royal_count, dict(black.max_by_kind)["t"]) == (1, 8)
    assert set(TABLUT.special_squares) == {"e5", "a1", "i1", "a9", "i9"}
    assert all(TABLUT.geometry.parse_square(name) >= 0 for name in TABLUT.special_squares)
    assert not TABLUT.castling


def test_the_start_fen_is_legal_white_to_move_and_the_published_record():
    read = read_fen(TABLUT.start_fen, TABLUT)
    assert read.setup.turn == WHITE
    assert validate(read.setup, TABLUT) == []
    assert write_fen(read.setup, TABLUT, OPENTAFL).fen == START_RECORD


def test_new_codes_are_listed_and_documented():
    docs = (ROOT / "docs" / "validation.md").read_text()
    for code in ("king-wrong-side", "restricted-square", "king-escaped", "king-captured"):
        assert code in CODES
        assert f"`{code}`" in docs
    assert {"king-escaped", "king-captured"} <= FINISHED_GAME_CODES


# -- OpenTafl records and the FEN-style form ----------------------------------------------


@pytest.mark.parametrize("case", POSITIONS, ids=_note)
def test_published_records_read_as_their_fen(case):
    read = read_fen(case["opentafl"], "tablut")
    assert read.dialect.notation is PositionNotation.OPENTAFL
    assert read.dialect.counters is False
    assert write_fen(read.setup, TABLUT).fen == case["fen"]
    assert read.setup == read_fen(case["fen"], "tablut").setup


@pytest.mark.parametrize("case", POSITIONS, ids=_note)
def test_fens_convert_to_the_published_records_and_back(case):
    there = convert_fen(case["fen"], "tablut", options=OPENTAFL)
    assert there.ok, there.errors
    assert there.fen == case["opentafl"]
    assert there.warnings == []
    assert there.detected is not None and there.detected.notation is PositionNotation.FEN
    back = convert_fen(there.fen, "tablut")
    assert back.fen == case["fen"]


@pytest.mark.parametrize("case", READER_ERRORS, ids=lambda case: case["position"])
def test_unreadable_positions_name_field_and_column(case):
    with pytest.raises(FenSyntaxError) as caught:
        read_fen(case["position"], "tablut")
    problem = caught.value.problems[0]
    assert (problem.field, problem.column) == (case["field"], case["column"])
    assert case["message"] in problem.message


def test_a_leading_slash_is_opentafl_only_for_tafl_variants():
    with pytest.raises(FenSyntaxError):
        read_fen("/8/8/8/8/8/8/8/8/", "standard")


def test_writing_black_to_move_or_counters_as_a_record_says_what_was_dropped():
    setup = read_fen(TABLUT.start_fen, TABLUT).setup.with_changes(turn=BLACK, halfmove=3, fullmove=9)
    written = write_fen(setup, TABLUT, OPENTAFL)
    assert written.fen == START_RECORD
    assert sorted(w.code for w in written.warnings) == ["lossy-counters", "lossy-turn"]


def test_opentafl_profile_writes_chess_as_fen_and_chess_profiles_write_tablut_as_fen():
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    result = convert_fen(start, options=OPENTAFL)
    assert (result.fen, result.warnings) == (start, [])
    # Any chess profile writes Tablut's FEN-style form unchanged.
    for profile in ("lichess", "xboard", "fairy-stockfish", "scid"):
        assert convert_fen(START_RECORD, "tablut", options=resolve_options(profile)).fen == TABLUT.start_fen


# -- validation ----------------------------------------------------------------------------


@pytest.mark.parametrize("case", VALIDATION, ids=_note)
def test_validation_table(case):
    result = validate_fen(case["position"], "tablut")
    assert sorted(p.code for p in result.errors) == sorted(case["errors"])
    assert sorted(p.code for p in result.warnings) == sorted(case["warnings"])
    assert result.valid is not bool(case["errors"])
    for problem in result.errors + result.warnings:
        assert problem.field in ("placement", "castling", "en-passant")


def test_repair_drops_castling_and_en_passant_with_a_warning_each():
    result = convert_fen(TABLUT.start_fen.replace("w - -", "w KQ e3"), "tablut", on_illegal=IllegalPolicy.REPAIR)
    assert result.ok and result.fen == TABLUT.start_fen
    assert sorted(w.code for w in result.warnings) == ["repaired-castling", "repaired-castling", "repaired-en-passant"]


def test_a_setup_of_another_board_is_judged_on_its_size_alone():
    chess_sized = Setup.empty()
    assert [p.code for p in validate(chess_sized, TABLUT)] == ["wrong-board-size"]


def test_a_finished_game_still_converts_with_its_warning():
    result = convert_fen("k8/9/9/9/9/9/9/9/7T1 w - - 0 1", "tablut", options=OPENTAFL)
    assert result.ok
    assert result.fen == "/7t1/9/9/9/9/9/9/9/K8/"
    assert [w.code for w in result.warnings] == ["king-escaped"]


# -- properties ----------------------------------------------------------------------------

_CELL = st.sampled_from(".........TTtk")  # mostly empty, as real positions are
_SETUPS = st.builds(
    lambda cells: Setup(cells="".join(cells), geometry=TABLUT.geometry),
    st.lists(_CELL, min_size=81, max_size=81),
)


@pytest.mark.slow
@given(_SETUPS)
def test_record_round_trips_any_setup(setup):
    record, warnings = opentafl.format_record(setup, TABLUT)
    assert warnings == []
    assert opentafl.parse_record(record, TABLUT) == setup
    assert read_fen(record, TABLUT).setup == setup


@pytest.mark.slow
@given(_SETUPS, st.sampled_from([WHITE, BLACK]), st.integers(0, 200), st.integers(1, 500))
def test_fen_style_form_round_trips_and_converts_exactly(setup, turn, halfmove, fullmove):
    setup = setup.with_changes(turn=turn, halfmove=halfmove, fullmove=fullmove)
    fen = write_fen(setup, TABLUT).fen
    assert read_fen(fen, TABLUT).setup == setup
    record = write_fen(setup, TABLUT, OPENTAFL).fen
    # The record keeps the board exactly: upper case swaps with lower, rank 1 comes first.
    back = read_fen(record, TABLUT).setup
    assert back.cells == setup.cells
    assert fen.split()[0] == "/".join(record.strip("/").split("/")[::-1]).swapcase()


@given(st.text(alphabet="/0123456789tTkKq .", max_size=120))
def test_any_text_after_a_slash_reads_or_fails_with_field_and_column(tail):
    text = "/" + tail
    try:
        read = read_fen(text, TABLUT)
    except FenSyntaxError as error:
        problem = error.problems[0]
        assert problem.field == "placement"
        assert problem.column is not None and 1 <= problem.column <= len(text) + 1
    else:
        assert read.dialect.notation is PositionNotation.OPENTAFL
        assert write_fen(read.setup, TABLUT, OPENTAFL).fen == opentafl.format_record(read.setup, TABLUT)[0]


# -- through the installed command and the service -----------------------------------------


def _run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [installed_script("notation"), *args], input=stdin, capture_output=True, text=True, timeout=120
    )


@pytest.mark.slow
def test_installed_convert_reads_and_writes_both_notations():
    lines = "".join(case["opentafl"] + "\n" for case in POSITIONS)
    to_fen = _run("convert", "--variant", "TB", stdin=lines)
    assert to_fen.returncode == 0, to_fen.stderr
    assert to_fen.stdout.splitlines() == [case["fen"] for case in POSITIONS]
    to_record = _run("convert", "--variant", "Tablut", "--profile", "opentafl", stdin=to_fen.stdout)
    assert to_record.returncode == 0, to_record.stderr
    assert to_record.stdout.splitlines() == [case["opentafl"] for case in POSITIONS]


def test_installed_convert_reports_errors_and_finished_games():
    out = _run("convert", "--variant", "tablut", "--json", stdin="\n".join(
        json.dumps({"fen": fen}) for fen in (
            "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3tt3/",
            "k8/9/9/9/9/9/9/9/9 w - - 0 1",
            "3TTT3/4T4/4t4/T3t3T/1TttTttTT/T3t3T/4t4/4T4/3TTT3 w - - 0 1",
        )
    ) + "\n")
    assert out.returncode == 1
    syntax, escaped, throne = (json.loads(line) for line in out.stdout.splitlines())
    assert syntax["errors"][0] | {"message": ""} == {
        "code": "fen-syntax", "field": "placement", "column": 46, "message": ""
    }
    assert escaped["ok"] and [w["code"] for w in escaped["warnings"]] == ["king-escaped"]
    assert [e["code"] for e in throne["errors"]] == ["restricted-square"]
    assert throne["detected"]["notation"] == "fen"


@pytest.mark.slow
def test_installed_validate_and_check(tmp_path):
    positions = tmp_path / "tablut.fen"
    positions.write_text(START_RECORD + "\n" + "3TTT3/4T4/4t4/T3t3T/TTttkttTT/T3t3T/4t4/4T4/2TTTT3 w - - 0 1\n")
    valid = _run("validate", "--variant", "tb", START_RECORD)
    assert valid.returncode == 0, valid.stderr
    checked = _run("check", "--variant", "tablut", str(positions))
    assert checked.returncode == 1
    assert f"{positions}:2:1: too-many-pieces" in checked.stdout


@pytest.mark.slow
def test_installed_start_prints_both_forms():
    assert _run("start", "--variant", "tablut").stdout.strip() == TABLUT.start_fen
    assert _run("start", "--variant", "TB", "--profile", "opentafl").stdout.strip() == START_RECORD


@pytest.mark.slow
def test_installed_normalize_names_the_variant_and_writes_the_record(tmp_path):
    pgn = tmp_path / "games.pgn"
    pgn.write_text(f'[Event "x"]\n[Variant "TB"]\n[FEN "{TABLUT.start_fen}"]\n[SetUp "1"]\n\n*\n')
    out = _run("normalize", "--profile", "opentafl", "--summary", "none", str(pgn))
    assert out.returncode == 0, out.stderr
    assert '[Variant "Tablut"]' in out.stdout
    assert f'[FEN "{START_RECORD}"]' in out.stdout


@pytest.mark.slow
def test_service_converts_and_validates_tablut(client):  # noqa: F811
    converted = client.post("/v1/fen/convert", json={"fen": START_RECORD, "variant": "TB"})
    assert converted.status_code == 200
    body = converted.get_json()
    assert body["fen"] == TABLUT.start_fen
    assert body["detected"]["notation"] == "opentafl"
    back = client.post("/v1/fen/convert", json={"fen": body["fen"], "variant": "tablut", "profile": "opentafl"})
    assert back.status_code == 200 and back.get_json()["fen"] == START_RECORD
    judged = client.post("/v1/fen/validate", json={"fen": "k8/9/9/9/4T4/9/9/9/9 w - - 0 1", "variant": "tablut"})
    assert judged.status_code == 200
    result = judged.get_json()
    assert [p["code"] for p in result["errors"]] == ["restricted-square"]
    assert [p["code"] for p in result["warnings"]] == ["king-escaped"]


def test_module_runs_as_python_m_notation():
    # The package entry point (``python -m notation``) knows the variant too.
    out = subprocess.run(
        [sys.executable, "-m", "notation", "convert", "--variant", "tablut", "--profile", "opentafl",
         TABLUT.start_fen],
        capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == START_RECORD
