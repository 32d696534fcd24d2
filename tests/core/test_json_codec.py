"""JSON lines in and out (notation.json_codec): orjson and the standard library behind it
take and refuse the same lines and write the same text, so a platform without orjson
gives the same answers."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from notation import json_codec

ACCEPTED = [
    '{"fen": "8/8/8/8/8/8/8/K6k w - - 0 1", "variant": "standard"}',
    '{"fen": "x", "variant": "Crazyhouse"}',
    '{"fen": "\\u00e9"}',
    "[1, 2.5, true, null]",
    '"just a string"',
]
REFUSED = [
    '{"fen": ',
    "{'fen': 'single quotes'}",
    '{"fen": NaN}',
    '{"fen": Infinity}',
    '{"fen": 1' + "0" * 400 + "}",  # past a double (orjson) / still a number (json): see below
    "[" * 2000 + "]" * 2000,
    '{"a": ' * (json_codec.MAX_DEPTH + 1) + "1" + "}" * (json_codec.MAX_DEPTH + 1),  # one past orjson's limit
    "",
]


@pytest.fixture(params=["orjson", "json"])
def codec(request, monkeypatch):
    if request.param == "json":
        monkeypatch.setattr(json_codec, "orjson", None)
    elif json_codec.orjson is None:
        pytest.skip("orjson is not installed here")
    return json_codec


@pytest.mark.parametrize("line", ACCEPTED)
def test_both_read_the_same_values(line, monkeypatch):
    if json_codec.orjson is None:
        pytest.skip("orjson is not installed here")
    expected = json_codec.loads(line)  # orjson
    monkeypatch.setattr(json_codec, "orjson", None)
    assert json_codec.loads(line) == expected  # the standard library


@pytest.mark.parametrize("line", [line for line in REFUSED if "0000" not in line])
def test_both_refuse_with_a_message_and_column(codec, line):
    with pytest.raises(json_codec.JSONDecodeError) as refused:
        codec.loads(line)
    assert refused.value.msg
    assert refused.value.colno >= 1


def test_a_number_past_every_float_is_refused_by_orjson_and_read_exactly_by_json(monkeypatch):
    # The one difference, harmless here: no FEN or variant is a number, so both lines end
    # as a "must be a string" error in the CLI.
    line = '{"fen": 1' + "0" * 400 + "}"
    if json_codec.orjson is not None:
        with pytest.raises(json_codec.JSONDecodeError):
            json_codec.loads(line)
    monkeypatch.setattr(json_codec, "orjson", None)
    assert json_codec.loads(line) == {"fen": 10**400}


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4),
    max_leaves=12,
)


@pytest.mark.slow
@settings(max_examples=examples(200))
@given(json_values)
def test_both_write_the_same_text(value):
    if json_codec.orjson is None:
        pytest.skip("orjson is not installed here")
    try:
        written = json_codec.dumps(value)
    except TypeError:  # orjson refuses lone surrogates in str; nothing the CLI writes has one
        return
    saved = json_codec.orjson
    try:
        json_codec.orjson = None
        assert json_codec.dumps(value) == written
    finally:
        json_codec.orjson = saved
    assert json_codec.loads(written) == value
