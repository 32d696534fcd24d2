"""``POST /v1/pgn/normalize`` with the database options of ``notation normalize`` (the
export format, duplicates, broken games, repairs), over a small real-shaped database
(fixtures/service/database.pgn: a game, its copy in UCI with other tags, a board feed cut
short of it, a game whose Result tag contradicts its mate, a game with an illegal move).
The same options give the same bytes as the command: test_service_cli_parity.py."""

from __future__ import annotations

import json

import pytest
from service_fixtures import FIXTURES, app, assert_problem, client  # noqa: F401  (pytest fixtures)

DATABASE = (FIXTURES / "service" / "database.pgn").read_bytes()
INVALID_REQUEST = "tag:notation,2025:problem:invalid-request"


def normalized(client, query: str, data: bytes = DATABASE) -> tuple[list[dict], dict]:
    """The game lines and the summary line ``POST /v1/pgn/normalize?query`` answers."""
    response = client.post(f"/v1/pgn/normalize?{query}", data=data, content_type="application/x-chess-pgn")
    assert response.status_code == 200, response.get_data(as_text=True)
    lines = [json.loads(line) for line in response.get_data(as_text=True).splitlines()]
    assert lines[-1]["kind"] == "summary"
    return lines[:-1], lines[-1]


def output(games: list[dict]) -> str:
    return "".join(game["text"] for game in games if not game["rejected"])


def codes(game: dict) -> list[str]:
    return [problem["code"] for entry in game["problems"] for kind in ("errors", "warnings")
            for problem in entry.get(kind, [])]


def refused(client, query: str) -> list[str]:
    """The parameters the 422 of ``query`` names."""
    response = client.post(f"/v1/pgn/normalize?{query}", data=DATABASE, content_type="application/x-chess-pgn")
    problem = assert_problem(response, 422, INVALID_REQUEST)
    return [error["parameter"] for error in problem["errors"]]


# --- export ------------------------------------------------------------------------------

def test_export_full_lays_every_game_out_as_the_standard_says(client):
    games, summary = normalized(client, "export=full")
    assert games[0]["text"].endswith(
        '[ECO "C23"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 {threatening mate} 3... Nf6 $4 4. Qxf7# 1-0\n\n')
    assert "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0" in games[1]["text"]  # the UCI copy, in SAN
    assert games[4]["text"] == DATABASE.decode().split("\n\n", 8)[-1]  # its illegal move keeps it as read
    assert summary["games"] == 5 and summary["problems"]["illegal-move"] == 1


def test_export_reduced_keeps_the_roster_and_the_moves_alone(client):
    games, _ = normalized(client, "export=reduced")
    first = games[0]["text"]
    assert "ECO" not in first and "{threatening mate}" not in first and "$4" not in first
    assert first.startswith('[Event "Spring club match"]\n[Site "Porto"]\n[Date "2024.03.09"]\n[Round "1"]\n')
    assert "\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n" in first


def test_export_keep_is_the_default_and_changes_no_layout(client):
    default, _ = normalized(client, "")
    kept, _ = normalized(client, "export=keep")
    assert output(default) == output(kept) == DATABASE.decode()


@pytest.mark.parametrize("value", ["FULL", "export", "", "full,reduced"])
def test_a_bad_export_value_is_422_naming_it(client, value):
    assert refused(client, f"export={value}") == ["export"]


def test_export_given_twice_is_422(client):
    assert refused(client, "export=full&export=reduced") == ["export"]
