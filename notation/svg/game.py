"""A game's board at one ply: the position after the first N moves of a PGN game's main
line, drawn with that move's squares and a king it leaves in check marked (as lichess's
analysis board and python-chess's ``chess.svg.board(lastmove=, check=)`` show them).

``game_ply(game, ply)`` finds the position; ``game_svg(game, ply, options)`` draws it. Ply 0
is the game's start (nothing marked), ply N the position after its Nth move, None its last
position. ``game`` is a game of ``notation.read_games`` / ``open_games``
(``notation.pgn.gameread.PgnGame``), or anything shaped like one (``GameLike``): this layer
lies below the PGN layer and does not import it, so the moves, positions and problems are
the PGN layer's own, as ``notation check`` finds them.

Raises ``PlyError`` (a ``ValueError``; ``failure`` says which of ``PlyFailure``) when the
game has no position at that ply: it has no start to play from (its ``Variant`` or ``FEN``
tag's problem, or a Chess960 game without a FEN), the ply is past the end of its main line,
or a move of the main line before it cannot be read or played (the error names that move,
its ply, line and column, and its problem), and for a negative ply. Not checked: variations
(only the main line is drawn); nothing is judged here that the game did not judge. The move
that ended the main line is found among the game's problems by its ply, the position before
it and its place after the line's last move: a variation that repeats that last move and
fails at once, from the same position, is indistinguishable from it here (the same ply,
position and problem; only the place named differs).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from notation.fen.writer import write_fen
from notation.game import GamePosition, Move
from notation.lean_enum import LeanEnum
from notation.setup import Setup
from notation.svg.marks import played_squares, position_checked_squares
from notation.svg.render import DEFAULT_SVG_OPTIONS, SvgOptions, board_svg


class PlayedLike(Protocol):
    """A move of a game as played (``notation.pgn.gameread.PlayedMove``)."""

    @property
    def ply(self) -> int: ...

    @property
    def text(self) -> str: ...

    @property
    def move(self) -> Move: ...

    @property
    def before(self) -> GamePosition: ...

    @property
    def after(self) -> GamePosition: ...

    @property
    def line(self) -> int: ...

    @property
    def column(self) -> int: ...


class ProblemLike(Protocol):
    """A problem of a game (``notation.pgn.gameread.GameProblem``); ``level`` is ``"error"``
    or ``"warning"``."""

    @property
    def code(self) -> str: ...

    @property
    def message(self) -> str: ...

    @property
    def level(self) -> str: ...

    @property
    def line(self) -> int: ...

    @property
    def column(self) -> int | None: ...

    @property
    def ply(self) -> int | None: ...

    @property
    def move(self) -> str | None: ...

    @property
    def fen(self) -> str | None: ...


class GameLike(Protocol):
    """A game of a PGN text (``notation.pgn.gameread.PgnGame``)."""

    @property
    def number(self) -> int: ...

    @property
    def start(self) -> GamePosition | None: ...

    @property
    def moves(self) -> Sequence[PlayedLike]: ...

    @property
    def end(self) -> GamePosition | None: ...

    @property
    def problems(self) -> Sequence[ProblemLike]: ...

    @property
    def repaired(self) -> bool: ...


class PlyFailure(LeanEnum):
    """Why a game has no position at a ply."""

    NO_START = "no-start"  # nothing to play from: the set-up's problem
    PAST_END = "past-end"  # the main line has fewer moves (or the ply is negative)
    MOVE = "move"  # a move of the main line up to the ply cannot be read or played


class PlyError(ValueError):
    """The game has no position at ``ply`` (None: its end): ``failure`` says why,
    ``problem`` is the game's problem behind it (None for a ply past the end), ``plies`` the
    number of moves its main line played, ``game`` its number."""

    def __init__(self, message: str, *, failure: PlyFailure, game: int, ply: int | None, plies: int,
                 problem: ProblemLike | None = None) -> None:
        super().__init__(message)
        self.failure = failure
        self.game = game
        self.ply = ply
        self.plies = plies
        self.problem = problem


@dataclass(frozen=True)
class GamePly:
    """A game's position at ``ply``: ``position`` (a legal position of ``notation.game``)
    and its ``setup``; ``played`` the move that led there (None at the start);
    ``last_move`` its squares (``SvgOptions.last_move``); ``checked`` the squares of the
    royal pieces it leaves in check."""

    ply: int
    position: GamePosition
    setup: Setup
    played: PlayedLike | None
    last_move: tuple[int, ...]
    checked: frozenset[int]


def game_ply(game: GameLike, ply: int | None = None) -> GamePly:
    """The position of ``game`` after ``ply`` moves of its main line (None: all of them).
    Raises ``PlyError``; see the module doc."""
    start = game.start
    moves = game.moves
    plies = len(moves)
    if start is None or game.repaired:  # a FEN repaired to check the moves is still an illegal set-up
        problem = _setup_problem(game.problems)
        where = "" if problem is None else ": " + _describe(problem)
        raise PlyError(f"game {game.number} has no start position to play its moves from{where}",
                       failure=PlyFailure.NO_START, game=game.number, ply=ply, plies=0, problem=problem)
    if ply is not None and ply < 0:
        raise PlyError(f"ply {ply} is not a ply: 0 is the start, 1 the position after the first move",
                       failure=PlyFailure.PAST_END, game=game.number, ply=ply, plies=plies)
    stopped = game.end is None
    wanted = plies if ply is None else ply
    if wanted > plies or (ply is None and stopped):
        at = "at its end" if ply is None else f"at ply {ply}"
        problem = _stopping_problem(game, start) if stopped else None
        if problem is not None:
            raise PlyError(f"game {game.number} cannot be drawn {at}: {_stop(problem, plies)}",
                           failure=PlyFailure.MOVE, game=game.number, ply=ply, plies=plies, problem=problem)
        if ply is None:  # no problem says why the line stops (its moves were not read: a game too large to hold)
            message = f"game {game.number} has no last position to draw: its moves stop after {_count(plies)}"
        else:
            message = f"game {game.number} has {_count(plies)}: ply {ply} is past its end"
        raise PlyError(message, failure=PlyFailure.PAST_END, game=game.number, ply=ply, plies=plies)
    if wanted == 0:
        setup = start.to_setup()
        return GamePly(0, start, setup, None, (), position_checked_squares(start, setup))
    played = moves[wanted - 1]
    after = played.after
    setup = after.to_setup()
    return GamePly(wanted, after, setup, played, played_squares(played.move, played.before.to_setup(), setup),
                   position_checked_squares(after, setup))


def game_svg(game: GameLike, ply: int | None = None, options: SvgOptions = DEFAULT_SVG_OPTIONS) -> str:
    """The SVG document of ``game``'s position at ``ply`` (``game_ply``), its last move and
    a royal piece in check marked (``options.check``; ``options.last_move`` is replaced by
    the game's own). Raises ``PlyError``."""
    found = game_ply(game, ply)
    drawn = replace(options, last_move=found.last_move)
    return board_svg(found.setup, found.position.variant, drawn, checked=found.checked)


def _setup_problem(problems: Sequence[ProblemLike]) -> ProblemLike | None:
    """What keeps a game from starting: its first error (a tag's), else its first problem
    (``unknown-start``, a warning: a drawn start array and no FEN)."""
    for problem in problems:
        if problem.level == "error":
            return problem
    return problems[0] if problems else None


def _stopping_problem(game: GameLike, start: GamePosition) -> ProblemLike | None:
    """The error that ended the main line: the first error placed after its last move that
    is a move of the next ply from the position the line reached (a variation's move from
    the same position at the same ply can only repeat the main line's); else (the movetext's
    budget ran out, ...) the first error after the last move."""
    moves = game.moves
    last = moves[-1] if moves else None
    reached = start if last is None else last.after
    fen = write_fen(reached.to_setup(), reached.variant).fen
    after = (0, 0) if last is None else (last.line, last.column)
    later = [p for p in game.problems if p.level == "error" and (p.line, p.column or 0) > after]
    for problem in later:
        if problem.ply == len(moves) + 1 and problem.fen == fen:
            return problem
    return later[0] if later else None


def _place(problem: ProblemLike) -> str:
    return f"line {problem.line}" + ("" if problem.column is None else f", column {problem.column}")


def _describe(problem: ProblemLike) -> str:
    return f"{_place(problem)}: {problem.code}: {problem.message}"


def _stop(problem: ProblemLike, plies: int) -> str:
    if problem.move is not None and problem.ply is not None:
        return (f"the move {problem.move!r} at ply {problem.ply} ({_place(problem)}) cannot be played: "
                f"{problem.code}: {problem.message}")
    return f"its moves stop after {_count(plies)} ({_place(problem)}): {problem.code}: {problem.message}"


def _count(plies: int) -> str:
    return f"{plies} ply" if plies == 1 else f"{plies} plies"
