"""JSON in and out of the service and the frames between front end and worker.

orjson parses bodies and writes answers, with the standard library taking over where
orjson refuses or would write other bytes: the answers must be byte for byte what the
standard encoder writes (ASCII, ``\\uXXXX`` escapes), and bodies orjson refuses must get
the standard parser's messages or be read as before. The worker's side of the frame
socket reads through a buffer; frames must come out whole and in order however the bytes
are cut on the way.
"""

from __future__ import annotations

import json
import socket
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from service_fixtures import app, assert_problem, client  # noqa: F401

from notation_service import wire
from notation_service.jsonio import dumps, dumps_bytes

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
INVALID_JSON = "tag:notation,2025:problem:invalid-json"
INVALID_REQUEST = "tag:notation,2025:problem:invalid-request"
INVALID_FEN = "tag:notation,2025:problem:invalid-fen"
STANDARD = json.JSONEncoder(ensure_ascii=True, allow_nan=False, separators=(",", ":"))

# Floats are left out: orjson writes 1e-07 as 1e-7 (both JSON), and no answer holds one.
scalars = st.none() | st.booleans() | st.integers() | st.text() | st.sampled_from(["\x7f", "\ud800", "é", "\x00"])
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8) | st.integers(), inner, max_size=4),
    max_leaves=20,
)


@pytest.mark.slow
@settings(max_examples=300)
@given(values)
def test_answers_are_the_bytes_the_standard_encoder_writes(value):
    expected = STANDARD.encode(value)
    assert dumps(value) == expected
    assert dumps_bytes(value) == expected.encode("ascii")


@pytest.mark.parametrize(
    "value, text",
    [
        ({"fen": "caf\u00e9"}, '{"fen":"caf\\u00e9"}'),
        (["\ud800"], '["\\ud800"]'),
        ("\x7f", '"\\u007f"'),
        ([2**70], "[1180591620717411303424]"),
        ({1: True}, '{"1":true}'),
    ],
)
def test_what_orjson_would_write_otherwise_is_left_to_the_standard_encoder(value, text):
    assert dumps(value) == text


def test_an_escaped_lone_surrogate_is_read_as_before(client):
    """orjson refuses ``"\\ud800"``; the standard parser reads it, and the FEN is refused as
    a FEN (422), not the body as JSON (400)."""
    response = client.post("/v1/fen/convert", data=b'{"fen": "\\ud800"}', content_type="application/json")
    body = assert_problem(response, 422, INVALID_FEN)
    assert body["errors"][0]["code"] == "fen-syntax"


def test_bad_json_is_400_naming_the_line_and_column(client):
    response = client.post("/v1/fen/convert", data=b'{"fen":\n  }', content_type="application/json")
    body = assert_problem(response, 400, INVALID_JSON)
    assert body["detail"] == "not valid JSON: Expecting value (line 2, column 3)"


@pytest.mark.parametrize("number", [b"1" + b"0" * 30, b"1e400"])
def test_numbers_orjson_cannot_hold_are_the_wrong_type_not_bad_json(client, number):
    data = b'{"operation": "convert", "items": ["' + START.encode() + b'", ' + number + b"]}"
    response = client.post("/v1/fen/batch", data=data, content_type="application/json")
    body = assert_problem(response, 422, INVALID_REQUEST)
    assert [error["pointer"] for error in body["errors"]] == ["/items/1"]


def test_a_batch_answer_with_non_ascii_text_is_escaped(client):
    """One item's message echoes a non-ASCII character: the whole answer is still ASCII."""
    data = json.dumps({"operation": "validate", "items": [START, "\u00e9" + START]}).encode()
    response = client.post("/v1/fen/batch", data=data, content_type="application/json")
    assert response.status_code == 200
    raw = response.get_data()
    assert raw.isascii()
    assert json.loads(raw) == json.loads(STANDARD.encode(json.loads(raw)))
    assert json.loads(raw)["summary"] == {"total": 2, "ok": 1, "failed": 1}


frames = st.lists(
    st.tuples(st.sampled_from(sorted(wire.KNOWN_TYPES)), st.binary(max_size=300_000) | st.binary(max_size=40)),
    min_size=1,
    max_size=6,
)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(frames, st.lists(st.integers(min_value=1, max_value=200_000), min_size=1, max_size=20))
def test_frames_arrive_whole_and_in_order_however_the_bytes_are_cut(sent, cuts):
    data = b"".join(wire.frame(kind, payload) for kind, payload in sent)
    front, worker = socket.socketpair()
    with front, worker:

        def write() -> None:
            at, index = 0, 0
            while at < len(data):
                step = cuts[index % len(cuts)]
                front.sendall(data[at : at + step])
                at, index = at + step, index + 1
            front.shutdown(socket.SHUT_WR)

        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        worker.settimeout(60)
        channel = wire.BlockingChannel(worker)
        received = [channel.receive() for _ in sent]
        assert channel.receive() is None  # end of file between frames
        writer.join(60)
    assert received == sent


def test_end_of_file_inside_a_frame_is_a_wire_error():
    front, worker = socket.socketpair()
    with front, worker:
        front.sendall(wire.frame(wire.BODY, b"x" * 100)[:50])
        front.shutdown(socket.SHUT_WR)
        worker.settimeout(60)
        with pytest.raises(wire.WireError):
            wire.BlockingChannel(worker).receive()
