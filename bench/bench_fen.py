"""Read + write throughput against python-chess, on the same positions, in one run.

ours:          write_fen(read_fen(fen).setup)             (issue 2: target >= 5x)
python-chess:  Board(fen).fen()
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import BOARD_CLASSES, best_of, positions, report  # noqa: E402

from notation import find_variant, read_fen, write_fen  # noqa: E402
from notation.fen.profiles import PROFILES  # noqa: E402

COUNT = 3000
REPEATS = 5


def main() -> list[float]:
    rows = []
    options = PROFILES["python-chess"]
    for key in ("standard", "crazyhouse", "threecheck"):
        fens = positions(key, COUNT)
        variant = find_variant(key)
        board_class = BOARD_CLASSES[key]

        def ours():
            for fen in fens:
                write_fen(read_fen(fen, variant).setup, variant, options)

        def theirs():
            for fen in fens:
                board_class(fen).fen()

        # Same answers before timing anything.
        for fen in fens[:200]:
            assert write_fen(read_fen(fen, variant).setup, variant, options).fen == board_class(fen).fen()
        rows.append((key, best_of(REPEATS, ours), best_of(REPEATS, theirs), len(fens)))
    return report("FEN read + write (bench_fen)", rows)


if __name__ == "__main__":
    main()
