"""``--jobs``: whole ``notation normalize`` and ``notation check`` processes with 1 and 2
workers on one generated database each, in one run.

The installed ``notation`` command beside this interpreter is run (so a venv's compiled or
pure build is what is measured), ``--jobs 1`` and ``--jobs 2`` alternately, ROUNDS times
each; the best wall time of each gives the MB/s and the ratio (the machine may be shared:
alternating and taking the best keep other people's work out of the figures as far as
possible). The CPU seconds of each best run (the command and its workers) and the load
average are printed beside, to read the wall figures by.

Databases: ``bench_pgn.build_database`` (seeded random games in nine variants, lichess
style, FEN tags rewritten for xboard) and ``bench_check.make_database`` (lichess-like games,
one in ten with a Chess960 FEN), both regular uncompressed files: the case where the
workers read their own pieces. The normalize database is timed a second time compressed
with zstd (how lichess publishes its databases): a compressed file cannot be entered in the
middle, so the parent decompresses it and hands the text out (``pgn.parallel``), the path
standard input and pipes take too.

    python bench/bench_jobs.py [--megabytes 200] [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_check  # noqa: E402
import bench_pgn  # noqa: E402
from common import timed_process  # noqa: E402

ROUNDS = 3


def _command() -> str:
    script = Path(sys.executable).parent / "notation"
    if not script.exists():
        raise SystemExit(f"bench_jobs: no notation command beside {sys.executable}; install the package first")
    return str(script)


def _build() -> str:
    """Which build the installed command runs: compiled (mypyc) or pure Python."""
    probe = "import notation.setup as s; print('compiled' if s.__file__.endswith(('.so', '.pyd')) else 'pure')"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd="/")
    return done.stdout.strip() or "unknown"


class Unsupported(Exception):
    """The installed command has no --jobs for this subcommand (an older build)."""


def _timed(argv: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process and its workers) of one run; raises
    ``Unsupported`` when the command does not know an option given."""
    wall, cpu, status, errors = timed_process(argv, b"")
    if status == 2 and b"unrecognized arguments" in errors:
        raise Unsupported(errors.decode(errors="replace").strip().splitlines()[-1])
    if status not in (0, 1):
        raise SystemExit(f"bench_jobs: {' '.join(argv)} failed: {errors.decode(errors='replace')}")
    return wall, cpu


def measure(argv_for_jobs, rounds: int = ROUNDS) -> dict[int, tuple[float, float]]:
    """Best (wall, CPU) per number of jobs, 1 and 2 run alternately."""
    best: dict[int, tuple[float, float]] = {}
    for _ in range(rounds):
        for jobs in (1, 2):
            wall, cpu = _timed(argv_for_jobs(jobs))
            if jobs not in best or wall < best[jobs][0]:
                best[jobs] = (wall, cpu)
    return best


def _print(title: str, size: int, best: dict[int, tuple[float, float]] | str) -> float:
    print(title)
    if isinstance(best, str):
        print(f"  not measured: {best}")
        return 0.0
    for jobs in (1, 2):
        wall, cpu = best[jobs]
        print(f"  --jobs {jobs}   {size / wall / 1e6:8.1f} MB/s wall   ({wall:5.2f} s wall, {cpu:5.2f} s CPU)")
    ratio = best[1][0] / best[2][0]
    print(f"  --jobs 2 / --jobs 1   {ratio:5.2f}x wall   (target >= 1.7x on 2 idle cores)")
    return ratio


def _compress(source: Path, target: Path) -> None:
    """``source`` compressed with zstd at its default level, as ``zstd`` writes it."""
    import zstandard

    with open(source, "rb") as plain, open(target, "wb") as packed:
        zstandard.ZstdCompressor().copy_stream(plain, packed)


def main(argv: list[str] | None = None) -> list[float]:
    parser = argparse.ArgumentParser()
    parser.add_argument("--megabytes", type=int, default=200, help="size of the normalize database")
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    args = parser.parse_args(argv or [])
    notation = _command()
    with tempfile.TemporaryDirectory() as tmp:
        pgn = Path(tmp) / "db.pgn"
        bench_pgn.build_database(pgn, args.megabytes)
        games = Path(tmp) / "games.pgn"
        bench_check.make_database(games, games=bench_check.GAMES * 2)
        compressed = Path(tmp) / "db.pgn.zst"
        _compress(pgn, compressed)
        out = Path(tmp) / "out.pgn"
        load_before = os.getloadavg()

        def normalize_argv(source: Path) -> Callable[[int], list[str]]:
            return lambda jobs: [notation, "normalize", str(source), "-o", str(out), "--profile", "xboard",
                                 "--moves", "keep", "--jobs", str(jobs), "--progress", "never", "--summary", "none"]

        normalize = measure(normalize_argv(pgn), args.rounds)
        streamed = measure(normalize_argv(compressed), args.rounds)
        try:
            check: dict[int, tuple[float, float]] | str = measure(
                lambda jobs: [notation, "check", str(games), "--jobs", str(jobs), "--progress", "never"], args.rounds)
        except Unsupported as exc:
            check = str(exc)
        load_after = os.getloadavg()
        ratios = [
            _print(f"notation normalize --jobs ({pgn.stat().st_size / 1e6:.0f} MB database, profile xboard, "
                   f"{_build()} build, whole processes, best of {args.rounds})", pgn.stat().st_size, normalize),
            _print(f"notation normalize --jobs, the same database as .zst ({compressed.stat().st_size / 1e6:.1f} MB; "
                   "MB/s of PGN text)", pgn.stat().st_size, streamed),
            _print(f"notation check --jobs ({games.stat().st_size / 1e6:.0f} MB, {bench_check.GAMES * 2:,} games)",
                   games.stat().st_size, check),
        ]
    print(f"  load average {load_before[0]:.2f} before, {load_after[0]:.2f} after (2 cores; above about 0.5 "
          "other work shares them and the ratios drop)")
    return ratios


if __name__ == "__main__":
    main(sys.argv[1:])
