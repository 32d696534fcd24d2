"""``POST /v1/fen/view`` answers as ``notation view --json`` does, over the table of views
and view readings (fixtures/views/cases.json), and refuses malformed requests with a
problem."""

from __future__ import annotations

import pytest
from service_fixtures import app, client, load_fixture  # noqa: F401  (pytest fixtures)

from notation.operations import view_fen
from notation.validation import FINISHED_GAME_CODES
from notation.views import Viewer

CASES = load_fixture("views", "cases.json")
VIEWS = CASES["views"]
READINGS = CASES["reading"]


@pytest.mark.parametrize("case", VIEWS, ids=[f"{c['side']}:{c['fen']}" for c in VIEWS])
def test_service_answers_as_the_command_line(client, case):
    response = client.post("/v1/fen/view", json={"fen": case["fen"], "variant": case["variant"], "side": case["side"]})
    assert response.status_code == 200
    body = response.get_json()
    assert body == view_fen(case["fen"], case["variant"], Viewer(case["side"])).to_dict()
    assert body["fen"] == case["view"]


@pytest.mark.parametrize("case", READINGS, ids=[f"{c['side']}:{c['view']}" for c in READINGS])
def test_service_judges_views_as_the_command_line(client, case):
    request = {"fen": case["view"], "variant": case["variant"], "side": case["side"]}
    body = client.post("/v1/fen/view", json=request).get_json()
    expected = view_fen(case["view"], case["variant"], Viewer(case["side"])).to_dict()
    assert body == expected
    assert body["ok"] == (not [c for c in case["codes"] if c not in FINISHED_GAME_CODES])


@pytest.mark.parametrize(
    "request_body",
    [
        {"fen": "8/8/8/8/8/8/8/8 w - - 0 1"},  # no side
        {"fen": "8/8/8/8/8/8/8/8 w - - 0 1", "side": "grey"},
        {"fen": "8/8/8/8/8/8/8/8 w - - 0 1", "side": "white", "extra": 1},
        {"fen": 7, "side": "white"},
    ],
)
def test_service_refuses_malformed_requests_with_a_problem(client, request_body):
    response = client.post("/v1/fen/view", json=request_body)
    assert response.status_code == 422
    assert response.mimetype == "application/problem+json"
