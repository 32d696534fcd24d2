"""A game whose FEN tag has a problem a repair mends (castling rights without their king or
rook, an en passant square no double push explains) is reported, and then its moves are
checked from the repaired position: an illegal move in it is found at its line, column and
ply by ``check``, ``normalize --moves`` and ``read_games`` alike, and a game whose moves are
all legal is rewritten by ``normalize --moves uci`` with its tags as written. Cases:
fixtures/pgn/repaired_start_cases.json."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest
from paths import ROOT

import notation

FIXTURES = ROOT / "fixtures" / "pgn"
CASES = json.loads((FIXTURES / "repaired_start_cases.json").read_text(encoding="utf-8"))


def _run(*args: str, cwd: pathlib.Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "notation", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=300, check=False)


def _expected(case: dict) -> list[tuple]:
    return [tuple(problem) for problem in case["problems"]]


def _ply(message: str) -> int | None:
    return int(message.split("[ply ", 1)[1].split(",")[0].rstrip("]")) if "[ply " in message else None


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_check_reports_the_fen_then_the_moves(case, tmp_path):
    (tmp_path / "game.pgn").write_text(case["pgn"], encoding="utf-8")
    done = _run("check", "--format", "json", "game.pgn", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    found = [(p["code"], p["severity"], p["line"], p["column"], _ply(p["message"])) for p in report["problems"]]
    assert found == _expected(case)
    assert (report["summary"]["games"], report["summary"]["plies"]) == (1, case["plies"])


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_normalize_reports_the_same_and_rewrites_legal_moves(case, tmp_path):
    (tmp_path / "game.pgn").write_text(case["pgn"], encoding="utf-8")
    done = _run("normalize", "game.pgn", "--moves", "uci", "--report", "report.jsonl", "-o", "out.pgn",
                "--summary", "none", cwd=tmp_path)
    assert done.returncode == 1, done.stderr  # the FEN's problem is an error
    found = []
    for line in (tmp_path / "report.jsonl").read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        for kind, severity in (("errors", "error"), ("warnings", "warning")):
            for p in entry.get(kind, []):
                column = p.get("column")
                found.append((p["code"], severity, entry["line"], column, p.get("ply")))
    assert [(code, severity, line, ply) for code, severity, line, _, ply in found] == [
        (code, severity, line, ply) for code, severity, line, _, ply in _expected(case)]
    assert [column for *_, column, ply in found if ply is not None] == [
        column for *_, column, ply in _expected(case) if ply is not None]
    out = (tmp_path / "out.pgn").read_text(encoding="utf-8")
    if case["uci"] is None:
        assert out == case["pgn"]  # an illegal move: kept as read
    else:
        tags, _ = case["pgn"].split("\n\n", 1)
        assert out == f"{tags}\n\n{case['uci']}\n"  # the FEN tag as written, the moves rewritten
    rejected = _run("normalize", "game.pgn", "--moves", "uci", "--reject-to", "bad.pgn", "-o", "kept.pgn",
                    "--summary", "none", cwd=tmp_path)
    assert rejected.returncode == 1
    assert (tmp_path / "bad.pgn").read_text(encoding="utf-8") == case["pgn"]  # set aside as read
    assert (tmp_path / "kept.pgn").read_text(encoding="utf-8") == ""


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_read_games_plays_from_the_repaired_position(case):
    (game,) = notation.read_games(case["pgn"])
    assert game.start is not None and not game.ok
    assert len(game.moves) == case["plies"]
    found = [(p.code, p.level.value, p.line, p.ply) for p in game.problems]
    assert found == [(code, severity, line, ply) for code, severity, line, _, ply in _expected(case)]
    assert [p.column for p in game.problems if p.ply is not None] == [
        column for *_, column, ply in _expected(case) if ply is not None]


def test_a_fen_past_repair_says_once_that_the_moves_are_not_checked(tmp_path):
    text = '[Event "k"]\n[SetUp "1"]\n[FEN "8/8/8/8/8/8/8/4K3 w - - 0 1"]\n\n1. Ke2 Kd7 2. Ke9 *\n'
    (tmp_path / "game.pgn").write_text(text, encoding="utf-8")
    done = _run("check", "game.pgn", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        "game.pgn:3:7: missing-king: black has no king",
        "game.pgn:5:4: unknown-start: the FEN tag's position is illegal and cannot be repaired: "
        "the game's moves are not checked",
    ]
    (game,) = notation.read_games(text)
    assert [(p.code, p.line, p.column) for p in game.problems] == [("missing-king", 3, 7), ("unknown-start", 5, 4)]
