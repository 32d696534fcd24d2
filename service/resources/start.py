"""``GET /v1/start``: a variant's start FEN, numbered or drawn where its start is drawn, as
``notation start`` prints it (``notation.start.start_position``).

Every parameter is checked before anything is computed; a bad one (unknown variant, number
out of range, a number and a seed together, Chess960 for a variant that does not castle) is
422 ``invalid-request`` naming the parameter.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, request

from notation.errors import NotationError, UnknownVariantError
from notation.fen.profiles import options_from
from notation.fen.writer import write_fen
from notation.start import start_position

from ..bodies import invalid_request, load_query
from ..schemas import StartQuery
from ..state import json_response, state

blueprint = Blueprint("start", __name__, url_prefix="/v1")
_query = StartQuery()


@blueprint.get("/start")
def start() -> Response:
    data = _load()
    registry = state().registry_for(data["source"])
    try:
        variant = registry.find(data["variant"])
    except UnknownVariantError as exc:
        raise _bad("variant", str(exc)) from None
    try:
        found = start_position(
            variant, number=data.get("number"), seed=data.get("seed"), array=data["array"], registry=registry
        )
    except ValueError as exc:
        raise _bad("number", str(exc)) from None
    except NotationError as exc:
        raise _bad("array" if data["array"] == "chess960" else "seed", str(exc)) from None
    options = options_from(data)
    if found.chess960:
        options = options.but(castling=options.castling_960)
    body = {
        "fen": write_fen(found.setup, variant, options).fen,
        "variant": variant.key,
        "draw": found.draw,
        "number": found.number,
        "chess960_number": found.chess960_number,
    }
    return json_response(body)


def _load() -> dict[str, Any]:
    args = request.args.to_dict(flat=False)
    repeated = [name for name, values in args.items() if len(values) > 1]
    if repeated:
        raise invalid_request(
            [{"code": "invalid-field", "message": "Given more than once.", "parameter": name} for name in repeated]
        )
    return load_query(_query, {name: values[0] for name, values in args.items()})


def _bad(parameter: str, message: str) -> Exception:
    return invalid_request([{"code": "invalid-field", "message": message, "parameter": parameter}])
