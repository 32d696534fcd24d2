"""``Problem`` behaves the same in both builds: fields kept, frozen, equal by what it says.

``Problem.__init__`` writes its fields one way when compiled and another when
interpreted (``notation.problem.COMPILED`` chooses, and must say which build this is).
"""

from __future__ import annotations

import dataclasses
import os

import pytest
from test_compiled_build import compiled

from notation import errors
from notation.problem import COMPILED, Problem


def test_compiled_says_which_build_this_is():
    assert COMPILED is compiled("notation.problem")
    if os.environ.get("NOTATION_PURE") == "1":
        assert not COMPILED


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


@pytest.mark.parametrize("name", ["code", "message", "field", "column", "extra"])
def test_no_field_can_be_changed(name):
    problem = Problem("empty", "the board is empty", field="placement")
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(problem, name, "changed")
    assert problem == Problem("empty", "the board is empty", field="placement")


def test_equality_and_hash_ignore_extra_and_replace_makes_a_copy():
    with_extra = Problem("fen-syntax", "expected w or b", field="turn", column=45, extra={"expected": "w or b"})
    without = Problem("fen-syntax", "expected w or b", field="turn", column=45)
    assert with_extra == without and hash(with_extra) == hash(without)
    assert with_extra != Problem("fen-syntax", "expected w or b", field="turn", column=44)
    moved = dataclasses.replace(with_extra, column=46)
    assert moved.column == 46 and moved.extra == {"expected": "w or b"} and with_extra.column == 45
    assert [f.name for f in dataclasses.fields(Problem)] == ["code", "message", "field", "column", "extra"]


def test_json_and_human_forms():
    problem = Problem("fen-syntax", "expected w or b", field="turn", column=45, extra={"expected": "w or b"})
    assert problem.to_dict() == {
        "code": "fen-syntax", "message": "expected w or b", "field": "turn", "column": 45, "expected": "w or b",
    }
    assert Problem("empty", "the board is empty").to_dict() == {"code": "empty", "message": "the board is empty"}
    assert problem.describe(prefix="line 3") == "line 3: fen-syntax: expected w or b (field turn, column 45)"
    assert Problem("empty", "the board is empty").describe() == "empty: the board is empty"
