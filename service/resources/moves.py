"""``POST /v1/moves`` and ``POST /v1/play``: thin views over ``notation.playing``, so the
service answers exactly as ``notation moves --json`` and ``notation play --json`` do.

A request that breaks its schema is refused whole (422 ``invalid-request``); a FEN that
cannot be read, an unknown variant or an illegal setup is 422 ``invalid-fen``; a move that
cannot be played, or a notation the variant does not have, is 422 ``invalid-move`` with
the move's ``ply`` and the position before it in its problem.
"""

from __future__ import annotations

from flask import Blueprint, Response

from notation.fen.profiles import options_from
from notation.playing import list_moves, play_moves

from ..bodies import json_body, load
from ..problems import INVALID_FEN, INVALID_MOVE, ProblemError
from ..state import json_response, state

blueprint = Blueprint("moves", __name__, url_prefix="/v1")

# Codes of problems with a move or the notation asked for (422 invalid-move); any other
# code is a problem with the position itself, the FEN or the variant (422 invalid-fen).
_MOVE_CODES = frozenset({"bad-move-syntax", "illegal-move", "ambiguous-move", "game-over", "bad-notation"})


@blueprint.post("/moves")
def moves() -> Response:
    current = state()
    data = load(current.schemas.moves, json_body())
    result = list_moves(
        data["fen"], data["variant"], notation=data["notation"], chess960=data["chess960"],
        registry=current.registry_for(data["source"]),
    )
    if not result.ok:
        _refuse(result.variant, [p.to_dict() for p in result.errors])
    return json_response(result.to_dict())


@blueprint.post("/play")
def play() -> Response:
    current = state()
    data = load(current.schemas.play, json_body())
    result = play_moves(
        data["fen"], data["variant"], data["moves"], options=options_from(data), notation=data["notation"],
        chess960=data["chess960"], registry=current.registry_for(data["source"]),
    )
    if not result.ok:
        _refuse(
            result.variant, [p.to_dict() for p in result.errors], played=result.played,
            warnings=[p.to_dict() for p in result.warnings],
        )
    return json_response(result.to_dict())


def _refuse(
    variant: str | None, errors: list[dict[str, object]], played: list[str] | None = None,
    warnings: list[dict[str, object]] | None = None,
) -> None:
    first = errors[0]
    move_problem = first["code"] in _MOVE_CODES
    extensions: dict[str, object] = {"variant": variant, "warnings": warnings or []}
    if played is not None:
        extensions["played"] = played
    where = f" (ply {first['ply']})" if "ply" in first else ""
    raise ProblemError(
        INVALID_MOVE if move_problem else INVALID_FEN, 422, f"{first['code']}: {first['message']}{where}",
        errors=errors, extensions=extensions,
    )
