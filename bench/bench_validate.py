"""Read + validate + write against python-chess, on the same positions, in one run.

ours:          read_fen -> validate -> write_fen            (target: at least 5x)
python-chess:  Board(fen) -> status() -> fen()

Also prints validate alone against status() alone on already-parsed positions (unfair to
us: python-chess built its bitboards while parsing, we build ours in validate), and the
pipeline ratio in CPU time, which other load on the machine disturbs less than wall time.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import BOARD_CLASSES, best_of, positions, report  # noqa: E402

from notation.fen.profiles import PROFILES  # noqa: E402
from notation.fen.reader import read_fen  # noqa: E402
from notation.fen.writer import write_fen  # noqa: E402
from notation.validation import validate  # noqa: E402
from notation.variants import find_variant  # noqa: E402

COUNT = 3000
REPEATS = 5
VARIANTS = ("standard", "crazyhouse", "atomic", "horde")


def main() -> list[float]:
    rows, alone, cpu = [], [], []
    options = PROFILES["python-chess"]
    for key in VARIANTS:
        fens = positions(key, COUNT)
        variant = find_variant(key)
        board_class = BOARD_CLASSES[key]

        def ours():
            for fen in fens:
                setup = read_fen(fen, variant).setup
                if not validate(setup, variant):
                    write_fen(setup, variant, options)

        def theirs():
            for fen in fens:
                board = board_class(fen)
                if not board.status():
                    board.fen()

        # Same verdicts before timing anything: these are positions of real games.
        for fen in fens[:300]:
            assert not validate(read_fen(fen, variant).setup, variant), fen
            assert not board_class(fen).status(), fen
        rows.append((key, best_of(REPEATS, ours), best_of(REPEATS, theirs), len(fens)))
        cpu_ours = best_of(REPEATS, ours, time.process_time)
        cpu.append((key, cpu_ours, best_of(REPEATS, theirs, time.process_time), len(fens)))

        setups = [read_fen(fen, variant).setup for fen in fens]
        boards = [board_class(fen) for fen in fens]
        alone.append(
            (
                key,
                best_of(REPEATS, lambda: [validate(s, variant) for s in setups]),
                best_of(REPEATS, lambda: [b.status() for b in boards]),
                len(fens),
            )
        )
    report("validate alone vs status() alone (bench_validate)", alone)
    report("FEN read + validate + write, CPU time (bench_validate)", cpu)
    return report("FEN read + validate + write (bench_validate)", rows)


if __name__ == "__main__":
    main()
