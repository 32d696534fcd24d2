"""Start-up: whole ``notation`` commands given one position, against python-chess given the same.

A CI step that checks a handful of FENs, a ``notation convert`` in a shell loop and
``notation --help`` pay the start-up and little else. Each command here runs as a whole
process on one legal position (a line on standard input, or a one-position file for
``check`` and a one-game file for ``normalize``), and ``validate`` once on a FEN it refuses
(a fullmove number that is no number), so what a command imports only when its first line
needs it (orjson for JSON lines, the FEN grammar's words for a refusal) counts; python-chess's side is
bench/pychess_pipeline.py answering the same position as one JSON line. The runs take
turns, ROUNDS each, and the best wall and CPU time of each is printed with python-chess's
over ours. ``check`` runs in a directory marked as a repository's root, so it finds no
settings file; and, as a CI step runs it, at the root of a Python project: once with a
pyproject.toml that has no ``[tool.notation]`` (PYPROJECT: not parsed, as it cannot name
the table) and once with that table added (the CI gate's settings kept with the files:
tomllib is imported and the whole file parsed).

The CPU time of ``check`` on one game and of ``convert`` and ``validate`` on one line is
printed beside the target, 35 ms for the whole process (``python -c pass`` takes about 10
here); where ``pgn-extract`` is on PATH, its start-up on the same game (``-r``: every move
read and checked, and ``-s -o /dev/null``: the game written nowhere) is timed beside.
What each command imports, and what waits for its first use: docs/architecture.md
"Start-up"; tests/project/test_startup_imports.py keeps it so.

Where valgrind is installed, the instructions of ``check`` on the one-game file and of
``convert`` on one line are split (callgrind, ``PYTHONHASHSEED`` fixed, bench_instructions'
way): the interpreter alone (``python -c pass``), then the modules of the standard
library the command loads (imported alone, in one process), then the rest: the package's
own modules and what they define (their classes, enums and tables), and the command's
work on its one position. The first two are the floor no change of ours moves.

    python bench/bench_startup.py [--rounds 15]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import START_FEN, timed_process  # noqa: E402

ROUNDS = 15
TARGET_CPU = 0.035  # seconds of CPU, the whole process: check on one game, convert and validate on one line
CHECK_ONE_GAME = "notation check, a one-game file"
# A FEN whose fullmove number is no number: refused (status 1), with the grammar's words.
UNREADABLE_LINE = "notation validate, a FEN line refused"
EXTRACT_READ = "pgn-extract -r, the one-game file"
EXTRACT_WRITE = "pgn-extract -s -o /dev/null, the same"
STANDARD_GAME = '[Event "?"]\n[Site "?"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n'
IN_A_PROJECT = "notation check, the game in a project"
WITH_SETTINGS = "notation check, project with settings"
# A Python project's pyproject.toml as such projects have them: metadata, dependencies and
# the settings of a few tools.
PYPROJECT = """[build-system]
requires = ["setuptools>=68", "wheel"]
build-backend = "setuptools.build_meta"

[project]
name = "openings-db"
version = "0.4.2"
description = "Our club's games, kept and checked"
readme = "README.md"
requires-python = ">=3.11"
license = { text = "MIT" }
authors = [{ name = "A. Player", email = "player@example.org" }]
dependencies = ["requests>=2.31", "click>=8.1", "pyyaml>=6.0"]

[project.optional-dependencies]
dev = ["pytest>=8", "ruff>=0.5", "mypy>=1.10"]

[project.scripts]
openings = "openings.cli:main"

[tool.setuptools.packages.find]
where = ["src"]

[tool.ruff]
line-length = 100
target-version = "py311"

[tool.ruff.lint]
select = ["E", "F", "I", "UP", "B"]
ignore = ["E501"]

[tool.pytest.ini_options]
testpaths = ["tests"]
addopts = "-q --strict-markers"
markers = ["slow: takes more than a second"]

[tool.mypy]
strict = true
warn_unused_ignores = true

[tool.coverage.run]
branch = true
source = ["openings"]
"""
SETTINGS = '\n[tool.notation]\nvariant = "standard"\naccept = ["missing-setup"]\nexclude = ["vendor"]\n'
ONE_GAME = '[Event "?"]\n[Variant "Crazyhouse"]\n[FEN "{fen}"]\n[SetUp "1"]\n\n1. e4 *\n'.format(
    fen="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"
)


def _run(argv: list[str], stdin: bytes, cwd: Path, expected: int = 0) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one whole process; raises ``SystemExit`` if it exits
    with another status than ``expected``."""
    wall, cpu, status, said = timed_process(argv, stdin, cwd)
    if status != expected:
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
        projects = {IN_A_PROJECT: directory / "project", WITH_SETTINGS: directory / "gate"}
        for project, text in zip(projects.values(), (PYPROJECT, PYPROJECT + SETTINGS), strict=True):
            (project / ".git").mkdir(parents=True)
            (project / "pyproject.toml").write_text(text, encoding="utf-8")
            (project / "standard.pgn").write_text(STANDARD_GAME, encoding="utf-8")
        commands: dict[str, tuple[list[str], bytes]] = {
            "python-chess, one JSON line": ([sys.executable, str(HERE / "pychess_pipeline.py"), "convert"], json_line),
            "notation convert, one FEN line": ([notation, "convert"], (START_FEN + "\n").encode()),
            "notation convert --json, one line": ([notation, "convert", "--json"], json_line),
            "notation validate, one FEN line": ([notation, "validate"], (START_FEN + "\n").encode()),
            "notation validate --json, one line": ([notation, "validate", "--json"], json_line),
            UNREADABLE_LINE: ([notation, "validate"], (START_FEN[:-1] + "x\n").encode()),
            "notation check, a one-FEN file": ([notation, "check", "one.fen", "--progress", "never"], b""),
            CHECK_ONE_GAME: ([notation, "check", "standard.pgn", "--progress", "never"], b""),
            IN_A_PROJECT: ([notation, "check", "standard.pgn", "--progress", "never"], b""),
            WITH_SETTINGS: ([notation, "check", "standard.pgn", "--progress", "never"], b""),
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
                wall, cpu = _run(command, stdin, projects.get(name, directory), 1 if name == UNREADABLE_LINE else 0)
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
    if shutil.which("valgrind") is None:
        print("  (valgrind is not installed here: no instruction split)")
    else:
        _print_floor(notation)
    return ratios


# Prints the names of the standard library's modules a command loaded (its own last line):
# it runs the command in this process (``main`` returns), then looks at ``sys.modules``.
_STDLIB_LOADED = """
import sys
from notation.cli.main import main
sys.argv = ["notation", *sys.argv[1:]]
main()
names = sorted(name for name in sys.modules if name.partition(".")[0] in sys.stdlib_module_names)
sys.stderr.write("\\n" + " ".join(names))
"""
# Imports the modules named on its command line, one after the other.
_IMPORT_NAMED = "import importlib, sys\nfor name in sys.argv[1:]:\n    importlib.import_module(name)"


def _print_floor(notation: str) -> None:
    """The start-up instructions of ``check`` on one game and ``convert`` on one line, split
    into the interpreter's, the standard library's it loads and the rest (module doc)."""
    from bench_instructions import instructions

    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        (directory / ".git").mkdir()
        game = directory / "standard.pgn"
        game.write_text(STANDARD_GAME, encoding="utf-8")
        line = directory / "one.fen"
        line.write_text(START_FEN + "\n", encoding="utf-8")
        empty = directory / "empty"
        empty.write_bytes(b"")
        print("start-up in instructions (callgrind, PYTHONHASHSEED fixed; the floor is the interpreter and "
              "the standard library the command loads)")
        python = instructions([sys.executable, "-c", "pass"], empty)
        for label, words, stdin in (
            ("notation check, a one-game file", ["check", str(game), "--progress", "never"], empty),
            ("notation convert, one FEN line", ["convert"], line),
        ):
            with open(stdin, "rb") as given:
                done = subprocess.run([sys.executable, "-c", _STDLIB_LOADED, *words], stdin=given,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=directory, check=False)
            said = done.stderr.decode(errors="replace").strip().splitlines()
            if done.returncode != 0 or not said:
                raise SystemExit(f"bench_startup: listing what {label} loads failed: {said[-3:]}")
            modules = said[-1].split()  # the last line: the command's own say comes before it
            stdlib = instructions([sys.executable, "-c", _IMPORT_NAMED, *modules], empty)
            whole = instructions([notation, *words], stdin)
            print(f"  {label:40} {whole / 1e6:6.1f} M: the interpreter {python / 1e6:5.1f} M, the standard "
                  f"library's {len(modules)} modules {(stdlib - python) / 1e6:5.1f} M more, the rest "
                  f"{(whole - stdlib) / 1e6:5.1f} M")


# The commands a CI step or a shell loop runs most, whose start-up has a target.
TARGETED = frozenset({
    CHECK_ONE_GAME,
    "notation convert, one FEN line",
    "notation convert --json, one line",
    "notation validate, one FEN line",
    "notation validate --json, one line",
    UNREADABLE_LINE,
})


if __name__ == "__main__":
    main(sys.argv[1:])
