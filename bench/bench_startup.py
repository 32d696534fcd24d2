"""Start-up: whole ``notation`` commands given one position, against python-chess given the same.

A CI step that checks a handful of FENs, a ``notation convert`` in a shell loop and
``notation --help`` pay the start-up and little else. Each command here runs as a whole
process on one legal position (a line on standard input, or a one-position file for
``check`` and a one-game file for ``normalize``), so what a command imports only when its
first line needs it (orjson for JSON lines) counts; python-chess's side is
bench/pychess_pipeline.py answering the same position as one JSON line. The runs take
turns, ROUNDS each, and the best wall and CPU time of each is printed with python-chess's
over ours. ``check`` runs in a directory marked as a repository's root, so it finds no
settings file (one would add reading TOML).

The CPU time of ``check`` on one game and of ``convert`` and ``validate`` on one line is
printed beside the target, 35 ms for the whole process (``python -c pass`` takes about 10
here); where ``pgn-extract`` is on PATH, its start-up on the same game (``-r``: every move
read and checked, and ``-s -o /dev/null``: the game written nowhere) is timed beside.
What each command imports, and what waits for its first use: docs/architecture.md
"Start-up"; tests/project/test_startup_imports.py keeps it so.

    python bench/bench_startup.py [--rounds 15]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import START_FEN, timed_process  # noqa: E402

ROUNDS = 15
TARGET_CPU = 0.035  # seconds of CPU, the whole process: check on one game, convert and validate on one line
CHECK_ONE_GAME = "notation check, a one-game file"
EXTRACT_READ = "pgn-extract -r, the one-game file"
EXTRACT_WRITE = "pgn-extract -s -o /dev/null, the same"
STANDARD_GAME = '[Event "?"]\n[Site "?"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n'
ONE_GAME = '[Event "?"]\n[Variant "Crazyhouse"]\n[FEN "{fen}"]\n[SetUp "1"]\n\n1. e4 *\n'.format(
    fen="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"
)


def _run(argv: list[str], stdin: bytes, cwd: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one whole process; raises ``SystemExit`` if it fails."""
    wall, cpu, status, said = timed_process(argv, stdin, cwd)
    if status != 0:
        raise SystemExit(f"bench_startup: {' '.join(argv)} exited {status}: {said.decode(errors='replace').strip()}")
    return wall, cpu


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    args = parser.parse_args(argv or [])
    notation = str(Path(sys.executable).with_name("notation"))
    if not Path(notation).exists():
        raise SystemExit(f"bench_startup: no notation command beside {sys.executable}; install the package first")
    json_line = (json.dumps({"fen": START_FEN, "variant": "standard"}) + "\n").encode()
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        (directory / ".git").mkdir()  # check's search for pyproject.toml stops here
        (directory / "one.fen").write_text(START_FEN + "\n", encoding="utf-8")
        (directory / "one.pgn").write_text(ONE_GAME, encoding="utf-8")
        (directory / "standard.pgn").write_text(STANDARD_GAME, encoding="utf-8")
        commands: dict[str, tuple[list[str], bytes]] = {
            "python-chess, one JSON line": ([sys.executable, str(HERE / "pychess_pipeline.py"), "convert"], json_line),
            "notation convert, one FEN line": ([notation, "convert"], (START_FEN + "\n").encode()),
            "notation convert --json, one line": ([notation, "convert", "--json"], json_line),
            "notation validate, one FEN line": ([notation, "validate"], (START_FEN + "\n").encode()),
            "notation validate --json, one line": ([notation, "validate", "--json"], json_line),
            "notation check, a one-FEN file": ([notation, "check", "one.fen", "--progress", "never"], b""),
            CHECK_ONE_GAME: ([notation, "check", "standard.pgn", "--progress", "never"], b""),
            "notation normalize, a one-game file": ([notation, "normalize", "one.pgn", "--progress", "never",
                                                     "--summary", "none"], b""),
            "notation --version": ([notation, "--version"], b""),
        }
        extract = shutil.which("pgn-extract")
        if extract is not None:  # the C reader's start-up on the same game
            commands[EXTRACT_READ] = ([extract, "-r", "standard.pgn"], b"")
            commands[EXTRACT_WRITE] = ([extract, "-s", "-o", "/dev/null", "standard.pgn"], b"")
        best = {name: (float("inf"), float("inf")) for name in commands}
        for _ in range(args.rounds):
            for name, (command, stdin) in commands.items():  # in turns: noise hits every side alike
                wall, cpu = _run(command, stdin, directory)
                best[name] = (min(best[name][0], wall), min(best[name][1], cpu))
    theirs = best["python-chess, one JSON line"]
    print(f"start-up: whole processes given one position (best of {args.rounds}; wall, then CPU; "
          "python-chess / ours: above 1 means ours starts faster)")
    ratios = {}
    check_cpu = best[CHECK_ONE_GAME][1]
    for name, (wall, cpu) in best.items():
        if name in (EXTRACT_READ, EXTRACT_WRITE):  # beside our check on the same game, not python-chess
            print(f"  {name:40} {wall * 1e3:6.1f} ms wall {cpu * 1e3:6.1f} ms CPU   "
                  f"notation check / pgn-extract {check_cpu / max(cpu, 1e-4):5.1f}x CPU")
            continue
        ratio = theirs[0] / wall
        ratios[name] = ratio
        target = ""
        if name in TARGETED:
            target = f"   target {TARGET_CPU * 1e3:.0f} ms CPU: {'met' if cpu < TARGET_CPU else 'not met'}"
        print(f"  {name:40} {wall * 1e3:6.1f} ms wall {cpu * 1e3:6.1f} ms CPU   "
              f"python-chess / ours {ratio:5.2f}x{target}")
    if extract is None:
        print("  pgn-extract: not on PATH, not timed")
    return ratios


# The commands a CI step or a shell loop runs most, whose start-up has a target.
TARGETED = frozenset({
    CHECK_ONE_GAME,
    "notation convert, one FEN line",
    "notation convert --json, one line",
    "notation validate, one FEN line",
    "notation validate --json, one line",
})


if __name__ == "__main__":
    main(sys.argv[1:])
