"""``POST /v1/moves`` and ``POST /v1/play`` answer as ``notation moves --json`` and
``notation play --json`` do, and refuse bad positions, bad moves and malformed requests
with a problem naming what and where."""

from __future__ import annotations

import pytest
from service_fixtures import app, client  # noqa: F401  (pytest fixtures)

from notation.fen.profiles import PROFILES
from notation.playing import list_moves, play_moves

ZH = "rnbqkbnr/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3"


@pytest.mark.parametrize(
    "request_body",
    [
        {},
        {"variant": "crazyhouse", "fen": ZH, "notation": "uci"},
        {"variant": "chess960", "fen": "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1", "chess960": True, "notation": "uci"},
        {"variant": "threecheck", "fen": None},
    ],
)
def test_moves_answer_as_the_command_line(client, request_body):
    response = client.post("/v1/moves", json=request_body)
    assert response.status_code == 200
    expected = list_moves(
        request_body.get("fen"), request_body.get("variant", "standard"), notation=request_body.get("notation"),
        chess960=request_body.get("chess960", False),
    ).to_dict()
    assert response.get_json() == expected and expected["ok"]


def test_play_answers_as_the_command_line(client):
    # Atomic: exd5 explodes both pawns, so the queen's move to d5 takes nothing.
    body = {"variant": "atomic", "moves": ["e4", "d5", "exd5", "Qd5"], "profile": "lichess"}
    response = client.post("/v1/play", json=body)
    assert response.status_code == 200
    expected = play_moves(None, "atomic", body["moves"], options=PROFILES["lichess"]).to_dict()
    assert response.get_json() == expected
    assert expected["played"] == ["e4", "d5", "exd5", "Qd5"]


def test_play_warns_of_lenient_readings_with_their_ply(client):
    body = client.post("/v1/play", json={"moves": ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "0-0"]}).get_json()
    assert [(w["code"], w["ply"]) for w in body["warnings"]] == [("castling-with-zeros", 7)]


def test_an_illegal_move_is_a_problem_naming_its_ply_and_position(client):
    response = client.post("/v1/play", json={"moves": ["e4", "e5", "Qxh1"]})
    assert response.status_code == 422
    assert response.mimetype == "application/problem+json"
    problem = response.get_json()
    assert problem["type"].endswith("invalid-move")
    assert problem["played"] == ["e4", "e5"]
    error = problem["errors"][0]
    assert (error["code"], error["ply"], error["move"]) == ("illegal-move", 3, "Qxh1")
    assert error["fen"].startswith("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w")


@pytest.mark.parametrize(
    ("path", "request_body", "problem_type", "code"),
    [
        ("/v1/moves", {"fen": "4k3/8/8/8/8/8/8/8 w - - 0 1"}, "invalid-fen", "missing-king"),
        ("/v1/moves", {"variant": "nosuch"}, "invalid-fen", "unknown-variant"),
        ("/v1/moves", {"notation": "wxf"}, "invalid-move", "bad-notation"),
        ("/v1/play", {"moves": ["Ke9"]}, "invalid-move", "bad-move-syntax"),
        ("/v1/play", {"fen": "4k3/8/8/8/8/8/8/2N1K1N1 w - - 0 1", "moves": ["Ne2"]}, "invalid-move", "ambiguous-move"),
        ("/v1/play", {"fen": "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", "moves": ["a3"]},
         "invalid-move", "game-over"),
    ],
)
def test_refusals(client, path, request_body, problem_type, code):
    response = client.post(path, json=request_body)
    assert response.status_code == 422
    problem = response.get_json()
    assert problem["type"].endswith(problem_type) and problem["errors"][0]["code"] == code


@pytest.mark.parametrize(
    ("path", "request_body"),
    [
        ("/v1/play", {}),
        ("/v1/play", {"moves": "e4"}),
        ("/v1/play", {"moves": [""]}),
        ("/v1/play", {"moves": ["e4"] * 2001}),
        ("/v1/play", {"moves": ["e4"], "chess960": "yes"}),
        ("/v1/moves", {"notation": "morse"}),
        ("/v1/moves", {"fen": 12}),
        ("/v1/moves", {"depth": 3}),
    ],
)
def test_malformed_requests_are_invalid_requests(client, path, request_body):
    response = client.post(path, json=request_body)
    assert response.status_code == 422
    assert response.get_json()["type"].endswith("invalid-request")
