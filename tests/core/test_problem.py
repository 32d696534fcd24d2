"""``Problem`` behaves the same in both builds: fields kept, equal by what it says, and
read-only (its fields are ``Final``: compiled, a write raises ``AttributeError``).
"""

from __future__ import annotations

import pickle

import pytest
from test_compiled_build import compiled

from notation import errors
from notation.problem import Problem


def test_errors_re_exports_the_one_problem_class():
    assert errors.Problem is Problem


def test_fields_are_kept_and_extra_defaults_to_a_new_dict():
    problem = Problem("bad-castling-rights", "no rook on h1", field="castling", column=3, extra={"square": "h1"})
    assert (problem.code, problem.message, problem.field, problem.column) == (
        "bad-castling-rights", "no rook on h1", "castling", 3,
    )
    assert problem.extra == {"square": "h1"}
    first, second = Problem("empty", "the board is empty"), Problem("empty", "the board is empty")
    assert first.field is None and first.column is None and first.extra == {}
    assert first.extra is not second.extra


@pytest.mark.skipif(not compiled("notation.problem"), reason="interpreted, Final fields are read-only to mypy only")
@pytest.mark.parametrize("name", ["code", "message", "field", "column", "extra"])
def test_no_field_can_be_changed_in_the_compiled_build(name):
    problem = Problem("empty", "the board is empty", field="placement")
    with pytest.raises(AttributeError):
        setattr(problem, name, "changed")
    assert problem == Problem("empty", "the board is empty", field="placement")


def test_equality_and_hash_ignore_extra():
    with_extra = Problem("fen-syntax", "expected w or b", field="turn", column=45, extra={"expected": "w or b"})
    without = Problem("fen-syntax", "expected w or b", field="turn", column=45)
    assert with_extra == without and hash(with_extra) == hash(without)
    assert with_extra != Problem("fen-syntax", "expected w or b", field="turn", column=44)
    assert with_extra != Problem("fen-syntax", "expected w or b", field="castling", column=45)
    assert with_extra != ("fen-syntax", "expected w or b", "turn", 45)
    assert len({with_extra, without}) == 1


def test_repr_names_every_field_and_a_copy_keeps_extra():
    problem = Problem("fen-syntax", "expected w or b", field="turn", column=45, extra={"expected": "w or b"})
    assert repr(problem) == (
        "Problem(code='fen-syntax', message='expected w or b', field='turn', column=45, extra={'expected': 'w or b'})"
    )
    back = pickle.loads(pickle.dumps(problem))
    assert back == problem and back.extra == {"expected": "w or b"}


def test_json_and_human_forms():
    problem = Problem("fen-syntax", "expected w or b", field="turn", column=45, extra={"expected": "w or b"})
    assert problem.to_dict() == {
        "code": "fen-syntax", "message": "expected w or b", "field": "turn", "column": 45, "expected": "w or b",
    }
    assert Problem("empty", "the board is empty").to_dict() == {"code": "empty", "message": "the board is empty"}
    assert problem.describe(prefix="line 3") == "line 3: fen-syntax: expected w or b (field turn, column 45)"
    assert Problem("empty", "the board is empty").describe() == "empty: the board is empty"


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        (("rank 7 has 0 squares; it must have 8", "placement", 10), {}),
        (("rank 7 has 0 squares; it must have 8", "placement", 10, None), {}),
        (("rank 7 has 0 squares; it must have 8",), {"field": "placement", "column": 10}),
        ((), {"message": "rank 7 has 0 squares; it must have 8", "field": "placement", "column": 10}),
    ],
)
def test_a_syntax_error_is_its_message_however_its_fields_are_passed(args, kwargs):
    """The reader passes the fields by position (cheaper); callers may name them: either
    way ``args`` and ``str()`` are the message alone, as ``Exception`` keeps it."""
    error = errors.FenSyntaxError(*args, **kwargs)
    assert error.args == ("rank 7 has 0 squares; it must have 8",)
    assert str(error) == "rank 7 has 0 squares; it must have 8"
    assert (error.field, error.column, error.expected) == ("placement", 10, None)
    assert error.problems == [Problem("fen-syntax", str(error), field="placement", column=10)]
    back = pickle.loads(pickle.dumps(error))
    assert back.args == error.args and back.problems == error.problems
