"""Xiangqi figures: read + write in each dialect, and validation, per position.

Positions come from seeded random play by Fairy-Stockfish (pyffish, test-only like
python-chess: needs the dev extra). Prints microseconds per position for:

- read + write with the ``fairy-stockfish``, ``wxf`` and ``cxboard`` profiles, beside
  pyffish's own ``get_fen(fen, [])`` (its C++ parser and writer: a reference, not a target);
- ``validate`` (placement rules, flying general, check and the one-move retro test), for all
  positions and for those in check alone (the retro test's cost).

Run: ``.venv/bin/python bench/bench_xiangqi.py``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pyffish  # noqa: E402
from common import best_of  # noqa: E402

from notation import find_variant, read_fen, write_fen  # noqa: E402
from notation.fen.profiles import PROFILES  # noqa: E402
from notation.validation import validate  # noqa: E402

COUNT = 1000
REPEATS = 3


def positions(count: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    fens: list[str] = []
    while len(fens) < count:
        fen = pyffish.start_fen("xiangqi")
        for _ in range(80):
            moves = sorted(pyffish.legal_moves("xiangqi", fen, []))
            if not moves or len(fens) >= count:
                break
            fen = pyffish.get_fen("xiangqi", fen, [rng.choice(moves)])
            fens.append(fen)
    return fens


def main() -> None:
    variant = find_variant("xiangqi")
    fens = positions(COUNT)
    per = 1e6 / len(fens)
    print(f"Xiangqi (bench_xiangqi), {len(fens)} positions from random play, microseconds per position")
    for profile in ("fairy-stockfish", "wxf", "cxboard"):
        options = PROFILES[profile]
        texts = [write_fen(read_fen(fen, variant).setup, variant, options).fen for fen in fens]

        def read_write(texts: list[str] = texts, options: object = options) -> None:
            for text in texts:
                write_fen(read_fen(text, variant).setup, variant, options)  # type: ignore[arg-type]

        print(f"  read + write {profile:16} {best_of(REPEATS, read_write) * per:8.1f}")

    def theirs() -> None:
        for fen in fens:
            pyffish.get_fen("xiangqi", fen, [])

    print(f"  pyffish get_fen (reference)   {best_of(REPEATS, theirs) * per:8.1f}")
    setups = [read_fen(fen, variant).setup for fen in fens]
    checked = [s for s, fen in zip(setups, fens, strict=True) if pyffish.gives_check("xiangqi", fen, [])]

    def judge(setups: list = setups) -> None:
        for setup in setups:
            validate(setup, variant)

    print(f"  validate, all positions       {best_of(REPEATS, judge) * per:8.1f}")
    if checked:
        time = best_of(REPEATS, lambda: judge(checked))
        print(f"  validate, {len(checked):4} in check        {time * 1e6 / len(checked):8.1f}")


if __name__ == "__main__":
    main()
