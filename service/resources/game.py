"""``POST /v1/pgn/game``: the first game of a PGN text, checked and replayed for a board:
its variant and start as its tags give them, the main line as plies (each move as written,
in SAN and UCI, the FEN after it, its squares and a king in check), variations nested under
the move they replace, and every problem found, as ``notation normalize --moves check``
reports it.

The body is JSON, ``{"pgn": text, "from"?, "accept"?}`` (``schemas.GameRequest``), so it is
bounded by ``NOTATION_MAX_BODY_BYTES`` as every JSON body; the movetext is read within
``GAME_BUDGET`` (fewer tokens than normalize's budget: every ply is answered with its FEN),
past which the game has ``pgn-movetext-too-long``.

A game is answered 200 whatever it holds: its problems are what the endpoint is for. They
come from the normaliser (``notation.pgn.normalize``, moves checked), so they are the CLI's;
the plies come from ``service.replay``, which plays the same tokens from the same start.
Where the normaliser refuses the set-up (an unknown variant, a bad or repeated ``FEN`` tag,
a Chess960 game without a FEN) there are no plies. Moves pasted alone with a move number
are a game without tags (``pgn-no-tags``; a missing result is then a warning). Text with
no tag, no move number and no result, whose moves the normaliser leaves unread
(``pgn-stray-text``), is read as a game of the default variant from its start, its move
problems found by the walk that replays it (the normaliser's own,
``notation.pgn.gamemoves``); its ``pgn-stray-text`` is then a warning saying so.

Refused (problem+json), as every JSON endpoint refuses: a body that is not JSON (400), that
breaks the schema, or whose ``pgn`` is only white space (422 ``invalid-request`` naming the
field), another media type (415), a body over the limit (413). Nothing else raises.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response

from notation.errors import NotationError
from notation.fen.writer import write_fen
from notation.pgn.games import MISSING_RESULT, NO_TAGS, STRAY_TEXT, RawGame
from notation.pgn.gamestart import Start, StartPositions
from notation.pgn.move_reports import move_problem_dict
from notation.pgn.movetext import TOO_DEEP, TOO_LONG, Budget
from notation.pgn.normalize import BadGamePolicy, MovesOption, NormalizeOptions, Normalizer
from notation.pgn.splitter import iter_games
from notation.variants import Registry

from ..bodies import json_body, load
from ..replay import Replay, replay
from ..schemas import GameRequest
from ..state import json_response, state

blueprint = Blueprint("game", __name__, url_prefix="/v1/pgn")

# How much movetext one game may hold here: a long real game is a few thousand tokens
# (moves, numbers, clock comments); each ply's answer costs a FEN and the work of a move.
GAME_BUDGET = Budget(max_tokens=10_000, max_depth=100)

_request = GameRequest()


@blueprint.post("/game")
def game() -> Response:
    data = load(_request, json_body())
    registry = state().registry_for(data["source"])
    chosen, more = _first_game(data["pgn"])
    return json_response(_answer(chosen, more, registry, frozenset(data["accept"])))


def _first_game(text: str) -> tuple[RawGame, bool]:
    """The first game of ``text`` and whether another follows it. Text the splitter finds
    no game in (white space the schema let through) is taken whole, as a game of nothing."""
    first: RawGame | None = None
    for raw in iter_games(text):
        if raw.part == 0 and not raw.is_blank:
            if first is not None:
                return first, True
            first = raw
    return (RawGame(1, 1, text=text) if first is None else first), False


def _answer(raw: RawGame, more: bool, registry: Registry, accept: frozenset[str]) -> dict[str, Any]:
    options = NormalizeOptions.create(
        moves=MovesOption.CHECK, on_bad=BadGamePolicy.REJECT, registry=registry, accept=accept, budget=GAME_BUDGET,
    )
    result = Normalizer(options).normalize_game(raw)
    problems = [
        {"level": level, "line": entry["line"], **problem}
        for entry in result.report
        for level, kind in (("error", "errors"), ("warning", "warnings"))
        for problem in entry.get(kind, ())
    ]
    tags = {tag.name: tag.value for tag in reversed(raw.tags)}  # the first of each name, as the normaliser reads
    starts = StartPositions(registry, accept)
    start: Start | None = None
    alone = any(problem.code == STRAY_TEXT for problem in raw.problems)
    if any(problem.code == NO_TAGS for problem in raw.problems):
        for problem in problems:  # moves pasted alone, read as a game: no result is no error
            if problem["code"] == MISSING_RESULT:
                problem["level"] = "warning"
    if alone:
        start = starts.start(registry.default, None)
    else:
        try:
            start = starts.start(registry.find(tags.get("Variant") or registry.default), tags.get("FEN"))
        except NotationError:  # an unknown variant: no plies
            start = None
        # The normaliser read the moves from this start when the set-up passed it, or its
        # FEN was mended (``Start.repairs``); a game it set aside for another reason has none.
        if result.rejected and not (start is not None and start.repairs) and not any(
            _is_move_error(problem) for problem in problems
        ):
            start = None
    position = None if start is None else start.position
    placed = {(p["line"], p["column"]): p for p in problems if p["level"] == "error" and "ply" in p and "column" in p}
    played = Replay([], None, None, []) if start is None else replay(
        raw.read_text, raw.start_line, start, GAME_BUDGET, placed,
    )
    if alone:
        _read_alone(played, registry.default.name, problems)
    outcome = None if played.end is None else played.end.outcome()
    return {
        "game": raw.number,
        "start_line": raw.start_line,
        "more_games": more,
        "tags": [{"name": tag.name, "value": tag.value} for tag in raw.tags],
        "variant": None if position is None else position.variant.key,
        "variant_name": None if position is None else position.variant.name,
        "initial_fen": None if position is None else write_fen(position.to_setup(), position.variant).fen,
        "plies": played.plies,
        "result": tags.get("Result", played.result),
        "outcome": None if outcome is None else outcome.to_dict(),
        "ok": not any(problem["level"] == "error" for problem in problems),
        "problems": problems,
    }


def _read_alone(played: Replay, name: str, problems: list[dict[str, Any]]) -> None:
    """Moves with no tag and no result, which the normaliser leaves unread as text outside
    any game: their problems, found by the walk that replayed them from the default
    variant's start, join ``problems`` in line order, and ``pgn-stray-text`` becomes a
    warning saying so."""
    for problem in problems:
        if problem["code"] == STRAY_TEXT:
            problem.update(level="warning", message=f"no tags and no result: read as the moves of a {name} game "
                           "from its start")
    problems += [{"level": placed.problem.level.value, "line": placed.line, **move_problem_dict(placed)}
                 for placed in played.problems]
    problems.sort(key=lambda problem: problem["line"])  # stable: each line's own order is kept


def _is_move_error(problem: dict[str, Any]) -> bool:
    """Whether ``problem`` is an error of the moves (so the set-up was read and played)."""
    return problem["level"] == "error" and ("ply" in problem or problem["code"] in (TOO_LONG, TOO_DEEP))
