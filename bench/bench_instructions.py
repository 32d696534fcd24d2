"""Instructions, not seconds: whole ``convert --json`` and ``validate --json`` processes
against python-chess's, counted by valgrind's callgrind on the mixed workload.

Time on a shared machine moves by several percent between runs (bench_pipeline's ratios
wander by about that much); an instruction count does not: the same build, inputs and
environment give the same count, whatever else the machine does. So this bench is the
one to judge a change to the per-line path by, and bench_pipeline the one that says what
a user waits. Instructions are not time (a cache miss costs more than an addition, and
ours and python-chess's differ in how they use the caches), so the two ratios differ.

Each side runs as a whole process (compiled build: the installed ``notation`` command)
on ``LINES`` seeded mixed lines (bench/mixed_workload.py), on their first ``RUN_IN``
lines and on one legal line: the one line is the start-up, and a line costs what the
whole run adds to the first ``RUN_IN`` lines' over the lines between (ours pays once on
its way for what its first lines need, the tables of each variant met and the grammar's
words for a refusal; taking the difference from a one-line run would count that again in
every line). ``PYTHONHASHSEED`` is fixed so that
dictionaries and sets hash alike in every run. Without valgrind (Debian's ``valgrind``)
it says so and measures nothing.
Usage: ``python bench/bench_instructions.py [LINES]`` (default 5,000).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import START_FEN  # noqa: E402
from mixed_workload import lines  # noqa: E402

LINES = 5_000
RUN_IN = 1_000  # past what a run of ours pays once on its way (each variant's tables, the grammar's words)
PIPELINE_LINES = 20_000  # bench_pipeline's count: what these counts come to over its lines
_COLLECTED = re.compile(rb"Collected : (\d+)")


def instructions(argv: list[str], path: Path) -> int:
    """The instructions one whole process executes reading ``path`` on standard input, run
    from ``/`` (as ``common.cpu_and_peak`` runs one) so that ``python -m notation`` is the
    installed build, not the sources of the directory the bench was started in."""
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONDONTWRITEBYTECODE="1")
    with open(path, "rb") as stdin:
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv],
            stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, check=False, cwd="/",
        )
    found = _COLLECTED.findall(done.stderr)
    if not found:
        raise RuntimeError(f"valgrind counted nothing for {argv}: {done.stderr[-500:]!r}")
    return int(found[-1])


def main(argv: list[str] | None = None) -> dict[str, float]:
    count = int(argv[0]) if argv else LINES
    if shutil.which("valgrind") is None:
        print("instructions (callgrind): valgrind is not installed here; nothing measured")
        return {}
    notation = str(Path(sys.executable).with_name("notation"))
    ratios: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        mixed, run_in, one = Path(tmp) / "mixed.jsonl", Path(tmp) / "run_in.jsonl", Path(tmp) / "one.jsonl"
        run_in_count = min(RUN_IN, count // 2)
        mixed_lines = lines(count)
        mixed.write_text("\n".join(mixed_lines) + "\n", encoding="utf-8")
        run_in.write_text("\n".join(mixed_lines[:run_in_count]) + "\n", encoding="utf-8")
        one.write_text(json.dumps({"fen": START_FEN, "variant": "standard"}) + "\n", encoding="utf-8")
        print(f"instructions of whole processes on {count:,} mixed JSON lines (callgrind; ours compiled)")
        for command in ("convert", "validate"):
            sides = {
                "ours": [notation, command, "--json"],
                "python-chess": [sys.executable, str(HERE / "pychess_pipeline.py"), command],
            }
            counted = {name: (instructions(args, mixed), instructions(args, run_in), instructions(args, one))
                       for name, args in sides.items()}
            per_line = {name: (whole - first) / (count - run_in_count)
                        for name, (whole, first, _) in counted.items()}
            whole_ratio = counted["python-chess"][0] / counted["ours"][0]
            line_ratio = per_line["python-chess"] / per_line["ours"]
            ratios[command] = whole_ratio
            at_pipeline = {name: whole + per_line[name] * (PIPELINE_LINES - count)
                           for name, (whole, _, _) in counted.items()}
            print(
                f"  {command:8} ours {per_line['ours'] / 1e3:7.1f}k a line, start-up "
                f"{counted['ours'][2] / 1e6:5.1f}M; python-chess {per_line['python-chess'] / 1e3:7.1f}k a line, "
                f"start-up {counted['python-chess'][2] / 1e6:5.1f}M; ratio a line {line_ratio:4.2f}x, "
                f"whole process {whole_ratio:4.2f}x; start-up plus {PIPELINE_LINES:,} lines (bench_pipeline's) "
                f"{at_pipeline['python-chess'] / at_pipeline['ours']:4.2f}x"
            )
    return ratios


if __name__ == "__main__":
    main(sys.argv[1:])
