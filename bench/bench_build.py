"""What compiling with mypyc gains: read + validate + write, compiled vs pure Python.

The installed package is timed in this process; the same work on the repository's ``.py``
sources (no compiled modules there) is timed in a subprocess with the sources first on
``sys.path``. Both figures are CPU time per position, best of several runs, on the same
seeded positions. With the pure-Python build installed there is nothing to compare.
setup.py's docstring quotes the ratio printed here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from common import best_of, positions  # noqa: E402

COUNT = 2000
REPEATS = 5
VARIANTS = ("standard", "crazyhouse", "atomic", "horde")


def pipeline_seconds(fens_by_variant: dict[str, list[str]]) -> dict[str, float]:
    """CPU seconds per position of read_fen -> validate -> write_fen, per variant."""
    from notation.fen.profiles import PROFILES
    from notation.fen.reader import read_fen
    from notation.fen.writer import write_fen
    from notation.validation import validate
    from notation.variants import find_variant

    options = PROFILES["python-chess"]
    figures = {}
    for key, fens in fens_by_variant.items():
        variant = find_variant(key)

        def work(fens: list[str] = fens) -> None:
            for fen in fens:
                setup = read_fen(fen, variant).setup
                if not validate(setup, variant):
                    write_fen(setup, variant, options)

        figures[key] = best_of(REPEATS, work, time.process_time) / len(fens)
    return figures


def is_compiled() -> bool:
    import notation.fen.reader

    return not (notation.fen.reader.__file__ or "").endswith(".py")


def worker() -> None:
    """The subprocess: time the pure-Python sources on the positions read from stdin."""
    assert not is_compiled(), "the worker must run the .py sources"
    print(json.dumps(pipeline_seconds(json.load(sys.stdin))))


def main() -> list[float]:
    print("mypyc build: read + validate + write, CPU time, compiled vs pure Python (bench_build)")
    if not is_compiled():
        print("  the installed package is the pure-Python build: nothing to compare")
        return []
    fens = {key: positions(key, COUNT) for key in VARIANTS}
    compiled = pipeline_seconds(fens)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(HERE)])}
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--worker"],
        input=json.dumps(fens), capture_output=True, text=True, env=env, check=True, cwd=ROOT,
    )
    pure = json.loads(done.stdout)
    ratios = []
    for key in VARIANTS:
        ratio = pure[key] / compiled[key]
        ratios.append(ratio)
        print(
            f"  {key:14} compiled {compiled[key] * 1e6:7.2f} us/pos   pure {pure[key] * 1e6:7.2f} us/pos"
            f"   compiled is {ratio:4.2f}x faster"
        )
    mean = sum(ratios) / len(ratios)
    print(f"  mean over the variants: compiled is {mean:4.2f}x faster")
    return ratios


if __name__ == "__main__":
    if sys.argv[1:] == ["--worker"]:
        worker()
    else:
        main()
