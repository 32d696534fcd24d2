"""POST /v1/pgn/normalize answers as ``notation normalize`` does, and refuses bad options."""

from __future__ import annotations

import json

import pytest
from service_fixtures import FIXTURES, TEST_SETTINGS, app, assert_problem, client  # noqa: F401

from notation.cli.main import main as cli_main

PGN_FILES = sorted((FIXTURES / "pgn").glob("*.pgn"))
OPTION_SETS = [
    ("", []),
    ("profile=lichess", ["--profile", "lichess"]),
    (
        "profile=chesscom&on_illegal=repair&accept=opposite-check",
        ["--profile", "chesscom", "--repair", "--accept", "opposite-check"],
    ),
    (
        "profile=xboard&pockets=rank-zero&on_bad=reject",
        ["--profile", "xboard", "--pockets", "rank-zero", "--reject-to", "REJECTS"],
    ),
]


def stream(response) -> list[dict]:
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.mimetype == "application/x-ndjson"
    text = response.get_data(as_text=True)
    assert text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]


def post_pgn(client, data: bytes, query: str = "", content_type: str = "application/x-chess-pgn"):
    return client.post("/v1/pgn/normalize" + (f"?{query}" if query else ""), data=data, content_type=content_type)


@pytest.mark.parametrize("query, cli_args", OPTION_SETS, ids=[q or "default" for q, _ in OPTION_SETS])
@pytest.mark.parametrize("path", PGN_FILES, ids=[p.name for p in PGN_FILES])
def test_normalize_answers_as_the_cli(client, tmp_path, capsys, path, query, cli_args):
    out, report, rejects = tmp_path / "out.pgn", tmp_path / "report.jsonl", tmp_path / "rejects.pgn"
    args = [str(rejects) if arg == "REJECTS" else arg for arg in cli_args]
    capsys.readouterr()
    cli_main(["normalize", str(path), "-o", str(out), "--report", str(report), "--summary", "json", *args])
    cli_summary = json.loads(capsys.readouterr().err.strip().splitlines()[-1])

    lines = stream(post_pgn(client, path.read_bytes(), query))
    games, summary = lines[:-1], lines[-1]
    assert all(line["kind"] == "game" for line in games)
    assert summary == {"kind": "summary", **cli_summary}

    def joined(selected) -> bytes:
        return "".join(g["text"] for g in selected).encode("utf-8", "surrogateescape")

    assert joined(g for g in games if not g["rejected"]) == out.read_bytes()
    if rejects.exists():
        assert joined(g for g in games if g["rejected"]) == rejects.read_bytes()
    else:
        assert not any(g["rejected"] for g in games)
    report_lines = report.read_text(encoding="utf-8", errors="surrogateescape").splitlines()
    expected_report = [json.loads(line) for line in report_lines]
    assert [entry for g in games for entry in g["problems"]] == expected_report


def test_games_come_in_input_order_with_their_lines(client):
    pgn = (
        b'[Event "1"]\n\n1. e4 *\n\n[Event "2"]\n[Variant "House"]\n[FEN "8/8/8/8/8/8/8/8/ w - - 0 1"]\n\n*\n\n'
        b'[Event "3"]\n\n1. d4 *\n'
    )
    games = stream(post_pgn(client, pgn))[:-1]
    assert [(g["game"], g["start_line"]) for g in games] == [(1, 1), (2, 5), (3, 11)]
    assert [p["line"] for p in games[1]["problems"]] == [7]


def test_text_plain_and_empty_bodies(client):
    assert stream(post_pgn(client, b"", content_type="text/plain")) == [
        {"kind": "summary", "games": 0, "changed": 0, "unchanged": 0, "rejected": 0, "dropped": 0,
         "problems": {}}
    ]


@pytest.mark.parametrize(
    "query, parameter",
    [
        ("profile=lichess.org", "profile"),
        ("profile=lichess&profile=scid", "profile"),
        ("pockets=square", "pockets"),
        ("on_bad=drop", "on_bad"),
        ("on_illegal=true", "on_illegal"),
        ("accept=fen-syntax", "accept"),
        ("accept=empty&accept=nope", "accept"),
        ("repair=1", "repair"),
        ("Profile=lichess", "Profile"),
    ],
)
def test_bad_query_parameters_are_422_naming_them(client, query, parameter):
    response = post_pgn(client, b'[Event "x"]\n\n*\n', query)
    problem = assert_problem(response, 422, "tag:notation,2025:problem:invalid-request")
    assert parameter in [e["parameter"] for e in problem["errors"]]


@pytest.mark.parametrize(
    "content_type", ["application/json", "application/octet-stream", "text/plain; charset=latin-1", "text/html"]
)
def test_other_media_types_are_415(client, content_type):
    assert_problem(post_pgn(client, b"*\n", content_type=content_type), 415)


@pytest.mark.slow
def test_pgn_body_limit_is_its_own(client):
    body = b'[Event "x"]\n\n*\n\n' * (TEST_SETTINGS["max_body_bytes"] // 10)
    assert TEST_SETTINGS["max_body_bytes"] < len(body) < TEST_SETTINGS["max_pgn_bytes"]
    assert stream(post_pgn(client, body))[-1]["games"] == TEST_SETTINGS["max_body_bytes"] // 10
    too_big = b" " * (TEST_SETTINGS["max_pgn_bytes"] + 1)
    assert "bytes" in assert_problem(post_pgn(client, too_big), 413)["detail"]


def test_bytes_that_are_not_utf8_are_kept_and_reported(client):
    pgn = b'[Event "caf\xe9"]\n\n1. e4 *\n'
    games = stream(post_pgn(client, pgn))[:-1]
    assert games[0]["text"].encode("utf-8", "surrogateescape") == pgn
    (entry,) = games[0]["problems"]
    assert (entry["line"], *[(p["code"], p["column"]) for kind in ("errors", "warnings") for p in entry.get(kind, [])]
            ) == (1, ("pgn-windows-1252", 12))


def test_encoding_utf8_writes_a_latin1_game_as_utf8(client):
    pgn = b'[White "M\xfcller"]\n\n1. e4 {\x93fine\x94 \x96 tr\xe8s} *\n'
    games = stream(post_pgn(client, pgn, "encoding=utf-8&moves=uci"))[:-1]
    assert games[0]["text"] == '[White "Müller"]\n\n1. e2e4 {“fine” – très} *\n'
    assert games[0]["changed"] is True


from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.binary(max_size=300) | st.text(max_size=300).map(lambda t: t.encode("utf-8", "surrogatepass")),
       query=st.text(alphabet="abcdefghijklmnopqrstuvwxyz_=&%-0", max_size=30))
def test_no_pgn_body_or_query_gets_a_5xx(client, body, query):
    response = post_pgn(client, body, query)
    assert response.status_code in (200, 422), response.get_data(as_text=True)
    if response.status_code == 200:
        assert stream(response)[-1]["kind"] == "summary"


def test_a_latin1_game_is_checked_with_one_warning_and_its_illegal_move_where_it_is(client):
    cases = json.loads((FIXTURES / "pgn" / "encodings.json").read_text(encoding="utf-8"))
    case = next(case for case in cases if case["name"] == "latin1-game-with-an-illegal-move")
    pgn = b"".join(text.encode(encoding) for encoding, text in case["parts"])
    (game,) = stream(post_pgn(client, pgn, "moves=check"))[:-1]
    found = sorted((entry["line"], problem["column"], kind, problem["code"])
                   for entry in game["problems"] for kind in ("errors", "warnings") for problem in entry.get(kind, []))
    assert [(line, column, code) for line, column, _, code in found] == [(2, 10, "pgn-windows-1252"),
                                                                         (7, 26, "illegal-move")]
    assert game["text"].encode("utf-8", "surrogateescape") == pgn
