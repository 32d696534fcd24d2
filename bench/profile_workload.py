"""The workload the compiled build is profiled on (setup.py, profile-guided optimisation).

GCC compiles the library once with counters on each branch, this runs what users run
(``check``, ``normalize`` into every move notation, ``convert`` and ``validate`` of JSON
lines, ``perft``), and GCC compiles it again laid out for the branches taken. The games
are made here, seeded: random legal games in every variant the registry plays, written in
SAN as PGN, some with an illegal or misspelt move or a lenient spelling, and the FENs of
their positions, some broken the ways real ones are. The repository's fixtures are read
too where they are there (a source distribution may leave them out). Only the library's
own code runs, in this one process, which must end as Python ends (GCC writes the
counters at exit): the commands run through ``notation.cli.main.main``, not the
executable, whose ``end_process`` skips that.

Usage (setup.py runs it with the freshly built library first on ``sys.path``):
``python bench/profile_workload.py WORK_DIRECTORY``.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import sys
from pathlib import Path

from notation import write_fen, write_move
from notation.cli.main import main
from notation.game import start_position
from notation.variants import DEFAULT_REGISTRY, RuleFamily

SEED = 20261207
STANDARD_GAMES = 400
GAMES_PER_VARIANT = 12
PLIES = 90
ROOT = Path(__file__).resolve().parent.parent


def random_games(rng: random.Random) -> tuple[list[str], list[dict[str, str]]]:
    """PGN texts of random games in every variant played (Standard's the most, as in the
    files users keep), with clock comments, glyphs and side lines as the sites write them,
    and JSON objects of some of their positions' FENs."""
    games: list[str] = []
    fens: list[dict[str, str]] = []
    for variant in DEFAULT_REGISTRY:
        count = STANDARD_GAMES if variant.key == "standard" else GAMES_PER_VARIANT
        for number in range(count):
            position = start_position(variant)
            words: list[str] = []
            for ply in range(rng.randrange(10, PLIES)):
                legal = position.legal_moves()
                if not legal:
                    break
                move = rng.choice(legal)
                number_text = f"{ply // 2 + 1}." if ply % 2 == 0 else f"{ply // 2 + 1}..."
                text = write_move(position, move)
                words.append(f"{number_text} {text}" if ply % 2 == 0 else text)
                if len(legal) > 1 and rng.random() < 0.03:  # a side line of one other move
                    other = rng.choice([candidate for candidate in legal if candidate != move])
                    words.append(f"({number_text} {write_move(position, other)})")
                position = position.play(move)
                if rng.random() < 0.5:
                    words.append(f"{{ [%clk 0:{rng.randrange(10):02d}:{rng.randrange(60):02d}] }}")
                if rng.random() < 0.02:
                    words.append(rng.choice(("$1", "$2", "$6")))
                if rng.random() < 0.1:
                    fens.append({"fen": write_fen(position.to_setup(), variant).fen, "variant": variant.key})
            if variant.family is RuleFamily.CHESS and number % 4 == 3 and len(words) > 6:
                words.insert(rng.randrange(1, len(words)), "Qh9")  # no such square: the game's error
            tags = f'[Event "profile {number}"]\n[Variant "{variant.name}"]\n[Result "*"]\n'
            games.append(f"{tags}\n{' '.join(words)} *\n")
    return games, fens


def broken(fens: list[dict[str, str]], rng: random.Random) -> list[dict[str, str]]:
    """``fens`` with some broken: cut short, a bad side to move, a rank too long, no king."""
    out = []
    for item in fens:
        fen, roll = item["fen"], rng.random()
        if roll < 0.08:
            fen = fen.rsplit(" ", 1)[0]
        elif roll < 0.16:
            fen = fen.replace(" w ", " x ", 1).replace(" b ", " x ", 1)
        elif roll < 0.24:
            fen = fen.replace("/", "1/", 1)
        elif roll < 0.32:
            fen = fen.replace("k", "q", 1).replace("K", "Q", 1)
        out.append({**item, "fen": fen})
    return out


def run(argv: list[str], stdin: str = "") -> None:
    """One command, in this process, its output dropped. Raises ``RuntimeError`` where the
    command failed inside (status 3) or did not run (a usage error): the build then
    compiles without the profile."""
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode()), encoding="utf-8")
    with open(os.devnull, "w", encoding="utf-8") as sink, contextlib.redirect_stdout(sink):
        with contextlib.redirect_stderr(sink):
            try:
                status = main(argv)
            except SystemExit as exc:
                status = exc.code if isinstance(exc.code, int) else 2
    if status not in (0, 1):  # 1: the games' and FENs' own errors, found
        raise RuntimeError(f"notation {' '.join(argv)} ended with status {status}")


def main_workload(work: Path) -> None:
    rng = random.Random(SEED)
    games, fens = random_games(rng)
    pgn = work / "games.pgn"
    pgn.write_text("\n".join(games), encoding="utf-8")
    lines = "".join(json.dumps(item) + "\n" for item in broken(fens, rng))
    paths = [str(pgn)]
    fixtures = ROOT / "fixtures"
    if fixtures.is_dir():
        paths += sorted(str(path) for path in fixtures.rglob("*.pgn"))
    for path in paths:
        run(["check", path])
        for moves in ("san", "uci", "lan"):
            run(["normalize", "--moves", moves, path])
    for _ in range(3):
        run(["validate", "--json"], lines)
        run(["convert", "--json"], lines)
    run(["validate"], "".join(item["fen"] + "\n" for item in fens))
    for variant in ("standard", "crazyhouse", "atomic", "xiangqi"):
        run(["perft", "--depth", "3", "--variant", variant])


if __name__ == "__main__":
    main_workload(Path(sys.argv[1]))
