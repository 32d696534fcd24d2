"""``repair`` (the flag spelling) and ``on_illegal`` (the enum) mean the same thing."""

from __future__ import annotations

from service_fixtures import app, assert_problem, client  # noqa: F401 - pytest fixtures

BAD_RIGHTS = "4k3/8/8/8/8/8/8/4K2R w KQ - 0 1"


def test_repair_true_repairs(client):
    response = client.post("/v1/fen/convert", json={"fen": BAD_RIGHTS, "repair": True})
    assert response.status_code == 200
    body = response.get_json()
    assert body["fen"] == "4k3/8/8/8/8/8/8/4K2R w K - 0 1"
    assert [w["code"] for w in body["warnings"]] == ["repaired-castling"]


def test_repair_false_refuses(client):
    response = client.post("/v1/fen/convert", json={"fen": BAD_RIGHTS, "repair": False})
    body = assert_problem(response, 422)
    assert "bad-castling-rights" in {e["code"] for e in body["errors"]}


def test_repair_in_a_batch(client):
    response = client.post("/v1/fen/batch", json={"operation": "convert", "repair": True, "items": [BAD_RIGHTS]})
    assert response.status_code == 200
    assert response.get_json()["results"][0]["fen"] == "4k3/8/8/8/8/8/8/4K2R w K - 0 1"


def test_repair_with_on_illegal_is_422(client):
    for on_illegal in ("refuse", "repair"):
        response = client.post("/v1/fen/convert", json={"fen": BAD_RIGHTS, "repair": True, "on_illegal": on_illegal})
        body = assert_problem(response, 422)
        assert [error["pointer"] for error in body["errors"]] == ["/repair"]


def test_repair_must_be_a_boolean(client):
    response = client.post("/v1/fen/convert", json={"fen": BAD_RIGHTS, "repair": "yes please"})
    assert_problem(response, 422)

