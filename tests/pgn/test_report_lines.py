"""The report's JSON lines: a ``--jobs`` worker's line, renumbered by the parent, is the
line one process writes for the same game."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from notation.pgn.report_lines import entry_line, input_prefix, renumbered

# Text as the report holds it: any code point, lone surrogates too (bytes that were not
# UTF-8, kept by surrogateescape), quotes, backslashes, commas and line separators.
TEXT = st.text(st.characters(blacklist_categories=()), max_size=12)
PROBLEM = st.builds(lambda code, message, ply: {"code": code, "message": message, "ply": ply},
                    TEXT, TEXT, st.integers(0, 500))
# Built in the order ``GameResult.report`` builds them: the game first.
ENTRY = st.builds(lambda game, line, errors, warnings: {"game": game, "line": line, "errors": errors,
                                                         "warnings": warnings},
                  st.integers(1, 10**7), st.integers(1, 10**9), st.lists(PROBLEM, max_size=2),
                  st.lists(PROBLEM, max_size=2))


@settings(max_examples=examples(300))
@given(entry=ENTRY, offset=st.integers(0, 10**9), input_name=st.none() | TEXT)
def test_a_renumbered_line_is_the_line_written_for_the_whole_input(entry, offset, input_name):
    whole = {**entry, "game": entry["game"] + offset}
    line = renumbered(entry_line(entry), offset, input_prefix(input_name))
    assert line == entry_line(whole, input_name)
    assert json.loads(line)["game"] == entry["game"] + offset


def test_an_entry_line_names_the_input_first_and_ends_the_line():
    entry = {"game": 3, "line": 41, "errors": [], "warnings": [{"code": "pgn-no-tags", "message": "é, \"x\""}]}
    line = entry_line(entry, "base, \"1\".pgn")
    assert line.endswith("}\n") and line.count("\n") == 1
    assert list(json.loads(line)) == ["input", "game", "line", "errors", "warnings"]
    assert renumbered(entry_line(entry), 10, "") == entry_line({**entry, "game": 13})


@pytest.mark.parametrize("line", ['{"line": 4, "game": 1}\n', '{"game": 7}\n', "", "[1, 2]\n"])
def test_a_line_not_starting_with_its_game_is_refused(line):
    with pytest.raises(ValueError, match="not a report line"):
        renumbered(line, 5, "")
