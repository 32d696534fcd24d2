"""Whole processes on the mixed workload: ``notation convert --json`` and ``validate --json``
against python-chess doing the same (``bench/pychess_pipeline.py``), in one run.

The workload (bench/mixed_workload.py, seeded) is about 40% illegal or unreadable lines in
every dialect of every lichess variant. Each side runs as a whole process reading the JSON
lines from a file on standard input and writing to /dev/null; the runs alternate (ours,
python-chess, ours, ...) and the best of each is kept: wall time (what a user waits) and
CPU time (user + system of the child, which other work on a shared machine disturbs less). "compiled" is the
installed ``notation`` command; "pure" runs the same command, through the executable's
entry point, from a copy of the repository's ``.py`` sources with their bytecode compiled,
as a pure-Python install has them (common.pure_build, common.pure_command), so both
builds are measured in the same run, and what mypyc gains on the whole command is their
ratio. It also prints what an illegal or unreadable line costs next to a legal one (each
command, each build; CPU time past each file's first 1,000 lines, as the two files differ
in length), the start-up of each side (a process given one legal line: what a command
imports only when its first line needs it counts as start-up), and what ``--jobs 2``
gives on a machine with two cores free (wall time against python-chess's one process:
what a user with the cores waits, not a like-for-like ratio).
Usage: ``python bench/bench_pipeline.py [LINES]`` (default 20,000).
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import START_FEN, pure_build, pure_command, timed_process  # noqa: E402
from mixed_workload import lines  # noqa: E402

LINES = 20_000
REPEATS = 5  # best of five: the ratios sit near their targets and a shared machine's runs differ
RUN_IN = 1_000  # lines a run has read before a line's cost is counted (see _print_line_costs)
TARGET = 10.0  # the compiled build's whole-process ratio asked for (CPU time): the budget line prints a line's share
PURE_FLOOR = 1.7  # the ratio the pure-Python build must not fall under (CPU time): printed the same way


def _commands(command: str, pure: Path) -> dict[str, list[str]]:
    """Each side's argv for ``command``; ``pure`` is the pure build's directory (pure_build)."""
    notation = str(Path(sys.executable).with_name("notation"))
    return {
        "ours compiled": [notation, command, "--json"],
        "ours pure": [*pure_command(pure), command, "--json"],
        "python-chess": [sys.executable, str(HERE / "pychess_pipeline.py"), command],
    }


def _run(argv: list[str], path: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one whole process reading ``path``."""
    wall, cpu, _, _ = timed_process(argv, path)
    return wall, cpu


def _best(commands: dict[str, list[str]], path: Path) -> dict[str, tuple[float, float]]:
    """The best (wall, CPU) of each command, the commands taking turns."""
    best = {name: (float("inf"), float("inf")) for name in commands}
    for _ in range(REPEATS):
        for name, argv in commands.items():  # alternate, so noise hits every side alike
            wall, cpu = _run(argv, path)
            best[name] = (min(best[name][0], wall), min(best[name][1], cpu))
    return best


def _split_by_verdict(path: Path, directory: Path) -> tuple[Path, Path]:
    """The workload's lines our convert accepts, and the others, as two files."""
    notation = str(Path(sys.executable).with_name("notation"))
    with open(path, "rb") as stdin:
        answers = subprocess.run(
            [notation, "convert", "--json"], stdin=stdin, capture_output=True, check=False
        ).stdout.decode().splitlines()
    legal, other = directory / "legal.jsonl", directory / "other.jsonl"
    with open(path, encoding="utf-8") as source, open(legal, "w") as good, open(other, "w") as bad:
        for line, answer in zip(source, answers, strict=True):
            (good if json.loads(answer)["ok"] else bad).write(line)
    return legal, other


def main(argv: list[str] | None = None) -> list[float]:
    count = int(argv[0]) if argv else LINES
    ratios = []
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        path = directory / "mixed.jsonl"
        path.write_text("\n".join(lines(count)) + "\n", encoding="utf-8")
        one = directory / "one.jsonl"
        one.write_text(json.dumps({"fen": START_FEN, "variant": "standard"}) + "\n", encoding="utf-8")
        pure = pure_build(directory)
        print(f"whole processes on {count:,} mixed JSON lines (best of {REPEATS}; wall time, then CPU time)")
        for command in ("convert", "validate"):
            best = _best(_commands(command, pure), path)
            theirs = best["python-chess"]
            for name in ("ours compiled", "ours pure"):
                ours = best[name]
                ratio = theirs[0] / ours[0]
                ratios.append(ratio)
                print(
                    f"  {command:8} {name:14} {_per_line(ours[0], count)} us/line, python-chess "
                    f"{_per_line(theirs[0], count)}: ratio {ratio:5.2f}x   CPU {_per_line(ours[1], count)} "
                    f"against {_per_line(theirs[1], count)}: ratio {theirs[1] / ours[1]:5.2f}x"
                )
            gain = best["ours pure"][1] / best["ours compiled"][1]
            print(f"  {command:8} mypyc: the compiled build is {gain:.2f}x the pure one (CPU time)")
            print(
                f"  {command:8} {TARGET:.0f}x python-chess (CPU) is {_per_line(theirs[1] / TARGET, count)} us/line "
                f"for the whole process; ours compiled is {_per_line(best['ours compiled'][1], count)}"
            )
            print(
                f"  {command:8} the pure build's floor, {PURE_FLOOR}x python-chess (CPU), is "
                f"{_per_line(theirs[1] / PURE_FLOOR, count)} us/line; "
                f"ours pure is {_per_line(best['ours pure'][1], count)}"
            )
        notation = str(Path(sys.executable).with_name("notation"))
        for command in ("convert", "validate"):
            both = _best({"ours compiled --jobs 2": [notation, command, "--json", "--jobs", "2"],
                          "python-chess": _commands(command, pure)["python-chess"]}, path)
            ours, theirs = both["ours compiled --jobs 2"][0], both["python-chess"][0]
            print(
                f"  {command:8} ours compiled --jobs 2: {_per_line(ours, count)} us/line wall, python-chess (one "
                f"process) {_per_line(theirs, count)}: ratio {theirs / ours:5.2f}x"
            )
        startup = _best(_commands("convert", pure), one)
        print(
            "  start-up (one legal line), wall: "
            + ", ".join(f"{name} {startup[name][0] * 1e3:.0f} ms" for name in startup)
        )
        legal, other = _split_by_verdict(path, directory)
        for command in ("convert", "validate"):
            for name in ("ours compiled", "ours pure"):
                _print_line_costs(command, name, _commands(command, pure)[name], legal, other)
    return ratios


def _print_line_costs(command: str, name: str, argv: list[str], legal: Path, other: Path) -> None:
    """What an illegal or unreadable line costs next to a legal one: the files differ in
    length, so each file's run on its first ``RUN_IN`` lines is taken off its whole run
    before dividing by the lines between. That leaves out the start-up and what a run
    pays once on its way (the tables of each variant met; the pure build's orjson, imported
    on its 101st line, where the compiled one reads and answers the mix's lines without a
    JSON library; the first illegal FEN loads the grammar that words its error). The runs
    take turns, and the least of each is kept."""
    heads = {file: _head(file, RUN_IN) for file in (legal, other)}
    cpu = {file: float("inf") for file in (legal, other, *(head for head, _ in heads.values()))}
    for _ in range(REPEATS):
        for file in cpu:
            cpu[file] = min(cpu[file], _run(argv, file)[1])
    per_line = {}
    for file, (head, head_lines) in heads.items():
        lines_between = sum(1 for _ in open(file, encoding="utf-8")) - head_lines
        per_line[file] = (cpu[file] - cpu[head]) / max(lines_between, 1)
    print(
        f"  {command:8} {name:14} CPU a line past each file's first {RUN_IN:,}: legal "
        f"{per_line[legal] * 1e6:.1f} us/line, illegal or unreadable {per_line[other] * 1e6:.1f} us/line "
        f"({per_line[other] / per_line[legal]:.2f}x a legal line)"
    )


def _head(path: Path, count: int) -> tuple[Path, int]:
    """A file of ``path``'s first ``count`` lines (beside it), and how many it holds."""
    with open(path, encoding="utf-8") as source:
        first = list(itertools.islice(source, count))
    head = path.with_name(f"{path.stem}.head{path.suffix}")
    head.write_text("".join(first), encoding="utf-8")
    return head, len(first)


def _per_line(seconds: float, count: int) -> str:
    return f"{seconds / count * 1e6:6.1f}"


if __name__ == "__main__":
    main(sys.argv[1:])
