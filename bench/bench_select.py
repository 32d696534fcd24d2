"""The database jobs beside ``notation check`` on bench_movetext's database: ``select``,
``split``, ``normalize --export``, ``--duplicates`` and the repairs; whole processes, CPU
time (best of REPEATS), games/s and peak memory.

Selecting by tags or variant reads no move (the splitter's cost); ``--reaches``, ``--plies``
and ``--has-problem`` read every move as ``check`` does, and so do the export, the duplicate
finder and the repairs. The target: no job costs more than 2x ``check`` on the same file.
pgn-extract doing the same jobs (a tag, a position, export format, ``-D``) is timed beside
them where it is on PATH (it reads standard chess only: on this database of nine variants
it refuses or misreads the others' moves, so its figure is its speed, not a like-for-like
answer).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import bench_movetext
import bench_pgn
from common import cpu_and_peak

REPEATS = 2
TARGET = 2.0  # at most this many times check's CPU
REACHED = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


def _commands(path: Path, directory: Path) -> dict[str, list[str]]:
    notation = [sys.executable, "-m", "notation"]
    out = {"check": [*notation, "check", str(path), "--progress", "never"]}
    select = [*notation, "select", str(path), "-o", os.devnull, "--summary", "none"]
    out["select (no criterion)"] = select
    out["select --tag Event~Blitz"] = [*select, "--tag", "Event~Blitz"]
    out["select --variant crazyhouse"] = [*select, "--variant", "crazyhouse"]
    out["select --reaches FEN"] = [*select, "--reaches", REACHED]
    out["select --plies 80:"] = [*select, "--plies", "80:"]
    out["select --has-problem illegal-move"] = [*select, "--has-problem", "illegal-move"]
    out["split --games 100"] = [*notation, "split", str(path), "--games", "100", "-o", str(directory / "parts"),
                                "--force"]
    normalize = [*notation, "normalize", str(path), "-o", os.devnull, "--progress", "never", "--summary", "none"]
    out["normalize --export full"] = [*normalize, "--export", "full"]
    out["normalize --export reduced"] = [*normalize, "--export", "reduced"]
    out["normalize --duplicates drop"] = [*normalize, "--duplicates", "drop"]
    out["normalize --duplicates-by prefix"] = [*normalize, "--duplicates", "drop", "--duplicates-by", "prefix"]
    out["normalize --broken truncate"] = [*normalize, "--broken", "truncate"]
    out["normalize --fix-results"] = [*normalize, "--fix-results"]
    out["normalize --fix-tags"] = [*normalize, "--fix-tags"]
    out["normalize --fix-move-numbers"] = [*normalize, "--fix-move-numbers"]
    extract = shutil.which("pgn-extract")
    if extract is not None:
        tags = directory / "tags.txt"
        tags.write_text('Event "Blitz"\n')
        out["pgn-extract -t (a tag)"] = [extract, "-s", "-t", str(tags), "-o", os.devnull, str(path)]
        fen = directory / "fen.txt"
        fen.write_text(f'FENPattern "{REACHED.split()[0]}"\n')
        out["pgn-extract -t FENPattern"] = [extract, "-s", "-t", str(fen), "-o", os.devnull, str(path)]
        out["pgn-extract (export format)"] = [extract, "-s", "-o", os.devnull, str(path)]
        out["pgn-extract -D"] = [extract, "-s", "-D", "-o", os.devnull, str(path)]
    return out


def main(argv: list[str] | None = None) -> list[float]:
    ratios: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        path = directory / "games.pgn"
        bench_pgn.build_games(path, bench_movetext.GAMES)
        games = bench_movetext.GAMES
        commands = _commands(path, directory)
        best = dict.fromkeys(commands, float("inf"))
        peak = dict.fromkeys(commands, 0)
        for _ in range(REPEATS):
            for name, command in commands.items():
                cpu, rss, _ = cpu_and_peak(command)
                best[name] = min(best[name], cpu)
                peak[name] = max(peak[name], rss)
        load = os.getloadavg()[0]
        print(f"database jobs beside check ({games:,} games, {path.stat().st_size / 1e6:.1f} MB, nine variants; whole "
              f"processes, CPU time, best of {REPEATS}; load average {load:.2f}; {time.strftime('%Y-%m-%d')})")
        check = best["check"]
        for name, cpu in best.items():
            ratio = cpu / check
            ours = name.startswith(("select", "split", "normalize"))
            if ours:
                ratios.append(ratio)
            print(f"  {name:38} {cpu:6.2f} s  {games / cpu:7.0f} games/s  {peak[name] / 1024:6.1f} MiB peak   "
                  f"{ratio:5.2f}x check" + (f"  (target <= {TARGET:.0f}x)" if ours else ""))
    return ratios


if __name__ == "__main__":
    main(sys.argv[1:])
