"""The moves of one PGN game as plies a board can step through: each move as written, in
SAN and UCI, the FEN after it, its squares and a king in check; variations nested under the
move they replace.

``replay(text, first_line, start, ...)`` has the game's moves walked by the library's own
walk, the one ``notation check`` and ``normalize --moves`` use and ``notation.pgn.gameread``
builds its ``PlayedMove`` tree from (``notation.pgn.gamemoves.read_game_moves`` with a
``movewalk.MoveVisitor``): the same tokens, read in the same notation from the same
positions, so the same moves are played and the same ones fail. Each move played is a
``gameread.PlayedMove``, whose ``uci`` and ``warnings`` the ply gives; its SAN is written by
``notation.pgn.movewrite``'s ``MoveWriter``, as ``notation normalize --moves san`` writes it
(a move already in clean SAN kept as written). No rule is decided here: this module only
turns what the walk tells into JSON.

The walk is visited here rather than read through ``PgnGame.moves`` because a board also
shows the move that failed: ``PgnGame.moves`` leaves it out, with the variations that
replace it. A move that cannot be read or played ends its line: it is the line's last ply,
with ``problem`` (the one ``placed`` holds for its token, that is what ``normalize --moves
check`` reports there; else the walk's own, as the normaliser writes it) and no FEN; the
variations right after it are still read (they replace it). Moves after a line's result,
after a failed move, in a variation with no move to replace, and past the budget are not
played (their problems are the game's, not a ply's). Nothing here raises on bad input.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, NamedTuple

from notation.fen.writer import write_fen
from notation.game import GamePosition
from notation.move_options import MoveNotation
from notation.moves import ReadMove
from notation.pgn.gamemoves import PlacedProblem, read_game_moves
from notation.pgn.gameread import PlayedMove
from notation.pgn.gamestart import Start
from notation.pgn.move_reports import move_problem_dict
from notation.pgn.movetext import CLOSE, COMMENT, MOVE, OPEN, RESULT, Budget, Locator, movetext_start, scan
from notation.pgn.movewalk import ERROR
from notation.pgn.movewrite import MoveWriter
from notation.problem import Problem
from notation.setup import Setup
from notation.variants import RuleFamily

from .move_squares import last_move_text, move_entry

Ply = dict[str, Any]
Line = list[Ply]

# A clock in a comment, as lichess and ChessBase write it (`{ [%clk 0:02:55] }`): the time
# left to the side that moved, after its move.
_CLOCK = re.compile(r"\[%clk\s+(\d+(?::\d+){0,2}(?:\.\d+)?)\s*\]")
_SAN = MoveWriter(MoveNotation.SAN)  # the default profile's SAN (pawn drops "@e4"), as normalize writes it


class Replay(NamedTuple):
    """The main line's plies (variations inside them), where it ends (None when a move
    failed in it), the result token that ends it (its text, or None), and the problems the
    walk found (placed in the input, in text order)."""

    plies: Line
    end: GamePosition | None
    result: str | None
    problems: list[PlacedProblem]


def replay(
    text: str,
    first_line: int,
    start: Start,
    budget: Budget,
    placed: Mapping[tuple[int, int], dict[str, Any]],
) -> Replay:
    """The plies of ``text`` (one game, tags included, its first line ``first_line``) from
    ``start``; ``placed`` maps (line, column) to the problem reported for the move there."""
    if start.position is None:
        return Replay([], None, None, [])
    plies = _Plies(text, first_line, start.position, _clocks(text, budget))
    found = read_game_moves(text, first_line, start, budget=budget, visitor=plies)
    plies.finish()
    own = {(p.line, p.column): p for p in found.problems if p.problem.level is ERROR and p.problem.move is not None}
    for entry in plies.failures:  # the walk reports each move that failed at its place, with its text and ply
        where = (entry["line"], entry["column"])
        mine = own.get(where)
        if mine is not None:
            entry.update(move=mine.problem.move, ply=mine.problem.ply,
                         problem=placed.get(where) or {"level": "error", "line": mine.line, **move_problem_dict(mine)})
    return Replay(plies.main, found.end, _main_result(text, budget), found.problems)


class _Plies:
    """Builds the plies from what the walk tells (``movewalk.MoveVisitor``), as
    ``gameread`` builds its moves, keeping the moves that failed."""

    def __init__(self, text: str, first_line: int, start: GamePosition, clocks: Mapping[int, str]) -> None:
        self.locator = Locator(text, first_line)
        self.clocks = clocks  # the clock in the comments after the move at an offset
        self.main: Line = []
        self.line = self.main
        self.failures: Line = []  # filled in from the walk's problems once it is done
        self.current: GamePosition | None = start  # the position the line has reached
        self.setup: Setup | None = None  # its set-up, once a move played in the line made it
        self.last: tuple[Ply, GamePosition] | None = None  # the line's last ply and the position before it
        self.branch: Ply | None = None  # the ply the variation being read replaces, until its first move joins it
        self.stack: list[tuple[Line, GamePosition | None, Setup | None, tuple[Ply, GamePosition] | None,
                               Ply | None]] = []
        self.san = _SAN if _SAN.available(start.variant) else None
        self.read_as_san = start.variant.family is RuleFamily.CHESS  # as notation.pgn.gamemoves reads

    def played(self, offset: int, word: str, read: ReadMove, before: GamePosition, after: GamePosition,
               ply: int) -> None:
        line, column = self.locator.place(offset)
        move = PlayedMove(ply, word, read.move, before, after, line, column, tuple(read.warnings))
        setup = self.setup if self.setup is not None and before is self.current else before.to_setup()
        after_setup = after.to_setup()
        squares = move_entry(read.move, before.variant.geometry, setup.cells, after_setup.cells)
        san = None if self.san is None else self.san.move_text(before, read, word, self.read_as_san)
        entry: Ply = {
            "ply": ply, "number": setup.fullmove, "color": setup.turn, "move": word, "line": line, "column": column,
            "variations": [], "san": san, "uci": _uci(move),
            "fen": write_fen(after_setup, after.variant).fen,
            "last_move": last_move_text(squares), "squares": squares, "check": _check(after, after_setup),
            "warnings": [warning.to_dict() for warning in move.warnings], "problem": None,
            "clock": self.clocks.get(offset),
        }
        self._append(entry)
        self.last = (entry, before)
        self.current, self.setup = after, after_setup

    def failed(self, offset: int) -> None:
        line, column = self.locator.place(offset)
        before = self.current
        setup = self.setup if self.setup is not None or before is None else before.to_setup()
        entry: Ply = {
            "ply": None, "number": None if setup is None else setup.fullmove,
            "color": None if setup is None else setup.turn, "move": None, "line": line, "column": column,
            "variations": [], "san": None, "uci": None, "fen": None, "last_move": "", "squares": None, "check": [],
            "warnings": [], "problem": None, "clock": None,
        }
        self._append(entry)
        self.failures.append(entry)
        self.last = None if before is None else (entry, before)  # a variation right after it replaces it
        self.current = self.setup = None

    def marked(self, warning: Problem) -> None:
        if self.last is not None and self.last[0]["ply"] is not None:  # an en passant mark apart: the ply's own
            self.last[0]["warnings"].append(warning.to_dict())

    def opened(self) -> None:
        self.stack.append((self.line, self.current, self.setup, self.last, self.branch))
        self.setup = None
        self.line = []
        # The position before the move it replaces; None: no move to replace, the walk plays nothing in it.
        self.current = None if self.last is None else self.last[1]
        self.branch = None if self.last is None else self.last[0]
        self.last = None

    def closed(self) -> None:
        self.line, self.current, self.setup, self.last, self.branch = self.stack.pop()

    def _append(self, entry: Ply) -> None:
        """Add ``entry`` to the line; a variation joins the ply it replaces at its first
        move (as ``gameread`` keeps one: a variation the walk played nothing in is left out,
        the walk telling nothing of the moves it skips after a line's end)."""
        if self.branch is not None:
            self.branch["variations"].append(self.line)
            self.branch = None
        self.line.append(entry)

    def finish(self) -> None:
        """Close the variations still open at the end of the game."""
        while self.stack:
            self.closed()


def _main_result(text: str, budget: Budget) -> str | None:
    """The text of the result token that ends the main line (one outside any variation),
    as the walk finds it (``movewalk.Walk.result``, which ``read_game_moves`` does not hand out)."""
    depth = 0
    result: str | None = None
    for token in scan(text, movetext_start(text), budget).tokens:
        if token.kind is OPEN:
            depth += 1
        elif token.kind is CLOSE:
            depth = max(depth - 1, 0)
        elif token.kind is RESULT and depth == 0:
            result = text[token.start:token.end]
    return result


def _clocks(text: str, budget: Budget) -> dict[int, str]:
    """The clock (``[%clk 0:02:55]``, as written) of each move that has one, by the move's
    offset: the first clock in the comments between the move and the next move or
    variation (NAGs and other comments may stand between)."""
    clocks: dict[int, str] = {}
    move: int | None = None
    for token in scan(text, movetext_start(text), budget).tokens:
        if token.kind is MOVE:
            move = token.start
        elif token.kind is COMMENT:
            if move is not None and move not in clocks:
                found = _CLOCK.search(text, token.start, token.end)
                if found:
                    clocks[move] = found.group(1)
        elif token.kind in (OPEN, CLOSE, RESULT):
            move = None
    return clocks


def _uci(move: PlayedMove) -> str | None:
    """The move in UCI; None for a family that has no UCI (tafl)."""
    try:
        return move.uci
    except ValueError:
        return None


def _check(position: GamePosition, setup: Setup) -> list[str]:
    """The squares of the side to move's royal pieces when the game layer says it is in
    check (as ``GET /v1/board.svg`` marks them, ``notation.svg.marks``; here also in a game
    whose FEN tag had a code accepted, which the picture does not judge)."""
    if not position.is_check():
        return []
    royal = {letter.upper() if setup.turn == "w" else letter.lower() for letter in position.variant.royal}
    name = setup.geometry.square_name
    return [name(square) for square, letter in enumerate(setup.cells) if letter in royal]
