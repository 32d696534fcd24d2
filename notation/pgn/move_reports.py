"""The problems of a game's moves as ``normalize``'s report entries (``--report``, the service's
``problems``): ``move_problem_dict`` for one, ``report_moves`` for a game's. Nothing here raises.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from notation.pgn.movewalk import ERROR

if TYPE_CHECKING:
    from notation.pgn.gamemoves import GameMoves, PlacedProblem
    from notation.pgn.normalize import _Report


def report_moves(found: GameMoves, report: _Report) -> None:
    """The problems of a game's moves into ``report``, each under its level."""
    for placed in found.problems:
        report.add(placed.line, move_problem_dict(placed),
                   kind="errors" if placed.problem.level is ERROR else "warnings")


def move_problem_dict(placed: PlacedProblem) -> dict[str, Any]:
    """A problem of the moves for the report: code, message, column, and the move's ply,
    text, the FEN before it and the candidates of an ambiguous move, where known."""
    problem = placed.problem
    out: dict[str, Any] = {"code": problem.code, "message": problem.message, "column": placed.column}
    if problem.ply is not None:
        out["ply"] = problem.ply
    if problem.move is not None:
        out["move"] = problem.move
    if problem.fen is not None:
        out["fen"] = problem.fen
    if problem.candidates:
        out["candidates"] = list(problem.candidates)
    if problem.count > 1:
        out["count"] = problem.count
    return out
