"""``convert`` and ``validate`` read files (``--input``), name the input each output line
answers, and say an error once; run through the installed ``notation`` command."""

from __future__ import annotations

import gzip
import json
import subprocess

import pytest
from installed import installed_script

pytestmark = [pytest.mark.slow]

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
BATCH = f"{START}\n\n   \nnot a fen\n{START.replace(' w ', ' b ')}\n"


def notation(*args: str, stdin: str = "", cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [installed_script("notation"), *args], input=stdin, capture_output=True, text=True,
        timeout=120, check=False, cwd=cwd,
    )


def test_validate_reads_plain_and_compressed_files_naming_path_and_line(tmp_path):
    (tmp_path / "batch.fen").write_text(BATCH)
    (tmp_path / "more.fen.gz").write_bytes(gzip.compress(BATCH.encode()))
    done = notation("validate", "--input", "batch.fen", "-i", "more.fen.gz", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split(": ", 1)[0] for line in lines] == [
        "batch.fen:1", "batch.fen:4", "batch.fen:5", "more.fen.gz:1", "more.fen.gz:4", "more.fen.gz:5",
    ]
    assert lines[0] == "batch.fen:1: valid"
    assert lines[1].startswith("batch.fen:4: invalid: fen-syntax: ")
    assert done.stderr == ""


def test_convert_json_says_the_line_and_the_file(tmp_path):
    (tmp_path / "batch.fen").write_text(BATCH)
    done = notation("convert", "--json", "--input", str(tmp_path / "batch.fen"))
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(row["line"], row["ok"]) for row in rows] == [(1, True), (4, False), (5, True)]
    assert {row["input"] for row in rows} == {str(tmp_path / "batch.fen")}
    argument = json.loads(notation("convert", "--json", START).stdout)
    assert argument["line"] is None and "input" not in argument


def test_a_convert_error_is_said_once(tmp_path):
    done = notation("convert", stdin=BATCH)
    assert done.returncode == 1
    errors = [line for line in done.stdout.splitlines() if "fen-syntax" in line]
    assert len(errors) == 1 and errors[0].startswith("error: line 4: fen-syntax: ")
    assert "fen-syntax" not in done.stderr


def test_stdin_output_stays_a_pipeline():
    done = notation("convert", "--castling", "shredder", stdin=f"{START}\n\n{START}\n")
    assert done.stdout == f"{START.replace('KQkq', 'HAha')}\n" * 2


def test_a_file_name_given_as_a_fen_gets_a_hint(tmp_path):
    (tmp_path / "batch.fen").write_text(BATCH)
    done = notation("validate", "batch.fen", cwd=tmp_path)
    assert done.returncode == 1
    assert "use --input batch.fen" in done.stderr


def test_a_missing_file_is_a_usage_error_naming_it(tmp_path):
    done = notation("convert", "--input", "missing.fen", cwd=tmp_path)
    assert done.returncode == 2
    assert "missing.fen" in done.stderr and "Traceback" not in done.stderr
