"""Real-looking databases from lichess, chess.com, XBoard engines, FICS and Scid, each
normalised for several profiles and compared with the expected output and report."""

from __future__ import annotations

import json
import pathlib

import pytest
from paths import ROOT

from notation.pgn.games import Limits
from notation.pgn.normalize import BadGamePolicy, NormalizeOptions, normalize_text
from notation.pgn.splitter import iter_games
from notation.pgn.streams import read_text

FIXTURES = ROOT / "fixtures" / "pgn"
CASES = json.loads((FIXTURES / "normalize_cases.json").read_text(encoding="utf-8"))


def _report(path: pathlib.Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _essentials(report: list[dict]) -> list[tuple]:
    """Game, line and codes of each entry, and the messages of the PGN problems (this
    module's own); validation messages belong to the validation tables."""
    return [
        (e["game"], e["line"], [(x["code"], x.get("column"), x["message"] if x["code"].startswith("pgn-") else None)
                                for x in e.get("errors", [])], [x["code"] for x in e.get("warnings", [])])
        for e in report
    ]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['input']}-{c['profile']}")
def test_expected_output_report_and_summary(case):
    text = read_text(str(FIXTURES / case["input"]))
    out, summary, report = normalize_text(text, NormalizeOptions.create(case["profile"]))
    assert out == read_text(str(FIXTURES / case["expected"]))
    assert _essentials(report) == _essentials(_report(FIXTURES / case["report"]))
    assert summary.to_dict() == case["summary"]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['input']}-{c['profile']}")
def test_expected_output_is_stable(case):
    expected = read_text(str(FIXTURES / case["expected"]))
    again, summary, _ = normalize_text(expected, NormalizeOptions.create(case["profile"]))
    assert again == expected
    assert summary.changed == 0


def test_lichess_export_is_already_lichess():
    text = read_text(str(FIXTURES / "lichess_variants.pgn"))
    out, summary, report = normalize_text(text, NormalizeOptions.create("lichess"))
    assert out == text and summary.games == 10 and report == []


def _tag_values(text: str, name: str) -> list[str | None]:
    return [(g.tag(name).value if g.tag(name) else None) for g in iter_games(text)]


def test_fics_setup_is_respelt_and_chess960_found_from_castling_rights():
    out, _, _ = normalize_text(read_text(str(FIXTURES / "fics_setup.pgn")), NormalizeOptions.create("lichess"))
    assert _tag_values(out, "Variant") == ["Chess960", "Chess960", "Crazyhouse", "Suicide", "From Position"]
    assert _tag_values(out, "SetUp") == ["1", "1", None, None, "1"]
    assert _tag_values(out, "Setup") == [None] * 5


def test_chesscom_appended_pockets_become_rank_zero_for_lichess_with_crlf_kept():
    text = read_text(str(FIXTURES / "chesscom_crazyhouse.pgn"))
    out, _, _ = normalize_text(text, NormalizeOptions.create("lichess"))
    fens = _tag_values(out, "FEN")
    assert fens[0] == "r1bqkb1r/pppp1ppp/2n5/4p3/4P3/2N5/PPPP1PPP/R1BQKB1R/Nn w KQkq - 0 6"
    assert fens[1] == "2kr3r/ppp2Q~pp/2n5/4p3/4P3/2N5/PPP2PPP/R3KB1R/Bnp b KQ - 0 14"
    assert out.count("\r\n") == out.count("\n")


def test_writer_options_override_the_profile():
    text = read_text(str(FIXTURES / "scid_crazyhouse.pgn"))
    out, _, _ = normalize_text(text, NormalizeOptions.create("lichess", pockets="bracketed"))
    assert _tag_values(out, "FEN")[2] == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"


def test_rejected_games_leave_the_output_and_are_reported():
    text = read_text(str(FIXTURES / "malformed.pgn"))
    out, summary, report = normalize_text(text, NormalizeOptions.create("lichess", on_bad=BadGamePolicy.REJECT))
    events = _tag_values(out, "Event")
    assert "unknown variant" not in events and "two kings too many" not in events
    assert summary.rejected == 5  # unknown variant, illegal setup, kings, malformed FEN tag, duplicate FEN
    assert summary.games == 13  # the mail client's stray text after a result is one
    rejected_lines = {entry["line"] for entry in report}
    assert {36, 42, 48, 53, 59} <= rejected_lines


def test_user_alias_teaches_a_variant_name():
    text = '[Event "x"]\n[Variant "zh960"]\n\n*\n'
    out, summary, report = normalize_text(text, NormalizeOptions.create("lichess", aliases={"zh960": "crazyhouse"}))
    assert '[Variant "Crazyhouse"]' in out and not report
    _, _, report = normalize_text(text, NormalizeOptions.create("lichess"))
    assert report[0]["errors"][0]["code"] == "unknown-variant" and report[0]["line"] == 2


SET_UP_STANDARD = (
    '[Event "Study"]\n[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]\n[SetUp "1"]\n\n1. e4 *\n\n'
    '[Event "Plain"]\n\n1. e4 e5 *\n'
)


def test_lichess_names_a_set_up_standard_game_from_position():
    out, summary, _ = normalize_text(SET_UP_STANDARD, NormalizeOptions.create("lichess"))
    assert _tag_values(out, "Variant") == ["From Position", None]
    assert out.startswith('[Event "Study"]\n[Variant "From Position"]\n[FEN "4k3/')
    assert summary.changed == 1


def test_other_profiles_leave_a_set_up_standard_game_untagged():
    for profile in ("python-chess", "xboard", "scid"):
        out, summary, _ = normalize_text(SET_UP_STANDARD, NormalizeOptions.create(profile))
        assert out == SET_UP_STANDARD and summary.changed == 0, profile


def test_game_with_tag_lines_past_the_limit_is_left_unchanged_and_reported():
    """Its Variant and FEN might have been among the tags not read: nothing is rewritten."""
    bad = '[Variant "ZH"]\n[Event "a"]\n[Event "b"]\n\n1. e4 *\n\n'
    text = bad + '[Variant "ZH"]\n\n1. e4 *\n'
    good = '[Variant "Crazyhouse"]\n\n1. e4 *\n'
    for policy, kept in ((BadGamePolicy.KEEP, bad + good), (BadGamePolicy.REJECT, good)):
        options = NormalizeOptions.create("lichess", on_bad=policy, limits=Limits(max_tags=2))
        out, summary, report = normalize_text(text, options)
        assert out == kept
        assert [(e["game"], e["line"], [x["code"] for x in e["errors"]]) for e in report] == [
            (1, 3, ["pgn-too-many-tags"])
        ]
        assert summary.problems == {"pgn-too-many-tags": 1}
