"""python-chess's side of bench_movetext (GPL, bench-only peer): every game of a PGN file
read with ``chess.pgn.read_game``, which reads each move (SAN) in the game's variant (its
``Variant`` tag) from its start or ``FEN`` tag and plays it, collecting what it cannot read
in ``game.errors``. Nothing is written; the counts are printed as one JSON line.
``--plies`` also counts the main lines' moves (a walk over each game's nodes: not part of
the work timed).

    python bench/pychess_pgn.py FILE [--plies]
"""

from __future__ import annotations

import json
import sys

import chess.pgn


def main(path: str, count_plies: bool = False) -> None:
    games = plies = errors = 0
    with open(path, encoding="utf-8") as source:
        while True:
            game = chess.pgn.read_game(source)
            if game is None:
                break
            games += 1
            errors += bool(game.errors)
            if count_plies:
                plies += sum(1 for _ in game.mainline())
    print(json.dumps({"games": games, "plies": plies, "errors": errors}))


if __name__ == "__main__":
    main(sys.argv[1], "--plies" in sys.argv[2:])
