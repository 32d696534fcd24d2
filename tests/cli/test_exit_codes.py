"""The same mistake exits the same way in every command: an unknown ``--variant`` is a usage
error (exit status 2, one line naming the option and the closest names, no traceback), in
each command that takes ``--variant``; a command without one refuses what it is given, also
with 2.
The table of exit statuses is README.md's "Exit statuses"; a variant named inside the input
(a JSON line's ``variant``) is that input's problem (exit status 1), not a usage error."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from notation.cli.usage import SUMMARIES

pytestmark = [pytest.mark.slow]

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

# Each command with the arguments it needs besides --variant.
ARGUMENTS = {
    "convert": [START],
    "validate": [START],
    "normalize": ["-"],
    "check": ["-"],
    "serve": ["--port", "1"],
    "start": [],
    "moves": [START],
    "play": ["e4"],
    "perft": ["--depth", "1"],
    "svg": [START],
    "view": [START, "--side", "white"],
    "docs": [],
    "variants": [],
    "select": ["-"],
    "split": ["-", "--games", "1", "-o", "never-made"],
}
WITHOUT_VARIANT = {"normalize", "serve", "docs", "variants", "split"}


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "notation", *args], input=stdin, capture_output=True, text=True, timeout=120,
        check=False,
    )


def test_every_command_is_in_the_table():
    assert set(ARGUMENTS) == set(SUMMARIES)


@pytest.mark.parametrize("command", sorted(SUMMARIES))
def test_an_unknown_variant_exits_2_in_every_command(command):
    done = run(command, *ARGUMENTS[command], "--variant", "crazyhose")
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    assert done.stdout == ""
    if command in WITHOUT_VARIANT:  # argparse refuses it (or reads it as --variant-alias, or a topic)
        assert done.stderr.count("\n") <= 2 and "crazyhose" in done.stderr
    else:
        assert done.stderr == (
            f"notation {command}: error: --variant: unknown variant 'crazyhose'; did you mean Crazyhouse, "
            "Crazy Screen Chess? (`notation variants` lists them)\n"
        )


@pytest.mark.parametrize("command", ["convert", "validate", "view"])
def test_an_unknown_variant_inside_the_input_is_that_lines_problem(command):
    extra = ["--side", "white"] if command == "view" else []
    done = run(command, "--json", *extra, stdin=json.dumps({"fen": START, "variant": "crazyhose"}) + "\n")
    assert done.returncode == 1
    assert '"code":"unknown-variant"' in done.stdout


@pytest.mark.parametrize("command", ["convert", "validate", "moves", "svg"])
def test_auto_is_no_unknown_variant(command):
    done = run(command, START, "--variant", "auto")
    assert done.returncode == 0, done.stderr
