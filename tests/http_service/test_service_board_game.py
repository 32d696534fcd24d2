"""``POST /v1/board.svg``: a PGN game's position at any ply as a picture, its last move and
check marked; the same picture as ``notation.svg.game_svg``, the same marks as the plies of
``POST /v1/pgn/game``, problem+json naming the ply, the game or the move for bad input, and
the body bounded as every JSON body (through the app and through ``notation serve``)."""

from __future__ import annotations

import http.client
import json
import urllib.parse

import pytest
from browser import serve
from paths import ROOT
from service_fixtures import PROBLEM, TEST_SETTINGS, app, assert_problem, client  # noqa: F401
from svg_cases import marks_of

import notation
from notation.svg import Orientation, SvgOptions, game_svg

from notation_service.problems import INVALID_FEN, INVALID_MOVE, INVALID_REQUEST
from notation_service.resources.game import GAME_BUDGET

GAMES = ROOT / "fixtures" / "pgn" / "games"
ZH = (GAMES / "crazyhouse_drops.pgn").read_text(encoding="utf-8")
ILLEGAL = (GAMES / "illegal_move.pgn").read_text(encoding="utf-8")
XIANGQI = (GAMES / "xiangqi.pgn").read_text(encoding="utf-8")


def draw(client, **body):
    return client.post("/v1/board.svg", json=body)


def library_game(pgn: str, number: int = 1):
    return next(game for game in notation.read_games(pgn, budget=GAME_BUDGET) if game.number == number)


def test_draws_what_the_library_draws(client):
    response = draw(client, pgn=ZH, ply=30, size=360, orientation="black", highlight="e4", arrows="e2e4")
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.mimetype == "image/svg+xml"
    assert response.headers["Content-Security-Policy"] == "default-src 'none'"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    options = SvgOptions(size=360, orientation=Orientation.BLACK, highlight=frozenset({28}), arrows=((12, 28),))
    assert response.get_data(as_text=True) == game_svg(library_game(ZH), 30, options)


@pytest.mark.slow
@pytest.mark.parametrize("pgn", [ZH, ILLEGAL, XIANGQI], ids=["crazyhouse", "illegal-move", "xiangqi"])
def test_each_ply_marks_what_the_game_endpoint_says(client, pgn):
    game = client.post("/v1/pgn/game", json={"pgn": pgn}).get_json()
    played = [ply for ply in game["plies"] if ply["fen"] is not None]
    assert played
    for ply in played:
        picture = draw(client, pgn=pgn, ply=ply["ply"])
        assert picture.status_code == 200, picture.get_data(as_text=True)
        marks = marks_of(picture.get_data(as_text=True))["marks"]
        text = ply["last_move"]
        squares = [text[1:]] if text.startswith("@") else _two_squares(text)
        assert sorted(marks["last-move"]) == sorted(squares), ply
        assert sorted(marks["check"]) == sorted(ply["check"]), ply


def _two_squares(text: str) -> list[str]:
    """``e3e10`` -> ``["e3", "e10"]``: a move's two squares, whatever their lengths."""
    second = next(index for index in range(1, len(text)) if text[index].isalpha())
    return [text[:second], text[second:]]


def test_ply_zero_is_the_start_and_no_ply_the_last_position(client):
    start = marks_of(draw(client, pgn=ZH, ply=0).get_data(as_text=True))["marks"]
    assert start == {"last-move": [], "check": [], "arrow": []}
    end = marks_of(draw(client, pgn=ZH).get_data(as_text=True))["marks"]
    assert end == {"last-move": ["h3"], "check": ["g1"], "arrow": []}  # 18... N*h3#


def test_game_chooses_a_game_of_the_text(client):
    joined = "\n".join((ZH, ILLEGAL, XIANGQI))
    response = draw(client, pgn=joined, game=3, ply=13)
    assert response.status_code == 200
    assert response.get_data(as_text=True) == game_svg(library_game(joined, 3), 13)


def test_from_and_accept_read_the_game_as_pgn_game_does(client):
    horde = draw(client, pgn='[Variant "CH"]\n\n*\n', ply=0, **{"from": "itsyourturn"})  # itsyourturn's Horde
    assert horde.status_code == 200
    assert 'aria-label="itsyourturn Horde position, White to move"' in horde.get_data(as_text=True)
    assert assert_problem(draw(client, pgn='[Variant "CH"]\n\n*\n', ply=0), 422, INVALID_FEN)["variant"] is None
    castling = '[FEN "4k3/8/8/8/8/8/8/4K2R w KQ - 0 1"]\n[SetUp "1"]\n\n1. O-O *\n'
    refused = assert_problem(draw(client, pgn=castling), 422, INVALID_FEN)
    assert refused["errors"][0]["code"] == "bad-castling-rights"
    accepted = draw(client, pgn=castling, accept=["bad-castling-rights"])
    assert accepted.status_code == 200
    assert marks_of(accepted.get_data(as_text=True))["marks"]["last-move"] == ["e1", "g1"]


# --- what cannot be drawn --------------------------------------------------------------------

def test_a_move_that_cannot_be_played_is_named(client):
    problem = assert_problem(draw(client, pgn=ILLEGAL, ply=14), 422, INVALID_MOVE)
    assert problem["detail"] == ("game 1 cannot be drawn at ply 14: the move 'Bxf7+' at ply 13 (line 10, column 14) "
                                 "cannot be played: illegal-move: 'Bxf7+' is not a legal move here")
    error = problem["errors"][0]
    assert {key: error[key] for key in ("code", "ply", "move", "line", "column")} == {
        "code": "illegal-move", "ply": 13, "move": "Bxf7+", "line": 10, "column": 14}
    assert error["fen"] == "r1bqk2r/2ppbppp/p1n2n2/1p2p3/B3P3/5N2/PPPP1PPP/RNBQR1K1 w kq - 0 7"
    assert (problem["variant"], problem["game"], problem["warnings"]) == ("standard", 1, [])
    # No ply: the last position, which this game never reaches.
    assert assert_problem(draw(client, pgn=ILLEGAL), 422, INVALID_MOVE)["errors"][0]["move"] == "Bxf7+"


def test_a_ply_past_the_end_names_the_ply(client):
    problem = assert_problem(draw(client, pgn=XIANGQI, ply=31), 422, INVALID_REQUEST)
    assert problem["errors"] == [{"code": "invalid-field", "pointer": "/ply",
                                  "message": "Game 1 has 30 plies: ply 31 is past its end."}]


def test_a_game_the_text_does_not_hold_names_the_game(client):
    problem = assert_problem(draw(client, pgn=ILLEGAL, game=2), 422, INVALID_REQUEST)
    assert problem["errors"] == [{"code": "invalid-field", "pointer": "/game",
                                  "message": "No game 2: the PGN text holds 1 game."}]


@pytest.mark.parametrize(
    ("pgn", "code", "variant"),
    [
        ('[Variant "Crazyhose"]\n\n1. e4 *\n', "unknown-variant", None),
        ('[FEN "rnbqkbnr/ppxppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]\n\n1. e4 *\n', "fen-syntax", "standard"),
        ('[Variant "Chess960"]\n\n1. e4 *\n', "unknown-start", "chess960"),
    ],
    ids=["unknown-variant", "bad-fen-tag", "chess960-without-fen"],
)
def test_a_game_without_a_start_is_invalid_fen(client, pgn, code, variant):
    problem = assert_problem(draw(client, pgn=pgn, ply=0), 422, INVALID_FEN)
    assert problem["errors"][0]["code"] == code and problem["errors"][0]["line"] >= 1
    assert problem["variant"] == variant and problem["detail"].startswith("game 1 has no start position")


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        ({"ply": 3}, "/pgn"),
        ({"pgn": " \n"}, "/pgn"),
        ({"pgn": ZH, "ply": -1}, "/ply"),
        ({"pgn": ZH, "ply": "3"}, "/ply"),
        ({"pgn": ZH, "ply": True}, "/ply"),
        ({"pgn": ZH, "ply": 3.5}, "/ply"),
        ({"pgn": ZH, "ply": None}, "/ply"),
        ({"pgn": ZH, "game": 0}, "/game"),
        ({"pgn": ZH, "size": 8}, "/size"),
        ({"pgn": ZH, "orientation": "up"}, "/orientation"),
        ({"pgn": ZH, "check": "yes"}, "/check"),
        ({"pgn": ZH, "last_move": "e2e4"}, "/last_move"),
        ({"pgn": ZH, "highlight": "e9"}, "/highlight"),
        ({"pgn": ZH, "arrows": "e2"}, "/arrows"),
        ({"pgn": ZH, "accept": ["no-such-code"]}, "/accept/0"),
        ({"pgn": "{a comment and nothing else}\n", "game": 2}, "/game"),
    ],
)
def test_bad_bodies_name_their_member(client, body, pointer):
    problem = assert_problem(client.post("/v1/board.svg", json=body), 422, INVALID_REQUEST)
    assert pointer in [error["pointer"] for error in problem["errors"]], problem


def test_a_body_that_is_not_json_or_too_large_is_refused(client):
    response = client.post("/v1/board.svg", data="1. e4", content_type="application/x-chess-pgn")
    assert response.status_code == 415 and response.mimetype == PROBLEM
    assert assert_problem(client.post("/v1/board.svg", data="{", content_type="application/json"), 400)
    big = json.dumps({"pgn": "1. e4 e5 " + "{" + "x" * TEST_SETTINGS["max_body_bytes"] + "} *"})
    assert_problem(client.post("/v1/board.svg", data=big, content_type="application/json"), 413)


def test_the_squares_options_are_read_on_the_games_board(client):
    # highlight and arrows name squares of the game's board: Xiangqi's tenth rank is one.
    response = draw(client, pgn=XIANGQI, ply=13, highlight="e10", arrows="e7e10")
    assert response.status_code == 200, response.get_data(as_text=True)
    drawn = response.get_data(as_text=True)
    assert 'class="highlight" data-square="e10"' in drawn
    assert marks_of(drawn)["marks"]["arrow"] == [["e7", "e10"]]


# --- through notation serve -----------------------------------------------------------------

@pytest.fixture(scope="module")
def small_server():
    yield from serve(NOTATION_MAX_BODY_BYTES="4000")


def post_live(base_url: str, body: bytes) -> tuple[int, str, bytes]:
    address = urllib.parse.urlsplit(base_url)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=60)
    try:
        connection.request("POST", "/v1/board.svg", body=body, headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        return response.status, response.getheader("Content-Type"), response.read()
    finally:
        connection.close()


@pytest.mark.live_server
def test_the_served_endpoint_draws_refuses_and_bounds_its_body(small_server):
    pgn = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# *"
    status, media_type, body = post_live(small_server, json.dumps({"pgn": pgn, "ply": 7}).encode())
    assert (status, media_type) == (200, "image/svg+xml; charset=utf-8")
    assert marks_of(body.decode())["marks"] == {"last-move": ["h5", "f7"], "check": ["e8"], "arrow": []}
    status, media_type, body = post_live(small_server, json.dumps({"pgn": pgn, "ply": 9}).encode())
    assert (status, media_type) == (422, PROBLEM)
    assert json.loads(body)["errors"][0]["pointer"] == "/ply"
    too_large = json.dumps({"pgn": pgn + " {" + "x" * 4000 + "}"}).encode()
    status, media_type, body = post_live(small_server, too_large)
    assert (status, media_type) == (413, PROBLEM)
