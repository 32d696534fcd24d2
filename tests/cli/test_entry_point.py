"""The executable's entry point (``notation.cli.main_process``) and ``notation.cli.collector``.

- The cyclic collector while a command loads: the executable stops it before anything of
  the command line is imported, ``main`` keeps it stopped while the command's modules load,
  then freezes what loading made and lets it run again; a caller that stopped it finds it
  stopped. Loading makes no garbage worth a collection (bench_startup prints the start-up
  saved).
- argparse's own words (usage, titles, errors) taken as written, without gettext's search
  for a catalogue of them: the executable says exactly what argparse with gettext says.
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys

import pytest

from notation.cli import collector

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

# Counts the collections made before ``main`` resumes the collector, and says whether it
# runs at that moment and after; ENTRY is the executable's entry point or main.py's own.
WATCHED = """
import gc, sys
started = []
gc.callbacks.append(lambda phase, info: phase == "start" and started.append(info["generation"]))
import notation.cli.collector as collector
resume = collector.resume_collector
def watched_resume():
    sys.stderr.write(f"loading: {{len(started)}} collections, running {{gc.isenabled()}}\\n")
    resume()
    sys.stderr.write(f"command: running {{gc.isenabled()}}\\n")
collector.resume_collector = watched_resume
sys.argv = ["notation", "convert"]
started.clear()  # what the probe itself loaded (an editable install's finder collects) is not the command's
from {entry} import main_process
main_process()
"""


def _watched(entry: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", WATCHED.format(entry=entry)],
        input=START + "\n", capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == START + "\n"
    return done.stderr.splitlines()


def test_the_executable_loads_without_a_collection_and_runs_the_command_with_the_collector():
    assert _watched("notation.cli") == ["loading: 0 collections, running False", "command: running True"]


def test_loading_the_command_line_module_unpaused_does_collect():
    # What the pause saves: entered through main.py, the collector runs while argparse, the
    # regular expression engine and the command line module load (main pauses it after).
    loading, command = _watched("notation.cli.main")
    assert loading != "loading: 0 collections, running False"
    assert loading.endswith("running False")
    assert command == "command: running True"


@pytest.fixture
def collector_state():
    was = gc.isenabled()
    yield
    gc.unfreeze()
    (gc.enable if was else gc.disable)()


@pytest.mark.usefixtures("collector_state")
def test_a_running_collector_is_paused_then_running_again():
    gc.enable()
    collector.pause_collector()
    assert not gc.isenabled()
    collector.pause_collector()  # main pausing again what the executable paused
    assert not gc.isenabled()
    collector.resume_collector()
    assert gc.isenabled()
    assert gc.get_freeze_count() > 0


@pytest.mark.usefixtures("collector_state")
def test_a_collector_the_caller_stopped_stays_stopped():
    gc.disable()
    collector.pause_collector()
    collector.resume_collector()
    assert not gc.isenabled()


# Ctrl-C while the command line module itself loads (raised by the import, as the default
# SIGINT handler would raise it there).
INTERRUPTED_WHILE_LOADING = """
import sys
class Interrupting:
    def find_spec(self, name, path=None, target=None):
        if name == "notation.cli.main":
            raise KeyboardInterrupt
sys.meta_path.insert(0, Interrupting())
sys.argv = ["notation", "convert"]
from notation.cli import main_process
main_process()
"""


def test_ctrl_c_while_the_command_line_module_loads_exits_130_without_a_traceback():
    done = subprocess.run([sys.executable, "-c", INTERRUPTED_WHILE_LOADING], input=START + "\n",
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 130
    assert done.stdout == ""
    assert "Traceback" not in done.stderr, done.stderr


# The same command line through argparse as gettext leaves it (``main`` called by a program).
THROUGH_MAIN = """
import sys
from notation.cli.main import main
try:
    status = main(sys.argv[1:])
except SystemExit as stop:
    status = stop.code
sys.stdout.flush()
sys.exit(status)
"""


@pytest.mark.parametrize(
    "argv",
    [
        ["--help"],
        ["convert", "--help"],
        ["check", "--help"],
        ["normalize", "--help"],
        ["check"],  # a required argument left out
        ["convert", "--no-such-option"],
        ["convert", "--variant"],  # an option without its value
        ["validate", "--variant", "no-such-variant", START],
        ["no-such-command"],
        [],
    ],
)
def test_the_executable_says_what_argparse_with_gettext_says(argv):
    def run(command: list[str]) -> tuple[int, str, str]:
        done = subprocess.run(command, input="", capture_output=True, text=True, timeout=120, check=False,
                              env={**os.environ, "COLUMNS": "100", "LANG": "de_DE.UTF-8", "LANGUAGE": "de"})
        return done.returncode, done.stdout, done.stderr

    executable = run([sys.executable, "-m", "notation", *argv])
    assert executable == run([sys.executable, "-c", THROUGH_MAIN, *argv])
    assert "Traceback" not in executable[2]
