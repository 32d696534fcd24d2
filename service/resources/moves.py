"""``POST /v1/moves`` and ``POST /v1/play``: thin views over ``notation.playing``, so the
service answers exactly as ``notation moves --json`` and ``notation play --json`` do.

A request that breaks its schema is refused whole (422 ``invalid-request``); a FEN that
cannot be read, an unknown variant (or a failed ``auto`` guess) or an illegal setup is 422
``invalid-fen``; a move that cannot be played, or a notation the variant does not have, is
422 ``invalid-move`` with the move's ``ply`` and the position before it in its problem.
``"squares": true`` adds each move's squares (``move_squares``), so that a board can show
where a piece may go without knowing any rule.
"""

from __future__ import annotations

from typing import Any, NoReturn

from flask import Blueprint, Response

from notation.fen.profiles import options_from
from notation.game import GamePosition, MoveKind
from notation.playing import CheckMarks, list_moves, open_position, play_moves

from ..bodies import json_body, load
from ..guessing import guess_member, resolve, with_guess_warning
from ..move_squares import move_entry
from ..problems import INVALID_FEN, INVALID_MOVE, ProblemError
from ..state import ServiceState, json_response, state

blueprint = Blueprint("moves", __name__, url_prefix="/v1")

# Codes of problems with a move or the notation asked for (422 invalid-move); any other
# code is a problem with the position itself, the FEN or the variant (422 invalid-fen).
_MOVE_CODES = frozenset({"bad-move-syntax", "illegal-move", "ambiguous-move", "game-over", "bad-notation"})


@blueprint.post("/moves")
def moves() -> Response:
    current = state()
    return json_response(moves_answer(current, load(current.schemas.moves, json_body())))


def moves_answer(current: ServiceState, data: dict[str, Any]) -> dict[str, Any]:
    """The 200 answer to a loaded moves request; raises ``ProblemError`` (422). No Flask:
    the worker's fast path calls it too."""
    registry = current.registry_for(data["source"])
    resolved = resolve(data["fen"], data["variant"], registry)
    if resolved.problem is not None:
        _refuse(None, [resolved.problem.to_dict()], guess=guess_member(resolved))
    result = list_moves(
        data["fen"], resolved.variant, notation=data["notation"], chess960=data["chess960"], registry=registry,
    )
    if not result.ok:
        _refuse(result.variant, [p.to_dict() for p in result.errors], guess=guess_member(resolved))
    body = {**result.to_dict(), **guess_member(resolved)}
    if data["squares"]:
        position = open_position(data["fen"], resolved.variant, chess960=data["chess960"], registry=registry)
        body["squares"] = move_squares(position)
    return body


@blueprint.post("/play")
def play() -> Response:
    current = state()
    return json_response(play_answer(current, load(current.schemas.play, json_body())))


def play_answer(current: ServiceState, data: dict[str, Any]) -> dict[str, Any]:
    """The 200 answer to a loaded play request; raises ``ProblemError`` (422). No Flask, as
    ``moves_answer``."""
    registry = current.registry_for(data["source"])
    resolved = resolve(data["fen"], data["variant"], registry)
    if resolved.problem is not None:
        _refuse(None, [resolved.problem.to_dict()], played=[], guess=guess_member(resolved))
    result = play_moves(
        data["fen"], resolved.variant, data["moves"], options=options_from(data), notation=data["notation"],
        chess960=data["chess960"], registry=registry,
        check_marks=CheckMarks.CHECKED if data["strict"] else CheckMarks.IGNORED,
    )
    warnings = with_guess_warning(result.warnings, resolved, registry)
    if not result.ok:
        _refuse(
            result.variant, [p.to_dict() for p in result.errors], played=result.played,
            warnings=[p.to_dict() for p in warnings], guess=guess_member(resolved),
        )
    result.warnings = warnings
    return {**result.to_dict(), **guess_member(resolved)}


def _refuse(
    variant: str | None, errors: list[dict[str, object]], played: list[str] | None = None,
    warnings: list[dict[str, object]] | None = None, guess: dict[str, object] | None = None,
) -> NoReturn:
    first = errors[0]
    move_problem = first["code"] in _MOVE_CODES
    extensions: dict[str, object] = {"variant": variant, "warnings": warnings or [], **(guess or {})}
    if played is not None:
        extensions["played"] = played
    where = f" (ply {first['ply']})" if "ply" in first else ""
    raise ProblemError(
        INVALID_MOVE if move_problem else INVALID_FEN, 422, f"{first['code']}: {first['message']}{where}",
        errors=errors, extensions=extensions,
    )


def move_squares(position: GamePosition) -> list[dict[str, str | None]]:
    """Each legal move's squares, in the order ``list_moves`` writes them
    (``move_squares.move_entry``: ``from``, ``to``, ``kind``, ``drop``, ``promotion``, and
    ``rook`` for a castling move, so that a board lets the king's target or the rook be
    clicked)."""
    geometry = position.variant.geometry
    before = position.to_setup().cells
    out: list[dict[str, str | None]] = []
    for move in position.legal_moves():
        after = position.play(move).to_setup().cells if move.kind is MoveKind.CASTLE else before
        out.append(move_entry(move, geometry, before, after))
    return out
