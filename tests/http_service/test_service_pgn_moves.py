"""``POST /v1/pgn/normalize?moves=...`` gives the bytes, the report and the summary of
``notation normalize --moves ...``, for every value of the option."""

from __future__ import annotations

import json

import pytest
from service_fixtures import FIXTURES, app, assert_problem, client  # noqa: F401  (pytest fixtures)

from notation.cli.main import main as cli_main
from notation.pgn.normalize import MovesOption

PGN_FILES = sorted((FIXTURES / "pgn").glob("*.pgn")) + sorted((FIXTURES / "pgn" / "games").glob("*.pgn")) + [
    FIXTURES / "pgn" / "movetext" / "producers.pgn"
]
OPTION_SETS = [(f"moves={m.value}", ["--moves", m.value]) for m in MovesOption] + [
    ("moves=san&profile=lichess", ["--moves", "san", "--profile", "lichess"]),
    ("moves=check&on_bad=reject", ["--moves", "check", "--reject-to", "REJECTS"]),
]


def stream(response) -> list[dict]:
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.mimetype == "application/x-ndjson"
    return [json.loads(line) for line in response.get_data(as_text=True).splitlines()]


@pytest.mark.parametrize("query, cli_args", OPTION_SETS, ids=[q for q, _ in OPTION_SETS])
@pytest.mark.parametrize("path", PGN_FILES, ids=[p.name for p in PGN_FILES])
def test_normalize_moves_answers_as_the_cli(client, tmp_path, capsys, path, query, cli_args):
    out, report, rejects = tmp_path / "out.pgn", tmp_path / "report.jsonl", tmp_path / "rejects.pgn"
    args = [str(rejects) if arg == "REJECTS" else arg for arg in cli_args]
    capsys.readouterr()
    cli_main(["normalize", str(path), "-o", str(out), "--report", str(report), "--summary", "json", *args])
    cli_summary = json.loads(capsys.readouterr().err.strip().splitlines()[-1])

    response = client.post(f"/v1/pgn/normalize?{query}", data=path.read_bytes(), content_type="application/x-chess-pgn")
    lines = stream(response)
    games, summary = lines[:-1], lines[-1]
    assert summary == {"kind": "summary", **cli_summary}
    kept = "".join(g["text"] for g in games if not g["rejected"]).encode("utf-8", "surrogateescape")
    assert kept == out.read_bytes()
    if rejects.exists():
        rejected = "".join(g["text"] for g in games if g["rejected"]).encode("utf-8", "surrogateescape")
        assert rejected == rejects.read_bytes()
    expected_report = [json.loads(line) for line in report.read_text(encoding="utf-8", errors="surrogateescape")
                       .splitlines()]
    assert [entry for g in games for entry in g["problems"]] == expected_report


def test_moves_are_rewritten_and_checked(client):
    pgn = b'[Variant "ZH"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. 0-0 Nxe4 5. Nc3 Nxc3 6. dxc3 N*d6 *\n'
    (game, summary) = stream(client.post("/v1/pgn/normalize?moves=uci", data=pgn,
                                         content_type="application/x-chess-pgn"))
    assert game["text"].endswith("1. e2e4 e7e5 2. g1f3 b8c6 3. f1c4 g8f6 4. e1g1 f6e4 5. b1c3 e4c3 6. d2c3 N@d6 *\n")
    assert summary["problems"] == {"castling-with-zeros": 1, "drop-with-star": 1}


@pytest.mark.parametrize("value", ["SAN", "pgn", "", "keep,san"])
def test_a_bad_moves_value_is_422_naming_it(client, value):
    response = client.post(f"/v1/pgn/normalize?moves={value}", data=b"*\n", content_type="application/x-chess-pgn")
    problem = assert_problem(response, 422, "tag:notation,2025:problem:invalid-request")
    assert [e["parameter"] for e in problem["errors"]] == ["moves"]


def test_moves_given_twice_is_422(client):
    response = client.post("/v1/pgn/normalize?moves=san&moves=uci", data=b"*\n", content_type="application/x-chess-pgn")
    problem = assert_problem(response, 422, "tag:notation,2025:problem:invalid-request")
    assert problem["errors"][0]["parameter"] == "moves"


def test_normalize_reads_other_languages_piece_letters_only_when_asked(client):
    german = '[Event "de"]\n[Result "*"]\n\n1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 4. O-O Dh4 *\n'
    lines = stream(client.post("/v1/pgn/normalize?moves=uci&piece_letters=de", data=german.encode(),
                               content_type="application/x-chess-pgn"))
    assert "1. e2e4 e7e5 2. g1f3 b8c6 3. f1b5 a7a6 4. e1g1 d8h4 *" in lines[0]["text"]
    assert lines[-1]["problems"] == {"foreign-piece-letters": 1}
    english = stream(client.post("/v1/pgn/normalize?moves=uci", data=german.encode(),
                                 content_type="application/x-chess-pgn"))
    assert "Sf3" in english[0]["text"] and "bad-move-syntax" in english[-1]["problems"]
    refused = client.post("/v1/pgn/normalize?piece_letters=xx", data=german.encode(),
                          content_type="application/x-chess-pgn")
    assert refused.status_code == 422  # a value outside the enum, as for every other query option
