"""The shortcut past marshmallow for all-string bodies (``notation_service.plain_load``):
whatever it loads is what the schema loads, it declines whatever the schema would refuse,
and it does load the plain bodies it is there for."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError
from service_fixtures import TEST_SETTINGS, app, assert_problem, client  # noqa: F401

from notation.fen.profiles import PROFILES

from notation_service.config import Settings
from notation_service.schemas import request_schemas

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
SCHEMAS = request_schemas(Settings.from_mapping(TEST_SETTINGS))
MAX_FEN = TEST_SETTINGS["max_fen_chars"]
PAIRS = {
    "convert": (SCHEMAS.convert, SCHEMAS.plain_convert),
    "validate": (SCHEMAS.validate, SCHEMAS.plain_validate),
}

names = st.sampled_from(
    ["fen", "variant", "profile", "from", "source", "accept", "repair", "on_illegal", "castling", "operation", "x"]
)
strings = (
    st.sampled_from([START, "", "standard", "crazyhouse", "x" * 65, "x" * (MAX_FEN + 1), "default", *PROFILES])
    | st.text(max_size=10)
)
values = strings | st.none() | st.booleans() | st.integers() | st.lists(strings, max_size=2)
plain_bodies = st.fixed_dictionaries({"fen": strings}, optional={"variant": strings, "profile": strings})
bodies = plain_bodies | st.dictionaries(names, values, max_size=5) | values


def schema_load(schema, body):
    try:
        return schema.load(body)
    except ValidationError:
        return None


@pytest.mark.slow
@pytest.mark.parametrize("endpoint", sorted(PAIRS))
@settings(max_examples=400)
@given(body=bodies)
def test_what_the_shortcut_loads_is_what_the_schema_loads(endpoint, body):
    schema, plain = PAIRS[endpoint]
    loaded = plain.load(body)
    if loaded is not None:
        assert loaded == schema.load(body)


@pytest.mark.parametrize(
    "endpoint, body",
    [
        ("convert", {"fen": START}),
        ("convert", {"fen": START, "variant": "crazyhouse", "profile": "lichess"}),
        ("convert", {"fen": "not a fen", "variant": "no such variant"}),
        ("validate", {"fen": START, "variant": "standard"}),
    ],
)
def test_plain_bodies_take_the_shortcut(endpoint, body):
    schema, plain = PAIRS[endpoint]
    assert plain.load(body) == schema.load(body)


@pytest.mark.parametrize(
    "endpoint, body",
    [
        ("convert", {"fen": START, "profile": "nobody"}),  # OneOf refuses it
        ("convert", {"fen": "x" * (MAX_FEN + 1)}),  # Length refuses it
        ("convert", {"fen": START, "variant": ""}),
        ("convert", {"variant": "standard"}),  # fen missing
        ("convert", {"fen": START, "from": "lichess"}),  # a data_key: left to the schema
        ("convert", {"fen": START, "castling": "shredder"}),  # an enum field
        ("validate", {"fen": START, "profile": "lichess"}),  # not a field of validate
        ("validate", {"fen": None}),
        ("validate", [START]),
    ],
)
def test_anything_else_is_left_to_the_schema(endpoint, body):
    assert PAIRS[endpoint][1].load(body) is None


@pytest.mark.parametrize(
    "body, pointer",
    [({"fen": START, "profile": "nobody"}, "/profile"), ({"fen": "x" * (MAX_FEN + 1)}, "/fen"), ({}, "/fen")],
)
def test_declined_bodies_get_the_schemas_errors(client, body, pointer):
    response = client.post("/v1/fen/convert", data=json.dumps(body), content_type="application/json")
    problem = assert_problem(response, 422, "tag:notation,2025:problem:invalid-request")
    assert [error["pointer"] for error in problem["errors"]] == [pointer]
