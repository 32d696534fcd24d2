"""``POST /v1/pgn/game``: the first game of a PGN text replayed for a board, its problems
those ``notation normalize --moves check`` reports, each ply's SAN and UCI those
``notation normalize --moves san|uci`` writes, over the app and over a live ``notation
serve`` (real sockets)."""

from __future__ import annotations

import http.client
import json
import os
import pathlib
import subprocess
import sys
import urllib.parse

import pytest
from browser import serve
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from service_fixtures import FIXTURES, app, assert_problem, client  # noqa: F401  (pytest fixtures)

from notation.cli.main import main as cli_main
from notation.pgn.movetext import MOVE, movetext_start, scan
from notation.pgn.splitter import iter_games
from notation.playing import play_moves

GAMES = FIXTURES / "pgn" / "games"
GAME_FILES = sorted(GAMES.glob("*.pgn"))
PRODUCERS = [game.text for game in iter_games((FIXTURES / "pgn" / "movetext" / "producers.pgn").read_text())]
ZH, ILLEGAL, XIANGQI = (GAMES / f"{name}.pgn" for name in ("crazyhouse_drops", "illegal_move", "xiangqi"))
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
INVALID_REQUEST = "tag:notation,2025:problem:invalid-request"


def game_of(client, pgn: str, **options) -> dict:
    response = client.post("/v1/pgn/game", json={"pgn": pgn, **options})
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.mimetype == "application/json"
    return response.get_json()


def in_text_order(plies: list[dict]):
    """Every ply of a line and its variations, in the order their moves stand in the text."""
    for ply in plies:
        yield ply
        for line in ply["variations"]:
            yield from in_text_order(line)


def normalized(tmp_path, capsys, text: str, *args: str) -> tuple[str, list[dict]]:
    """``notation normalize GAME -o OUT --report REPORT *args``: the output and the report."""
    source, out, report = tmp_path / "game.pgn", tmp_path / "out.pgn", tmp_path / "report.jsonl"
    source.write_text(text, encoding="utf-8", newline="")
    capsys.readouterr()
    cli_main(["normalize", str(source), "-o", str(out), "--report", str(report), "--summary", "none", *args])
    capsys.readouterr()
    entries = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    return out.read_bytes().decode("utf-8"), entries


def moves_of(text: str) -> list[str]:
    """The move tokens of one game's text, in order."""
    return [text[t.start:t.end] for t in scan(text, movetext_start(text)).tokens if t.kind is MOVE]


CASES = [path.read_text(encoding="utf-8") for path in GAME_FILES] + PRODUCERS
CASE_IDS = [path.stem for path in GAME_FILES] + [f"producers-{n}" for n in range(1, len(PRODUCERS) + 1)]


@pytest.mark.parametrize("text", CASES, ids=CASE_IDS)
def test_the_problems_are_those_of_normalize_moves_check(client, tmp_path, capsys, text):
    game = game_of(client, text)
    _, report = normalized(tmp_path, capsys, text, "--moves", "check")
    expected = [
        {"level": level, "line": entry["line"], **problem}
        for entry in report for level, kind in (("error", "errors"), ("warning", "warnings"))
        for problem in entry.get(kind, ())
    ]
    assert game["problems"] == expected
    assert game["ok"] == (not any(p["level"] == "error" for p in expected))


@pytest.mark.parametrize("text", CASES, ids=CASE_IDS)
@pytest.mark.parametrize("notation", ["san", "uci"])
def test_each_ply_is_written_as_normalize_writes_it(client, tmp_path, capsys, text, notation):
    game = game_of(client, text)
    plies = list(in_text_order(game["plies"]))
    out, _ = normalized(tmp_path, capsys, text, "--moves", notation)
    if not game["ok"]:  # a game with an error is kept as read; its plies stop at the failed move
        assert out == text and plies[-1]["problem"] is not None
        return
    written = [ply[notation] for ply in plies]
    if None in written:  # tafl: no SAN or UCI; normalize keeps the moves (notation-unavailable)
        assert game["variant"] == "tablut" and out == text
        return
    assert written == moves_of(out)
    assert [ply["move"] for ply in plies] == moves_of(text)


@pytest.mark.parametrize("text", CASES, ids=CASE_IDS)
def test_each_fen_is_the_position_the_moves_reach(client, text):
    game = game_of(client, text)
    main = [ply for ply in game["plies"] if ply["fen"] is not None]
    if not main or main[0]["san"] is None:
        return
    for index in (0, len(main) // 2, len(main) - 1):
        reached = play_moves(game["initial_fen"], game["variant"], [ply["san"] for ply in main[:index + 1]])
        assert reached.ok and reached.fen == main[index]["fen"]


def test_a_crazyhouse_game_with_drops(client):
    game = game_of(client, ZH.read_text())
    assert (game["variant"], game["variant_name"]) == ("crazyhouse", "Crazyhouse")
    assert game["initial_fen"] == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"
    plies = game["plies"]
    assert len(plies) == 36
    drop = plies[16]
    assert (drop["move"], drop["san"], drop["uci"], drop["last_move"]) == ("P@e2", "@e2", "P@e2", "@e2")
    assert drop["squares"] == {"from": None, "to": "e2", "kind": "drop", "drop": "p", "promotion": ""}
    assert drop["fen"] == "r1bqkb1r/ppp2pp1/5n1p/3P4/2n1P3/5N2/PPP1PPPP/RNBQK2R[Pb] b KQkq - 1 9"
    last = plies[-1]
    assert (last["move"], last["san"], last["number"], last["color"]) == ("N*h3#", "N@h3#", 18, "b")
    assert last["check"] == ["g1"] and last["last_move"] == "@h3"
    assert [w["code"] for w in last["warnings"]] == ["drop-with-star"]
    castle = plies[18]
    assert (castle["san"], castle["uci"], castle["last_move"]) == ("O-O", "e1g1", "e1g1")
    assert castle["squares"]["rook"] == "h1"
    assert [(p["ply"], p["check"]) for p in plies if p["check"]] == [
        (28, ["g2"]), (30, ["h3"]), (32, ["g2"]), (34, ["h1"]), (36, ["g1"])]
    assert game["outcome"] == {"winner": "b", "reason": "checkmate", "result": "0-1"}
    assert game["result"] == "0-1" and game["ok"]


def test_a_ply_lists_its_en_passant_mark_and_glued_sign(client):
    """A ply's ``san`` is the move alone: the sign glued to it is in its warnings, not its SAN."""
    game = game_of(client, '[Event "x"]\n[Result "*"]\n\n1. e4 Nf6 2. e5 d5 3. exd6 e.p. e6 4. ♘f3⩲ *\n')
    capture, knight = game["plies"][4], game["plies"][6]
    assert (capture["move"], capture["uci"]) == ("exd6", "e5d6")
    assert [w["code"] for w in capture["warnings"]] == ["en-passant-mark"]
    assert (knight["san"], [w["code"] for w in knight["warnings"]]) == ("Nf3", ["figurine", "glued-evaluation"])


def test_an_illegal_move_ends_its_line_with_its_problem(client):
    game = game_of(client, ILLEGAL.read_text())
    plies = game["plies"]
    assert len(plies) == 13 and not game["ok"]
    failed = plies[-1]
    assert (failed["ply"], failed["number"], failed["color"], failed["move"]) == (13, 7, "w", "Bxf7+")
    assert (failed["line"], failed["column"]) == (10, 14)
    assert failed["fen"] is None and failed["san"] is None and failed["squares"] is None
    assert failed["problem"] == game["problems"][0]
    assert failed["problem"]["code"] == "illegal-move"
    assert failed["problem"]["fen"] == plies[-2]["fen"]  # the position before it
    assert [p["ply"] for p in plies] == list(range(1, 14))
    assert all(p["problem"] is None for p in plies[:-1])
    variation = plies[5]["variations"]
    assert [[p["san"] for p in line] for line in variation] == [["Nf6", "O-O", "Nxe4", "d4"]]
    assert [p["ply"] for p in variation[0]] == [6, 7, 8, 9]
    assert variation[0][0]["fen"].startswith("r1bqkb1r/pppp1ppp/2n2n2/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w")
    assert game["outcome"] is None and game["result"] == "1-0"


def test_a_xiangqi_game(client):
    game = game_of(client, XIANGQI.read_text())
    assert game["variant"] == "xiangqi" and game["ok"] and len(game["plies"]) == 30
    first = game["plies"][0]
    assert (first["move"], first["san"], first["uci"], first["last_move"]) == ("C2=5", "Che3", "h3e3", "h3e3")
    checks = [(p["ply"], p["move"], p["san"], p["check"]) for p in game["plies"] if p["check"]]
    assert checks == [(13, "C5+4", "Cxe7+", ["e10"]), (20, "C8=5", "Ce8+", ["e1"])]


def test_an_ambiguous_move_names_its_candidates(client):
    game = game_of(client, '[FEN "4k3/8/8/8/8/8/8/2N1K1N1 w - - 0 1"]\n\n1. Ne2 *\n')
    (ply,) = game["plies"]
    assert ply["problem"]["code"] == "ambiguous-move"
    assert sorted(ply["problem"]["candidates"]) == ["Nce2", "Nge2"]


def test_tablut_moves_are_kept_as_written(client):
    game = game_of(client, PRODUCERS[-1])
    assert game["variant"] == "tablut"
    assert [(p["move"], p["san"], p["uci"], p["last_move"]) for p in game["plies"][:2]] == [
        ("d1-c1", None, None, "d1c1"), ("e7-g7", None, None, "e7g7")]


def test_a_chess960_game_castles_as_the_king_taking_its_rook(client):
    game = game_of(client, PRODUCERS[4])
    assert game["variant"] == "chess960"
    castle = next(p for p in game["plies"] if p["move"] == "O-O-O")
    assert (castle["uci"], castle["squares"]["rook"]) == ("c8b8", "b8")


@pytest.mark.parametrize(("tag", "source", "variant"), [
    ("ZH", "default", "crazyhouse"), ("Crazy House", "default", "crazyhouse"),
    ("CH", "itsyourturn", "itsyourturnhorde"),
])
def test_the_variant_tag_is_read_in_any_spelling(client, tag, source, variant):
    assert game_of(client, f'[Variant "{tag}"]\n\n1. e4 *\n', **{"from": source})["variant"] == variant


@pytest.mark.parametrize(("pgn", "found"), [
    ('[Variant "nosuch"]\n\n1. e4 *\n', [("unknown-variant", "error")]),
    ('[FEN "4k3/8/8/8/8/8/8/4KK2 w - - 0 1"]\n\n1. e4 *\n',
     [("too-many-kings", "error"), ("unknown-start", "warning")]),
    ('[Variant "Chess960"]\n\n1. e4 *\n', [("unknown-start", "warning")]),
    ('[Variant "ZH"]\n[Variant "Atomic"]\n\n1. e4 *\n', [("pgn-duplicate-tag", "error")]),
])
def test_a_setup_the_normaliser_refuses_has_no_plies(client, pgn, found):
    game = game_of(client, pgn)
    assert game["plies"] == [] and game["initial_fen"] is None and game["variant"] is None
    assert [(p["code"], p["level"]) for p in game["problems"]] == found


def test_a_fen_tag_a_repair_mends_is_reported_and_its_moves_are_played(client):
    game = game_of(client, '[FEN "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w KQkq - 0 1"]\n[SetUp "1"]\n\n'
                           '1. e4 e5 2. Ke2 Ke7 3. Ke4 *\n')
    assert [(p["code"], p["level"], p["line"]) for p in game["problems"]] == (
        [("bad-castling-rights", "error", 1)] * 4 + [("illegal-move", "error", 4)])
    assert len(game["plies"]) == 5 and game["initial_fen"] == "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1"


def test_a_fen_tag_problem_points_at_its_column(client):
    game = game_of(client, '[Event "x"]\n[FEN "4k3/8/8/8/8/8/8/4KK2 w - - 0 1"]\n\n*\n')
    (problem,) = game["problems"]
    assert (problem["line"], problem["tag"], problem["code"]) == (2, "FEN", "too-many-kings")


def test_accept_lets_a_fen_tag_problem_through(client):
    """A castling right without its rook is an error, and the moves are replayed from the FEN
    repaired (as check reads them); accepted, the same moves and no error."""
    pgn = '[FEN "4k3/8/8/8/8/8/8/R3K3 w KQ - 0 1"]\n\n1. Ra8+ *\n'
    refused = game_of(client, pgn)
    assert [p["san"] for p in refused["plies"]] == ["Ra8+"] and not refused["ok"]
    assert [(p["code"], p["level"]) for p in refused["problems"]] == [("bad-castling-rights", "error")]
    game = game_of(client, pgn, accept=["bad-castling-rights"])
    assert [p["san"] for p in game["plies"]] == ["Ra8+"] and game["plies"][0]["check"] == ["e8"]


def test_moves_pasted_alone_are_read_as_a_standard_game(client):
    game = game_of(client, "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#")
    assert [p["san"] for p in game["plies"]] == ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]
    assert game["outcome"]["reason"] == "checkmate" and game["ok"]
    assert [(p["code"], p["level"]) for p in game["problems"]] == [("pgn-no-tags", "warning"),
                                                                    ("pgn-missing-result", "warning")]
    game = game_of(client, "e4 e5 Ke3")
    assert game["plies"][-1]["problem"]["code"] == "illegal-move"
    assert [p["code"] for p in game["problems"]] == ["pgn-stray-text", "illegal-move"]


def test_the_first_game_is_read_and_more_are_said(client):
    text = "\n".join(CASES[:2])
    game = game_of(client, text)
    assert game["more_games"] and game["game"] == 1 and game["start_line"] == 1
    assert not game_of(client, CASES[0])["more_games"]
    assert {"name": "White", "value": "kasia"} in game["tags"]


def test_moves_after_the_result_or_a_failed_move_are_not_played(client):
    game = game_of(client, '[Event "x"]\n\n1. e4 e5 1-0 2. Nf3 *\n')  # the result ends the game: 2. Nf3 is the next
    assert [p["san"] for p in game["plies"]] == ["e4", "e5"] and game["more_games"]
    assert [p["code"] for p in game["problems"]] == ["pgn-missing-blank-line"]
    game = game_of(client, '[Event "x"]\n\n1. e4 Ke7 2. Ke2 (2. d4) Kd6 *\n')
    assert [p["move"] for p in game["plies"]] == ["e4", "Ke7"]  # the e-pawn still stands on e7
    assert game["plies"][1]["problem"]["code"] == "illegal-move" and game["plies"][1]["variations"] == []


@pytest.mark.slow
def test_the_movetext_budget_bounds_the_work(client):
    many = '[Event "x"]\n\n' + " ".join(["Nf3 Nf6 Ng1 Ng8"] * 2600) + " *\n"
    game = game_of(client, many)
    assert len(game["plies"]) == 10_000
    assert [p["code"] for p in game["problems"]] == ["pgn-movetext-too-long"]
    deep = '[Event "x"]\n\n1. e4 ' + "(1. d4 " * 150 + ")" * 150 + " *\n"
    game = game_of(client, deep)
    assert [p["code"] for p in game["problems"]] == ["pgn-movetext-too-deep"]
    depth, line = 0, game["plies"]
    while line and line[0]["variations"]:
        line, depth = line[0]["variations"][0], depth + 1
    assert depth == 100


@pytest.mark.parametrize(("body", "pointer"), [
    ({}, "/pgn"), ({"pgn": ""}, "/pgn"), ({"pgn": " \n\t"}, "/pgn"), ({"pgn": 3}, "/pgn"),
    ({"pgn": "1. e4 *", "game": 2}, "/game"), ({"pgn": "1. e4 *", "accept": ["fen-syntax"]}, "/accept/0"),
    ({"pgn": "1. e4 *", "from": "chessbase"}, "/from"), ([], ""),
])
def test_malformed_requests_are_invalid_requests_naming_the_field(client, body, pointer):
    problem = assert_problem(client.post("/v1/pgn/game", json=body), 422, INVALID_REQUEST)
    assert pointer in [error["pointer"] for error in problem["errors"]]


def test_a_body_that_is_not_json_is_refused(client):
    assert_problem(client.post("/v1/pgn/game", data=b"1. e4 *", content_type="application/json"), 400)
    assert_problem(client.post("/v1/pgn/game", data=b"1. e4 *", content_type="application/x-chess-pgn"), 415)


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pgn=st.text(alphabet="eNQKx1234568abcdh.+#=O-0*()[]{}\"; \n", min_size=1, max_size=120))
def test_no_text_gets_a_5xx(client, pgn):
    response = client.post("/v1/pgn/game", json={"pgn": pgn})
    assert response.status_code in (200, 422), response.get_data(as_text=True)


# --- a live server, real sockets ---------------------------------------------------------


@pytest.fixture(scope="module")
def base_url():
    yield from serve()


def post(base_url: str, path: str, body: bytes, content_type: str) -> tuple[int, str, bytes]:
    address = urllib.parse.urlparse(base_url)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=60)
    try:
        connection.request("POST", path, body=body, headers={"Content-Type": content_type})
        response = connection.getresponse()
        return response.status, response.getheader("Content-Type"), response.read()
    finally:
        connection.close()


@pytest.mark.live_server
@pytest.mark.parametrize("path", GAME_FILES, ids=[p.stem for p in GAME_FILES])
def test_over_the_wire_the_game_is_the_apps_answer(base_url, client, path):
    body = json.dumps({"pgn": path.read_text(encoding="utf-8")}).encode()
    status, content_type, data = post(base_url, "/v1/pgn/game", body, "application/json")
    assert (status, content_type) == (200, "application/json")
    assert json.loads(data) == game_of(client, path.read_text(encoding="utf-8"))


@pytest.mark.live_server
def test_over_the_wire_a_blank_game_is_a_problem(base_url):
    status, content_type, data = post(base_url, "/v1/pgn/game", b'{"pgn": "  "}', "application/json")
    assert (status, content_type) == (422, "application/problem+json")
    assert json.loads(data)["errors"][0]["pointer"] == "/pgn"


def normalize_command(path: pathlib.Path, *args: str) -> bytes:
    """What ``notation normalize PATH *args`` writes, run as a command."""
    done = subprocess.run([sys.executable, "-m", "notation", "normalize", str(path), "--summary", "none", *args],
                          capture_output=True, env=os.environ.copy(), timeout=120)
    assert done.returncode in (0, 1), done.stderr
    return done.stdout


@pytest.mark.slow
@pytest.mark.live_server
@pytest.mark.parametrize("moves", ["check", "san", "uci", "wxf"])
def test_over_the_wire_normalize_moves_gives_the_commands_bytes(base_url, tmp_path, moves):
    path = tmp_path / "games.pgn"
    path.write_bytes(b"".join(p.read_bytes() + b"\n" for p in GAME_FILES))
    status, content_type, data = post(base_url, f"/v1/pgn/normalize?moves={moves}", path.read_bytes(),
                                      "application/x-chess-pgn")
    assert (status, content_type) == (200, "application/x-ndjson")
    lines = [json.loads(line) for line in data.decode().splitlines()]
    text = "".join(line["text"] for line in lines if line["kind"] == "game" and not line["rejected"])
    assert text.encode() == normalize_command(path, "--moves", moves)
    assert lines[-1]["kind"] == "summary" and lines[-1]["games"] == len(GAME_FILES)


# (PGN, the clock of each main-line ply): lichess's and ChessBase's `[%clk]` in the comment
# after a move, as written; the first one where there are several comments; none where a
# comment has no clock or the clock stands before the move.
CLOCKS = [
    ("1. e4 { [%clk 0:02:55] } e5 { [%clk 0:02:58] } *", ["0:02:55", "0:02:58"]),
    ("1. e4 $1 { [%eval 0.2] } { [%eval 0.3] [%clk 1:00:00.5] } e5 { [%clk 0:00:03] [%clk 9:09:09] } *",
     ["1:00:00.5", "0:00:03"]),
    ("1. e4 { no clock here } e5 *", [None, None]),
    ("{ [%clk 0:05:00] } 1. e4 e5 { [%clk 0:04:59] } *", [None, "0:04:59"]),
    ('[Variant "Crazyhouse"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. P@d4 { [%clk 0:00:41] } *',
     [None] * 6 + ["0:00:41"]),
]


@pytest.mark.parametrize(("pgn", "clocks"), CLOCKS)
def test_each_ply_has_the_clock_of_the_comment_after_it(client, pgn, clocks):
    assert [ply["clock"] for ply in game_of(client, pgn)["plies"]] == clocks


def test_a_variation_move_has_its_own_clock(client):
    game = game_of(client, "1. e4 { [%clk 0:03:00] } e5 (1... c5 { [%clk 0:02:40] }) *")
    (variation,) = game["plies"][1]["variations"]
    assert [ply["clock"] for ply in game["plies"]] == ["0:03:00", None]
    assert [(ply["san"], ply["clock"]) for ply in variation] == [("c5", "0:02:40")]
