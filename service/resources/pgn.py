"""``POST /v1/pgn/normalize``: the PGN normaliser (``notation.pgn.normalize``) over a PGN
body, answered as a stream of JSON lines (``application/x-ndjson``).

The body is read whole first (it is bounded by ``NOTATION_MAX_PGN_BYTES``) so that a client
which sends its whole request before reading the answer cannot deadlock; games are then
normalised and written one line each, as they are done, followed by one summary line. Bytes
that are not UTF-8 are kept as lone surrogates (U+DC80..U+DCFF, Python's
``surrogateescape``) and reported with code ``pgn-not-utf8``, as ``notation normalize`` does.
Options are query parameters, checked before anything is written.
"""

from __future__ import annotations

import logging
from typing import Any, Iterator

from flask import Blueprint, Response, request

from notation.options import IllegalPolicy
from notation.pgn.normalize import BadGamePolicy, GameResult, NormalizeOptions, Summary, normalize
from notation.pgn.streams import ENCODING, ERRORS

from service.bodies import invalid_request, load_query, read_body, require_media_type
from service.jsonio import dumps
from service.schemas import NormalizeQuery, PgnGameLine, PgnSummaryLine
from service.state import state

blueprint = Blueprint("pgn", __name__, url_prefix="/v1/pgn")
log = logging.getLogger("service")

PGN_MEDIA_TYPES = ("application/x-chess-pgn", "application/vnd.chess-pgn", "text/plain")
NDJSON = "application/x-ndjson"
REPEATABLE = frozenset({"accept"})


_query = NormalizeQuery()
_game_line = PgnGameLine()
_summary_line = PgnSummaryLine()


@blueprint.post("/normalize")
def normalize_pgn() -> Response:
    options = _options()
    require_media_type(PGN_MEDIA_TYPES)
    text = read_body().decode(ENCODING, ERRORS)
    return Response(_lines(text, options), mimetype=NDJSON)


def _options() -> NormalizeOptions:
    args = request.args.to_dict(flat=False)
    repeated = [name for name, values in args.items() if len(values) > 1 and name not in REPEATABLE]
    if repeated:
        raise invalid_request(
            [{"code": "invalid-field", "message": "Given more than once.", "parameter": name} for name in repeated]
        )
    data = load_query(_query, {name: values if name in REPEATABLE else values[0] for name, values in args.items()})
    return NormalizeOptions.create(
        data.get("profile"),
        pockets=data.get("pockets"),
        checks=data.get("checks"),
        castling=data.get("castling"),
        en_passant=data.get("en_passant"),
        on_bad=data.get("on_bad", BadGamePolicy.KEEP),
        on_illegal=data.get("on_illegal", IllegalPolicy.REFUSE),
        registry=state().registry,
        accept=data["accept"],
    )


def _lines(text: str, options: NormalizeOptions) -> Iterator[str]:
    summary = Summary()
    try:
        for result in normalize(text, options):
            summary.add(result)
            yield dumps(_game_line.dump(_game(result))) + "\n"
    except Exception as exc:  # noqa: BLE001 - the status is already sent: end with an error line
        log.error("unexpected error while normalising a PGN stream", exc_info=exc)
        yield dumps(
            {
                "kind": "error",
                "type": "about:blank",
                "title": "Internal Server Error",
                "status": 500,
                "detail": "the service failed while normalising; the games above are complete, the rest is missing",
            }
        ) + "\n"
        return
    yield dumps(_summary_line.dump({"kind": "summary", **summary.to_dict()})) + "\n"


def _game(result: GameResult) -> dict[str, Any]:
    return {
        "kind": "game",
        "game": result.number,
        "part": result.part,
        "start_line": result.start_line,
        "changed": result.changed,
        "rejected": result.rejected,
        "text": result.text,
        "problems": result.report,
    }
