"""Request heads from ``fixtures/service/http_heads.json`` sent as raw bytes to a live
``notation serve``: the status of each answer, problem+json with ``Connection: close`` for
every refusal, and what h11 alone makes of each head, so that the table says where the
service answers otherwise than its parser would let it (a Content-Length list or
repetition, a method in other letters) and which standard it follows there."""

from __future__ import annotations

import json

import h11
import pytest
from service_fixtures import load_fixture
from test_service_front import Server, parse_problem, raw_exchange

CASES = load_fixture("service", "http_heads.json")["cases"]

pytestmark = [pytest.mark.live_server, pytest.mark.slow]


@pytest.fixture(scope="module")
def server():
    running = Server(workers=1)
    try:
        yield running
    finally:
        running.cleanup()


def head_bytes(case: dict) -> bytes:
    return case["request"].encode("latin-1")


def closing(data: bytes) -> bytes:
    """``data`` with ``Connection: close`` added to its head, so the answer ends the connection."""
    head, blank, body = data.partition(b"\r\n\r\n")
    return head + b"\r\nConnection: close" + blank + body


def h11_reading(data: bytes) -> str:
    """What h11 makes of the head: reads, merges (a Content-Length list or repetition read
    as one value) or refuses."""
    connection = h11.Connection(h11.SERVER)
    connection.receive_data(data)
    try:
        event = connection.next_event()
    except h11.RemoteProtocolError:
        return "refuses"
    assert isinstance(event, h11.Request)
    lines = data.partition(b"\r\n\r\n")[0].lower().split(b"\r\n")
    given = [index for index, line in enumerate(lines) if line.startswith(b"content-length:")]
    folded = any(lines[index + 1 : index + 2] and lines[index + 1][:1] in (b" ", b"\t") for index in given)
    listed = any(b"," in lines[index] for index in given)
    return "merges" if len(given) > 1 or listed or folded else "reads"


def status_of(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1])


def test_every_case_says_why_where_the_service_is_stricter_than_h11():
    for case in CASES:
        stricter = case["status"] >= 400 and case["h11"] in ("reads", "merges") and case["status"] != 405
        assert not stricter or case.get("why"), case["name"]


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_h11_reads_the_head_as_the_table_says(case):
    assert h11_reading(head_bytes(case)) == case["h11"]


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_the_service_answers_each_head_with_its_status(server, case):
    data = head_bytes(case)
    answer = raw_exchange(server.port, closing(data) if case["status"] in (200, 405) else data)
    assert status_of(answer) == case["status"], answer[:400]
    if case["status"] in (400, 501, 505):  # answered by the front end: problem+json, then it closes
        problem = parse_problem(answer, case["status"])
        if case["status"] == 501:
            assert data.split(b" ", 1)[0].decode() in problem["detail"]
    elif case["status"] == 405:
        assert b"\r\nAllow: " in answer and json.loads(answer.partition(b"\r\n\r\n")[2])["status"] == 405
    else:
        head, _, body = answer.partition(b"\r\n\r\n")
        assert (b"\r\nConnection: close" in head) and (body == b"") == data.startswith(b"HEAD ")
