"""The worker's fast path past Flask (``notation_service.wsgi_worker.FastPath``) for
convert, validate, moves and play: what it
answers is byte for byte what the app answers through WSGI (status, headers, body and the
FEN count), and it leaves to the app every request it does not read plainly or that
does not answer 200."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from service_fixtures import TEST_SETTINGS

from notation_service import create_app, wire
from notation_service.wsgi_worker import FastPath, Worker

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
APP = create_app(TEST_SETTINGS)
FAST = FastPath(APP)


class Channel:
    """What a worker sends, kept."""

    def __init__(self) -> None:
        self.sent = bytearray()

    def send_raw(self, frames: bytes) -> None:
        self.sent += frames

    def send(self, kind: int, payload: bytes = b"") -> None:
        self.sent += wire.frame(kind, payload)

    def send_json(self, kind: int, value: object) -> None:
        self.sent += wire.json_frame(kind, value)

    def cancel_requested(self) -> bool:  # the front end never cancels here
        return False


def head(path: str, body: bytes, headers: list[list[str]] | None = None, method: str = "POST") -> dict:
    """A request head as the front end sends it."""
    given_headers = [["Host", "127.0.0.1:8080"], ["Content-Type", "application/json"]] if headers is None else headers
    return {
        "method": method, "target": path, "version": "1.1",
        "headers": [*given_headers, ["Content-Length", str(len(body))], ["X-Request-ID", "abc"]],
        "client": ["127.0.0.1", 5000], "server": ["127.0.0.1", 8080], "body": {"length": len(body), "file": None},
    }


def by_app(request: dict, body: bytes) -> bytes:
    channel = Channel()
    Worker(APP, channel).handle(request, io.BytesIO(body))  # type: ignore[arg-type]
    return bytes(channel.sent)


def check(path: str, body: bytes, headers: list[list[str]] | None = None, method: str = "POST") -> bytes | None:
    """The fast path's answer (None when it declines), held to the app's."""
    request = head(path, body, headers, method)
    fast = FAST.answer(request, body)
    if fast is not None:
        assert fast == by_app(request, body)
    return fast


PLAIN = [
    {"fen": START},
    {"fen": START, "variant": "standard", "profile": "lichess"},
    {"fen": START, "variant": "auto"},
    {"fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 +0+0", "variant": "3check"},
    {"fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1", "variant": "crazyhouse"},
    {"fen": "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "profile": "python-chess"},
    {"fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"},
    {"fen": "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", "variant": "auto"},
]


@pytest.mark.parametrize("path", ["/v1/fen/convert", "/v1/fen/validate"])
@pytest.mark.parametrize("body", PLAIN, ids=range(len(PLAIN)))
def test_plain_requests_take_the_fast_path_with_the_apps_bytes(path, body):
    if path.endswith("validate"):  # validate takes no profile
        body = {name: value for name, value in body.items() if name != "profile"}
    answer = check(path, json.dumps(body).encode())
    assert answer is not None
    assert b"\"fens\":1" in answer


@pytest.mark.parametrize(
    ("path", "body", "headers", "method"),
    [
        ("/v1/fen/convert", b'{"fen": "not a fen"}', None, "POST"),  # 422: the app words it
        ("/v1/fen/convert", b'{"fen": "8/8/8/8/8/8/8/8 w - - 0 1"}', None, "POST"),
        ("/v1/fen/convert", b'{"fen": "x", "variant": "nosuch"}', None, "POST"),
        ("/v1/fen/validate", b'{"fen": 3}', None, "POST"),
        ("/v1/fen/convert", b"", None, "POST"),
        ("/v1/fen/convert", b"  ", None, "POST"),
        ("/v1/fen/convert", b"{", None, "POST"),
        ("/v1/fen/convert", b"[]", None, "POST"),
        ("/v1/fen/convert", b'{"fen": "\\ud800"}', None, "POST"),
        ("/v1/fen/convert?x=1", b'{"fen": "' + START.encode() + b'"}', None, "POST"),
        ("/v1/fen/convert/", b'{"fen": "' + START.encode() + b'"}', None, "POST"),
        ("/v1/fen/%63onvert", b'{"fen": "' + START.encode() + b'"}', None, "POST"),
        ("/v1/fen/convert", b'{"fen": "' + START.encode() + b'"}', None, "GET"),
        ("/v1/fen/convert", b'{"fen": "' + START.encode() + b'"}', [["Content-Type", "text/plain"]], "POST"),
        ("/v1/fen/convert", b'{"fen": "' + START.encode() + b'"}', [], "POST"),
        (
            "/v1/fen/convert", b'{"fen": "' + START.encode() + b'"}',
            [["Content-Type", "application/json"], ["Content-Encoding", "identity"]], "POST",
        ),
        (
            "/v1/fen/convert", b'{"fen": "' + START.encode() + b'"}',
            [["Content-Type", "application/json"], ["Content-Type", "application/json"]], "POST",
        ),
        (
            "/v1/fen/convert", b'{"fen": "' + START.encode() + b'"}',
            [["Content-Type", "application/json; charset=utf-8"]], "POST",
        ),
        ("/v1/fen/convert", b'{"fen": "' + START.encode() + b'", "pad": "' + b"x" * 70_000 + b'"}', None, "POST"),
        ("/v1/fen/batch", json.dumps({"operation": "convert", "items": [START]}).encode(), None, "POST"),
    ],
)
def test_anything_else_is_left_to_the_app(path, body, headers, method):
    assert check(path, body, headers, method) is None


MOVES = [
    ("/v1/moves", {"fen": START}),
    ("/v1/moves", {"fen": START, "squares": True}),
    ("/v1/moves", {"fen": START, "variant": "auto", "notation": "uci"}),
    ("/v1/moves", {"fen": PLAIN[4]["fen"], "variant": "crazyhouse", "squares": True}),
    ("/v1/moves", {"fen": PLAIN[7]["fen"], "variant": "xiangqi", "notation": "wxf"}),
    ("/v1/play", {"fen": START, "moves": ["e4", "e5", "Nf3"]}),
    ("/v1/play", {"fen": START, "moves": ["e2e4"], "profile": "lichess"}),
    ("/v1/play", {"fen": START, "moves": []}),
    ("/v1/play", {"fen": PLAIN[4]["fen"], "variant": "crazyhouse", "moves": ["e4", "d5", "exd5", "Qxd5"]}),
]


def test_a_body_past_plain_strings_is_loaded_by_the_schema():
    assert check("/v1/fen/convert", json.dumps({"fen": START, "repair": True}).encode()) is not None


@pytest.mark.parametrize(("path", "body"), MOVES)
def test_moves_and_plays_take_the_fast_path_with_the_apps_bytes(path, body):
    answer = check(path, json.dumps(body).encode())
    assert answer is not None
    assert answer.endswith(wire.frame(wire.END))  # no FEN counted


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/moves", {"fen": "x"}),
        ("/v1/moves", {"fen": START, "squares": "yes"}),
        ("/v1/moves", {"fen": START, "notation": "nosuch"}),
        ("/v1/play", {"fen": START, "moves": ["e5"]}),
        ("/v1/play", {"fen": START, "moves": "e4"}),
        ("/v1/play", {"fen": START}),
    ],
)
def test_refused_moves_and_plays_are_left_to_the_app(path, body):
    assert check(path, json.dumps(body).encode()) is None


fens = st.sampled_from([START, "", "x", "8/8/8/8/8/8/8/8 w - - 0 1", PLAIN[3]["fen"], PLAIN[4]["fen"]]) | st.text(
    max_size=12
)
names = st.sampled_from(["standard", "auto", "crazyhouse", "chess960", "nosuch", "", "AUTO"]) | st.text(max_size=4)
profiles = st.sampled_from(["lichess", "chesscom", "scid", "python-chess", "default", "nosuch", ""])
bodies = st.fixed_dictionaries({}, optional={"fen": fens, "variant": names, "profile": profiles, "from": names})


@settings(max_examples=150, deadline=None)
@given(path=st.sampled_from(["/v1/fen/convert", "/v1/fen/validate"]), body=bodies)
def test_whatever_it_answers_is_the_apps_answer(path, body):
    check(path, json.dumps(body).encode())


moves_bodies = st.fixed_dictionaries({}, optional={
    "fen": fens, "variant": names, "squares": st.booleans() | st.none(), "chess960": st.booleans(),
    "notation": st.sampled_from(["san", "uci", "lan", "wxf", "nosuch"]),
    "moves": st.lists(st.sampled_from(["e4", "e5", "Nf3", "e2e4", "O-O", "xx", ""]), max_size=3),
})


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(path=st.sampled_from(["/v1/moves", "/v1/play"]), body=moves_bodies)
def test_whatever_it_answers_of_moves_is_the_apps_answer(path, body):
    if path == "/v1/moves":
        body.pop("moves", None)
    check(path, json.dumps(body).encode())
