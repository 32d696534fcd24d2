"""Malformed requests of every kind get a 4xx application/problem+json that says what is
wrong and where; no input, however shaped, gets a 500."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from service_fixtures import TEST_SETTINGS, app, assert_problem, client  # noqa: F401

INVALID_JSON = "tag:notation,2025:problem:invalid-json"
INVALID_REQUEST = "tag:notation,2025:problem:invalid-request"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
POST_PATHS = ("/v1/fen/convert", "/v1/fen/validate", "/v1/fen/batch")


def post_raw(client, path, data, content_type="application/json", **kwargs):
    return client.post(path, data=data, content_type=content_type, **kwargs)


@pytest.mark.parametrize("path", POST_PATHS)
@pytest.mark.parametrize(
    "body, where",
    [
        (b"", "empty"),
        (b"   \n", "empty"),
        (b"{", "line 1, column 2"),
        # the brace after the trailing comma, or from Python 3.13 on the comma itself
        (b'{"fen": "x",}', ("line 1, column 13", "line 1, column 12")),
        (b"{'fen': 'x'}", "line 1, column 2"),
        (b'{"fen": NaN}', "NaN"),
        (b'{"fen": Infinity}', "Infinity"),
        (b"[" * 50_000, "nested too deeply"),
        (b'{"fen": 1' + b"0" * 5000 + b"}", "not accepted JSON"),
        (b'{"fen": "\xff"}', "byte 9 (0xff)"),
        (b"\xef\xbb\xbf{}", "line 1, column 1"),
        (b'{"fen": "a"}\n{"fen": "b"}', "Extra data"),
    ],
)
def test_bad_json_is_400_saying_where(client, path, body, where):
    problem = assert_problem(post_raw(client, path, body), 400, INVALID_JSON)
    assert any(place in problem["detail"] for place in (where if isinstance(where, tuple) else (where,))), problem


@pytest.mark.parametrize("path", POST_PATHS)
@pytest.mark.parametrize(
    "content_type",
    [None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
     "application/json; charset=latin-1", "application/jsonx", "application/xml"],
)
def test_wrong_content_type_is_415(client, path, content_type):
    headers = {"Content-Type": content_type} if content_type else {}
    response = client.post(path, data=json.dumps({"fen": START}), headers=headers)
    problem = assert_problem(response, 415)
    assert problem["type"] == "about:blank"
    assert "application/json" in problem["detail"] or "UTF-8" in problem["detail"]


def test_json_suffix_media_types_and_utf8_charset_are_accepted(client):
    accepted = ("application/json; charset=utf-8", "application/merge-patch+json", "application/json; charset=UTF-8")
    for content_type in accepted:
        response = client.post("/v1/fen/validate", data=json.dumps({"fen": START}), content_type=content_type)
        assert response.status_code == 200, content_type


@pytest.mark.parametrize(
    "path, body, pointer, code",
    [
        ("/v1/fen/convert", {}, "/fen", "missing-field"),
        ("/v1/fen/convert", {"fen": 42}, "/fen", "invalid-field"),
        ("/v1/fen/convert", {"fen": None}, "/fen", "invalid-field"),
        ("/v1/fen/convert", {"fen": ["a"]}, "/fen", "invalid-field"),
        ("/v1/fen/convert", {"fen": START, "variant": 3}, "/variant", "invalid-field"),
        ("/v1/fen/convert", {"fen": START, "variant": ""}, "/variant", "invalid-field"),
        ("/v1/fen/convert", {"fen": START, "variant": "x" * 65}, "/variant", "invalid-field"),
        ("/v1/fen/convert", {"fen": START, "Fen": START}, "/Fen", "unknown-field"),
        ("/v1/fen/convert", {"fen": START, "profile": "lichess.org"}, "/profile", "invalid-field"),
        ("/v1/fen/convert", {"fen": START, "pockets": "square"}, "/pockets", "invalid-field"),
        ("/v1/fen/convert", {"fen": START, "castling": True}, "/castling", "invalid-field"),
        ("/v1/fen/convert", {"fen": START, "en_passant": None}, "/en_passant", "invalid-field"),
        ("/v1/fen/convert", {"fen": START, "on_illegal": True}, "/on_illegal", "invalid-field"),
        ("/v1/fen/convert", {"fen": START, "repairs": True}, "/repairs", "unknown-field"),
        ("/v1/fen/convert", {"fen": START, "accept": "too-many-kings"}, "/accept", "invalid-field"),
        ("/v1/fen/convert", {"fen": START, "accept": ["Bad Code"]}, "/accept/0", "invalid-field"),
        ("/v1/fen/convert", {"fen": START, "accept": ["empty"] * 33}, "/accept", "invalid-field"),
        ("/v1/fen/convert", {"fen": START, "accept": ["fen-syntax"]}, "/accept/0", "invalid-field"),
        ("/v1/fen/convert", {"fen": "x" * 513}, "/fen", "invalid-field"),
        ("/v1/fen/convert", ["not", "an", "object"], "", "invalid-field"),
        ("/v1/fen/convert", "a string", "", "invalid-field"),
        ("/v1/fen/convert", 12, "", "invalid-field"),
        ("/v1/fen/convert", {"fen/x~y": 1, "fen": START}, "/fen~1x~0y", "unknown-field"),
        ("/v1/fen/validate", {"fen": START, "profile": "lichess"}, "/profile", "unknown-field"),
        ("/v1/fen/validate", {"fen": START, "accept": [1]}, "/accept/0", "invalid-field"),
        ("/v1/fen/batch", {"items": [START]}, "/operation", "missing-field"),
        ("/v1/fen/batch", {"operation": "repair", "items": [START]}, "/operation", "invalid-field"),
        ("/v1/fen/batch", {"operation": "convert"}, "/items", "missing-field"),
        ("/v1/fen/batch", {"operation": "convert", "items": []}, "/items", "invalid-field"),
        ("/v1/fen/batch", {"operation": "convert", "items": START}, "/items", "invalid-field"),
        ("/v1/fen/batch", {"operation": "convert", "items": [START] * 201}, "/items", "invalid-field"),
        ("/v1/fen/batch", {"operation": "convert", "items": [START, 7]}, "/items/1", "invalid-field"),
        ("/v1/fen/batch", {"operation": "convert", "items": [START, None]}, "/items/1", "invalid-field"),
        ("/v1/fen/batch", {"operation": "convert", "items": [START, {}]}, "/items/1/fen", "missing-field"),
        ("/v1/fen/batch", {"operation": "convert", "items": [{"fen": None}]}, "/items/0/fen", "invalid-field"),
        ("/v1/fen/batch", {"operation": "convert", "items": [{"fen": START, "v": 1}]}, "/items/0/v", "unknown-field"),
        (
            "/v1/fen/batch",
            {"operation": "convert", "items": [{"fen": START, "variant": 1}]},
            "/items/0/variant",
            "invalid-field",
        ),
        (
            "/v1/fen/batch",
            {"operation": "convert", "items": [{"fen": START, "variant": ""}]},
            "/items/0/variant",
            "invalid-field",
        ),
        ("/v1/fen/batch", {"operation": "convert", "items": ["x" * 513]}, "/items/0", "invalid-field"),
        (
            "/v1/fen/batch",
            {"operation": "validate", "items": [START], "profile": "lichess"},
            "/profile",
            "invalid-field",
        ),
        (
            "/v1/fen/batch",
            {"operation": "validate", "items": [START], "on_illegal": "repair"},
            "/on_illegal",
            "invalid-field",
        ),
    ],
)
def test_schema_violations_are_422_with_a_pointer(client, path, body, pointer, code):
    problem = assert_problem(client.post(path, json=body), 422, INVALID_REQUEST)
    found = [{"code": e["code"], "pointer": e["pointer"]} for e in problem["errors"]]
    assert {"code": code, "pointer": pointer} in found
    assert all(isinstance(e["message"], str) and e["message"] for e in problem["errors"])


def test_every_schema_violation_is_listed_at_once(client):
    body = {"fen": 1, "variant": 2, "pockets": "x", "extra": True}
    problem = assert_problem(client.post("/v1/fen/convert", json=body), 422, INVALID_REQUEST)
    assert sorted(e["pointer"] for e in problem["errors"]) == ["/extra", "/fen", "/pockets", "/variant"]
    assert "(and 3 more)" in problem["detail"]


def test_bad_items_are_reported_by_index_and_all_at_once(client):
    body = {"operation": "convert", "items": [START, 1, START, {"fen": 2}, {"x": 1, "fen": START}]}
    problem = assert_problem(client.post("/v1/fen/batch", json=body), 422, INVALID_REQUEST)
    assert sorted(e["pointer"] for e in problem["errors"]) == ["/items/1", "/items/3/fen", "/items/4/x"]


@pytest.mark.parametrize("path", POST_PATHS)
def test_body_over_the_limit_is_413_before_reading(client, path):
    limit = TEST_SETTINGS["max_body_bytes"]

    class Unreadable:
        """A body that fails the test if the service reads it."""

        def read(self, *args):
            raise AssertionError("the service read a body it should have refused")

    environ = {"CONTENT_LENGTH": str(limit + 1), "CONTENT_TYPE": "application/json", "wsgi.input": Unreadable()}
    response = client.post(path, environ_overrides=environ)
    problem = assert_problem(response, 413)
    assert str(limit) in problem["detail"]


def test_body_without_length_is_cut_at_the_limit(client):
    limit = TEST_SETTINGS["max_body_bytes"]
    body = json.dumps({"fen": "x" * (limit * 2)}).encode()
    import io

    environ = {"wsgi.input": io.BytesIO(body), "wsgi.input_terminated": True, "CONTENT_TYPE": "application/json"}
    response = client.post("/v1/fen/convert", environ_overrides=environ)
    assert_problem(response, 413)


def test_body_just_under_the_limit_is_read(client):
    limit = TEST_SETTINGS["max_body_bytes"]
    padding = limit - len(json.dumps({"fen": START, "variant": ""})) - 1
    body = json.dumps({"fen": START, "variant": " " * padding})
    assert len(body) < limit
    response = client.post("/v1/fen/validate", data=body, content_type="application/json")
    assert_problem(response, 422, INVALID_REQUEST)  # read, then refused for the long variant


@pytest.mark.parametrize(
    "method, path, allowed",
    [
        ("post", "/healthz", "GET"),
        ("delete", "/v1/variants", "GET"),
        ("put", "/openapi.yaml", "GET"),
        ("get", "/v1/fen/convert", "POST"),
        ("patch", "/v1/fen/validate", "POST"),
        ("get", "/v1/fen/batch", "POST"),
    ],
)
def test_wrong_method_is_405_with_allow(client, method, path, allowed):
    response = getattr(client, method)(path)
    problem = assert_problem(response, 405)
    assert allowed in response.headers["Allow"]
    assert method.upper() in problem["detail"]


@pytest.mark.parametrize(
    "path", ["/index.html", "/v1", "/v1/fen", "/v1/fen/convert/", "/v2/fen/convert", "/%00", "/v1/fen/conv\u00e9rt"]
)
def test_unknown_path_is_404(client, path):
    assert_problem(client.get(path), 404)


CONTROL = "".join(chr(c) for c in range(32)) + "\x7f\u2028\ufeff"


@pytest.mark.parametrize(
    "fen",
    [START.replace(" ", "\x00"), START + "\n", "\t" + START, CONTROL, "\ud800", START[:20] + "\u0301" + START[20:]],
)
def test_control_characters_in_a_fen_are_a_fen_error_not_a_crash(client, fen):
    response = client.post("/v1/fen/validate", data=json.dumps({"fen": fen}), content_type="application/json")
    assert response.status_code == 200
    result = response.get_json()
    if not result["valid"]:
        assert result["errors"] and all(e["code"] for e in result["errors"])
    converted = client.post("/v1/fen/convert", data=json.dumps({"fen": fen}), content_type="application/json")
    assert converted.status_code in (200, 422)
    assert converted.mimetype in ("application/json", "application/problem+json")


def test_unknown_variant_name_with_odd_characters_is_echoed_safely(client):
    body = json.dumps({"fen": START, "variant": "\ud800zh\u0000"})
    response = client.post("/v1/fen/convert", data=body, content_type="application/json")
    problem = assert_problem(response, 422, "tag:notation,2025:problem:invalid-fen")
    assert problem["errors"][0]["code"] == "unknown-variant"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=40),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5),
    max_leaves=20,
)
request_like = st.fixed_dictionaries(
    {},
    optional={
        "fen": json_values | st.text(max_size=90),
        "variant": json_values | st.sampled_from(["standard", "crazyhouse", "threecheck", "zh", "horde"]),
        "operation": st.sampled_from(["convert", "validate"]) | json_values,
        "items": st.lists(st.text(max_size=80) | json_values, max_size=6) | json_values,
        "profile": st.sampled_from(["lichess", "chesscom", "scid"]) | json_values,
        "pockets": st.sampled_from(["bracketed", "rank-zero", "appended"]) | json_values,
        "accept": st.lists(st.text(max_size=12), max_size=3) | json_values,
        "on_illegal": st.sampled_from(["refuse", "repair"]) | json_values,
    },
) | json_values


@pytest.mark.slow
@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(path=st.sampled_from(POST_PATHS), body=request_like)
def test_no_json_document_of_any_shape_gets_a_5xx(client, path, body):
    response = client.post(path, data=json.dumps(body), content_type="application/json")
    assert response.status_code < 500, response.get_data(as_text=True)
    if response.status_code >= 400:
        assert_problem(response, response.status_code)


@settings(
    max_examples=100, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(path=st.sampled_from(POST_PATHS), body=st.binary(max_size=200))
def test_no_byte_string_gets_a_5xx(client, path, body):
    response = client.post(path, data=body, content_type="application/json")
    assert 400 <= response.status_code < 500 or response.status_code == 200
    if response.status_code >= 400:
        assert_problem(response, response.status_code)
