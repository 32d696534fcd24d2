"""Move generation against python-chess, in the same run on the same positions:

- perft nodes per second (the start to depth 4, Kiwipete to depth 3, a Crazyhouse and an
  Atomic middlegame to depth 3), python-chess counted the usual way (push, recurse, pop;
  the last ply counted with ``legal_moves.count()``), ours with ``notation.game.perft``;
- legal-move generation per position (positions from seeded random games; a fresh
  position each time, so nothing is cached);
- SAN written per move (every legal move of those positions);
- a game's SAN read and played, per ply (seeded random games, from the start: what
  checking a PGN's moves costs), python-chess with ``push_san``; and the same with each
  move written back in SAN (a rewrite), python-chess with ``san`` and ``push``.

Times are this process's CPU time, the least of five runs (other processes on a busy
machine count against neither side). Each figure for the installed build (compiled where a
compiler was found) and for the pure Python sources (``common.pure_build``, run in a child
process). Goal for the compiled build: perft at least 15x python-chess's nodes per second.
Figures for humans, never assertions.

Run: ``.venv/bin/python bench/bench_moves.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import chess  # noqa: E402
import chess.variant  # noqa: E402
from common import START_FEN, best_of, games, positions  # noqa: E402

PERFT = [
    ("start d4", "standard", START_FEN, 4),
    ("kiwipete d3", "standard", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3),
    ("crazyhouse d3", "crazyhouse", "r2qkb1r/pppbpppp/2n2n2/1B6/3P4/2N2N2/PPP2PPP/R1BQK2R[Pp] w KQkq - 3 7", 3),
    ("atomic d3", "atomic", "rnbqkb1r/pp3ppp/4pn2/2pp4/3P4/3BPN2/PPP2PPP/RNBQK2R w KQkq - 0 5", 3),
]
POSITIONS = 300
GAMES = 100
REPEATS = 5


def cpu_best(work: Callable[[], object]) -> float:
    """The least CPU time of ``REPEATS`` runs of ``work``: this process's own time, so that
    other processes on a busy machine do not count against either side."""
    return best_of(REPEATS, work, clock=time.process_time)


def chess_perft(board: chess.Board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += chess_perft(board, depth - 1)
        board.pop()
    return total


def board_of(key: str, fen: str) -> chess.Board:
    cls = {"standard": chess.Board, "crazyhouse": chess.variant.CrazyhouseBoard, "atomic": chess.variant.AtomicBoard}
    return cls[key](fen)


def ours_figures() -> dict[str, float]:
    """Seconds per unit of our side of each figure (this interpreter's ``notation``)."""
    from notation import read_fen
    from notation.game import legal_position, perft
    from notation.move_options import MoveNotation
    from notation.moves import write_move

    figures: dict[str, float] = {}
    for name, key, fen, depth in PERFT:
        position = legal_position(read_fen(fen, key).setup, key)
        nodes = perft(position, depth)
        seconds = cpu_best(lambda: perft(legal_position(read_fen(fen, key).setup, key), depth))
        figures[f"perft {name}"] = seconds / nodes
    from notation.game.chess.position import ChessPosition
    from notation.variants import find_variant

    standard = find_variant("standard")
    setups = [read_fen(fen, "standard").setup for fen in positions("standard", POSITIONS)]
    fresh = [legal_position(setup, "standard") for setup in setups]
    # A new position per look (the moves of one are kept once found); the making is timed
    # alone and taken off.
    made = cpu_best(lambda: [ChessPosition.from_setup(s, standard) for s in setups])
    looked = cpu_best(lambda: [ChessPosition.from_setup(s, standard).legal_moves() for s in setups])
    figures["legal moves"] = (looked - made) / len(setups)
    moves = [(p, m) for p in fresh for m in p.legal_moves()]
    figures["san"] = cpu_best(lambda: [write_move(p, m, MoveNotation.SAN) for p, m in moves]) / len(moves)
    from notation.game import start_position
    from notation.moves import read_move

    played = games("standard", GAMES)
    plies = sum(map(len, played))

    def replay(rewrite: bool) -> None:
        for sans in played:
            position = start_position("standard")
            for san in sans:
                move = read_move(position, san, MoveNotation.SAN).move
                if rewrite:
                    write_move(position, move, MoveNotation.SAN)
                position = position.play(move)

    figures["read and play"] = cpu_best(lambda: replay(False)) / plies
    figures["read, write, play"] = cpu_best(lambda: replay(True)) / plies
    return figures


def theirs_figures() -> dict[str, float]:
    figures: dict[str, float] = {}
    for name, key, fen, depth in PERFT:
        board = board_of(key, fen)
        nodes = chess_perft(board, depth)
        seconds = cpu_best(lambda: chess_perft(board_of(key, fen), depth))
        figures[f"perft {name}"] = seconds / nodes
    boards = [chess.Board(fen) for fen in positions("standard", POSITIONS)]
    figures["legal moves"] = cpu_best(lambda: [list(b.legal_moves) for b in boards]) / len(boards)
    moves = [(b, m) for b in boards for m in b.legal_moves]
    figures["san"] = cpu_best(lambda: [b.san(m) for b, m in moves]) / len(moves)
    played = games("standard", GAMES)
    plies = sum(map(len, played))

    def replay(rewrite: bool) -> None:
        for sans in played:
            board = chess.Board()
            for san in sans:
                if rewrite:
                    move = board.parse_san(san)
                    board.san(move)
                    board.push(move)
                else:
                    board.push_san(san)

    figures["read and play"] = cpu_best(lambda: replay(False)) / plies
    figures["read, write, play"] = cpu_best(lambda: replay(True)) / plies
    return figures


def pure_figures() -> dict[str, float]:
    from common import pure_build

    with tempfile.TemporaryDirectory() as directory:
        path = pure_build(Path(directory))
        env = dict(os.environ, PYTHONPATH=str(path), NOTATION_BENCH_CHILD="1")
        done = subprocess.run(
            [sys.executable, __file__], env=env, capture_output=True, text=True, check=True, timeout=3600
        )
    return json.loads(done.stdout)


def main() -> None:
    if os.environ.get("NOTATION_BENCH_CHILD"):
        print(json.dumps(ours_figures()))
        return
    started = time.perf_counter()
    theirs = theirs_figures()
    ours = ours_figures()
    pure = pure_figures()
    print("bench_moves: move generation against python-chess (same run, same positions)")
    for name in theirs:
        unit = "nodes/s" if name.startswith("perft") else ("us/position" if name == "legal moves" else "us/move")
        unit = "us/ply" if name.startswith("read") else unit
        if unit == "nodes/s":
            cells = [f"{1 / figure:11,.0f}" for figure in (ours[name], pure[name], theirs[name])]
        else:
            cells = [f"{figure * 1e6:11.2f}" for figure in (ours[name], pure[name], theirs[name])]
        print(
            f"  {name:20} {unit:12} installed {cells[0]}  pure {cells[1]}  python-chess {cells[2]}"
            f"   ratio installed {theirs[name] / ours[name]:5.2f}x  pure {theirs[name] / pure[name]:5.2f}x"
        )
    print(f"  ({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
