"""Run every benchmark (bench/bench_*.py) in one process and print their ratios.

Ratios against python-chess are measured in the same run on the same inputs; they are
figures for humans, never assertions (machines are noisy). ``make bench`` runs this;
``python bench/run.py degenerate`` runs one (bench_degenerate: whole ``notation normalize``
and ``notation check`` commands on degenerate 10 and 60 MB inputs, time and peak memory).
"""

from __future__ import annotations

import importlib.util
import inspect
import sys
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(HERE))
    wanted = set(argv)
    failures = 0
    for path in sorted(HERE.glob("bench_*.py")):
        name = path.stem
        if wanted and name not in wanted and name.removeprefix("bench_") not in wanted:
            continue
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
            # a main that takes argv gets none: the names given to run.py are not its options
            module.main([]) if inspect.signature(module.main).parameters else module.main()
        except Exception:  # a broken benchmark must not hide the others' figures
            failures += 1
            print(f"{name}: failed", file=sys.stderr)
            traceback.print_exc()
        print()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
