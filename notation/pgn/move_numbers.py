"""``--fix-move-numbers``: move numbers counted from the start position's fullmove.

A move's number follows from its ply and the start (the FEN tag's side to move and
fullmove number, else the variant's start: White's move 1): ``ply`` 1 is the start's
fullmove, White's move where White is to move, else Black's; a variation's move has the
ply of the move it replaces, so it is numbered as that move. ``renumber`` gives the edits:

- a number written before a move is made that move's: ``12.`` before White's move,
  ``12...`` before Black's (a Black move's dots written ``..`` or ``…`` are kept when only
  the digits were wrong);
- where none is written, one is added, as the standard's export format writes them (PGN
  standard, section 8.2.2.2): before every White move, and before a Black move that starts
  the movetext or a variation or follows a comment or a variation (``12...``);
- nothing else changes: no number is taken away, and each edit touches only a number's
  bytes (an added one brings its space).

Only moves that were played are numbered (``PlyRecorder``, told by the walk); a token
that is no move (an en passant mark written apart, ``e.p.``) is passed over. Nothing here
raises.
"""

from __future__ import annotations

from typing import NamedTuple

from notation.game.family import GamePosition
from notation.moves.reading import ReadMove
from notation.pgn.movetext import (
    DEFAULT_BUDGET,
    T_CLOSE,
    T_COMMENT,
    T_END,
    T_ESCAPE,
    T_LINE_COMMENT,
    T_MOVE,
    T_NUMBER,
    T_OPEN,
    Budget,
    Scanner,
)
from notation.problem import Problem

# After these tokens a Black move needs its number (``12...``); the start counts too.
_NEEDS_BLACK_NUMBER = (T_COMMENT, T_LINE_COMMENT, T_ESCAPE, T_OPEN, T_CLOSE)


class PlyRecorder:
    """A ``movewalk.MoveVisitor`` that keeps the ply of each move played, by its offset."""

    def __init__(self) -> None:
        self.plies: dict[int, int] = {}

    def played(self, offset: int, word: str, read: ReadMove, before: GamePosition, after: GamePosition,
               ply: int) -> None:
        self.plies[offset] = ply

    def failed(self, offset: int) -> None:
        pass

    def marked(self, warning: Problem) -> None:
        pass

    def opened(self) -> None:
        pass

    def closed(self) -> None:
        pass


class NumberEdit(NamedTuple):
    """One number's new text for ``text[start:end]`` (``start == end``: a number added),
    and what was written there before (``""`` for an added one)."""

    start: int
    end: int
    new: str
    old: str


def move_number(ply: int, white_first: bool, fullmove: int) -> tuple[int, bool]:
    """The number of the move at ``ply`` (1: the start's first move) and whether it is
    White's (the side that moves first in a fullmove)."""
    index = ply - 1 if white_first else ply
    return fullmove + index // 2, index % 2 == 0


def renumber(text: str, begin: int, plies: dict[int, int], white_first: bool, fullmove: int,
             end: int = -1, budget: Budget = DEFAULT_BUDGET) -> list[NumberEdit]:
    """The edits that number the moves of ``text[begin:end]`` (``end`` -1: to its end)
    right; ``plies`` maps each played move's offset to its ply."""
    edits: list[NumberEdit] = []
    scanner = Scanner(text, begin, budget)
    numbers: list[tuple[int, int]] = []  # the number tokens right before the current token
    needs_black = True  # the movetext's start
    kind = scanner.next()
    while kind != T_END and (end < 0 or scanner.start < end):
        start = scanner.start
        if kind == T_NUMBER:
            numbers.append((start, scanner.end))
            kind = scanner.next()
            continue
        if kind == T_MOVE:
            ply = plies.get(start)
            if ply is None:  # no move (an en passant mark apart): passed over
                kind = scanner.next()
                continue
            number, white = move_number(ply, white_first, fullmove)
            if numbers:
                for number_start, number_end in numbers:
                    old = text[number_start:number_end]
                    new = _written(old, number, white)
                    if new != old:
                        edits.append(NumberEdit(number_start, number_end, new, old))
            elif white or needs_black:
                edits.append(NumberEdit(start, start, f"{number}. " if white else f"{number}... ", ""))
        needs_black = kind in _NEEDS_BLACK_NUMBER
        numbers = []
        kind = scanner.next()
    return edits


def _written(old: str, number: int, white: bool) -> str:
    """The number token ``old`` as it should be written before a move numbered ``number``."""
    digits = len(old) - len(old.lstrip("0123456789"))
    dots = old[digits:].strip()
    if white:
        return f"{number}."
    if dots in ("...", "..", "…") and digits:
        return f"{number}{dots}"
    return f"{number}..."
