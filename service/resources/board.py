"""``/v1/board.svg``: a position drawn as SVG (``notation.svg``). ``GET`` draws a FEN, for
``<img>`` tags; ``POST`` draws a PGN game's position at a ply, its last move and a king in
check marked (``notation.svg.game_ply``).

The picture of a ``GET`` depends only on the query and the service's version, so it is
cacheable (``Cache-Control: public``, a strong ``ETag``, 304 to a matching ``If-None-Match``).
Bad parameters are 422 ``invalid-request`` naming the parameter; a FEN that cannot be read,
an unknown variant or a failed ``auto`` guess is 422 ``invalid-fen`` with the problems, as
``POST /v1/fen/convert`` answers. An illegal but readable position is drawn (``highlight``
can mark its squares); ``last_move``, ``check`` and ``arrows`` mark a move, a king in check
(only in a legal position) and arrows, as ``notation svg`` does.

The ``POST`` body is JSON (``schemas.GameBoardRequest``: ``pgn``, ``game``, ``ply`` and the
picture's options), bounded by ``NOTATION_MAX_BODY_BYTES`` as every JSON body; the games are
read by ``notation.read_games`` within ``POST /v1/pgn/game``'s movetext budget. Refused with
422: a body that breaks the schema, a ``game`` the text does not hold or a ``ply`` past the
end of its main line (``invalid-request`` naming ``/game`` or ``/ply``), a game with no start
to play from (``invalid-fen``: its ``Variant`` or ``FEN`` tag's problem, or
``unknown-start``), a move of the main line up to the ply that cannot be played
(``invalid-move``: its code, ``move``, ``ply``, ``line``, ``column`` and the ``fen`` before
it). Nothing else raises.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any, TypeVar

from flask import Blueprint, Response, request
from marshmallow import fields, validate

from notation import __version__
from notation.errors import NotationError
from notation.fen.reader import read_fen
from notation.geometry import Geometry
from notation.pgn.gameread import PgnGame, read_games
from notation.svg import (
    MAX_SIZE,
    MIN_SIZE,
    CheckMark,
    Coordinates,
    Orientation,
    PlyError,
    PlyFailure,
    SvgOptions,
    board_svg,
    game_ply,
    parse_arrows,
    parse_move_squares,
    parse_squares,
)
from notation.svg.game import ProblemLike
from notation.variants import Registry

from ..bodies import field_error, invalid_request, json_body, load, load_query
from ..guessing import resolve
from ..problems import INVALID_FEN, INVALID_MOVE, ProblemError
from ..schemas import MAX_VARIANT_CHARS, GameBoardRequest, Strict, enum_field
from ..state import state
from .game import GAME_BUDGET

blueprint = Blueprint("board", __name__, url_prefix="/v1")

SVG_MEDIA_TYPE = "image/svg+xml"
CACHE_SECONDS = 86400
MAX_HIGHLIGHT_CHARS = 1000
MAX_MOVE_CHARS = 16


class BoardQuery(Strict):
    """Query parameters of GET /v1/board.svg (each at most once)."""

    fen = fields.String(required=True, allow_none=False, validate=validate.Length(min=1))
    variant = fields.String(
        load_default="standard", allow_none=False, validate=validate.Length(min=1, max=MAX_VARIANT_CHARS)
    )
    size = fields.Integer(strict=False, allow_none=False, validate=validate.Range(min=MIN_SIZE, max=MAX_SIZE))
    orientation = enum_field(Orientation, load_default=Orientation.WHITE)
    coordinates = enum_field(Coordinates, load_default=Coordinates.SHOW)
    highlight = fields.String(load_default="", allow_none=False, validate=validate.Length(max=MAX_HIGHLIGHT_CHARS))
    last_move = fields.String(load_default="", allow_none=False, validate=validate.Length(max=MAX_MOVE_CHARS))
    check = enum_field(CheckMark, load_default=CheckMark.AUTO)
    arrows = fields.String(load_default="", allow_none=False, validate=validate.Length(max=MAX_HIGHLIGHT_CHARS))


_query = BoardQuery()


@blueprint.get("/board.svg")
def board() -> Response:
    data = _arguments()
    current = state()
    if len(data["fen"]) > current.settings.max_fen_chars:
        raise invalid_request(
            [
                {
                    "code": "invalid-field",
                    "message": f"Longer than maximum length {current.settings.max_fen_chars}.",
                    "parameter": "fen",
                }
            ]
        )
    resolved = resolve(data["fen"], data["variant"], current.registry)
    if resolved.problem is not None:
        raise _unreadable(NotationError([resolved.problem]), None)
    try:
        variant = current.registry.find(resolved.variant)
    except NotationError as exc:
        raise _unreadable(exc, None) from None
    try:
        read = read_fen(data["fen"], variant, registry=current.registry)
    except NotationError as exc:
        raise _unreadable(exc, variant.key) from None
    geometry = read.setup.geometry
    options = SvgOptions(
        size=data.get("size"),
        orientation=data["orientation"],
        coordinates=data["coordinates"],
        highlight=_parsed("highlight", parse_squares, data["highlight"], geometry),
        last_move=_parsed("last_move", parse_move_squares, data["last_move"], geometry),
        check=data["check"],
        arrows=_parsed("arrows", parse_arrows, data["arrows"], geometry),
    )
    response = Response(board_svg(read.setup, read.variant, options), mimetype=SVG_MEDIA_TYPE)
    response.headers["Cache-Control"] = f"public, max-age={CACHE_SECONDS}"
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Content-Security-Policy"] = "default-src 'none'"  # a picture: nothing to load or run
    response.set_etag(_etag())
    response.make_conditional(request)  # 304 to a matching If-None-Match, in place
    return response


_game_request = GameBoardRequest()


@blueprint.post("/board.svg")
def game_board() -> Response:
    data = load(_game_request, json_body())
    registry = state().registry_for(data["source"])
    game = _game(data["pgn"], data["game"], registry, frozenset(data["accept"]))
    try:
        found = game_ply(game, data.get("ply"))
    except PlyError as exc:
        raise _not_drawn(exc, game) from None
    geometry = found.setup.geometry
    options = SvgOptions(
        size=data.get("size"),
        orientation=data["orientation"],
        coordinates=data["coordinates"],
        highlight=_parsed("highlight", parse_squares, data["highlight"], geometry, pointer=True),
        last_move=found.last_move,
        check=data["check"],
        arrows=_parsed("arrows", parse_arrows, data["arrows"], geometry, pointer=True),
    )
    response = Response(board_svg(found.setup, found.position.variant, options, checked=found.checked),
                        mimetype=SVG_MEDIA_TYPE)
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Content-Security-Policy"] = "default-src 'none'"
    return response


def _game(text: str, number: int, registry: Registry, accept: frozenset[str]) -> PgnGame:
    """Game ``number`` of ``text``; 422 naming ``/game`` when the text holds fewer games."""
    last = 0
    for game in read_games(text, registry=registry, accept=accept, budget=GAME_BUDGET):
        if game.number >= number:
            if game.number == number:
                return game
            break
        last = game.number
    if last == 0:
        raise invalid_request([field_error("/pgn", "Holds no PGN game: send the text of one (tags and moves, or "
                                                   "moves alone).")])
    held = f"{last} game{'s' if last > 1 else ''}"
    raise invalid_request([field_error("/game", f"No game {number}: the PGN text holds {held}.")])


def _not_drawn(exc: PlyError, game: PgnGame) -> ProblemError:
    """The 422 of a game that has no position at the ply asked for (see the module doc)."""
    if exc.failure is PlyFailure.PAST_END:
        return invalid_request([field_error("/ply", f"{str(exc)[:1].upper()}{str(exc)[1:]}.")])
    variant = None if game.variant is None else game.variant.key
    errors = [] if exc.problem is None else [_problem_entry(exc.problem)]
    if not errors:  # no problem said why (cannot happen for a game read whole): the message alone
        errors = [{"code": "unknown-start" if exc.failure is PlyFailure.NO_START else "illegal-move",
                   "message": str(exc)}]
    kind = INVALID_FEN if exc.failure is PlyFailure.NO_START else INVALID_MOVE
    return ProblemError(kind, 422, str(exc), errors=errors,
                        extensions={"variant": variant, "game": game.number, "warnings": []})


def _problem_entry(problem: ProblemLike) -> dict[str, Any]:
    """A game's problem as ``POST /v1/pgn/game`` lists it: code, message, line, and where
    known column, ply, move and the FEN before it."""
    entry: dict[str, Any] = {"code": problem.code, "message": problem.message, "line": problem.line}
    for name in ("column", "ply", "move", "fen"):
        value = getattr(problem, name)
        if value is not None:
            entry[name] = value
    return entry


T = TypeVar("T")


def _parsed(parameter: str, parse: Callable[[str, Geometry], T], text: str, geometry: Geometry, *,
            pointer: bool = False) -> T:
    """``parse(text, geometry)``; its ``ValueError`` is 422 ``invalid-request`` naming
    ``parameter`` (with ``pointer``, the body's member ``/parameter``)."""
    try:
        return parse(text, geometry)
    except ValueError as exc:
        if pointer:
            raise invalid_request([field_error("/" + parameter, str(exc))]) from None
        raise invalid_request([{"code": "invalid-field", "message": str(exc), "parameter": parameter}]) from None


def _unreadable(exc: NotationError, variant: str | None) -> ProblemError:
    """422 ``invalid-fen`` listing the problems, shaped as ``POST /v1/fen/convert`` answers."""
    problems = exc.problems
    more = f"; and {len(problems) - 1} more problem(s)" if len(problems) > 1 else ""
    return ProblemError(
        INVALID_FEN,
        422,
        problems[0].describe() + more,
        errors=[p.to_dict() for p in problems],
        extensions={"variant": variant, "warnings": []},
    )


def _arguments() -> dict[str, Any]:
    args = request.args.to_dict(flat=False)
    repeated = [name for name, values in args.items() if len(values) > 1]
    if repeated:
        raise invalid_request(
            [{"code": "invalid-field", "message": "Given more than once.", "parameter": name} for name in repeated]
        )
    return load_query(_query, {name: values[0] for name, values in args.items()})


def _etag() -> str:
    """The version and the full query: the same request always draws the same picture."""
    digest = hashlib.sha256(f"{__version__}\n{request.query_string.decode('latin-1')}".encode()).hexdigest()
    return digest[:32]
