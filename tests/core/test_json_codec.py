"""JSON lines in and out (notation.json_codec): orjson and the standard library behind it
take and refuse the same lines and write the same text, so a platform without orjson
gives the same answers."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from notation import json_codec
from notation.cli.jsonl import STARTING_USES, LineCodec

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


# A run's first lines are read and written without importing orjson
# (json_codec.starting_line_functions): each answer must be orjson's own, value, text or error.
STARTING_LINES = [
    *ACCEPTED,
    *REFUSED,
    '{"fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1", "variant": "crazyhouse"}\n',
    ' {"fen": "x"} \r\n',
    "{}",
    '{"fen": "x", "fen": "y"}',  # the last one wins, in both
    '{"fen": "\\ud800"}',  # a lone surrogate: orjson refuses it
    '{"fen": "\\u00e9\\ud83d\\ude00"}',
    '{"fen": "é \u2028"}',
    '{"fen": "tab\there"}',  # a raw control character inside a string
    '{"fen": "x", "variant": 3}',
    '{"fen": "x", "ply": 18446744073709551616}',  # past 64 bits: orjson reads a float
    '{"fen": 1e400}',
    '{"fen": ["x"]}',
    '{"fen": {"a": "b"}}',
    '\ufeff{"fen": "x"}',
    '{"fen": "x"} trailing',
    '{"fen": "x",}',
    "null",
]


def orjson_answer(call, *args):
    """What ``call(*args)`` gives: ("value", value) or ("error", type, message, column)."""
    try:
        return ("value", repr(call(*args)))
    except json_codec.JSONDecodeError as exc:
        return ("error", exc.msg, exc.colno)
    except TypeError as exc:
        return ("type-error", str(exc))


@pytest.fixture(scope="module")
def orjson_module():
    if json_codec.orjson is None:
        pytest.skip("orjson is not installed here")
    return json_codec.orjson


@pytest.mark.parametrize("line", STARTING_LINES)
@pytest.mark.parametrize("as_bytes", [False, True], ids=["text", "bytes"])
def test_a_starting_line_is_read_as_orjson_reads_it(orjson_module, line, as_bytes):
    data = line.encode("utf-8", "surrogatepass") if as_bytes else line
    starting = json_codec.starting_line_functions()
    assert orjson_answer(starting.loads, data) == orjson_answer(orjson_module.loads, data)


NOT_UTF8 = [b'{"fen": "\xff"}', b'{"fen": "x\xc3"}', b'{\x00"\x00}\x00', b'{"fen": "\xed\xa0\x80"}']


@pytest.mark.parametrize("data", NOT_UTF8)
def test_starting_bytes_that_are_not_utf8_are_orjson_s_to_refuse(orjson_module, data):
    starting = json_codec.starting_line_functions()
    assert orjson_answer(starting.loads, data) == orjson_answer(orjson_module.loads, data)
    assert orjson_answer(starting.loads, data)[0] == "error"


@pytest.mark.slow
@settings(max_examples=examples(300))
@given(st.one_of(json_values.map(lambda value: json_codec.dumps(value) if _writable(value) else "[]"),
                 st.text(max_size=30)))
def test_any_starting_line_is_read_as_orjson_reads_it(orjson_module, line):
    starting = json_codec.starting_line_functions()
    assert orjson_answer(starting.loads, line) == orjson_answer(orjson_module.loads, line)


def _writable(value) -> bool:
    try:
        json_codec.dumps(value)
    except TypeError:
        return False
    return True


STARTING_VALUES = [
    {"ok": True, "fen": "8/8/8/8/8/8/8/K6k w - - 0 1", "warnings": [], "line": 3, "detected": None},
    {"errors": [{"code": "fen-syntax", "column": 12, "message": "é \u2028 \x01 \x7f \"q\" \\"}]},
    {"float": 1e-07},
    {"float": 1e16},
    {"nan": float("nan")},
    {"big": 2**64},
    {"big": 2**64 - 1, "small": -(2**63)},
    {"tuple": (1, 2)},
    {1: "int key"},
    {"surrogate": "\ud800"},
    {"\udc80": "surrogate key"},
    {"nested": [[[[{"a": None}]]]]},
    {"bool": False, "none": None},
    [],
]


@pytest.mark.parametrize("value", STARTING_VALUES, ids=repr)
@pytest.mark.parametrize("option", ["newline", "none"])
def test_a_starting_answer_is_written_as_orjson_writes_it(orjson_module, value, option):
    starting = json_codec.starting_line_functions()
    newline = option == "newline"
    ours = orjson_answer(starting.dumps, value, None, starting.newline if newline else 0)
    theirs = orjson_answer(orjson_module.dumps, value, None, orjson_module.OPT_APPEND_NEWLINE if newline else 0)
    assert ours == theirs


written_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**65), 2**65) | st.floats() | st.text(),
    lambda children: (st.lists(children, max_size=4) | st.tuples(children)
                      | st.dictionaries(st.text(), children, max_size=4)),
    max_leaves=12,
)


@pytest.mark.slow
@settings(max_examples=examples(300))
@given(written_values)
def test_any_starting_answer_is_written_as_orjson_writes_it(orjson_module, value):
    starting = json_codec.starting_line_functions()
    ours = orjson_answer(starting.dumps, value, None, starting.newline)
    assert ours == orjson_answer(orjson_module.dumps, value, None, orjson_module.OPT_APPEND_NEWLINE)


def test_the_starting_functions_import_no_orjson_for_a_fen_line():
    # In a fresh interpreter: this one has imported orjson long ago.
    probe = (
        "import sys; from notation import json_codec; f = json_codec.starting_line_functions(); "
        "value = f.loads(b'{\"fen\": \"8/8/8/8/8/8/8/K6k w - - 0 1\", \"variant\": \"standard\"}\\n'); "
        "f.dumps({'ok': True, 'fen': value['fen'], 'warnings': [], 'line': 1}, None, f.newline); "
        "print('orjson' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_the_line_codec_moves_to_orjson_once_a_run_is_long(orjson_module):
    codec = LineCodec()
    first = codec.load().loads
    for _ in range(STARTING_USES - 1):
        assert codec.load().loads is first
    assert codec.load().loads is orjson_module.loads
    assert codec.load().dumps is orjson_module.dumps
    assert codec.newline == orjson_module.OPT_APPEND_NEWLINE


def test_without_orjson_the_line_codec_ends_on_the_standard_library(monkeypatch):
    monkeypatch.setattr(json_codec, "orjson", None)
    codec = LineCodec()
    starting = codec.load()
    assert starting.loads(b'{"fen": "x\\u00e9"}') == {"fen": "x\u00e9"}  # handed to json_codec.loads
    with pytest.raises(json_codec.JSONDecodeError):
        starting.loads(b'{"fen": "\xff"}')
    assert starting.dumps({"a": 1.5}, None, starting.newline) == b'{"a":1.5}\n'
    for _ in range(STARTING_USES):
        codec.load()
    assert (codec.loads, codec.dumps) == (None, None)
