"""``"variant": "auto"`` in every endpoint that takes a FEN and a variant, over real sockets
(``notation serve``): the same guess as ``--variant auto`` on the command line, with the
guessed variant and the reason; a FEN no variant fits is refused as the CLI refuses it.

The three positions the page's former JavaScript guesser got wrong (a Tablut position off
its start, a CXBoard CFEN, a Horde position off its start) are here, guessed by the one
guesser every front end asks."""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
import urllib.parse

import pytest
from browser import serve

pytestmark = [pytest.mark.live_server, pytest.mark.slow]

# (FEN, variant key, reason): the JavaScript guesser took all three for Standard.
FORMERLY_WRONG = [
    ("3TTT3/4T4/4t4/T3t3T/TTttkttTT/T3t3T/4t4/4T4/3TT1T2 b - - 1 1", "tablut", "its 9x9 board"),
    ("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r 1", "xiangqi", "its 9x10 board"),
    ("r1bqkbnr/pppp1ppp/2n5/4p3/2PPP3/PPPPPPPP/PPPPPPPP/PPPPPPPP b kq - 0 2", "horde",
     "its armies (the only variant whose rules the setup keeps)"),
]
CRAZYHOUSE = "rnbqkbnr/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3"
PLAIN = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
UNREADABLE = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0"


@pytest.fixture(scope="module")
def base():
    yield from serve()


def call(base: str, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    url = urllib.parse.urlparse(base)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    try:
        data = json.dumps(body).encode() if body is not None else None
        connection.request(method, path, body=data, headers={"Content-Type": "application/json"} if data else {})
        response = connection.getresponse()
        raw = response.read()
        return response.status, json.loads(raw) if response.getheader("Content-Type", "").endswith("json") else {}
    finally:
        connection.close()


def cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "notation", *args], input=stdin, capture_output=True, text=True,
                          timeout=120, check=False)


@pytest.mark.parametrize(("fen", "key", "reason"), FORMERLY_WRONG, ids=["tablut", "cxboard-cfen", "horde"])
def test_what_the_page_guessed_wrong_the_api_guesses_as_the_cli(base, fen, key, reason):
    status, body = call(base, "POST", "/v1/fen/validate", {"fen": fen, "variant": "auto"})
    assert status == 200
    assert body["guess"] == {"variant": key, "name": body["guess"]["name"], "reason": reason}
    assert body["valid"] is True and body["variant"] == key and body["errors"] == []
    assert body["warnings"][0]["code"] == "guessed-variant" and body["warnings"][0]["reason"] == reason
    line = json.loads(cli("validate", "--json", "--variant", "auto", stdin=fen + "\n").stdout)
    assert line["variant"] == key and in_other_words(line["warnings"]) == in_other_words(body["warnings"])
    assert f'say "variant": "{key}" to be sure' in body["warnings"][0]["message"]
    assert f"say --variant {key} to be sure" in line["warnings"][0]["message"]


def in_other_words(problems: list[dict]) -> list[dict]:
    """The problems less their messages: the CLI and the API say how to choose a variant in
    their own words (--variant; the request's "variant" field), and nothing else differs."""
    return [{k: v for k, v in problem.items() if k != "message"} for problem in problems]


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/v1/fen/convert", {"fen": CRAZYHOUSE, "variant": "auto", "profile": "lichess"}),
        ("POST", "/v1/fen/validate", {"fen": CRAZYHOUSE, "variant": "AUTO"}),
        ("POST", "/v1/moves", {"fen": CRAZYHOUSE, "variant": "auto"}),
        ("POST", "/v1/play", {"fen": CRAZYHOUSE, "variant": "auto", "moves": ["P@e6"]}),
        ("POST", "/v1/fen/view", {"fen": CRAZYHOUSE, "variant": "auto", "side": "white"}),
    ],
)
def test_every_endpoint_guesses_and_says_why(base, method, path, body):
    status, answer = call(base, method, path, body)
    if path == "/v1/fen/view":  # Crazyhouse hides nothing: refused as a line of the CLI's would be
        assert status == 200 and answer["ok"] is False and answer["variant"] == "crazyhouse"
    else:
        assert status == 200, answer
    assert answer["guess"] == {"variant": "crazyhouse", "name": "Crazyhouse", "reason": "its pockets"}
    assert answer["variant"] == "crazyhouse"


def test_a_batch_guesses_item_by_item_as_the_cli_guesses_line_by_line(base):
    items = [CRAZYHOUSE, PLAIN, UNREADABLE, {"fen": FORMERLY_WRONG[0][0]}, {"fen": PLAIN, "variant": "zh"}]
    status, answer = call(base, "POST", "/v1/fen/batch", {"operation": "convert", "variant": "auto", "items": items})
    assert status == 200
    lines = "".join(json.dumps(item if isinstance(item, dict) else {"fen": item}) + "\n" for item in items)
    done = cli("convert", "--json", "--variant", "auto", stdin=lines)
    expected = [{k: v for k, v in json.loads(line).items() if k != "line"} for line in done.stdout.splitlines()]
    for got, want in zip(answer["results"], expected, strict=True):
        assert {**got, "errors": [], "warnings": []} == {**want, "errors": [], "warnings": []}
        assert in_other_words(got["errors"]) == in_other_words(want["errors"])
        assert in_other_words(got["warnings"]) == in_other_words(want["warnings"])
    assert "--variant" not in json.dumps(answer) and "--variant" in done.stdout
    assert [r["variant"] for r in answer["results"]] == ["crazyhouse", "standard", None, "tablut", "crazyhouse"]


def test_a_plain_fen_is_standard_with_its_reason_and_no_warning(base):
    status, answer = call(base, "POST", "/v1/fen/validate", {"fen": PLAIN, "variant": "auto"})
    assert status == 200 and answer["warnings"] == []
    assert answer["guess"] == {"variant": "standard", "name": "Standard", "reason": "a plain FEN"}


def test_no_fit_is_the_fens_own_problem_suggesting_values_in_the_apis_words(base):
    status, answer = call(base, "POST", "/v1/fen/validate", {"fen": UNREADABLE, "variant": "auto"})
    assert status == 200 and answer["valid"] is False
    error = answer["errors"][0]
    assert (error["code"], error["field"], error["column"]) == ("fen-syntax", "fullmove", 55)
    assert "crazyhouse" in error["suggestions"] and error["read_as"] == "standard"
    assert error["message"] == (
        "expected fullmove number, found the end of the FEN (read as Standard: no variant reads this FEN); "
        'say which with the request\'s "variant" field: standard, chess960, crazyhouse, atomic or 19 more '
        '(GET /v1/variants lists them)'
    )
    for path, body in (("/v1/fen/convert", {}), ("/v1/moves", {}), ("/v1/play", {"moves": ["e4"]})):
        status, answer = call(base, "POST", path, {"fen": UNREADABLE, "variant": "auto", **body})
        assert status == 422 and answer["type"].endswith("invalid-fen"), answer
        assert answer["errors"][0]["code"] == "fen-syntax" and "--variant" not in json.dumps(answer)


def test_without_a_fen_auto_is_the_default_variant(base):
    status, answer = call(base, "POST", "/v1/moves", {"variant": "auto"})
    assert status == 200 and answer["variant"] == "standard" and len(answer["moves"]) == 20
    assert "guess" not in answer  # nothing was guessed


def test_the_board_picture_guesses_too(base):
    query = urllib.parse.urlencode({"fen": FORMERLY_WRONG[1][0], "variant": "auto"})
    url = urllib.parse.urlparse(base)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    connection.request("GET", f"/v1/board.svg?{query}")
    response = connection.getresponse()
    svg = response.read().decode()
    connection.close()
    assert response.status == 200 and 'aria-label="Xiangqi position, White to move"' in svg
