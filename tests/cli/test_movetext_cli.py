"""Moves on the command line: `notation check` reports them in every format, `--strict`,
`--accept` and `{notation: ignore[...]}` work on them; `notation normalize --moves` rewrites,
reports and rejects, and `--jobs` gives the bytes of one process."""

from __future__ import annotations

import json
import pathlib

import pytest
from test_jobs import _run, _tricky_database

from notation.cli import main as cli_main

pytestmark = [pytest.mark.slow]

GAMES = (
    '[Event "castles with zeros"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 Nf6 3. Bc4 Bc5 4. 0-0 *\n\n'
    '[Event "an illegal move"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6\n3. Qxh1 Nf6 *\n\n'
    '[Event "mate, but the result says otherwise"]\n[Result "1-0"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n'
)
TEXT = [
    "games.pgn:4:35: castling-with-zeros: castling written with zeros in '0-0' [ply 7]",
    "games.pgn:10:4: illegal-move: 'Qxh1' is not a legal move here "
    "[ply 5, position r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3]",
    "games.pgn:13:10: wrong-result: the result is 1-0 but the moves end in checkmate: 0-1",
]


def run(argv: list[str], capsys, monkeypatch, where: pathlib.Path) -> tuple[int, str, str]:
    monkeypatch.chdir(where)
    capsys.readouterr()
    try:
        code = cli_main.main(argv)
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def games(tmp_path: pathlib.Path) -> pathlib.Path:
    (tmp_path / "games.pgn").write_text(GAMES, encoding="utf-8")
    return tmp_path


def test_check_reports_moves_with_file_line_and_column(games, capsys, monkeypatch):
    code, out, err = run(["check", "games.pgn"], capsys, monkeypatch, games)
    assert code == 1
    assert out.splitlines() == TEXT
    assert err == "notation check: 1 file(s), 3 game(s), 15 plies, 1 error(s), 2 warning(s)\n"


def test_check_formats_carry_the_move_problems(games, capsys, monkeypatch):
    _, out, _ = run(["check", "games.pgn", "--format", "json"], capsys, monkeypatch, games)
    found = [(p["line"], p["column"], p["severity"], p["code"]) for p in json.loads(out)["problems"]]
    assert found == [(4, 35, "warning", "castling-with-zeros"), (10, 4, "error", "illegal-move"),
                     (13, 10, "warning", "wrong-result")]
    _, out, _ = run(["check", "games.pgn", "--format", "github"], capsys, monkeypatch, games)
    assert "::error file=games.pgn,line=10,col=4,title=illegal-move::'Qxh1' is not a legal move here" in out
    _, out, _ = run(["check", "games.pgn", "--format", "sarif"], capsys, monkeypatch, games)
    log = json.loads(out)
    rules = {rule["id"] for rule in log["runs"][0]["tool"]["driver"]["rules"]}
    assert {"castling-with-zeros", "illegal-move", "wrong-result"} <= rules
    regions = [r["locations"][0]["physicalLocation"]["region"] for r in log["runs"][0]["results"]]
    assert {"startLine": 10, "startColumn": 4} in regions


def test_accept_strict_and_ignore_work_on_moves(games, capsys, monkeypatch):
    code, _, err = run(["check", "games.pgn", "--accept", "illegal-move"], capsys, monkeypatch, games)
    assert code == 0 and "0 error(s), 3 warning(s)" in err
    code, _, _ = run(["check", "games.pgn", "--accept", "illegal-move", "--strict"], capsys, monkeypatch, games)
    assert code == 1
    ignored = GAMES.replace("3. Qxh1", "{notation: ignore[illegal-move]} 3. Qxh1")
    (games / "games.pgn").write_text(ignored, encoding="utf-8")
    code, out, err = run(["check", "games.pgn"], capsys, monkeypatch, games)
    assert code == 0 and "illegal-move" not in out and "1 suppressed" in err


def test_an_unknown_accept_code_is_still_refused(games, capsys, monkeypatch):
    code, _, err = run(["check", "games.pgn", "--accept", "no-such-code"], capsys, monkeypatch, games)
    assert code == 2 and "no-such-code" in err


def test_normalize_rewrites_reports_and_rejects(games, capsys, monkeypatch):
    code, out, err = run(["normalize", "games.pgn", "--moves", "uci", "--report", "report.jsonl",
                          "--reject-to", "rejects.pgn", "--progress", "never"], capsys, monkeypatch, games)
    assert code == 1
    assert "1. e2e4 e7e5 2. g1f3 g8f6 3. f1c4 f8c5 4. e1g1 *" in out
    assert "1. f2f3 e7e5 2. g2g4 d8h4 1-0" in out
    assert "Qxh1" not in out
    assert "3. Qxh1 Nf6 *" in (games / "rejects.pgn").read_text()
    report = [json.loads(line) for line in (games / "report.jsonl").read_text().splitlines()]
    assert [(e["game"], e["line"], [p["code"] for p in e["errors"] + e.get("warnings", [])]) for e in report] == [
        (1, 4, ["castling-with-zeros"]), (2, 10, ["illegal-move"]), (3, 13, ["wrong-result"]),
    ]
    assert "3 games read: 2 changed, 0 unchanged, 1 rejected" in err


def test_normalize_keeps_the_movetext_by_default(games, capsys, monkeypatch):
    code, out, err = run(["normalize", "games.pgn", "--progress", "never"], capsys, monkeypatch, games)
    assert code == 0 and out == GAMES and "no problems" in err


def test_normalize_refuses_an_unknown_moves_value(games, capsys, monkeypatch):
    code, _, err = run(["normalize", "games.pgn", "--moves", "algebraic"], capsys, monkeypatch, games)
    assert code == 2 and "--moves" in err


@pytest.mark.parametrize("moves", ["san", "uci"])
def test_normalize_moves_writes_the_same_bytes_whatever_the_jobs(tmp_path, moves):
    source = tmp_path / "db.pgn"
    source.write_bytes(_tricky_database(150_000, 31, damaged_encoding=True))
    results = {}
    for jobs, piece in [(1, 4 << 20), (2, 9_000), (3, 3_000)]:
        out, report, rejects = (tmp_path / f"{kind}-{jobs}" for kind in ("out.pgn", "report.jsonl", "rejects.pgn"))
        code, _, err = _run(piece, 4 * piece, "normalize", str(source), "-o", str(out), "--report", str(report),
                            "--reject-to", str(rejects), "--moves", moves, "--jobs", str(jobs),
                            "--progress", "never", "--summary", "json", cwd=tmp_path)
        assert code == 1, err
        results[jobs] = (out.read_bytes(), report.read_bytes(), rejects.read_bytes(), err)
    serial = results.pop(1)
    assert b'"illegal-move"' in serial[1] and serial[2]
    for jobs, result in results.items():
        assert result == serial, jobs
