"""``notation normalize --broken`` and ``--fix-*`` as users run them: the command in a
subprocess on a real file and through a pipe, one process against ``--jobs 2`` (a regular
file's pieces and a stream's blocks), the exit status, the rejects file and the help."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest
from paths import ROOT

CASES = json.loads((ROOT / "fixtures" / "pgn" / "repair_cases.json").read_text(encoding="utf-8"))
# a database of every case's input, many times over so that --jobs 2 cuts it into pieces
DATABASE = "".join(case["input"] for case in CASES) * 40
ALL = ["--broken", "truncate", "--fix-results", "--fix-tags", "--fix-move-numbers"]


def _notation(*args: str, stdin: bytes | None = None, cwd: pathlib.Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "notation", *args], input=stdin, capture_output=True, cwd=cwd,
                          env=env, timeout=300, check=False)


@pytest.fixture
def database(tmp_path: pathlib.Path) -> pathlib.Path:
    path = tmp_path / "db.pgn"
    path.write_text(DATABASE, encoding="utf-8")
    return path


def test_repairs_are_the_same_in_one_process_and_in_two(tmp_path, database):
    one = _notation("normalize", "db.pgn", "-o", "one.pgn", "--report", "one.jsonl", *ALL, cwd=tmp_path)
    assert one.returncode == 0, one.stderr
    two = _notation("normalize", "db.pgn", "-o", "two.pgn", "--report", "two.jsonl", "--jobs", "2", *ALL,
                    cwd=tmp_path)
    assert two.returncode == 0, two.stderr
    piped = _notation("normalize", "-", "--report", "piped.jsonl", "--jobs", "2", *ALL,
                      stdin=database.read_bytes(), cwd=tmp_path)
    assert piped.returncode == 0, piped.stderr
    written = (tmp_path / "one.pgn").read_bytes()
    assert (tmp_path / "two.pgn").read_bytes() == written
    assert piped.stdout == written
    report = (tmp_path / "one.jsonl").read_text()
    assert (tmp_path / "two.jsonl").read_text() == report
    assert (tmp_path / "piped.jsonl").read_text() == report
    for code in ("game-truncated", "result-fixed", "tag-fixed", "move-numbers-fixed"):
        assert code in report
    assert one.stderr.decode().startswith(f"notation normalize: {len(CASES) * 40} games read")


def test_without_repair_options_the_output_is_unchanged(tmp_path, database):
    plain = _notation("normalize", "db.pgn", "-o", "plain.pgn", cwd=tmp_path)
    kept = _notation("normalize", "db.pgn", "-o", "kept.pgn", "--broken", "keep", cwd=tmp_path)
    assert (tmp_path / "kept.pgn").read_bytes() == (tmp_path / "plain.pgn").read_bytes()
    assert plain.returncode == kept.returncode == 0  # keep is the default: the moves are not read


def test_exit_status_says_whether_what_was_written_is_clean(tmp_path, database):
    checked = _notation("normalize", "db.pgn", "-o", "c.pgn", "--moves", "check", cwd=tmp_path)
    truncated = _notation("normalize", "db.pgn", "-o", "t.pgn", "--broken", "truncate", cwd=tmp_path)
    strict = _notation("normalize", "db.pgn", "-o", "s.pgn", "--broken", "truncate", "--strict", cwd=tmp_path)
    assert (checked.returncode, truncated.returncode, strict.returncode) == (1, 0, 1)
    recheck = _notation("check", "t.pgn", cwd=tmp_path)
    assert recheck.returncode == 0, recheck.stdout.decode()[-2000:]


def test_dropped_games_go_to_the_rejects_file(tmp_path, database):
    run = _notation("normalize", "db.pgn", "-o", "out.pgn", "--broken", "drop", "--reject-to", "rejects.pgn",
                    "--summary", "json", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stderr.decode().strip().splitlines()[-1])
    dropped = sum(any(code in case["warnings"] for code in ("game-dropped", "game-truncated")) for case in CASES) * 40
    assert summary["rejected"] == dropped == summary["problems"]["game-dropped"]
    rejects = (tmp_path / "rejects.pgn").read_text()
    assert rejects.count("[Event ") == dropped
    alone = _notation("normalize", "db.pgn", "-o", "alone.pgn", "--broken", "drop", cwd=tmp_path)
    assert (tmp_path / "alone.pgn").read_bytes() == (tmp_path / "out.pgn").read_bytes()
    assert alone.returncode == 0


def test_help_names_the_options(tmp_path):
    run = _notation("normalize", "--help", cwd=tmp_path)
    text = run.stdout.decode()
    for option in ("--broken", "--fix-results", "--fix-tags", "--fix-move-numbers"):
        assert option in text
