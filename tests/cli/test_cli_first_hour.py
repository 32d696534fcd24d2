"""What a new user meets in a first hour with the command line, run as the user runs it (the
``notation`` command in a subprocess), from the tables of fixtures/cli/first_hour.json:
``--variant auto`` saying a FEN's own problem, ``notation variants`` (the same data as
``GET /v1/variants``), ``play`` taking SAN movetext, check marks warned of only with
``--strict``, unknown JSON keys refused as the API refuses them, perft bounded by its work
and not its depth, and Xiangqi coordinate lists settled by their unambiguous moves."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from paths import ROOT

pytestmark = [pytest.mark.slow]

FIXTURES = ROOT / "fixtures" / "cli" / "first_hour.json"
TABLES: dict[str, Any] = json.loads(FIXTURES.read_text(encoding="utf-8"))


def notation(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "notation", *args], input=stdin, capture_output=True, text=True, timeout=300,
        check=False,
    )


def cases(table: str) -> Any:
    return pytest.mark.parametrize("case", TABLES[table], ids=[case["id"] for case in TABLES[table]])


@cases("auto")
def test_auto_says_the_fens_own_problem_and_how_to_choose(case):
    done = notation(*case["command"])
    assert done.returncode == 1
    assert getattr(done, case["stream"]) == case["says"]
    assert "unknown variant 'auto'" not in done.stdout + done.stderr and "Traceback" not in done.stderr


def test_auto_in_json_lines_is_refused_with_the_fens_problem():
    line = {"fen": TABLES["auto"][0]["command"][-1], "variant": "auto", "moves": ["e4"]}
    answer = json.loads(notation("play", "--json", stdin=json.dumps(line) + "\n").stdout)
    assert answer["ok"] is False and answer["played"] == [] and answer["variant"] is None
    (error,) = answer["errors"]
    found = (error["code"], error["field"], error["column"], error["read_as"])
    assert found == ("fen-syntax", "placement", 36, "standard")
    assert "rank 1 has 7 squares" in error["message"] and "standard" in error["suggestions"]


def test_auto_plays_a_guessed_variant():
    xiangqi = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
    done = notation("play", "--variant", "auto", xiangqi, "h3e3")
    assert done.returncode == 0
    assert done.stdout.startswith("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b")
    assert done.stderr.startswith("warning: guessed-variant: guessed variant Xiangqi from its 9x10 board")
    done = notation("perft", "--variant", "auto", "--depth", "2", xiangqi)
    assert done.returncode == 0 and done.stdout == "1920\n"


def test_variants_lists_every_variant_as_the_api_does():
    from notation_service import create_app

    done = notation("variants", "--json")
    assert done.returncode == 0 and done.stderr == ""
    listed = json.loads(done.stdout)
    client = create_app({}).test_client()
    assert client.get("/v1/variants").get_json() == listed
    by_key = {entry["key"]: entry for entry in listed["variants"]}
    assert len(by_key) == 25
    assert by_key["crazyhouse"]["reads"]["pockets"] == ["bracketed", "rank-zero", "appended"]
    assert by_key["xiangqi"]["reads"]["layouts"] == ["cfen"] and by_key["xiangqi"]["plays"]["moves"][0] == "san"
    assert by_key["tablut"]["reads"]["positions"] == ["fen", "opentafl"]
    assert by_key["tablut"]["plays"] == {"moves": ["opentafl"], "perft": True}


def test_variants_table_has_a_row_per_variant():
    done = notation("variants")
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and lines[0].split() == ["KEY", "NAME", "BOARD", "FAMILY", "PLAYS", "READS", "ALIASES"]
    assert len(lines) == 26
    xiangqi = next(line for line in lines if line.startswith("xiangqi "))
    assert "9x10" in xiangqi and "san,wxf,uci,iccs,lan perft" in xiangqi and "Chinese Chess" in xiangqi


@pytest.mark.parametrize("name", ["help", "list", "LIST"])
@pytest.mark.parametrize("command", [["convert"], ["moves"], ["play"], ["perft"], ["check", "-"]])
def test_variant_help_lists_the_variants(command, name):
    done = notation(*command, "--variant", name)
    assert done.returncode == 0 and done.stdout == notation("variants").stdout


def test_an_unknown_variant_points_at_the_list():
    done = notation("moves", "--variant", "crazyhose")
    assert done.returncode == 2 and done.stderr.endswith("(`notation variants` lists them)\n")


@cases("movetext")
def test_play_takes_san_movetext(case):
    done = notation("play", *case["args"])
    assert (done.returncode, done.stderr) == (0, case.get("stderr", ""))
    assert done.stdout == case["fen"] + "\n"


@cases("refused")
def test_play_refuses_with_a_hint(case):
    done = notation("play", *case["args"])
    assert (done.returncode, done.stdout, done.stderr) == (case["exit"], "", case["says"])


@cases("check_marks")
def test_check_marks_are_warned_of_only_with_strict(case):
    """--strict says the wrong check mark and, as in check, fails on it (the FEN is still printed)."""
    lenient, strict = notation("play", *case["args"]), notation("play", "--strict", *case["args"])
    assert (lenient.returncode, strict.returncode) == (0, 1) and lenient.stdout == strict.stdout
    assert "wrong-check-mark" not in lenient.stderr
    assert strict.stderr.startswith(case["strict"])
    line = {"moves": case["args"] if len(case["args"]) > 1 else case["args"][0]}
    quiet, loud = (json.loads(notation("play", "--json", stdin=json.dumps({**line, **extra}) + "\n").stdout)
                   for extra in ({}, {"strict": True}))
    assert quiet["warnings"] == [] and [w["code"] for w in loud["warnings"]] == ["wrong-check-mark"]


@cases("json_keys")
def test_json_lines_refuse_unknown_keys(case):
    done = notation(*case["command"], stdin=json.dumps(case["line"]) + "\n")
    answer = json.loads(done.stdout)
    assert done.returncode == 1 and answer.get("ok", answer.get("valid")) is False and answer["line"] == 1
    assert [(e["code"], e["message"]) for e in answer["errors"]] == [("unknown-field", case["message"])]


@cases("perft")
def test_perft_is_bounded_by_its_work_not_its_depth(case):
    args = ["perft", "--variant", case["variant"], "--depth", str(case["depth"]), *case.get("options", [])]
    done = notation(*args, *([case["fen"]] if case["fen"] else []))
    if case["nodes"] is None:
        assert (done.returncode, done.stdout, done.stderr) == (1, "", case["says"])
    else:
        assert (done.returncode, done.stdout, done.stderr) == (0, f"{case['nodes']}\n", "")


def test_perft_stops_at_its_time_limit_and_says_how_to_give_more():
    done = notation("perft", "--depth", "6", "--time-limit", "0.2")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("error: perft-time-limit: perft 6 of this position was stopped after 0.2 s")
    assert done.stderr.endswith("; give it more time with --time-limit SECONDS (0: no limit)\n")
    answer = json.loads(notation("perft", "--json", stdin='{"depth": 6, "time_limit": 0.2}\n').stdout)
    assert answer["errors"][0]["code"] == "perft-time-limit" and answer["errors"][0]["time_limit"] == 0.2


@cases("xiangqi")
@pytest.mark.parametrize("notation_name", ["uci", "iccs"])
def test_a_xiangqi_list_is_read_in_the_notation_its_unambiguous_moves_say(case, notation_name):
    moves = case[notation_name].split()
    done = notation("play", "--variant", "xiangqi", *moves)
    assert (done.returncode, done.stdout, done.stderr) == (0, case["fen"] + "\n", "")
    quoted = notation("play", "--variant", "xiangqi", case[notation_name])
    assert quoted.stdout == done.stdout
    line = json.dumps({"variant": "xiangqi", "moves": moves}) + "\n"
    answer = json.loads(notation("play", "--json", stdin=line).stdout)
    assert answer["ok"] and answer["fen"] == case["fen"]


@cases("xiangqi")
def test_the_settled_move_reads_both_ways_on_its_own(case):
    """The engine's move at ``ambiguous_ply`` is a legal move in UCI and in ICCS where it is
    played: given alone, the reader asks which (the library's ``play_moves`` as the CLI)."""
    from notation.playing import play_moves

    moves = case["uci"].split()
    ply = case["ambiguous_ply"]
    before = play_moves(None, "xiangqi", moves[:ply - 1])
    assert before.ok
    single = play_moves(before.fen, "xiangqi", moves[ply - 1:ply])
    assert [e.code for e in single.errors] == ["ambiguous-move"]
    done = notation("play", "--variant", "xiangqi", before.fen or "", moves[ply - 1])
    assert done.returncode == 1 and "ambiguous-move" in done.stderr
    assert play_moves(None, "xiangqi", moves).fen == case["fen"]


@cases("check_marks")
def test_the_api_plays_as_the_cli_with_check_marks_only_when_strict(case):
    from notation_service import create_app

    moves = case["args"] if len(case["args"]) > 1 else case["args"][0].split()
    client = create_app({}).test_client()
    quiet = client.post("/v1/play", json={"moves": moves}).get_json()
    loud = client.post("/v1/play", json={"moves": moves, "strict": True}).get_json()
    assert quiet["ok"] and quiet["warnings"] == [] and quiet["fen"] == loud["fen"]
    assert [w["code"] for w in loud["warnings"]] == ["wrong-check-mark"]
    refused = client.post("/v1/play", json={"moves": moves, "move": moves}).get_json()
    assert [e["code"] for e in refused["errors"]] == ["unknown-field"]
