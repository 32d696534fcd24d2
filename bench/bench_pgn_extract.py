"""``notation`` beside pgn-extract, per CPU second: reading every move, rewriting every
move, and starting up.

pgn-extract (David J. Barnes's, in C, GPL: built from its public source and put on PATH,
never vendored) is the fastest PGN tool people run on whole databases; this bench is
skipped, saying so, where it is not on PATH. It reads standard chess only, so both sides
read standard games:

- the movetext bench's generator (bench_pgn: seeded random games, lichess-style tags and
  clock comments), GAMES games each its own;
- a real-games file where ``NOTATION_REAL_PGN`` names one (a lichess monthly dump cut to
  a few thousand games, say); its games that are not standard chess count on both sides.

Each pair runs as whole processes taking turns, ROUNDS rounds, best CPU time (user +
system) of each, and peak memory and page faults by GNU time (each page of memory touched
for the first time costs one, which the CPU time includes):

=============================  ====================================
ours                           pgn-extract
=============================  ====================================
``check FILE``                 ``-r`` (read and verify every move)
``normalize --moves uci``      ``-Wuci``
``normalize --moves lan``      ``-Wlalg``
``normalize --moves san``      SAN output (every move written anew)
``check`` of one game          ``-r`` of one game (start-up)
=============================  ====================================

The ratio is pgn-extract's CPU over ours: 1.00x or more is as fast or faster, the target.
Each job is also run on a one-game file, and what a game costs beyond that start-up is
printed beside (``per game``: the whole run less the one-game run, over the games but one):
on a file of a few thousand games our start-up is a good part of the whole, theirs next to
nothing, and the two figures say which of them a change moved. From them, the number of such
games from which ours takes no more CPU than pgn-extract's (``level from``).
Where valgrind is installed, each job's instructions are counted too, ours and
pgn-extract's (callgrind, whole processes): the count a change is judged by.

    python bench/bench_pgn_extract.py [--games 2000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import bench_pgn
import chess
from bench_instructions import instructions
from common import measured_run

GAMES = 2_000
ROUNDS = 3
TARGET = 1.0
ONE_GAME = '[Event "?"]\n[White "?"]\n[Black "?"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n'


def _pairs(path: Path, extract: str) -> dict[str, tuple[list[str], list[str]]]:
    """What each job is, as our command and pgn-extract's, on ``path``."""
    script = Path(sys.executable).with_name("notation")  # the command users run, where it is installed
    notation = [str(script)] if script.exists() else [sys.executable, "-m", "notation"]
    normalize = [*notation, "normalize", str(path), "-o", os.devnull, "--progress", "never", "--summary", "none"]
    quiet = [extract, "-s", "-o", os.devnull]
    return {
        "check / -r": ([*notation, "check", str(path), "--progress", "never"], [extract, "-s", "-r", str(path)]),
        "normalize --moves uci / -Wuci": ([*normalize, "--moves", "uci"], [*quiet, "-Wuci", str(path)]),
        "normalize --moves lan / -Wlalg": ([*normalize, "--moves", "lan"], [*quiet, "-Wlalg", str(path)]),
        "normalize --moves san / SAN": ([*normalize, "--moves", "san"], [*quiet, str(path)]),
    }


Figures = tuple[float, int, int]  # best CPU seconds, peak KiB, fewest page faults


def _measure(pairs: dict[str, tuple[list[str], list[str]]], rounds: int) -> dict[str, tuple[Figures, ...]]:
    """Per job, (our figures, pgn-extract's), the runs taking turns."""
    best = {name: [[float("inf"), 0, 1 << 62], [float("inf"), 0, 1 << 62]] for name in pairs}
    for _ in range(rounds):
        for name, commands in pairs.items():
            for side, argv in enumerate(commands):
                run = measured_run(argv)  # a game check refuses is a non-zero status: still timed
                figures = best[name][side]
                figures[:] = min(figures[0], run.cpu), max(figures[1], run.peak), min(figures[2], run.faults)
    return {name: tuple((cpu, peak, faults) for cpu, peak, faults in sides) for name, sides in best.items()}


def _print(title: str, games: int, figures: dict[str, tuple[Figures, ...]], target: str = "") -> list[float]:
    """Print each pair's figures and ratio beside ``target`` (the issue's ``>= 1.00x`` by
    default); return the ratios."""
    target = target or f"target >= {TARGET:.2f}x"
    print(title)
    ratios = []
    for name, ((ours, our_peak, our_faults), (theirs, their_peak, their_faults)) in figures.items():
        ratio = theirs / ours
        ratios.append(ratio)
        per_second = f"{games / ours:8,.0f} vs {games / theirs:8,.0f} games/s" if games > 1 else \
            f"{ours * 1e3:6.1f} vs {theirs * 1e3:6.1f} ms CPU    "
        print(f"  {name:32} {per_second}   peak {our_peak / 1024:5.1f} vs {their_peak / 1024:5.1f} MiB   "
              f"page faults {our_faults:6,} vs {their_faults:5,}   {ratio:5.2f}x ({target})")
    return ratios


def _print_per_game(games: int, whole: dict[str, tuple[Figures, ...]], one: dict[str, tuple[Figures, ...]]) -> None:
    """Per job, the CPU a game costs each side beyond its start-up (the one-game run), and
    the size of file from which ours takes no more CPU than pgn-extract's (``_level_from``)."""
    for name, ((ours, _, _), (theirs, _, _)) in whole.items():
        (our_start, _, _), (their_start, _, _) = one[name]
        our_game, their_game = (ours - our_start) / (games - 1), (theirs - their_start) / (games - 1)
        print(f"  per game, start-up taken off: {name:32} {our_game * 1e6:6.1f} vs {their_game * 1e6:6.1f} us   "
              f"{their_game / our_game:5.2f}x   (start-up {our_start * 1e3:5.1f} vs {their_start * 1e3:4.1f} ms; "
              f"{_level_from(our_start, their_start, our_game, their_game)})")


def _level_from(our_start: float, their_start: float, our_game: float, their_game: float) -> str:
    """From how many games of this file ours takes no more CPU than pgn-extract's: a start-up
    dearer than theirs is paid back by each game that costs ours less."""
    if our_game >= their_game:
        return "ours dearer a game: behind at any size" if our_start >= their_start else "ours dearer a game"
    games = 1 + max(our_start - their_start, 0.0) / (their_game - our_game)
    return f"ours level from {games:,.0f} games"


def _print_instructions(pairs: dict[str, tuple[list[str], list[str]]]) -> None:
    """Each job's instructions, ours and pgn-extract's, counted by valgrind's callgrind:
    the same count whatever else the machine runs (bench_instructions says why), so the
    figure to judge a change by where the CPU times move by a few per cent."""
    if shutil.which("valgrind") is None:
        print("  instructions (callgrind): valgrind is not installed here; not counted")
        return
    jobs = [(name, side, argv) for name, commands in pairs.items() for side, argv in enumerate(commands)]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:  # a count does not depend on the load
        counts = dict(zip([(name, side) for name, side, _ in jobs],
                          pool.map(lambda job: instructions(job[2], Path(os.devnull)), jobs), strict=True))
    for name in pairs:
        ours, theirs = counts[(name, 0)], counts[(name, 1)]
        print(f"  instructions (callgrind), {name:32} {ours / 1e6:7,.0f} vs {theirs / 1e6:7,.0f} million   "
              f"{theirs / ours:5.2f}x")


def _games_in(path: Path) -> int:
    with open(path, "rb") as source:
        return sum(line.startswith(b"[Event ") for line in source) or 1


def main(argv: list[str] | None = None) -> list[float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    args = parser.parse_args(argv or [])
    extract = shutil.which("pgn-extract")
    if extract is None:
        print("beside pgn-extract: skipped, pgn-extract is not on PATH (build it from its public source)")
        return []
    ratios: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        one = directory / "one.pgn"
        one.write_text(ONE_GAME)
        generated = directory / "standard.pgn"
        bench_pgn.build_games(generated, args.games, kinds=[(chess.Board, 1, False)])
        files = [("the movetext bench's generator, standard chess", generated)]
        real = os.environ.get("NOTATION_REAL_PGN")
        if real and Path(real).is_file():
            files.append((f"real games, {Path(real).name}", Path(real)))
        for what, path in files:
            games = _games_in(path)
            title = (f"beside pgn-extract: {what} ({games:,} games, {path.stat().st_size / 1e6:.1f} MB; whole "
                     f"processes, CPU time, best of {args.rounds} in turns; load average {os.getloadavg()[0]:.2f})")
            whole = _measure(_pairs(path, extract), args.rounds)
            ratios += _print(title, games, whole)
            if games > 1:
                _print_per_game(games, whole, _measure(_pairs(one, extract), args.rounds * 5))
            _print_instructions(_pairs(path, extract))
        if not real:
            print("  (no real-games file: NOTATION_REAL_PGN names one)")
        start = {"start-up, check / -r": _pairs(one, extract)["check / -r"]}
        # No target beside pgn-extract's start-up: a C program's is a few milliseconds, and
        # start-up's own target is bench_startup's (35 ms of CPU for the whole process).
        ratios += _print("beside pgn-extract: start-up, one game", 1, _measure(start, args.rounds * 5),
                         "no target here: bench_startup's 35 ms of CPU is start-up's")
    return ratios


if __name__ == "__main__":
    main(sys.argv[1:])
