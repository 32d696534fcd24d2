"""Which coordinate notation a list of Xiangqi moves is written in: UCI (Fairy-Stockfish's,
ranks 1-10) or ICCS (ranks 0-9), as its moves with a rank only one of them has say.

The two differ only in their ranks, so most moves read both ways, each a legal move of its
own: the reader refuses such a move as ``ambiguous-move`` when it has nothing else to go
by. A list (a game's movetext, the moves given to ``play``) is written in one notation, so
its first move with a rank ``10`` (UCI's alone) or ``0`` (ICCS's alone) settles it for all.
The PGN move walk (``notation.pgn.movewalk``) and ``notation.playing.play_moves`` ask here.
Nothing here raises.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from notation.move_options import MoveNotation
from notation.patterns import compiled

COORDINATES: Final = r"([a-iA-I])(10|[0-9])(-?)([a-iA-I])(10|[0-9])"
"""A coordinate move: file, rank, an optional ``-`` (ICCS as some write it), file, rank
(its source: compiled when a Xiangqi move is first read, ``notation.patterns``)."""

AMBIGUOUS: Final = "ambiguous-move"
"""The code of a move that reads as both (``notation.moves.xiangqi``)."""


def notation_of(text: str, start: int = 0, end: int = -1) -> MoveNotation | None:
    """The notation ``text[start:end]`` (end -1: the text's end) can only be written in:
    UCI for a rank 10, ICCS for a rank 0; None for a move of neither kind or one that both
    read."""
    parts = compiled(COORDINATES).fullmatch(text, start, len(text) if end < 0 else end)
    if parts is None:
        return None
    ranks = (parts.group(2), parts.group(5))
    if "10" in ranks:
        return MoveNotation.UCI
    if "0" in ranks:
        return MoveNotation.ICCS
    return None


def is_coordinate(word: str) -> bool:
    """Whether ``word`` is written as a coordinate move (UCI or ICCS)."""
    return compiled(COORDINATES).fullmatch(word) is not None


def settled_notation(moves: Iterable[str]) -> MoveNotation | None:
    """The notation of the first of ``moves`` that only one notation reads (None: none does)."""
    for move in moves:
        found = notation_of(move)
        if found is not None:
            return found
    return None
