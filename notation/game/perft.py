"""Perft: the number of move paths of a given depth from a position, the move generator's
standard test (every published suite counts the same way: a finished game has no moves).

Works on any rule family's ``GamePosition``. Raises ``ValueError`` for a negative depth;
the front ends refuse depths past ``MAX_DEPTH`` (the recursion's bound) and bound the work by
its estimate (``notation.playing``).
"""

from __future__ import annotations

from notation.game.family import GamePosition
from notation.game.move import Move

MAX_DEPTH = 200
"""The deepest perft the front ends run: a bound on the recursion, not on the work (that is
bounded by the estimated count and a time limit, ``notation.playing``); no real position
has more plies of moves before its games all end or the count passes any limit."""


def perft(position: GamePosition, depth: int) -> int:
    """The number of legal move sequences of ``depth`` plies from ``position``."""
    if depth < 0:
        raise ValueError(f"perft depth must be at least 0, not {depth}")
    if depth == 0:
        return 1
    if depth == 1:
        return position.count_legal()
    moves = position.legal_moves()
    total = 0
    for move in moves:
        total += perft(position.play_legal(move), depth - 1)
    return total


def divide(position: GamePosition, depth: int) -> list[tuple[Move, int]]:
    """Each legal move with the perft of ``depth - 1`` after it (``depth`` at least 1)."""
    if depth < 1:
        raise ValueError(f"perft --divide needs a depth of at least 1, not {depth}")
    return [(move, perft(position.play_legal(move), depth - 1)) for move in position.legal_moves()]
