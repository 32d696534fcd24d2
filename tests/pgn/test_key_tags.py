"""The tags that decide how a game is read (``Variant``, ``FEN``, ``SetUp``, ``Result``) with
their names in another case, as some programs write them: every reader takes them as the
standard tags (``check``, ``normalize``, ``read_games``, ``select``, the duplicate
finder), and ``check`` and ``normalize`` report ``miscased-tag`` (fixtures/pgn/key_tag_cases.json)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from paths import ROOT

from notation.move_options import MoveNotation
from notation.pgn.duplicates import DuplicateSettings, DuplicatesPolicy
from notation.pgn.gameread import read_games
from notation.pgn.key_tags import key_tag_name
from notation.pgn.normalize import MovesOption, NormalizeOptions, normalize_text

CASES = json.loads((ROOT / "fixtures" / "pgn" / "key_tag_cases.json").read_text(encoding="utf-8"))
IDS = [case["name"].split(":")[0] for case in CASES]


def _run(args: list[str], stdin: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "notation", *args], input=stdin.encode(), capture_output=True,
                          env=env, timeout=120)


def _standard_spelling(game: str, written: list[str]) -> str:
    for name in written:
        game = game.replace(f"[{name} ", f"[{key_tag_name(name)} ")
    return game


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_check_reads_the_variant_and_start_and_warns_of_each_name(case):
    done = _run(["check", "-", "--format", "json"], case["game"])
    assert done.returncode == 0, done.stdout
    answer = json.loads(done.stdout)
    assert [p["code"] for p in answer["problems"]] == ["miscased-tag"] * len(case["miscased"])
    assert answer["summary"]["plies"] == case["plies"] and answer["summary"]["errors"] == 0


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_normalize_reads_the_moves_in_the_game_s_variant_and_warns_of_each_name(case):
    options = NormalizeOptions.create(moves=MovesOption(MoveNotation.UCI))
    out, summary, report = normalize_text(case["game"], options)
    assert case["uci"] in out
    miscased = case.get("normalize_miscased", case["miscased"])  # a SetUp tag: respelt by normalize itself
    assert summary.problems == {"miscased-tag": len(miscased)}
    warned = [w["message"].split()[1] for entry in report for w in entry.get("warnings", [])]
    assert warned == miscased


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_read_games_plays_the_game_in_its_variant(case):
    [game] = list(read_games(case["game"]))
    assert game.variant is not None and game.variant.key == case["variant"]
    assert len(game.moves) == case["plies"] and game.ok


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_select_by_variant_finds_the_game(case):
    done = _run(["select", "-", "--variant", case["variant"]], case["game"])
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode() == case["game"]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_the_same_game_with_its_names_standard_is_a_copy(case):
    text = case["game"] + "\n" + _standard_spelling(case["game"], case["miscased"])
    settings = DuplicateSettings(DuplicatesPolicy.MARK)
    _, summary, _ = normalize_text(text, NormalizeOptions.create(duplicates=settings))
    assert summary.problems["duplicate-game"] == 1
