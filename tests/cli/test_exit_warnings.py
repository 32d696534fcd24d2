"""One exit-status rule for warnings in every command (README.md, "Exit statuses"): an input
with a warning and nothing worse exits 0, the warning said on standard error or in the
report; ``check``, ``normalize`` and ``play`` take ``--strict``, with which the same input exits 1;
an error exits 1 and a usage error 2. Each command runs in a subprocess, as a user runs it."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

from notation.cli.usage import SUMMARIES

pytestmark = [pytest.mark.slow]

ZH = "rnbqkbnr/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3"  # --variant auto guesses: a warning
EP = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1"  # an impossible en passant square
WARNED_PGN = '[Event "a"]\n[Result "*"]\n1. e4 e5\n'  # no blank line, no result: two warnings
BAD_PGN = '[Event "b"]\n[Result "*"]\n\n1. e4 e5 2. Ke3 *\n'  # an illegal move

# Each command: arguments whose input has a warning and no error (and the warning's code),
# and arguments whose input has an error.
CASES = {
    "check": (["warned.pgn"], "pgn-missing-result", ["bad.pgn"]),
    "normalize": (["warned.pgn", "-o", "out.pgn"], "pgn-missing-result",
                  ["bad.pgn", "--moves", "check", "-o", "out.pgn"]),
    "convert": (["--repair", EP], "repaired-en-passant", [EP]),
    "validate": (["--variant", "auto", ZH], "guessed-variant", [EP]),
    "moves": (["--variant", "auto", ZH], "guessed-variant", [EP]),
    "play": (["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "0-0"], "castling-with-zeros", ["e4", "e5", "Ke3"]),
    "perft": (["--variant", "auto", "--depth", "1", ZH], "guessed-variant", ["--depth", "1", EP]),
    "svg": (["--variant", "auto", ZH], "guessed-variant", ["x"]),  # svg draws any position it can read
    "view": (["--side", "white", "--variant", "darkchess", "--accept", "invalid-ep-square", EP], "invalid-ep-square",
             ["--side", "white", "--variant", "darkchess", EP]),
}
STRICT = {"check", "normalize", "play"}
WITHOUT_WARNINGS = {"start", "serve", "docs", "variants", "select", "split"}  # nothing they answer carries a warning


def run(*args: str, cwd: pathlib.Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "notation", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120, check=False)


@pytest.fixture
def folder(tmp_path: pathlib.Path) -> pathlib.Path:
    (tmp_path / "warned.pgn").write_text(WARNED_PGN, encoding="utf-8")
    (tmp_path / "bad.pgn").write_text(BAD_PGN, encoding="utf-8")
    return tmp_path


def test_every_command_is_in_the_table():
    assert set(CASES) | WITHOUT_WARNINGS == set(SUMMARIES)


@pytest.mark.parametrize("command", sorted(CASES))
def test_warnings_alone_exit_0_errors_1_usage_2(command, folder):
    warned, code, bad = CASES[command]
    done = run(command, *warned, cwd=folder)
    assert done.returncode == 0, done.stderr
    assert code in done.stdout + done.stderr
    failed = run(command, *bad, cwd=folder)
    assert failed.returncode == 1, failed.stderr
    usage = run(command, *warned, "--no-such-option", cwd=folder)
    assert usage.returncode == 2 and "Traceback" not in usage.stderr


@pytest.mark.parametrize("command", sorted(STRICT))
def test_strict_makes_warnings_fail(command, folder):
    warned, code, _ = CASES[command]
    done = run(command, *warned, "--strict", cwd=folder)
    assert done.returncode == 1, done.stdout + done.stderr
    assert code in done.stdout + done.stderr


def test_normalize_and_check_agree_on_the_readme_tour_file(folder):
    """The tour's zh.pgn: two lenient readings, no error; both commands pass it."""
    text = ('[Variant "ZH"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. 0-0 Nxe4 5. Nc3 Nxc3 '
            '{[%clk 0:02:55]} 6. dxc3 N*d6 *\n')
    (folder / "zh.pgn").write_text(text, encoding="utf-8")
    checked = run("check", "zh.pgn", cwd=folder)
    normalized = run("normalize", "zh.pgn", "--moves", "uci", "--summary", "none", cwd=folder)
    assert (checked.returncode, normalized.returncode) == (0, 0), checked.stderr + normalized.stderr
    assert "e1g1" in normalized.stdout
