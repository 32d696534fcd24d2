"""``normalize --broken`` and the ``--fix-*`` repairs: the table of real-shaped games in
fixtures/pgn/repair_cases.json (every variant family), the rules of each repair module, and
the property that a truncated game reads back clean as a prefix of the game it was cut from."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples
from paths import ROOT

import notation
from notation.pgn.movetext import movetext_start
from notation.pgn.normalize import BadGamePolicy, NormalizeOptions, normalize_text
from notation.pgn.repairs import BrokenGames, Repair
from notation.pgn.result_repair import stated_result
from notation.pgn.tag_repair import fixed_date, fixed_elo, fixed_round

CASES = json.loads((ROOT / "fixtures" / "pgn" / "repair_cases.json").read_text(encoding="utf-8"))
REPAIR_CODES = {"game-truncated", "game-dropped", "result-fixed", "tag-fixed", "move-numbers-fixed"}


def _options(case: dict) -> NormalizeOptions:
    return NormalizeOptions.create(None, **case["options"])


def _warnings(report: list[dict]) -> list[str]:
    return [w["code"] for entry in report for w in entry.get("warnings", [])]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["note"])
def test_repair_cases(case):
    out, summary, report = normalize_text(case["input"], _options(case))
    assert out == case["output"]
    assert _warnings(report) == case["warnings"]
    assert not [e for entry in report for e in entry.get("errors", [])]  # what was written is clean
    assert summary.rejected == (1 if "game-dropped" in case["warnings"] else 0)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["note"])
def test_repaired_games_need_no_second_repair(case):
    out, summary, report = normalize_text(case["output"], _options(case))
    assert out == case["output"]
    assert not REPAIR_CODES & set(_warnings(report))


_TRUNCATED = [case for case in CASES if case["options"] == {"broken": "truncate"} and case["warnings"]]


@pytest.mark.parametrize("case", _TRUNCATED, ids=lambda c: c["note"])
@pytest.mark.parametrize("then", [{"moves": "uci"}, {"moves": "lan"}, {"export": "full"},
                                  {"repairs": ["move-numbers"]}, {"repairs": ["results", "move-numbers"]}],
                         ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_edits_after_the_cuts_land_where_they_would_on_the_cut_game(case, then):
    """Cutting and rewriting in one run writes what cutting, then rewriting the cut game, writes:
    the rewrite's offsets after a cut variation are mapped back to the text read."""
    at_once, _, report = normalize_text(case["input"], NormalizeOptions.create(None, broken="truncate", **then))
    in_turn, _, _ = normalize_text(case["output"], NormalizeOptions.create(None, **then))
    assert at_once == in_turn
    assert not [e for entry in report for e in entry.get("errors", [])]


def test_every_family_and_repair_has_cases():
    families = {case["family"] for case in CASES}
    assert families >= {"standard", "crazyhouse", "atomic", "three-check", "kingofthehill", "antichess",
                        "racingkings", "xiangqi", "tablut"}
    codes = {code for case in CASES for code in case["warnings"]}
    assert codes >= REPAIR_CODES


def test_without_repairs_broken_games_are_kept_as_read_with_their_errors():
    broken = [case for case in CASES if case["options"].get("broken")]
    for case in broken:
        out, _, report = normalize_text(case["input"], NormalizeOptions.create(None, moves="check"))
        keep, _, _ = normalize_text(case["input"], NormalizeOptions.create(None, broken="keep"))
        assert keep == out  # --broken keep reads the moves and changes nothing


def test_dropped_game_goes_to_the_rejects_with_reject_to():
    case = next(c for c in CASES if c["options"].get("broken") == "drop")
    options = NormalizeOptions.create(None, broken="drop", on_bad=BadGamePolicy.REJECT)
    results = list(notation.pgn.normalize.normalize(case["input"], options))
    assert [r.rejected for r in results] == [True]
    assert results[0].text == case["input"]  # as read, for the rejects file


def test_options_are_enums_and_travel_pickled():
    import pickle

    options = NormalizeOptions.create(None, broken="truncate", repairs=["results", "move-numbers"])
    assert options.broken is BrokenGames.TRUNCATE
    assert options.repairs == frozenset({Repair.RESULTS, Repair.MOVE_NUMBERS})
    again = pickle.loads(pickle.dumps(options))
    assert (again.broken, again.repairs) == (options.broken, options.repairs)
    with pytest.raises(ValueError):
        NormalizeOptions.create(None, repairs=["everything"])


@pytest.mark.parametrize(("value", "fixed"), [
    ("2024.1.5", "2024.01.05"), ("2024/01/05", "2024.01.05"), ("2024-01-05", "2024.01.05"),
    ("2024.?.?", "2024.??.??"), ("2024", "2024.??.??"), ("2024.03", "2024.03.??"), ("????.??.??", "????.??.??"),
    ("?", "????.??.??"), ("", "????.??.??"), ("Fri Jan 05 2024 10:00:00 GMT+0100 (CET)", "2024.01.05"),
    ("Sat, 06 Jan 2024 09:00:00 GMT", "2024.01.06"), ("2024-01-05T23:59:59Z", "2024.01.05"),
    ("2024.13.01", None), ("2024.02.32", None), ("last Tuesday", None),
])
def test_dates(value, fixed):
    assert fixed_date(value) == fixed


@pytest.mark.parametrize(("value", "fixed"), [
    ("-", "?"), ("unrated", "?"), ("Unrated", "?"), ("", "?"), ("?", "?"), ("0", "?"), (" 2400 ", "2400"),
    ("2400", "2400"), ("2400?", None),
])
def test_elo(value, fixed):
    assert fixed_elo(value) == fixed


@pytest.mark.parametrize(("value", "fixed"), [
    ("-", "-"), ("?", "?"), ("", "?"), ("1.2", "1.2"), ("Round 3", "3"), ("R3", "3"), ("Rd. 4", "4"),
    ("3.", "3"), (" 5 ", "5"), ("final", "final"),
])
def test_round(value, fixed):
    assert fixed_round(value) == fixed


@pytest.mark.parametrize(("tag", "token", "decided", "expected"), [
    ("1-0", "0-1", None, "0-1"),  # the token wins
    ("1-0", "*", None, "1-0"),  # a decided tag wins over *
    ("*", "1/2-1/2", None, "1/2-1/2"),
    (None, "1-0", None, "1-0"),
    ("0-1", None, None, "0-1"),
    ("?", None, None, "*"),
    (None, None, None, None),
    ("white wins", "1-0", None, "1-0"),
    ("1-0", "1-0", "0-1", "0-1"),  # the decided end wins over both
])
def test_stated_result(tag, token, decided, expected):
    from notation.game.outcome import EndReason, Outcome

    outcome = None if decided is None else Outcome("b", EndReason.CHECKMATE)
    stated = stated_result(tag, token, outcome)
    assert (stated.result if stated is not None else None) == expected


# -- truncation: what is written reads back clean, a prefix of the game it was cut from ----
_GAMES = [case["input"] for case in CASES if case["family"] == "standard" and not case["options"].get("broken")]
_DAMAGE = ["Qxz9", "Ke9", "hello", ")"]  # no reading makes a legal move of these


def _offset(text: str, line: int, column: int) -> int:
    lines = text.splitlines(keepends=True)
    return sum(len(before) for before in lines[:line - 1]) + column - 1


@settings(max_examples=examples(40))
@given(st.sampled_from(_GAMES), st.integers(min_value=0, max_value=200), st.sampled_from(_DAMAGE),
       st.booleans())
def test_truncated_games_read_back_clean_and_are_prefixes(text, where, damage, in_variation):
    (game,) = notation.read_games(text)
    moves = list(game.moves)
    index = where % len(moves)
    offset = _offset(text, moves[index].line, moves[index].column)
    damaged = text[:offset] + (f"({damage})" if in_variation else damage) + " " + text[offset:]
    out, _, report = normalize_text(damaged, NormalizeOptions.create(None, broken="truncate"))
    assert not [e for entry in report for e in entry.get("errors", [])]
    assert "game-truncated" in _warnings(report)
    (cut,) = notation.read_games(out)
    assert cut.ok
    kept = [move.san for move in cut.moves]
    if in_variation and index > 0 and damage != ")":  # a bad move replacing a move: that variation is cut
        assert kept == [move.san for move in moves]  # the main line whole, its result as it was
        assert cut.tags.get("Result") == game.tags.get("Result")
        assert out.replace("({variation cut here: " + _reason(damage), "(" + damage, 1).startswith(damaged[:offset])
        return
    assert cut.tags.get("Result", "*") == "*"  # no tag added where the moves share its line
    assert kept == [move.san for move in moves][:index]  # every move before the damage, no other
    before = out[movetext_start(out):out.index("{game cut here")].rstrip()
    assert damaged[movetext_start(damaged):].startswith(before)  # the movetext before the cut as it was


def _reason(damage: str) -> str:
    """The start of the comment a variation holding only ``damage`` is cut to."""
    return ("bad-move-syntax" if damage in ("Qxz9", "hello") else "illegal-move") + " at ply "


@pytest.mark.parametrize(("movetext", "white_first", "fullmove", "renumbered"), [
    ("1. e4 e5 2. Nf3", True, 1, "1. e4 e5 2. Nf3"),
    ("3. e4 e5 3. Nf3", True, 1, "1. e4 e5 2. Nf3"),
    ("1. e4 {c} e5", True, 1, "1. e4 {c} 1... e5"),
    ("1. e4 $1 e5", True, 1, "1. e4 $1 e5"),  # a NAG is no comment: Black's number is not needed
    ("1... e5 2. Nf3", False, 7, "7... e5 8. Nf3"),
    ("1… e5 2. Nf3", False, 7, "7… e5 8. Nf3"),  # the dots as written, the digits mended
    ("e5 Nf3", False, 7, "7... e5 8. Nf3"),
    ("1. e4 (1. d4 d5) e5", True, 1, "1. e4 (1. d4 d5) 1... e5"),
    ("12.e4 12.e5", True, 1, "1.e4 1...e5"),
])
def test_renumber(movetext, white_first, fullmove, renumbered):
    from notation.pgn.move_numbers import renumber

    text = f'[FEN "{_START[white_first]}"]\n\n{movetext} *\n'
    (read,) = notation.read_games(text)
    assert read.ok, read.problems
    begin = movetext_start(text)
    offsets = {_offset(text, move.line, move.column): move.ply for move in _every_move(read.moves)}
    out = text
    for edit in sorted(renumber(text, begin, offsets, white_first, fullmove), reverse=True):
        out = out[:edit.start] + edit.new + out[edit.end:]
    assert out[begin:].removesuffix(" *\n") == renumbered


_START = {True: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
          False: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 7"}


def _every_move(moves):
    for move in moves:
        yield move
        for variation in move.variations:
            yield from _every_move(variation)
