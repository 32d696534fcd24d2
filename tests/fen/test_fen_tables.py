"""Table tests: every example of the producers' documentation and the CQLi manual, in and out of every dialect."""

from __future__ import annotations

import pytest
from fen_cases import load_cases, options_from_spec

from notation import FenSyntaxError, read_fen, write_fen

CONVERSIONS = load_cases("conversions.json")
ERRORS = load_cases("reader_errors.json")


@pytest.mark.parametrize("case", CONVERSIONS, ids=[c["name"] for c in CONVERSIONS])
def test_reader_reports_the_dialect_it_saw(case):
    detected = read_fen(case["fen"], case["variant"]).dialect.to_dict()
    for key, expected in case["detected"].items():
        assert detected[key] == expected, key


@pytest.mark.parametrize(
    "case,spec",
    [(c, spec) for c in CONVERSIONS for spec in c["outputs"]],
    ids=[f"{c['name']}|{spec}" for c in CONVERSIONS for spec in c["outputs"]],
)
def test_each_dialect_into_each_other(case, spec):
    read = read_fen(case["fen"], case["variant"])
    written = write_fen(read.setup, read.variant, options_from_spec(spec))
    assert written.fen == case["outputs"][spec]
    assert written.warnings == []
    # What we write we read back as the same position.
    again = read_fen(written.fen, case["variant"])
    assert write_fen(again.setup, again.variant, options_from_spec(spec)).fen == written.fen


def test_the_three_crazyhouse_forms_are_one_position():
    forms = [c for c in CONVERSIONS if c["name"].startswith("CQLi crazyhouse")]
    setups = {read_fen(c["fen"], c["variant"]).setup for c in forms}
    assert len(forms) == 3 and len(setups) == 1


def test_the_two_check_counter_forms_are_one_position():
    forms = [c for c in CONVERSIONS if c["name"].startswith("CQLi three-check")]
    setups = {read_fen(c["fen"], c["variant"]).setup for c in forms}
    assert len(forms) == 2 and len(setups) == 1
    assert setups.pop().remaining_checks == (1, 3)


@pytest.mark.parametrize("case", ERRORS, ids=[f"{c['variant']}:{c['fen'][:60]}" for c in ERRORS])
def test_syntax_errors_name_field_and_column(case):
    with pytest.raises(FenSyntaxError) as caught:
        read_fen(case["fen"], case["variant"])
    error = caught.value
    assert (error.field, error.column) == (case["field"], case["column"]), error
    problem = error.problems[0].to_dict()
    assert problem["code"] == "fen-syntax"
    assert problem["field"] == case["field"] and problem["column"] == case["column"]
    assert problem["message"]
