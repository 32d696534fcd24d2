"""itsyourturn Atomic's bombs (notation/fen/bombs.py, notation/validation/bombs.py): the
bomb field read and written (fixtures/fen/bomb_fields.json), positions of random legal
play with bombs on surviving pieces valid and written as Fairy-Stockfish writes the rest,
and every front end (library, installed CLI, service, check, normalize)."""

from __future__ import annotations

import json
import random
import subprocess

import pyffish
import pytest
from hypothesis import given
from hypothesis import strategies as st
from installed import installed_script
from paths import ROOT

from notation import read_fen, write_fen
from notation.errors import FenSyntaxError
from notation.fen.bombs import bomb_field, split_bomb_field
from notation.fen.profiles import PROFILES
from notation.squares import SQUARE_NAMES
from notation.validation import validate
from notation.variants import DEFAULT_REGISTRY

from notation_service import create_app

TABLE = json.loads((ROOT / "fixtures" / "fen" / "bomb_fields.json").read_text(encoding="utf-8"))
CT = DEFAULT_REGISTRY.get("itsyourturnatomic")
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def _square(name: str | None) -> int | None:
    return None if name is None else SQUARE_NAMES.index(name)


@pytest.mark.parametrize("case", TABLE["read"], ids=lambda c: c["fen"])
def test_bomb_fields_read_and_write(case):
    setup = read_fen(case["fen"], CT).setup
    assert setup.bombs == tuple(_square(name) for name in case["bombs"])
    assert write_fen(setup, CT).fen == case["written"]


@pytest.mark.parametrize("case", TABLE["errors"], ids=lambda c: c["fen"])
def test_bad_bomb_fields_name_field_and_column(case):
    with pytest.raises(FenSyntaxError) as caught:
        read_fen(case["fen"], CT)
    problem = caught.value.problems[0]
    assert (problem.field, problem.column) == (case["field"], case["column"]), problem.message


def test_other_variants_read_no_bomb_field():
    with pytest.raises(FenSyntaxError):
        read_fen(START + " d1e8", "standard")
    assert read_fen(START, "standard").setup.bombs is None


def test_a_bomb_setup_written_for_a_variant_without_bombs_warns():
    setup = read_fen(START + " d1e8", CT).setup
    written = write_fen(setup, DEFAULT_REGISTRY.get("standard"))
    assert written.fen == START
    assert [w.code for w in written.warnings] == ["lossy-bombs"]
    assert [p.code for p in validate(setup, "standard")] == ["bad-bomb"]


@given(st.one_of(st.none(), st.integers(0, 63)), st.one_of(st.none(), st.integers(0, 63)))
def test_bomb_field_round_trips(white, black):
    field = bomb_field((white, black))
    assert split_bomb_field(START + " " + field) == (START, (white, black))


# -- random legal play (Fairy-Stockfish plays the standard moves) ------------------------------

GAMES = 6
PLIES = 60


@pytest.mark.slow
def test_random_play_with_bombs_on_surviving_pieces_is_valid():
    """Standard moves from the start, each side's bomb on one of its pieces (or gone): valid
    for us, and written as Fairy-Stockfish writes the position plus the bomb field."""
    profile = PROFILES["fairy-stockfish"]
    rng = random.Random(7_100)
    checked = 0
    for _game in range(GAMES):
        moves: list[str] = []
        for _ply in range(PLIES):
            legal = pyffish.legal_moves("chess", START, moves)
            if not legal:
                break
            moves.append(rng.choice(sorted(legal)))
            theirs = pyffish.get_fen("chess", START, moves)
            board = read_fen(theirs, "standard").setup.cells
            white = [sq for sq, piece in enumerate(board) if piece.isupper()]
            black = [sq for sq, piece in enumerate(board) if piece.islower()]
            bombs = (rng.choice([*white, None]), rng.choice([*black, None]))
            fen = f"{theirs} {bomb_field(bombs)}"
            parsed = read_fen(fen, CT)
            assert parsed.setup.bombs == bombs
            assert validate(parsed.setup, CT) == [], fen
            assert write_fen(parsed.setup, CT, profile).fen == fen
            checked += 1
    assert checked >= GAMES * 20


# -- front ends ------------------------------------------------------------------------------


def _run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [installed_script("notation"), *args], input=stdin, capture_output=True, text=True, timeout=120, check=False
    )


def test_cli_convert_and_validate_with_the_itsyourturn_code():
    done = _run("convert", "--from", "itsyourturn", "--variant", "CT", START + " d1e8")
    assert done.returncode == 0 and done.stdout == START + " d1e8\n", done.stderr
    bad = _run("validate", "--variant", "itsyourturnatomic", START + " e4e8")
    assert bad.returncode == 1
    assert "bad-bomb: white's bomb on e4: the square is empty" in bad.stdout


@pytest.mark.slow
def test_check_and_normalize(tmp_path):
    fens = tmp_path / "ct.fen"
    fens.write_text(f"{START} d1e8\n{START} e8-\n", encoding="utf-8")
    checked = _run("check", str(fens), "--variant", "CT", "--from", "itsyourturn")
    assert checked.returncode == 1
    assert f"{fens}:2:1: bad-bomb: white's bomb on e8" in checked.stdout
    pgn = tmp_path / "ct.pgn"
    pgn.write_text(f'[Variant "Atomic Chess"]\n[FEN "{START} d1e8"]\n[SetUp "1"]\n\n1. e4 *\n', encoding="utf-8")
    out = tmp_path / "out.pgn"
    done = _run("normalize", str(pgn), "--from", "itsyourturn", "-o", str(out))
    assert done.returncode == 0, done.stderr
    text = out.read_text(encoding="utf-8")
    assert '[Variant "itsyourturn Atomic"]' in text and f'[FEN "{START} d1e8"]' in text


def test_service_reads_writes_and_validates_bombs():
    client = create_app().test_client()
    response = client.post("/v1/fen/convert", json={"fen": START + " -e8", "variant": "CT", "from": "itsyourturn"})
    assert response.status_code == 200
    assert response.get_json()["fen"] == START + " -e8"
    response = client.post("/v1/fen/validate", json={"fen": START + " a7-", "variant": "itsyourturnatomic"})
    body = response.get_json()
    assert not body["valid"] and body["errors"][0]["code"] == "bad-bomb" and body["errors"][0]["field"] == "bombs"
    response = client.post("/v1/fen/validate", json={"fen": START + " d1e8 x", "variant": "itsyourturnatomic"})
    assert response.get_json()["errors"][0]["code"] == "fen-syntax"
