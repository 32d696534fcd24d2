"""Reading every move of a PGN database: whole ``notation check`` and ``notation normalize
--moves san`` processes against python-chess's ``read_game`` doing the same work, compiled
and pure, and ``--jobs 2`` against ``--jobs 1``.

Database: bench_pgn's generator (seeded random games in nine lichess variants, clock
comments, Chess960, Horde and Racing Kings games from a FEN tag), GAMES games each its own.

- ours: ``notation check FILE`` (tags, FEN, every move read and played, every variation)
  and ``notation normalize FILE --moves san -o /dev/null`` (the same, and each move written
  in SAN); "compiled" is the installed command beside this interpreter (its build is
  printed), "pure" the same command from a copy of the repository's ``.py`` sources with
  their bytecode compiled (common.pure_build);
- python-chess: ``bench/pychess_pgn.py FILE``, a whole process reading every game with
  ``chess.pgn.read_game`` (every move parsed and played in the game's variant);
- CPU time (user + system of the process, robust to other load), best of REPEATS runs
  taken in turns; games/s, microseconds a ply, and the ratio python-chess / ours
  (target: 10x for both commands);
- instructions: the same two compiled commands counted by valgrind's callgrind
  (bench_instructions.instructions: the same count whatever else the machine runs, so the
  figure to judge a change by where CPU times move by a few per cent); skipped without
  valgrind;
- ``--jobs``: larger databases (bench_pgn.build_database, JOBS_MEGABYTES: one that one
  process reads in under a second, where what cannot be shared, start-up above all,
  weighs most, and one four times larger; a file is cut into pieces at game starts, 4 MB
  at most and smaller towards its end), wall time of ``--jobs 1`` and ``--jobs 2`` taken
  in turns, compiled build; in the same turns, what two processes of plain Python work at
  once get done against one (``common.ParallelCeiling``: the most two processes can give
  on this machine, 2.0 on two cores of their own), and each ratio as a share of it.
  The target, 1.7x on two idle cores, is judged on the database of JUDGED_MEGABYTES, the
  size ``--jobs`` is for: one process takes seconds there and start-up is a few per cent
  of it. The smaller one is printed beside what its start-up allows (``_allowed``),
  ``(S + W) / (S + W / C)`` with S the start-up (``check`` of an empty file), W the rest of
  ``--jobs 1``'s time and C the ceiling: 2 on two idle cores, and the one measured in the
  run (itself a noisy figure). Start-up is paid once before the work can be shared, so on
  a second's work it brings the ratio down to the target's neighbourhood (about 1.85x on
  two idle cores, with 0.06 s of start-up on 0.72 s), where a shared machine's few per
  cent decide.

    python bench/bench_movetext.py [--games 2000] [--jobs-megabytes 16 64] [--repeats 3] [--no-pure]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_pgn  # noqa: E402
from common import ParallelCeiling, pure_build, pure_command, timed_process  # noqa: E402

GAMES = 2_000
JOBS_MEGABYTES = (16, 64)
REPEATS = 3
TARGET = 10.0
JOBS_TARGET = 1.7
JUDGED_MEGABYTES = 64  # the --jobs database the target is judged on (see the module doc)


def _installed() -> str:
    script = Path(sys.executable).with_name("notation")
    if not script.exists():
        raise SystemExit(f"bench_movetext: no notation command beside {sys.executable}; install the package first")
    return str(script)


def _build() -> str:
    """Which build the installed command runs: compiled (mypyc) or pure Python."""
    probe = ("import notation.pgn.movetext as m; "
             "print('compiled' if m.__file__.endswith(('.so', '.pyd')) else 'pure')")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd="/")
    return done.stdout.strip() or "unknown"


def _commands(path: Path, pure: Path | None) -> dict[str, list[str]]:
    installed = _installed()
    sides = {"compiled": [installed]}
    if pure is not None:
        sides["pure"] = pure_command(pure)
    out: dict[str, list[str]] = {"python-chess read_game": [sys.executable, str(HERE / "pychess_pgn.py"), str(path)]}
    extract = shutil.which("pgn-extract")
    if extract is not None:  # the duplicates beside pgn-extract's (-D: duplicate games not written)
        out["pgn-extract -D"] = [extract, "-D", "-s", f"-o{os.devnull}", str(path)]
    for build, argv in sides.items():
        out[f"check ({build})"] = [*argv, "check", str(path), "--progress", "never"]
        out[f"normalize --moves san ({build})"] = [*argv, "normalize", str(path), "--moves", "san", "-o", os.devnull,
                                                   "--progress", "never", "--summary", "none"]
        out[f"normalize --duplicates drop ({build})"] = [*argv, "normalize", str(path), "--duplicates", "drop", "-o",
                                                         os.devnull, "--progress", "never", "--summary", "none"]
    return out


def _best_cpu(commands: dict[str, list[str]], repeats: int) -> dict[str, float]:
    """The least CPU seconds of each command over ``repeats`` turns."""
    best = dict.fromkeys(commands, float("inf"))
    for _ in range(repeats):
        for name, argv in commands.items():  # in turns, so noise hits every side alike
            _, cpu, status, errors = timed_process(argv, b"")
            if status not in (0, 1):
                raise SystemExit(f"bench_movetext: {' '.join(argv)} failed ({status}): {errors.decode()[-500:]}")
            best[name] = min(best[name], cpu)
    return best


def _best_wall(argv_for: Callable[[int], list[str]], repeats: int,
               ceiling: ParallelCeiling) -> dict[int, tuple[float, float]]:
    """Best (wall, CPU) of ``--jobs 1`` and ``--jobs 2``, in turns with rounds of ``ceiling``."""
    best: dict[int, tuple[float, float]] = {}
    for _ in range(repeats):
        ceiling.round()
        for jobs in (1, 2):
            wall, cpu, status, errors = timed_process(argv_for(jobs), b"")
            if status not in (0, 1):
                raise SystemExit(f"bench_movetext: --jobs {jobs} failed ({status}): {errors.decode()[-500:]}")
            if jobs not in best or wall < best[jobs][0]:
                best[jobs] = (wall, cpu)
    return best


def _allowed(alone: float, start: float, ceiling: float) -> float:
    """What ``--jobs 2`` can give against ``--jobs 1`` taking ``alone`` seconds, of which
    ``start`` is start-up paid before the work is shared, with two processes getting
    ``ceiling`` times the work of one done (an estimate from three timings, each the best of
    a few runs: a run can beat it by a few per cent)."""
    return alone / (start + (alone - start) / ceiling)


def _write_tags_only(source: Path, target: Path) -> None:
    """``source``'s games with their movetext cut to the result: what check costs without moves."""
    games = source.read_text(encoding="utf-8").split("\n\n[")
    out = []
    for index, game in enumerate(games):
        game = game if index == 0 else "[" + game
        head, _, moves = game.partition("\n\n")
        words = moves.split()
        out.append(head + "\n\n" + (words[-1] if words else "*"))
    target.write_text("\n\n".join(out) + "\n", encoding="utf-8")


def _print_instructions(path: Path, plies: int) -> None:
    """The instructions of a whole compiled ``check`` and ``normalize --moves san`` on ``path``."""
    if shutil.which("valgrind") is None:
        print("  instructions (callgrind): valgrind is not installed here; not counted")
        return
    from bench_instructions import instructions

    installed = _installed()
    for name, argv in (
        ("check", [installed, "check", str(path), "--progress", "never"]),
        ("normalize --moves san", [installed, "normalize", str(path), "--moves", "san", "-o", os.devnull,
                                   "--progress", "never", "--summary", "none"]),
    ):
        count = instructions(argv, Path(os.devnull))
        print(f"  instructions (callgrind), {name + ' (compiled)':32} {count / 1e6:7,.0f} million, "
              f"{count / plies:6,.0f} a ply (the whole process)")


def _count(path: Path) -> dict[str, int]:
    done = subprocess.run([sys.executable, str(HERE / "pychess_pgn.py"), str(path), "--plies"], capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout)


def main(argv: list[str] | None = None) -> list[float]:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--jobs-megabytes", type=int, nargs="*", default=JOBS_MEGABYTES,
                        help="sizes of the --jobs databases; none: no --jobs figures")
    parser.add_argument("--repeats", type=int, default=REPEATS)
    parser.add_argument("--no-pure", action="store_true", help="skip the pure-Python build")
    args = parser.parse_args(argv or [])
    ratios: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        path = directory / "games.pgn"
        bench_pgn.build_games(path, args.games)
        counts = _count(path)
        games, plies = counts["games"], counts["plies"]
        pure = None if args.no_pure else pure_build(directory)
        load = os.getloadavg()[0]
        best = _best_cpu(_commands(path, pure), args.repeats)
        theirs = best.pop("python-chess read_game")
        print(f"reading every move ({games:,} games, {plies:,} plies, {path.stat().st_size / 1e6:.1f} MB: nine "
              f"variants, clocks; installed build {_build()}; whole processes, CPU time, best of {args.repeats})")
        print(f"  {'python-chess read_game':36} {theirs:6.2f} s  {games / theirs:7.0f} games/s  "
              f"{theirs / plies * 1e6:5.1f} us/ply")
        for name, ours in best.items():
            ratio = theirs / ours
            ratios.append(ratio)
            print(f"  {name:36} {ours:6.2f} s  {games / ours:7.0f} games/s  {ours / plies * 1e6:5.1f} us/ply   "
                  f"ratio {ratio:5.2f}x  (target >= {TARGET:.0f}x)")
        print(f"  {TARGET:.0f}x python-chess is {theirs / TARGET / plies * 1e6:.2f} us/ply for the whole process "
              f"(load average {load:.2f} at the start)")
        _print_instructions(path, plies)
        tags_only = directory / "tags.pgn"
        _write_tags_only(path, tags_only)
        installed = _installed()
        fixed = _best_cpu({
            "start": [installed, "check", os.devnull, "--progress", "never"],
            "tags": [installed, "check", str(tags_only), "--progress", "never"],
        }, args.repeats)
        ours = best["check (compiled)"]
        print(f"  where check's time goes (compiled): starting the process {fixed['start']:.2f} s, the games' tags and "
              f"FENs {fixed['tags'] - fixed['start']:.2f} s (the same file, its movetext cut to the result), the moves "
              f"{ours - fixed['tags']:.2f} s = {(ours - fixed['tags']) / plies * 1e6:.2f} us/ply")
        for megabytes in args.jobs_megabytes:
            big = directory / f"big-{megabytes}.pgn"
            bench_pgn.build_database(big, megabytes)
            size = big.stat().st_size
            installed = _installed()
            print(f"--jobs 2 against --jobs 1 ({size / 1e6:.0f} MB, {_build()} build, wall time, best of "
                  f"{args.repeats}; load average {os.getloadavg()[0]:.2f})")
            ceiling = ParallelCeiling(seconds=0.8)
            commands: tuple[tuple[str, Callable[[int], list[str]]], ...] = (
                ("check", lambda jobs: [installed, "check", str(big), "--jobs", str(jobs), "--progress", "never"]),
                ("normalize --moves san", lambda jobs: [
                    installed, "normalize", str(big), "--moves", "san", "-o", os.devnull, "--jobs", str(jobs),
                    "--progress", "never", "--summary", "none"]),
            )
            timings = [(title, _best_wall(command, args.repeats, ceiling)) for title, command in commands]
            for title, timed in timings:
                ratio = timed[1][0] / timed[2][0]
                if megabytes == JUDGED_MEGABYTES:
                    ratios.append(ratio)
                    verdict = f"target >= {JOBS_TARGET}x on 2 idle cores"
                else:
                    idle = _allowed(timed[1][0], fixed['start'], 2.0)
                    here = _allowed(timed[1][0], fixed['start'], ceiling.ratio)
                    verdict = f"{fixed['start']:.2f} s of start-up allows {idle:4.2f}x on 2 idle cores, {here:4.2f}x " \
                              f"with this run's ceiling; the target is judged on {JUDGED_MEGABYTES} MB"
                print(f"  {title:24} --jobs 1 {timed[1][0]:6.2f} s wall ({timed[1][1]:5.2f} s CPU), --jobs 2 "
                      f"{timed[2][0]:6.2f} s wall ({timed[2][1]:5.2f} s CPU): {ratio:4.2f}x "
                      f"({verdict}), {ratio / ceiling.ratio:.0%} of the ceiling")
            print(f"  the ceiling: two processes of plain Python work at once get {ceiling.ratio:4.2f}x the work "
                  f"of one done ({ceiling.one:.2f} s alone, {ceiling.two:.2f} s two at once, best of "
                  f"{2 * args.repeats}, in turns with the above; 2.00 on two cores of their own)")
            print(f"  load average {os.getloadavg()[0]:.2f} after (2 cores; above about 0.5 other work shares them)")
            big.unlink()
    return ratios


if __name__ == "__main__":
    main(sys.argv[1:])
