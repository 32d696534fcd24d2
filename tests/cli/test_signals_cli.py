"""Real signals sent to the installed ``notation normalize``: temporary files removed, exit
status 128 + the signal's number, no traceback, worker processes quiet.

The signal is sent once the run is provably under way (its temporary output file exists,
and for ``--jobs`` holds results), never after a guessed delay; every wait is bounded.
"""

from __future__ import annotations

import os
import pathlib
import signal
import subprocess
import time

import pytest
from installed import installed_script
from paths import ROOT

pytestmark = [pytest.mark.slow]

FIXTURES = ROOT / "fixtures" / "pgn"
WAIT_SECONDS = 120  # generous: the machine is shared and slow at times


def _games(megabytes: int) -> bytes:
    text = (FIXTURES / "lichess_variants.pgn").read_bytes()
    return text * (megabytes * 1_000_000 // len(text) + 1)


def _temporary_files(directory: pathlib.Path) -> list[pathlib.Path]:
    return [path for path in directory.iterdir() if path.name.endswith(".tmp")]


def _wait_for(condition, process: subprocess.Popen, what: str) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while not condition():
        if process.poll() is not None:
            pytest.fail(f"notation ended (status {process.returncode}) before {what}")
        if time.monotonic() > deadline:
            process.kill()
            pytest.fail(f"gave up waiting for {what}")
        time.sleep(0.05)


def _finish(process: subprocess.Popen) -> tuple[int, str]:
    try:
        _, err = process.communicate(timeout=WAIT_SECONDS)
    except subprocess.TimeoutExpired:
        _kill_group(process)
        process.communicate()
        pytest.fail("notation did not end after the signal")
    return process.returncode, err.decode("utf-8", "replace")


def _kill_group(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


SIGNALS = [signal.SIGTERM, signal.SIGHUP, signal.SIGINT]


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("signo", SIGNALS, ids=lambda s: s.name)
@pytest.mark.parametrize("to_group", [False, True], ids=["process", "group"])
def test_signal_while_streaming_from_stdin(tmp_path, jobs, signo, to_group):
    """Input comes through a pipe that stays open, so the run is mid-way for sure."""
    out = tmp_path / "out.pgn"
    process = subprocess.Popen(
        [installed_script("notation"), "normalize", "-", "-o", str(out), "--jobs", jobs, "--progress", "never"],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
    )
    try:
        process.stdin.write(_games(12))  # more chunks than are kept in flight: results come back
        process.stdin.flush()
        _wait_for(lambda: any(p.stat().st_size > 0 for p in _temporary_files(tmp_path)), process,
                  "the temporary output to hold results")
        if to_group:
            os.killpg(process.pid, signo)
        else:
            process.send_signal(signo)
        code, err = _finish(process)
    finally:
        _kill_group(process)
    assert code == 128 + signo
    assert "Traceback" not in err and "Error" not in err, err
    assert _temporary_files(tmp_path) == []
    assert not out.exists()


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("signo", SIGNALS, ids=lambda s: s.name)
def test_signal_during_in_place_keeps_the_file_and_leaves_no_temporary(tmp_path, jobs, signo):
    """The report goes to a FIFO nobody reads, so the run waits there, its temporary
    output already made: the signal lands mid-run, deterministically."""
    database = tmp_path / "db.pgn"
    database.write_bytes(_games(1))
    before = database.read_bytes()
    fifo = tmp_path / "report.fifo"
    os.mkfifo(fifo)
    process = subprocess.Popen(
        [installed_script("notation"), "normalize", str(database), "--in-place", "--report", str(fifo),
         "--jobs", jobs, "--progress", "never"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
    )
    try:
        _wait_for(lambda: _temporary_files(tmp_path), process, "the temporary file")
        process.send_signal(signo)
        code, err = _finish(process)
    finally:
        _kill_group(process)
    assert code == 128 + signo
    assert "Traceback" not in err, err
    assert _temporary_files(tmp_path) == []
    assert database.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["db.pgn", "report.fifo"]  # no backup either


@pytest.mark.parametrize(("loader", "argv"), [
    ("_read_plainly", ["convert", "--json"]),  # a plain command line: read without argparse
    ("_parser", ["convert", "--js"]),  # an abbreviation: argparse's parser
])
def test_ctrl_c_while_the_command_loads_exits_130_without_a_traceback(monkeypatch, capsys, loader, argv):
    """Most of a command's start-up is importing its modules, inside ``main``: a Ctrl-C
    there (raised here by the import itself, as the default SIGINT handler would) ends
    with 130 and no traceback, as one during the run does."""
    from notation.cli import main as entry

    def interrupted(*args, **keywords):
        raise KeyboardInterrupt  # as from the middle of importing the command's modules

    monkeypatch.setattr(entry, loader, interrupted)
    assert entry.main(argv) == 130
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err and captured.out == ""


def test_outside_the_main_thread_exit_on_signals_leaves_the_handlers_alone():
    """Python sets signal handlers only in the main thread: elsewhere the block runs with
    the handlers as they were, and nothing is raised on the way in or out."""
    import threading

    from notation.signals import HANDLED, exit_on_signals

    before = {signo: signal.getsignal(signo) for signo in HANDLED}
    seen: list[object] = []

    def inside() -> None:
        with exit_on_signals():
            seen.append({signo: signal.getsignal(signo) for signo in HANDLED})
        seen.append("left")

    worker = threading.Thread(target=inside)
    worker.start()
    worker.join()
    assert seen == [before, "left"]
    assert {signo: signal.getsignal(signo) for signo in HANDLED} == before


def test_in_the_main_thread_exit_on_signals_sets_its_handlers_and_restores_them():
    from notation.signals import HANDLED, exit_on_signals

    before = {signo: signal.getsignal(signo) for signo in HANDLED}
    with exit_on_signals():
        inside = {signo: signal.getsignal(signo) for signo in HANDLED}
    assert all(inside[signo] is not before[signo] for signo in HANDLED)
    assert {signo: signal.getsignal(signo) for signo in HANDLED} == before
