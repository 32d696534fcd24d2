"""Lenient move spellings as users meet them (fixtures/moves/chess/lenient_spellings.json):
`notation check` in a process of its own on a file of one short game per spelling gives
each game exactly the warnings of the table, at the same columns and in the same words,
and `notation normalize --moves uci` writes the moves the table says each spelling names."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
from typing import Any

import pytest
from paths import ROOT

TABLE = json.loads((ROOT / "fixtures" / "moves" / "chess" / "lenient_spellings.json").read_text(encoding="utf-8"))
GAMES: list[dict[str, Any]] = TABLE["games"]
TIMEOUT = 120


def notation(*args: str, cwd: pathlib.Path) -> subprocess.CompletedProcess[str]:
    """The command as users run it, in a process of its own (the package this test imports)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    return subprocess.run([sys.executable, "-m", "notation", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=TIMEOUT, env=env)


def _file(directory: pathlib.Path) -> list[int]:
    """The table's games written to ``directory``/spellings.pgn; the line of each movetext."""
    lines, parts, line = [], [], 1
    for game in GAMES:
        tags = [f'[Event "{game["name"]}"]', '[Result "*"]']
        if "fen" in game:
            tags += ['[SetUp "1"]', f'[FEN "{game["fen"]}"]']
        parts.append("\n".join(tags) + "\n\n" + game["moves"] + " *\n\n")
        lines.append(line + len(tags) + 1)
        line += len(tags) + 3
    (directory / "spellings.pgn").write_text("".join(parts), encoding="utf-8")
    return lines


@pytest.fixture(scope="module")
def spellings(tmp_path_factory: pytest.TempPathFactory) -> tuple[pathlib.Path, list[int]]:
    directory = tmp_path_factory.mktemp("lenient")
    return directory, _file(directory)


def test_check_gives_each_spelling_its_warnings_in_the_table(spellings):
    directory, lines = spellings
    done = notation("check", "spellings.pgn", cwd=directory)
    assert done.returncode in (0, 1), done.stderr
    found: dict[int, list[str]] = {line: [] for line in lines}
    for printed in done.stdout.splitlines():
        path, line, rest = printed.split(":", 2)
        assert path == "spellings.pgn"
        found[int(line)].append(rest)
    assert [found[line] for line in lines] == [game["check"] for game in GAMES]
    codes = {problem.split(": ")[1] for game in GAMES for problem in game["check"]}
    assert codes >= {"over-disambiguated", "long-algebraic", "long-algebraic-without-piece", "uci-in-san",
                     "wrong-check-mark", "castling-with-zeros", "missing-capture-mark", "false-capture-mark",
                     "promotion-without-equals", "en-passant-mark"}
    assert " 0 error(s)" in done.stderr


def test_each_spelling_reads_as_the_move_the_table_names(spellings):
    directory, _ = spellings
    done = notation("normalize", "spellings.pgn", "--moves", "uci", "--summary", "none", cwd=directory)
    assert done.returncode == 0, done.stderr
    written = [game.split("\n\n", 1)[1] for game in done.stdout.split('[Event "')[1:]]
    moves = [" ".join(w for w in text.split() if not w.endswith(".") and w != "*") for text in written]
    assert moves == [game["uci"] for game in GAMES]
