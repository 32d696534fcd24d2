"""What ``--variant auto`` costs: validating FENs whose variant is guessed against FENs
whose variant is given, on the same positions, in one run (CPU time, best of a few).

The guess reads the FEN with each registry variant's reader and judges the setups that
read, so it costs a few validations; the figure says how many.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import BOARD_CLASSES, best_of, positions  # noqa: E402

from notation.guess import guess_variant  # noqa: E402
from notation.operations import validate_fen  # noqa: E402

COUNT = 1000
REPEATS = 3
VARIANTS = ("standard", "crazyhouse", "threecheck", "horde")


def main() -> None:
    print("bench_guess: validate with --variant given vs --variant auto (CPU time, best of 3)")
    for variant in (key for key in VARIANTS if key in BOARD_CLASSES):
        fens = positions(variant, COUNT)
        given = best_of(REPEATS, lambda: [validate_fen(fen, variant) for fen in fens], time.process_time)
        guessed = best_of(
            REPEATS, lambda: [validate_fen(fen, guess_variant(fen).variant) for fen in fens], time.process_time
        )
        right = sum(guess_variant(fen).variant.key == variant for fen in fens)
        per_given, per_guessed = given / len(fens) * 1e6, guessed / len(fens) * 1e6
        print(
            f"  {variant:<11} given {per_given:7.1f} us/FEN   auto {per_guessed:7.1f} us/FEN"
            f"   x{guessed / given:4.1f}   guessed right {right}/{len(fens)}"
        )


if __name__ == "__main__":
    main()
