"""Shared bench helpers: seeded positions from python-chess games, a best-of timer, the
times of one whole process, and what two processes at once get done on this machine.

python-chess is a GPL test/bench-only oracle: it generates positions and is the peer we
measure against in the same run. Nothing here is imported by the package.
"""

from __future__ import annotations

import compileall
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import NamedTuple

import chess
import chess.variant

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

BOARD_CLASSES = {
    "standard": chess.Board,
    "crazyhouse": chess.variant.CrazyhouseBoard,
    "threecheck": chess.variant.ThreeCheckBoard,
    "atomic": chess.variant.AtomicBoard,
    "horde": chess.variant.HordeBoard,
}


def positions(key: str, count: int, seed: int = 7) -> list[str]:
    """``count`` FENs (python-chess dialect) from seeded random games of variant ``key``."""
    rng = random.Random(seed)
    board_class = BOARD_CLASSES[key]
    fens: list[str] = []
    while len(fens) < count:
        board = board_class()
        for _ in range(80):
            moves = list(board.legal_moves)
            if not moves or board.is_variant_end():
                break
            board.push(rng.choice(moves))
            fens.append(board.fen())
    return fens[:count]


def games(key: str, count: int, seed: int = 11) -> list[list[str]]:
    """``count`` games of variant ``key`` as SAN lists, from seeded random python-chess games
    of 40 to 120 plies (shorter where one ends)."""
    rng = random.Random(seed)
    board_class = BOARD_CLASSES[key]
    found: list[list[str]] = []
    for _ in range(count):
        board = board_class()
        sans: list[str] = []
        for _ in range(rng.randint(40, 120)):
            moves = list(board.legal_moves)
            if not moves or board.is_variant_end():
                break
            move = rng.choice(moves)
            sans.append(board.san(move))
            board.push(move)
        found.append(sans)
    return found


def pure_build(directory: Path) -> Path:
    """The repository's ``notation`` package as a pure-Python install has it: its ``.py``
    sources copied under ``directory`` with their bytecode compiled, as ``pip install``
    compiles it (the repository's own tree has no ``.pyc``: processes run from it would
    compile every module they import, a start-up no installed build pays). Returns the
    directory to put first on ``sys.path``."""
    root = Path(__file__).resolve().parent.parent
    target = directory / "pure-build"
    shutil.copytree(root / "notation", target / "notation", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    if not compileall.compile_dir(target / "notation", quiet=1):
        raise RuntimeError(f"compiling {target} to bytecode failed")
    return target


def pure_command(directory: Path) -> list[str]:
    """The argv that runs the ``notation`` command of the pure build in ``directory``
    (``pure_build``) as a pure-Python install's script runs it: through the executable's
    entry point (``notation.cli:main_process``: argparse without gettext, no teardown at
    exit), not ``notation.cli.main.main``, which a program calls. The command's own
    arguments follow."""
    code = f"import sys; sys.path.insert(0, {str(directory)!r}); from notation.cli import main_process; main_process()"
    return [sys.executable, "-c", code]


def best_of(repeats: int, work: Callable[[], object], clock: Callable[[], float] = time.perf_counter) -> float:
    """The least time ``clock`` measures over ``repeats`` runs of ``work``, in seconds (the
    run least disturbed by noise). ``time.process_time`` measures this process's CPU time."""
    best = float("inf")
    for _ in range(repeats):
        started = clock()
        work()
        best = min(best, clock() - started)
    return best


def report(title: str, rows: Iterable[tuple[str, float, float, int]]) -> list[float]:
    """Print per-row times and the ratio python-chess time / our time; returns the ratios."""
    print(title)
    ratios = []
    for name, ours, theirs, n in rows:
        ratio = theirs / ours
        ratios.append(ratio)
        print(
            f"  {name:14} ours {ours / n * 1e6:7.2f} us/pos   python-chess {theirs / n * 1e6:7.2f} us/pos"
            f"   ratio {ratio:5.2f}x"
        )
    return ratios


def timed_process(argv: list[str], stdin: bytes | Path, cwd: Path | None = None) -> tuple[float, float, int, bytes]:
    """One whole process reading ``stdin`` (bytes, or a file's path) and writing to /dev/null:
    (wall seconds, CPU seconds, exit status, standard error). CPU is user + system of the
    child (which other work on a shared machine disturbs less than wall time); no ``.pyc``
    is written, so every run imports alike."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    if isinstance(stdin, Path):
        with open(stdin, "rb") as source:
            done = subprocess.run(argv, stdin=source, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=cwd,
                                  env=env, check=False)
    else:
        done = subprocess.run(argv, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=cwd,
                              env=env, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.returncode, done.stderr


# GNU time: a child's own peak memory, read from a small parent.
GNU_TIME = shutil.which("time", path="/usr/bin:/bin")


class RunFigures(NamedTuple):
    """What ``measured_run`` found of one whole process."""

    cpu: float  # user + system seconds
    peak: int  # peak RSS, KiB
    status: int  # exit status
    faults: int  # minor page faults: pages of memory touched for the first time


def measured_run(argv: list[str]) -> RunFigures:
    """The figures of one whole process writing to /dev/null, run from ``/`` so that
    ``python -m notation`` is the installed build, not the sources of the directory it was
    started in. The peak and the page faults are GNU time's where it is installed: a
    child's peak as its own parent sees it (``wait4``) starts at the parent's size (a bench
    process's tens of MiB), and its faults would count GNU time's own."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    with tempfile.TemporaryFile() as figures_file:
        timed = [GNU_TIME, "-q", "-f", "%M %R", "-o", f"/dev/fd/{figures_file.fileno()}", *argv] if GNU_TIME else argv
        process = subprocess.Popen(timed, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd="/",
                                   pass_fds=(figures_file.fileno(),))
        _, status, usage = os.wait4(process.pid, 0)
        figures_file.seek(0)
        written = figures_file.read().decode().split()
    if GNU_TIME and len(written) >= 2 and written[-2].isdigit() and written[-1].isdigit():
        peak, faults = int(written[-2]), int(written[-1])
    else:
        peak, faults = usage.ru_maxrss, usage.ru_minflt
    return RunFigures(usage.ru_utime + usage.ru_stime, peak, os.waitstatus_to_exitcode(status), faults)


def cpu_and_peak(argv: list[str]) -> tuple[float, int, int]:
    """(CPU seconds, peak RSS in KiB, exit status) of one whole process: ``measured_run``."""
    figures = measured_run(argv)
    return figures.cpu, figures.peak, figures.status


# Plain Python work for ``ParallelCeiling``: a loop of this many turns per process.
_SPIN = "total = 0\nfor turn in range({turns}):\n    total += turn\n"


class ParallelCeiling:
    """What two processes at once get done against one, here and now: twice the wall time
    of one process doing plain Python work for about ``seconds``, over the wall time of two
    doing it at the same time, each the best of the rounds taken (``round()``, in turns with
    what it is read beside). 2.0 on two cores of their own; less where the cores are
    shared (hyper-threads, a virtual machine's host, other work): the most ``--jobs 2`` can
    give against ``--jobs 1`` on this machine."""

    def __init__(self, seconds: float = 0.5) -> None:
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", _SPIN.format(turns=1_000_000)], check=True)
        per_million = max(time.perf_counter() - started, 1e-3)
        self._code = _SPIN.format(turns=int(1_000_000 * seconds / per_million))
        self.one = self.two = float("inf")

    def round(self) -> None:
        """One process alone, then two at once."""
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", self._code], check=True)
        self.one = min(self.one, time.perf_counter() - started)
        started = time.perf_counter()
        pair = [subprocess.Popen([sys.executable, "-c", self._code]) for _ in range(2)]
        if any(process.wait() for process in pair):
            raise SystemExit("ParallelCeiling: a spinning process failed")
        self.two = min(self.two, time.perf_counter() - started)

    @property
    def ratio(self) -> float:
        return 2 * self.one / self.two
