"""How the ``notation`` process ends (``notation.cli.main.end_process``): at once, without the
interpreter's teardown, but with everything Python's own exit does that anyone can see.

The exit handlers run, standard output is flushed whole, a thread that is not a daemon is
waited for, statuses are the command's (argparse's for ``--help`` and bad options), and an
output that cannot be written is said in one line with its status, never as an internal
error. Each case runs the installed package's entry point as a process of its own."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


def python(code: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code], input=stdin, capture_output=True, text=True, timeout=120, check=False
    )


def test_the_executable_ends_through_end_process():
    from importlib.metadata import entry_points

    (script,) = [entry for entry in entry_points(group="console_scripts") if entry.name == "notation"]
    assert script.value == "notation.cli:main_process"


def test_every_line_of_a_long_output_reaches_a_pipe():
    lines = 20_000
    done = subprocess.run(
        [sys.executable, "-m", "notation", "convert"],
        input=(AFTER_E4 + "\n") * lines,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == (AFTER_E4 + "\n") * lines


def test_exit_handlers_run_and_see_the_output_written(tmp_path):
    marker = tmp_path / "ran"
    code = (
        "import atexit, sys, weakref\n"
        f"atexit.register(lambda: open({str(marker)!r}, 'w').write('atexit'))\n"
        "class Held: pass\n"
        f"held = Held(); weakref.finalize(held, lambda: open({str(marker) + '.finalize'!r}, 'w').write('finalize'))\n"
        "from notation.cli.main import main_process\n"
        "sys.argv = ['notation', 'convert']\n"
        "main_process()\n"
    )
    done = python(code, stdin=START + "\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout == START + "\n"
    assert marker.read_text() == "atexit"
    assert Path(str(marker) + ".finalize").read_text() == "finalize"


def test_a_thread_that_is_not_a_daemon_is_waited_for(tmp_path):
    marker = tmp_path / "done"
    code = (
        "import sys, threading, time\n"
        f"threading.Thread(target=lambda: (time.sleep(0.5), open({str(marker)!r}, 'w').write('done'))).start()\n"
        "from notation.cli.main import main_process\n"
        "sys.argv = ['notation', '--version']\n"
        "main_process()\n"
    )
    done = python(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("notation ")
    assert marker.read_text() == "done"


@pytest.mark.parametrize(
    ("argv", "status"),
    [
        (["--version"], 0),
        (["convert", "--help"], 0),
        (["convert", "--no-such-option"], 2),
        ([], 2),
        (["validate", "8/8/8/8/8/8/8/8 w - - 0 1"], 1),
    ],
)
def test_statuses_are_the_commands_and_argparses(argv, status):
    done = subprocess.run(
        [sys.executable, "-m", "notation", *argv], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == status, done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("command", [["convert"], ["validate"], ["check", "-"]])
def test_a_full_disk_is_said_in_one_line_never_as_an_internal_error(command):
    # check writes only problems on standard output: the position has two white kings
    position = START if command[0] != "check" else START.replace("Q", "K")
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "notation", *command],
            input=position + "\n",
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            check=False,
        )
    assert done.returncode == 2, done.stderr
    assert "No space left on device" in done.stderr
    assert "internal error" not in done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
