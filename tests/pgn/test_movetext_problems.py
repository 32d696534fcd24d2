"""Moves checked: the problem table, read by `normalize --moves check` and by `notation check`
alike, and what the budget does to a game."""

from __future__ import annotations

import json
import re

import pytest
from paths import ROOT

from notation.check.games import check_pgn_text
from notation.check.judge import PositionJudge
from notation.check.problem import CHECK_CODES, ProblemList
from notation.pgn.movetext import Budget, movetext_start
from notation.pgn.normalize import BadGamePolicy, MovesOption, NormalizeOptions, normalize_text
from notation.variants import DEFAULT_REGISTRY

FIXTURES = ROOT / "fixtures" / "pgn" / "movetext"
CASES = json.loads((FIXTURES / "problems.json").read_text(encoding="utf-8"))["cases"]
SPLITTER_CODES = {"pgn-missing-result"}


def _text(case) -> str:
    return "\n".join(case["pgn"]) + "\n"


def _normalize_problems(text: str, **options) -> tuple[str, list[str], list[dict]]:
    out, _, report = normalize_text(text, NormalizeOptions.create(moves=MovesOption.CHECK, **options))
    found = []
    details = []
    for entry in report:
        for kind in ("errors", "warnings"):
            for problem in entry.get(kind, []):
                if problem["code"] in SPLITTER_CODES:
                    continue
                line = f'{entry["line"]}:{problem["column"]} {kind[:-1]} {problem["code"]}'
                if problem.get("ply") is not None:
                    line += f' ply {problem["ply"]}'
                if problem.get("count"):
                    line += f' count {problem["count"]}'
                found.append(line)
                details.append(problem)
    found.sort(key=lambda s: tuple(int(n) for n in s.split()[0].split(":")))
    return out, found, details


def _check_problems(text: str) -> list[str]:
    found = []
    problems = ProblemList("game.pgn", found.append)
    check_pgn_text([text], PositionJudge(DEFAULT_REGISTRY), DEFAULT_REGISTRY.default, problems)
    problems.finish()
    return [f"{p.line}:{p.column} {p.severity.value} {p.code}" for p in found if p.code not in SPLITTER_CODES]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_normalize_reports_the_table(case):
    text = _text(case)
    out, found, details = _normalize_problems(text)
    assert found == case["problems"]
    assert out[movetext_start(out):] == text[movetext_start(text):]  # --moves check changes no move
    if "fen" in case:
        assert details[0]["fen"] == case["fen"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_check_reports_the_same_places(case):
    expected = [" ".join(line.split()[:3]) for line in case["problems"]]
    assert _check_problems(_text(case)) == expected


def test_every_code_of_the_table_is_a_check_code():
    codes = {line.split()[2] for case in CASES for line in case["problems"]}
    assert codes <= set(CHECK_CODES)
    for code in ("illegal-move", "ambiguous-move", "bad-move-syntax", "game-over", "move-after-end",
                 "pgn-unbalanced-variation", "pgn-misplaced-variation", "wrong-result", "castling-with-zeros",
                 "castling-lower-case", "promotion-without-equals", "promotion-lower-case", "drop-with-star",
                 "over-disambiguated", "missing-capture-mark", "false-capture-mark", "wrong-check-mark",
                 "long-algebraic", "uci-in-san", "king-takes-rook", "en-passant-mark", "false-en-passant-mark",
                 "unknown-start", "lenient-wxf-traverse"):
        assert code in codes, code


def test_an_error_names_the_move_the_ply_and_the_position_before_it():
    text = '[Event "x"]\n[Result "*"]\n\n1. e4 e5 2. Qxh1 *\n'
    found = []
    problems = ProblemList("game.pgn", found.append)
    check_pgn_text([text], PositionJudge(DEFAULT_REGISTRY), DEFAULT_REGISTRY.default, problems)
    problems.finish()
    assert [p.message for p in found] == [
        "'Qxh1' is not a legal move here [ply 3, position rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2]"
    ]
    _, _, details = _normalize_problems(text)
    assert details == [{
        "code": "illegal-move", "message": "'Qxh1' is not a legal move here", "column": 13, "ply": 3, "move": "Qxh1",
        "fen": "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
    }]


def test_an_ambiguous_move_lists_its_candidates():
    case = next(c for c in CASES if c["name"] == "an ambiguous move")
    _, _, details = _normalize_problems(_text(case))
    assert details[0]["candidates"] == ["Nab3", "Ncb3"]


def test_a_warning_met_again_is_counted_once_in_check_output():
    text = '[Event "x"]\n[Result "*"]\n\n1. e2-e4 e7-e5 2. Ng1-f3 *\n'
    found = []
    problems = ProblemList("game.pgn", found.append)
    check_pgn_text([text], PositionJudge(DEFAULT_REGISTRY), DEFAULT_REGISTRY.default, problems)
    problems.finish()
    assert [(p.code, p.message) for p in found] == [
        ("long-algebraic", "long algebraic notation read as SAN in 'e2-e4' [ply 1, 2 more in this game]"),
    ]


@pytest.mark.parametrize("budget, code", [(Budget(max_depth=1), "pgn-movetext-too-deep"),
                                          (Budget(max_tokens=5), "pgn-movetext-too-long")])
def test_a_game_over_budget_is_reported_and_kept_as_read(budget, code):
    text = '[Event "x"]\n[Result "*"]\n\n1. e4 e5 (1... c5 (1... c6)) 2. Nf3 *\n'
    for moves in (MovesOption.CHECK, MovesOption.UCI):
        out, _, report = normalize_text(text, NormalizeOptions.create(moves=moves, budget=budget))
        assert out == text
        assert [p["code"] for entry in report for p in entry["errors"]] == [code]


def test_the_moves_before_the_budget_ran_out_are_checked():
    text = '[Event "x"]\n[Result "*"]\n\n1. e4 Ke9 (1... c5 (1... c6)) 2. Nf3 *\n'
    _, _, report = normalize_text(text, NormalizeOptions.create(moves="check", budget=Budget(max_depth=1)))
    assert [p["code"] for entry in report for p in entry["errors"]] == ["bad-move-syntax", "pgn-movetext-too-deep"]


def test_a_game_with_a_bad_move_goes_to_the_rejects():
    good = '[Event "good"]\n[Result "*"]\n\n1. e4 *\n\n'
    bad = '[Event "bad"]\n[Result "*"]\n\n1. e4 e5 2. Ke3 *\n\n'
    options = NormalizeOptions.create(moves="san", on_bad=BadGamePolicy.REJECT)
    out, summary, _ = normalize_text(good + bad + good, options)
    assert out == good + good
    assert summary.rejected == 1
    # with --moves keep nothing is read: the bad game passes as before
    out, summary, _ = normalize_text(good + bad, NormalizeOptions.create(on_bad=BadGamePolicy.REJECT))
    assert out == good + bad and summary.rejected == 0


def test_moves_are_not_read_in_text_outside_any_game():
    text = 'some notes before the games\n\n[Event "x"]\n[Result "*"]\n\n1. e4 *\n'
    _, _, report = normalize_text(text, NormalizeOptions.create(moves="check"))
    assert [p["code"] for entry in report for p in entry["errors"] + entry.get("warnings", [])] == ["pgn-stray-text"]
    assert [line.split()[2] for line in _check_problems(text)] == ["pgn-stray-text"]


def test_a_game_without_tags_is_read_from_the_default_variant():
    _, found, _ = _normalize_problems("1. e4 e5 2. Ke3 *\n")
    assert found == ["1:1 warning pgn-no-tags", "1:13 error illegal-move ply 3"]


def test_a_game_whose_set_up_is_illegal_has_its_moves_unchecked_and_says_so_once():
    text = '[Event "x"]\n[Result "*"]\n[SetUp "1"]\n[FEN "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1"]\n\n1. Ke9 *\n'
    _, _, report = normalize_text(text, NormalizeOptions.create(moves="check"))
    assert [p["code"] for entry in report for p in entry["errors"]] == ["opposite-check"]
    assert [p["code"] for entry in report for p in entry.get("warnings", [])] == ["unknown-start"]
    assert [line.split()[2] for line in _check_problems(text)] == ["opposite-check", "unknown-start"]


class _BrokenStarts:
    """Start positions that fail as a bug would: the check's own code, compiled or not, calls
    this object, so the failure needs no patching of a module's functions (which a compiled
    module does not look up again)."""

    def start(self, *args, **kwargs):
        raise KeyError("boom")


def test_an_unexpected_failure_on_one_game_is_that_games_problem():
    text = '[Event "a"]\n[Result "*"]\n\n1. e4 *\n\n[Event "b"]\n[Result "*"]\n[FEN "x"]\n\n*\n'
    found = []
    problems = ProblemList("game.pgn", found.append)
    judge = PositionJudge(DEFAULT_REGISTRY)
    judge.starts = _BrokenStarts()
    check_pgn_text([text], judge, DEFAULT_REGISTRY.default, problems)
    problems.finish()
    assert [(p.line, p.code) for p in found] == [
        (1, "internal-error"), (6, "internal-error"), (8, "missing-setup"), (8, "fen-syntax"),
    ]
    # the exception is named (the compiled check refuses the stand-in's type before calling it)
    assert re.search(r"reading this game's moves failed: (KeyError|TypeError): .* \(please report it\)$",
                     found[0].message)
