"""PGN normalising throughput against python-chess, and memory against input size.

The database: seeded random games played by python-chess in nine variants (mostly
standard, as in real dumps), exported lichess-style with clock comments, Variant tags and
FEN/SetUp on Chess960, Horde and Racing Kings games; repeated to the wanted size.

ours:          `notation normalize DB -o OUT --profile xboard` (read, split, rewrite Variant
               and FEN tags, write), in this process, whole file
python-chess:  chess.pgn.read_game + str(game) over the first MB of the same file
ratio:         of CPU time spent by this process (robust to other load), and of wall time
memory:        peak RSS and tracemalloc peak of a fresh process normalising a 10 MB and
               a 50 MB database

``--jobs``: bench_jobs.py (whole processes of the installed command, 1 and 2 workers). The
moves are not read here (``--moves keep``): bench_movetext.py reads every one.

    python bench/bench_pgn.py [--sizes 10,50]
"""

from __future__ import annotations

import argparse
import io
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import chess
import chess.pgn
import chess.variant

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from notation.cli.main import main as notation_main  # noqa: E402

VARIANTS = [  # (board class, weight, start from a set-up)
    (chess.Board, 10, False),
    (chess.variant.CrazyhouseBoard, 2, False),
    ("chess960", 2, True),
    (chess.variant.ThreeCheckBoard, 1, False),
    (chess.variant.AtomicBoard, 1, False),
    (chess.variant.AntichessBoard, 1, False),
    (chess.variant.KingOfTheHillBoard, 1, False),
    (chess.variant.HordeBoard, 1, True),
    (chess.variant.RacingKingsBoard, 1, True),
]
UNIQUE_GAMES = 500
SAMPLE_BYTES = 1 << 20


def _random_game(rng: random.Random, number: int, variants: list = VARIANTS) -> str:
    kinds = [v for v in variants for _ in range(v[1])]
    board_class, _weight, from_setup = rng.choice(kinds)
    if board_class == "chess960":
        board = chess.Board.from_chess960_pos(rng.randrange(960))
        board.chess960 = True
    else:
        board = board_class()
    start = board.copy()
    moves = []
    for _ in range(rng.randint(30, 120)):
        legal = list(board.legal_moves)
        if not legal or board.is_variant_end():
            break
        move = rng.choice(legal)
        moves.append(move)
        board.push(move)
    game = chess.pgn.Game.from_board(board)
    game.headers.update({
        "Event": "Rated Blitz game", "Site": f"https://lichess.org/{number:08d}", "Date": "2024.01.31",
        "White": f"player{rng.randrange(10**5)}", "Black": f"player{rng.randrange(10**5)}",
        "UTCDate": "2024.01.31", "UTCTime": "12:34:56", "WhiteElo": str(rng.randint(800, 2800)),
        "BlackElo": str(rng.randint(800, 2800)), "TimeControl": "180+2", "Termination": "Normal",
    })
    if not from_setup:
        game.headers.pop("FEN", None)
        game.headers.pop("SetUp", None)
    if from_setup:
        game.headers["FEN"] = start.fen()
        game.headers["SetUp"] = "1"
    clock = 180
    for node in game.mainline():
        clock = max(0, clock - rng.randint(0, 6))
        node.comment = f"[%clk 0:{clock // 60:02d}:{clock % 60:02d}]"
    return str(game) + "\n\n"


def build_database(path: Path, megabytes: int, seed: int = 11) -> None:
    rng = random.Random(seed)
    games = "".join(_random_game(rng, i) for i in range(UNIQUE_GAMES))
    target = megabytes * 1_000_000
    with open(path, "w", encoding="utf-8", newline="") as out:
        written = 0
        while written < target:
            out.write(games)
            written += len(games)


def build_games(path: Path, games: int, seed: int = 11, kinds: list = VARIANTS) -> None:
    """``games`` seeded random games, each its own (``build_database`` repeats 500), as
    bench_movetext reads every move of them; ``kinds`` as VARIANTS (board class, weight,
    start from a set-up)."""
    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8", newline="") as out:
        for number in range(games):
            out.write(_random_game(rng, number, kinds))


def _rates(size: int, work) -> tuple[float, float]:
    """(wall, CPU) MB/s of ``work()`` over ``size`` bytes. CPU time is what this process
    spent, so the ratio holds on a machine busy with other work; both peers run in here."""
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return size / (time.perf_counter() - wall) / 1e6, size / (time.process_time() - cpu) / 1e6


def python_chess_rates(path: Path) -> tuple[float, float]:
    """MB/s of read_game + str(game) over the first SAMPLE_BYTES of ``path``."""
    with open(path, encoding="utf-8", newline="") as source:
        text = source.read(SAMPLE_BYTES)
    text = text[: text.rfind("\n\n[") + 2]

    def work():
        stream = io.StringIO(text)
        while True:
            game = chess.pgn.read_game(stream)
            if game is None:
                break
            str(game)

    return _rates(len(text.encode()), work)


def our_rates(path: Path, jobs: int = 1) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.pgn")

        def work():
            code = notation_main(["normalize", str(path), "-o", out, "--profile", "xboard", "--moves", "keep",
                                  "--jobs", str(jobs), "--progress", "never", "--summary", "none"])
            assert code in (0, 1), code

        return _rates(path.stat().st_size, work)


_MEMORY_PROBE = """
import os, resource, sys, tempfile, tracemalloc
sys.path.insert(0, {root!r})
from notation.cli.main import main
def hwm():
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
try:  # the high-water mark survives exec: start it afresh (Linux >= 4.0)
    with open("/proc/self/clear_refs", "w") as refs:
        refs.write("5")
except OSError:
    pass
if {traced!r}:
    tracemalloc.start()
with tempfile.TemporaryDirectory() as tmp:
    main(["normalize", {path!r}, "-o", os.path.join(tmp, "o.pgn"), "--profile", "xboard", "--moves", "keep",
          "--progress", "never", "--summary", "none"])
print(tracemalloc.get_traced_memory()[1] / 1e6 if {traced!r} else hwm())
"""


def peak_memory_mb(path: Path, *, traced: bool) -> float:
    """Peak RSS (MB), or tracemalloc's peak of Python allocations, of a fresh process
    running the same normalise command."""
    code = _MEMORY_PROBE.format(root=str(ROOT), path=str(path), traced=traced)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> list[float]:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="10,50", help="database sizes in MB for the memory check")
    args = parser.parse_args(argv or [])
    sizes = [int(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        paths = {}
        for size in sizes:
            paths[size] = Path(tmp) / f"db{size}.pgn"
            build_database(paths[size], size)
        biggest = paths[max(sizes)]
        theirs = python_chess_rates(biggest)
        ours = our_rates(biggest)
        rss = {size: peak_memory_mb(path, traced=False) for size, path in paths.items()}
        traced = {size: peak_memory_mb(path, traced=True) for size, path in paths.items()}
    print(f"PGN normalize ({max(sizes)} MB database, profile xboard)")
    print(f"  ours (1 process)   {ours[1]:8.1f} MB/s CPU   {ours[0]:8.1f} MB/s wall")
    print(f"  python-chess       {theirs[1]:8.2f} MB/s CPU   {theirs[0]:8.2f} MB/s wall  (read_game + str(game))")
    ratio = ours[1] / theirs[1]
    print(f"  ratio              {ratio:8.1f}x CPU     {ours[0] / theirs[0]:8.1f}x wall  (target >= 100x)")
    print("  peak RSS:          " + ", ".join(f"{size} MB input -> {rss[size]:.0f} MB" for size in sizes))
    print("  tracemalloc peak:  " + ", ".join(f"{size} MB input -> {traced[size]:.1f} MB" for size in sizes))
    return [ratio]


if __name__ == "__main__":
    main(sys.argv[1:])
