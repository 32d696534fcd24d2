"""`notation normalize` and `notation check` on degenerate PGN: time, rate and peak memory.

Each input is written at 10 MB and at 60 MB; each command runs as a subprocess of a small
wrapper process, whose ``os.wait4`` gives the command's peak resident memory (the largest
of it and the worker processes it waited for). Work must be linear (the 60 MB time about 6
times the 10 MB time) and memory flat (the same peak at both sizes). Figures, never
assertions: the machine is shared and noisy (CPU seconds, children included, are printed
beside wall time for that reason). Both sizes include the interpreter's start-up, so the
ratios come out a little under 6. The peak memory of normalize grows up to
``Limits.max_game_chars`` (a game, or a part of one, is held whole) and stays there.

Inputs: millions of one-token games (``*`` and blank lines), millions of tiny tagged games,
lone CR line ends, lines of 100,000 tagless games each (every game but the first starts
mid-line), no line end at all, random bytes, one enormous comment, one enormous tag
line, millions of tag lines in one game, millions of ``{ c }`` comment lines.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

MB = 1 << 20
SIZES = (10, 60)


def _repeat(unit: bytes) -> Callable[[int], bytes]:
    return lambda size: (unit * (size // len(unit) + 1))[:size]


def _random_bytes(size: int) -> bytes:
    return b"[" + random.Random(7).randbytes(size - 1)


def _comment(size: int) -> bytes:
    head, tail = b'[Event "comment"]\n\n1. e4 {', b"} *\n"
    return head + _repeat(b"word ")(size - len(head) - len(tail)) + tail


def _tag_line(size: int) -> bytes:
    head, tail = b'[Event "', b'"]\n\n1. e4 *\n'
    return head + b"v" * (size - len(head) - len(tail)) + tail


def _huge_header(size: int) -> bytes:
    """An open comment cut at ``Limits.max_comment_chars``; the rest is one game's header."""
    head = b'[Event "slow"]\n[Variant "Crazyhouse"]\n\n1. e4 {\n'
    return head + _repeat(b'[Event "x"]\n')(size - len(head))


def _comment_lines(size: int) -> bytes:
    return _repeat(b"{ c }\n")(size)


INPUTS: dict[str, Callable[[int], bytes]] = {
    "one-token games": _repeat(b"*\n\n"),
    "tiny tagged games": _repeat(b'[Event "x"]\n\n*\n\n'),
    "lone CR": _repeat(b"\r"),
    "no line end": _repeat(b"1. e4 e5 "),
    "games on one line": _repeat(b"1. e4 * " * 100_000 + b"\n"),
    "random bytes": _random_bytes,
    "one comment": _comment,
    "one tag line": _tag_line,
    "huge header": _huge_header,
    "comment lines": _comment_lines,
}

COMMANDS: dict[str, list[str]] = {
    "normalize": ["normalize", "{input}", "-o", os.devnull, "--progress", "never", "--summary", "none"],
    "normalize -j2": [
        *("normalize", "{input}", "-o", os.devnull, "--progress", "never", "--summary", "none"),
        *("--jobs", "2"),
    ],
    "normalize -j2 --report": [
        *("normalize", "{input}", "-o", os.devnull, "--progress", "never", "--summary", "none"),
        *("--jobs", "2", "--report", os.devnull),
    ],
    "check": ["check", "{input}"],
    "check -j2": ["check", "{input}", "--jobs", "2"],
}

# Runs the command given on its command line and prints its wall time and peak RSS (KB).
_MEASURE = """
import os, subprocess, sys, time
started = time.perf_counter()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
_, status, usage = os.wait4(child.pid, 0)
child.returncode = os.waitstatus_to_exitcode(status)
print(time.perf_counter() - started, usage.ru_maxrss, usage.ru_utime + usage.ru_stime)
"""


def notation_command() -> list[str]:
    script = Path(sys.executable).parent / "notation"
    return [str(script)] if script.exists() else [sys.executable, "-m", "notation"]


def measure(args: list[str]) -> tuple[float, float, float]:
    """Wall seconds, peak RSS in MB and CPU seconds of one run of ``args``."""
    done = subprocess.run([sys.executable, "-c", _MEASURE, *args], capture_output=True, text=True, check=True)
    wall, rss_kb, cpu = done.stdout.split()
    return float(wall), int(rss_kb) / 1024, float(cpu)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", action="append", choices=list(INPUTS), help="only these inputs (repeatable)")
    parser.add_argument("--command", action="append", choices=list(COMMANDS), help="only these commands")
    args = parser.parse_args(argv)
    inputs = {name: make for name, make in INPUTS.items() if not args.input or name in args.input}
    commands = {label: line for label, line in COMMANDS.items() if not args.command or label in args.command}
    print("degenerate PGN: whole commands, wall time, rate, peak RSS (10 MB vs 60 MB)")
    command = notation_command()
    with tempfile.TemporaryDirectory() as tmp:
        for name, make in inputs.items():
            paths = {}
            for size in SIZES:
                paths[size] = Path(tmp) / f"{size}.pgn"
                paths[size].write_bytes(make(size * MB))
            for label, template in commands.items():
                figures = {}
                for size in SIZES:
                    args = [part.replace("{input}", str(paths[size])) for part in template]
                    figures[size] = measure(command + args)
                (w1, r1, c1), (w2, r2, c2) = figures[SIZES[0]], figures[SIZES[1]]
                print(
                    f"  {name:17} {label:22} "
                    f"{SIZES[0]} MB {w1:5.2f} s (cpu {c1:5.2f}) {SIZES[0] / w1:5.1f} MB/s {r1:4.0f} MB RSS | "
                    f"{SIZES[1]} MB {w2:5.2f} s (cpu {c2:5.2f}) {SIZES[1] / w2:5.1f} MB/s {r2:4.0f} MB RSS | "
                    f"time x{w2 / w1:4.1f} cpu x{c2 / max(c1, 1e-3):4.1f} RSS x{r2 / r1:4.2f}"
                )
                sys.stdout.flush()


if __name__ == "__main__":
    started = time.perf_counter()
    main()
    print(f"  ({time.perf_counter() - started:.0f} s)")
