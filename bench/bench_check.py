"""`notation check` on a 100,000-game PGN against merely reading it, in one run.

The target: the check runs at nearly the speed of reading the file. Figures:
- the PGN splitter alone (iter_games over the same decoded blocks the check reads),
- python-chess's chess.pgn.read_headers over the same file (the peer's fastest reader),
- notation check (which validates every FEN tag as well).
One game in ten carries a Chess960 FEN, as in a lichess export.
"""

from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path

GAMES = 100_000


def make_database(path: Path, games: int = GAMES, seed: int = 7) -> None:
    rng = random.Random(seed)
    # Every pawn one step, then two: legal from the standard array and every Chess960 one
    # (check reads every move, so a game must hold no illegal one).
    pushes = [f"{file}3 {{ [%clk 0:03:00] }} {file}6" for file in "abcdefgh"]
    pushes += [f"{file}4 {{ [%clk 0:03:00] }} {file}5" for file in "abcdefgh"]
    moves = " ".join(f"{number}. {push} {{ [%clk 0:03:00] }}" for number, push in enumerate(pushes, 1))
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        for index in range(games):
            tags = [("Event", "Rated Blitz game"), ("Site", f"https://lichess.org/{index:08d}"),
                    ("Date", "2024.01.01"), ("Round", "-"), ("White", f"player{rng.randrange(5000)}"),
                    ("Black", f"player{rng.randrange(5000)}"), ("Result", "1-0"), ("TimeControl", "180+0")]
            if index % 10 == 0:
                back = list("RNBQKBNR")
                rng.shuffle(back)
                row = "".join(back)
                fen = f"{row.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{row} w - - 0 1"
                tags += [("Variant", "Chess960"), ("FEN", fen), ("SetUp", "1")]
            out.write("".join(f'[{name} "{value}"]\n' for name, value in tags))
            out.write(f"\n{moves} 1-0\n\n")


def timed(work) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def main() -> None:
    import chess.pgn

    from notation.check import CheckOptions, run_check
    from notation.check.lines import read_blocks
    from notation.pgn.splitter import iter_games
    from notation.variants import DEFAULT_REGISTRY

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "games.pgn"
        make_database(path)
        size = path.stat().st_size / 1e6

        def splitter():
            with open(path, "rb") as handle:
                for _ in iter_games(read_blocks(handle, lambda *args: None, max_bytes=1 << 20)):
                    pass

        def peer():
            with open(path, encoding="utf-8") as handle:
                while chess.pgn.read_headers(handle) is not None:
                    pass

        found = []

        def check():
            options = CheckOptions(DEFAULT_REGISTRY.find("standard"), DEFAULT_REGISTRY)
            run_check([str(path)], options, found.append)

        reading = min(timed(splitter) for _ in range(2))
        theirs = timed(peer)
        ours = min(timed(check) for _ in range(2))
        print(f"notation check on {GAMES:,} games ({size:.0f} MB) (bench_check)")
        print(f"  reading only (splitter)      {reading:6.2f} s  {size / reading:6.1f} MB/s")
        print(f"  python-chess read_headers    {theirs:6.2f} s  {size / theirs:6.1f} MB/s")
        print(f"  notation check               {ours:6.2f} s  {size / ours:6.1f} MB/s")
        print(f"  check / reading {ours / reading:4.2f}x   python-chess headers / check {theirs / ours:4.2f}x")
        print(f"  problems found: {len(found)} (expected 0)")


if __name__ == "__main__":
    main()
