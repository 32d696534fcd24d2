"""The mixed FEN workload the whole-process benches run: seeded, rebuilt on every run.

Positions from random legal games (python-chess, a bench-only oracle) in every lichess
variant, about 40% then made illegal in one of several ways (or broken so they do not even
read), each written by one of our profiles (so in every dialect), as JSON lines
``{"fen": ..., "variant": ...}``. ``python bench/mixed_workload.py N`` prints N lines.
The same seed always gives the same lines.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import chess
import chess.variant

sys.path.insert(0, str(Path(__file__).resolve().parent))

SEED = 20261122
ILLEGAL_SHARE = 0.4

# lichess variant -> (python-chess board class, our variant name)
LICHESS_VARIANTS: dict[str, tuple[type[chess.Board], str]] = {
    "standard": (chess.Board, "standard"),
    "chess960": (chess.Board, "chess960"),
    "crazyhouse": (chess.variant.CrazyhouseBoard, "crazyhouse"),
    "atomic": (chess.variant.AtomicBoard, "atomic"),
    "antichess": (chess.variant.AntichessBoard, "antichess"),
    "kingofthehill": (chess.variant.KingOfTheHillBoard, "kingofthehill"),
    "threecheck": (chess.variant.ThreeCheckBoard, "threecheck"),
    "racingkings": (chess.variant.RacingKingsBoard, "racingkings"),
    "horde": (chess.variant.HordeBoard, "horde"),
}

def _games(rng: random.Random, key: str, wanted: int) -> list[str]:
    board_class, _ = LICHESS_VARIANTS[key]
    fens: list[str] = []
    while len(fens) < wanted:
        if key == "chess960":
            board = board_class.from_chess960_pos(rng.randrange(960))
        else:
            board = board_class()
        for _ in range(rng.randrange(10, 90)):
            moves = list(board.legal_moves)
            if not moves or board.is_variant_end() or board.is_game_over():
                break
            board.push(rng.choice(moves))
            if rng.random() < 0.15:
                fens.append(board.fen())
    return fens[:wanted]


def _make_illegal(rng: random.Random, fen: str) -> str:
    """One of several common faults: a lost king, a pawn on a back rank, a castling right or
    en passant square that cannot be, a counter out of range, or a FEN that does not read."""
    placement, rest = fen.split(" ", 1)
    fault = rng.randrange(6)
    if fault == 0 and "k" in placement:
        return placement.replace("k", "1", 1) + " " + rest
    if fault == 1:
        ranks = placement.split("/")
        ranks[0] = "P7" if ranks[0] == "8" else ranks[0]
        ranks[-1] = "p7" if ranks[-1] == "8" else ranks[-1]
        if ranks[0] != "P7" and ranks[-1] != "p7":
            ranks[0] = "PPPPPPPP"
        return "/".join(ranks) + " " + rest
    fields = rest.split(" ")
    if fault == 2 and len(fields) >= 2:
        fields[1] = "KQkq" if fields[1] != "KQkq" else "AHah"
        return placement + " " + " ".join(fields)
    if fault == 3 and len(fields) >= 3:
        fields[2] = rng.choice(("e3", "d6", "a4", "h5"))
        return placement + " " + " ".join(fields)
    if fault == 4:
        return placement.replace("/", "//", 1) + " " + rest
    return placement + " " + rng.choice(("x", "w KQkq", "w - - 0"))


def lines(count: int, seed: int = SEED) -> list[str]:
    """``count`` JSON lines of the mixed workload."""
    from notation.fen.profiles import PROFILES
    from notation.fen.reader import read_fen
    from notation.fen.writer import write_fen

    rng = random.Random(seed)
    profiles = sorted(PROFILES)  # every dialect: each profile writes one
    keys = list(LICHESS_VARIANTS)
    per_variant = count // len(keys) + 1
    out: list[str] = []
    for key in keys:
        _, ours = LICHESS_VARIANTS[key]
        for fen in _games(rng, key, per_variant):
            read = read_fen(fen, ours)
            text = write_fen(read.setup, read.variant, PROFILES[rng.choice(profiles)]).fen
            if rng.random() < ILLEGAL_SHARE:
                text = _make_illegal(rng, text)
            out.append(json.dumps({"fen": text, "variant": ours}))
    rng.shuffle(out)
    return out[:count]


if __name__ == "__main__":
    for line in lines(int(sys.argv[1]) if len(sys.argv) > 1 else 20_000):
        print(line)
