"""Where a game begins and ends (docs/pgn.md "Game boundaries"): a game without tags, a
result that ends its game's movetext (the next game on the next line or the same one), tags
and moves on one line, a blank line inside the tags, a byte order mark where files were
joined, a result glued to the next tags, results written with other dashes. Each shape from
fixtures/pgn/boundary_cases.json is split alike by the fast path and the state machine,
whatever pieces the text comes in; `check` finds each problem where it is, in the library
and in the command; `normalize --moves uci` rewrites the games it can read."""

from __future__ import annotations

import json
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples
from paths import ROOT

import notation
from notation.check.games import check_pgn_text
from notation.check.judge import PositionJudge
from notation.check.problem import CHECK_CODES, ProblemList
from notation.pgn.cuts import find_cut
from notation.pgn.splitter import _blank_line_then_tag, iter_games
from notation.pgn.state_machine import iter_games_slow
from notation.pgn.tags import TAG_START_CHARS
from notation.variants import DEFAULT_REGISTRY

FIXTURES = ROOT / "fixtures" / "pgn"
CASES = json.loads((FIXTURES / "boundary_cases.json").read_text(encoding="utf-8"))
IDS = [case["name"] for case in CASES]


def _key(games) -> list[tuple]:
    return [
        (g.number, g.part, g.start_line, g.start_column, g.text,
         [(p.code, p.line, p.column, p.message) for p in g.problems],
         [(t.name, t.value, t.line, t.column, t.start, t.line_offset) for t in g.tags])
        for g in games
    ]


def _check(text: str) -> list[str]:
    found = []
    problems = ProblemList("game.pgn", found.append)
    check_pgn_text([text], PositionJudge(DEFAULT_REGISTRY), DEFAULT_REGISTRY.default, problems)
    problems.finish()
    return [f"{p.line}:{p.column} {p.severity.value} {p.code}" for p in found]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_the_fast_path_and_the_state_machine_split_alike_whatever_the_pieces(case):
    text = case["pgn"]
    slow = _key(iter_games_slow(text))
    assert _key(iter_games(text)) == slow
    assert "".join(g.text for g in iter_games(text)) == text
    for size in (1, 2, 5, 13):
        assert _key(iter_games([text[i:i + size] for i in range(0, len(text), size)])) == slow


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_check_finds_each_problem_where_it_is(case):
    assert _check(case["pgn"]) == case["problems"]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_read_games_places_the_problems_as_check_does(case):
    found = []
    for game in notation.read_games(case["pgn"]):
        found += [f"{p.line}:{p.column or 1} {p.code}" for p in game.damage]
        if all(p.code != "pgn-stray-text" for p in game.damage):  # the library reads stray text too, as moves
            found += [f"{p.line}:{p.column} {p.code}" for p in game.problems]
    expected = [" ".join(line.split()[::2]) for line in case["problems"]]
    assert sorted(found) == sorted(expected)


def test_every_code_of_the_table_is_a_check_code():
    codes = {line.split()[2] for case in CASES for line in case["problems"]}
    assert {"pgn-no-tags", "result-spelling", "pgn-bom", "pgn-missing-blank-line"} <= codes <= set(CHECK_CODES)


@pytest.mark.slow
def test_the_commands_read_every_shape_as_a_user_runs_them(tmp_path):
    from installed import installed_script

    script = installed_script("notation")
    for case in CASES:
        path = tmp_path / "games.pgn"
        path.write_bytes(case["pgn"].encode("utf-8"))
        checked = subprocess.run([script, "check", str(path), "--format", "json"], capture_output=True, text=True,
                                 timeout=120)
        problems = json.loads(checked.stdout)["problems"]
        found = [f'{p["line"]}:{p["column"]} {p["severity"]} {p["code"]}' for p in problems]
        assert found == case["problems"], case["name"]
        assert checked.returncode == (1 if any(" error " in line for line in found) else 0), case["name"]
        normalized = subprocess.run([script, "normalize", str(path), "--moves", "uci"], capture_output=True,
                                    timeout=120)
        assert normalized.stdout.decode("utf-8") == case["uci"], case["name"]


def test_a_result_is_written_as_the_standard_spells_it():
    (case,) = [c for c in CASES if "dashes" in c["name"]]
    assert "\u2013" not in case["uci"] and "\u00bd" not in case["uci"]
    assert [line for line in case["uci"].splitlines() if line.startswith("1.")] == [
        "1. e2e4 e7e5 1-0", "1. d2d4 d7d5 1/2-1/2", "1. c2c4 e7e5 0-1"]


def test_castling_written_with_zeros_keeps_a_game_on_the_fast_path():
    """``0-0`` and ``0-0-0`` are no results to the state machine, so the fast path takes
    the game; ``1-0`` or ``0-1`` before the final result still sends it to the state machine."""
    from notation.pgn.splitter import _final_result_alone

    assert _final_result_alone("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 Nf6 5. Qe2 0-0-0 1-0\n")
    assert _final_result_alone("1. e4 e5 2. 0-0-0 *")
    assert not _final_result_alone("1. e4 e5 2. 0-0 0-1 3. d4 *")
    assert not _final_result_alone("1. e4 1-0 2. d4 *")
    assert not _final_result_alone("1. e4 e5 1/2-1/2 2. d4 *")


def test_a_cut_is_never_made_inside_a_tag_section_with_a_blank_line():
    tags = '[Event "a"]\n[Site "b"]\n\n[White "c"]\n\n1. e4 *\n\n[Event "d"]\n\n1. d4 *\n'
    cut = find_cut(tags, 0, True)
    assert tags[cut:].startswith('[Event "d"]')
    assert find_cut('[Event "a"] 1. e4 *\n\n[Event "b"]\n\n1. d4 *\n', 0, True) == -1  # a tag line before: not sure
    assert find_cut('\ufeff[Event "a"]\n\n[Site "b"]\n\n1. d4 *\n', 0, True) == -1


_SHAPES = st.sampled_from([
    '[Event "a"]\n[Site "b"]\n\n', '[Event "a"]\n\n', "\n", "1. e4 e5 * ", "1. d4 1-0", "1. c4 c5 0\u20131\n",
    "(1. e4 1/2-1/2) ", "{a 1-0 comment} ", "\ufeff", '[Variant "Antichess"] 1. e3 *\n', "stray words\n",
    "; line comment 1-0\n", "2. Nf3 \u00bd-\u00bd[Event \"c\"]\n", "{open\n", "}\n", "\r\n", "*\r",
    "\n\n1. e4 ", "\n \n  1... e5\n", "1. d4\n", "4. 0-0 0-0-0 ", "0-0-1-0 ", "10-0 ",
])


@given(st.lists(_SHAPES, max_size=12), st.integers(1, 17))
def test_any_mix_of_shapes_splits_alike_and_keeps_every_character(shapes, size):
    text = "".join(shapes)
    slow = _key(iter_games_slow(text))
    assert _key(iter_games(text)) == slow
    assert _key(iter_games([text[i:i + size] for i in range(0, len(text), size)])) == slow
    assert "".join(g.text for g in iter_games(text)) == text
    for game in iter_games(text):  # every game opened mid-line starts right after its line's text so far
        if game.start_column > 1:
            line = text.splitlines(True)[game.start_line - 1] if "\r" not in text else None
            if line is not None:
                assert line[game.start_column - 1:].startswith(game.text.splitlines(True)[0].rstrip("\r\n")[:1])


def test_games_sharing_a_line_are_each_read_in_their_own_part_of_it(monkeypatch):
    """A line of many result-ended games is read once, not once per game that starts on
    it: the look for moves sees each game's own text only (work linear in the line). The
    interpreted build only: a compiled module's calls cannot be counted from here."""
    from test_compiled_build import compiled

    import notation.pgn.state_machine as machine

    if compiled("notation.pgn.state_machine"):
        pytest.skip("the compiled module calls _holds_moves directly")
    seen = []
    real = machine._holds_moves
    monkeypatch.setattr(machine, "_holds_moves", lambda text: seen.append(len(text)) or real(text))
    line = "1. e4 * " * 2_000 + "\n"
    games = list(iter_games_slow(line))
    assert len(games) == 2_000
    assert sum(seen) <= 2 * len(line)


def _three_character_search(text: str, start: int) -> int:
    """The search the line walk replaced: ``"\\n\\n["``, passing over one whose ``[`` is
    followed by a character no tag name starts with."""
    found = text.find("\n\n[", start)
    while found >= 0 and found + 3 < len(text) and text[found + 3] not in TAG_START_CHARS:
        found = text.find("\n\n[", found + 1)
    return found


@settings(max_examples=examples(400))
@given(st.lists(st.sampled_from(["\n", "[", "E", "%", " ", "{ [%clk 0:03:00] }", "1. e4", "\n\n[", "\n\n\n[E"]),
                max_size=30), st.integers(0, 40))
def test_the_boundary_search_finds_what_a_search_for_its_characters_finds(pieces, start):
    text = "".join(pieces)
    assert _blank_line_then_tag(text, start) == _three_character_search(text, start)
