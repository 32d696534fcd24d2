"""Xiangqi through every front end: the installed ``notation`` command (convert, validate,
start, check, normalize) and the service (convert, validate, batch, normalize)."""

from __future__ import annotations

import json
import subprocess

import pytest
from installed import installed_script
from service_fixtures import app, client  # noqa: F401

pytestmark = [pytest.mark.slow]

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
WXF_START = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1"
CFEN_START = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r 1"
FLYING = "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"

PGN = f"""[Event "Casual"]
[Variant "Chinese Chess"]
[FEN "{CFEN_START}"]
[Result "*"]

1. C2=5 H8+7 2. H2+3 R9=8 {{WXF move text}} *

[Event "Casual 2"]
[Variant "Xiangqi"]
[Result "1-0"]

1. h2e2 h9g7 2. h0g2 i9h9 1-0

"""


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [installed_script("notation"), *args], input=stdin, capture_output=True, text=True, timeout=120, check=False
    )


@pytest.mark.parametrize(("profile", "expected"), [("fairy-stockfish", START), ("wxf", WXF_START),
                                                   ("cxboard", CFEN_START)])
def test_convert_writes_each_dialect(profile, expected):
    for fen in (START, WXF_START, CFEN_START):
        done = run("convert", "--variant", "xiangqi", "--profile", profile, fen)
        assert (done.returncode, done.stdout, done.stderr) == (0, expected + "\n", "")


def test_convert_json_reports_the_dialect_seen():
    done = run("convert", "--variant", "Chinese Chess", "--json", CFEN_START)
    assert done.returncode == 0
    answer = json.loads(done.stdout)
    assert answer["fen"] == START and answer["variant"] == "xiangqi"
    assert {k: answer["detected"][k] for k in ("letters", "sides", "layout")} == {
        "letters": "wxf", "sides": "rb", "layout": "cfen",
    }


def test_convert_takes_single_options():
    done = run("convert", "--variant", "cc", "--letters", "wxf", "--sides", "rb", START)
    assert done.stdout == WXF_START.replace(" w ", " r ") + "\n"


def test_validate_reports_every_problem_and_fails():
    done = run("validate", "--variant", "xiangqi", "--json", "4k4/9/9/9/9/9/3P5/9/9/4K4 w - - 0 1", START)
    assert done.returncode == 1
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert [p["code"] for p in first["errors"]] == ["misplaced-soldier", "flying-general"]
    assert second["valid"] and second["errors"] == []


def test_validate_names_field_and_column_of_a_syntax_error():
    bad = CFEN_START.replace("EHR r", "EHX r")
    done = run("validate", "--variant", "xiangqi", "--json", bad)
    assert done.returncode == 1
    error = json.loads(done.stdout)["errors"][0]
    assert (error["code"], error["field"], error["column"]) == ("fen-syntax", "placement", 59)


def test_start_in_wxf():
    assert run("start", "xiangqi", "--profile", "wxf").stdout == WXF_START + "\n"


def test_check_a_file_of_xiangqi_fens(tmp_path):
    path = tmp_path / "positions.fen"
    path.write_text(f"{START}\n{CFEN_START}\n{WXF_START}\n{FLYING}\n", encoding="utf-8")
    done = run("check", "--variant", "xiangqi", str(path))
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        f"{path}:4:1: flying-general: the generals on e1 and e10 face each other with nothing between"
    ]


def test_normalize_keeps_xiangqi_move_text_byte_for_byte(tmp_path):
    source = tmp_path / "games.pgn"
    source.write_text(PGN, encoding="utf-8")
    done = run("normalize", "--profile", "fairy-stockfish", str(source))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert '[Variant "Xiangqi"]' in out and '[Variant "Chinese Chess"]' not in out
    assert f'[FEN "{START}"]\n[SetUp "1"]' in out
    for moves in ("1. C2=5 H8+7 2. H2+3 R9=8 {WXF move text} *\n", "1. h2e2 h9g7 2. h0g2 i9h9 1-0\n"):
        assert moves in out
    back = run("normalize", "--profile", "cxboard", "-", stdin=out)
    assert f'[FEN "{CFEN_START}"]' in back.stdout


def test_service_convert_and_validate(client):  # noqa: F811
    answer = client.post("/v1/fen/convert", json={"fen": START, "variant": "CC", "profile": "cxboard"})
    assert answer.status_code == 200
    assert answer.get_json()["fen"] == CFEN_START
    answer = client.post("/v1/fen/convert", json={"fen": CFEN_START, "variant": "xiangqi", "letters": "wxf"})
    assert answer.get_json()["fen"] == WXF_START
    assert answer.get_json()["detected"]["layout"] == "cfen"
    answer = client.post("/v1/fen/validate", json={"fen": FLYING, "variant": "Xiangqi"})
    assert answer.status_code == 200
    assert [p["code"] for p in answer.get_json()["errors"]] == ["flying-general"]
    answer = client.post("/v1/fen/convert", json={"fen": FLYING, "variant": "Xiangqi"})
    assert answer.status_code == 422
    assert [p["code"] for p in answer.get_json()["errors"]] == ["flying-general"]


def test_service_batch_and_refused_option_values(client):  # noqa: F811
    answer = client.post("/v1/fen/batch", json={
        "operation": "convert", "items": [START, WXF_START], "variant": "xiangqi", "profile": "cxboard",
    })
    assert [r["fen"] for r in answer.get_json()["results"]] == [CFEN_START, CFEN_START]
    refused = client.post("/v1/fen/convert", json={"fen": START, "variant": "xiangqi", "layout": "short"})
    assert refused.status_code == 422
    assert refused.mimetype == "application/problem+json"


def test_service_normalize_keeps_move_text(client):  # noqa: F811
    answer = client.post("/v1/pgn/normalize?profile=cxboard", data=PGN.encode(), content_type="text/plain")
    assert answer.status_code == 200
    lines = [json.loads(line) for line in answer.get_data(as_text=True).splitlines()]
    text = "".join(line["text"] for line in lines if line["kind"] == "game")
    assert f'[FEN "{CFEN_START}"]' in text
    assert "1. C2=5 H8+7 2. H2+3 R9=8 {WXF move text} *" in text
    assert lines[-1]["kind"] == "summary" and lines[-1]["rejected"] == 0
