"""Board pictures: ``notation.svg.board_svg`` against python-chess's ``chess.svg.board``, on
the same positions of real games, in one run (figures for humans, never assertions).

ours:          board_svg(setup, variant)                  (setups already read)
python-chess:  chess.svg.board(board)                     (boards already built)

Also prints the size of one picture of the start position from each, in bytes.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import chess.svg  # noqa: E402
from common import BOARD_CLASSES, best_of, positions, report  # noqa: E402

from notation.fen.reader import read_fen  # noqa: E402
from notation.svg import board_svg  # noqa: E402
from notation.variants import find_variant  # noqa: E402

COUNT = 300
REPEATS = 3
VARIANTS = ("standard", "crazyhouse")


def main() -> list[float]:
    rows = []
    for key in VARIANTS:
        fens = positions(key, COUNT)
        variant = find_variant(key)
        setups = [read_fen(fen, variant).setup for fen in fens]
        boards = [BOARD_CLASSES[key](fen) for fen in fens]
        rows.append(
            (
                key,
                best_of(REPEATS, lambda: [board_svg(setup, variant) for setup in setups]),
                best_of(REPEATS, lambda: [chess.svg.board(board) for board in boards]),
                len(fens),
            )
        )
    ratios = report("board pictures (python-chess time / ours)", rows)
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    ours = len(board_svg(read_fen(start).setup, find_variant("standard")).encode())
    theirs = len(chess.svg.board(chess.Board(start)).encode())
    print(f"  start position picture: ours {ours:,} bytes, python-chess {theirs:,} bytes")
    return ratios


if __name__ == "__main__":
    main()
