"""The application factory: settings, blueprints, the body-size gate, problem+json errors."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, g, request

from . import metrics, problems
from .bodies import too_large
from .config import Settings
from .resources import board, docs, fen, game, meta, moves, page, pgn, start, variants
from .state import EXTENSION_KEY, ServiceState, state

# Endpoints whose bodies are PGN text with their own, larger limit.
PGN_ENDPOINTS = frozenset({f"{pgn.blueprint.name}.{pgn.normalize_pgn.__name__}"})


def create_app(config: Settings | Mapping[str, Any] | None = None) -> Flask:
    """A configured app. ``config`` is ``Settings``, a mapping of setting names to values
    (over the environment), or ``None`` for the environment alone; raises ``ConfigError``."""
    if isinstance(config, Settings):
        settings = config
    elif config is None:
        settings = Settings.from_env()
    else:
        settings = Settings.from_mapping(config)
    app = Flask("service")
    app.config["MAX_CONTENT_LENGTH"] = settings.max_body_bytes
    app.extensions[EXTENSION_KEY] = ServiceState.build(settings)
    api = (
        meta.blueprint, variants.blueprint, fen.blueprint, moves.blueprint, pgn.blueprint, game.blueprint,
        start.blueprint, board.blueprint,
    )
    for blueprint in api:
        app.register_blueprint(blueprint)
    for blueprint in (page.blueprint, docs.blueprint):  # for people: the page at / and /docs
        app.register_blueprint(blueprint)
    app.before_request(_limit_body)
    metrics.install(app)
    problems.install(app)
    return app


def _limit_body() -> None:
    """Set the endpoint's body limit (``g.body_limit``, bytes sent and decoded bytes alike);
    413 before the body is read when Content-Length is over it. Without a length (chunked),
    ``request.stream`` stops one byte past the limit and ``bodies.body_chunks`` says 413;
    it also says 413 when the decoded body goes past the limit."""
    settings = state().settings
    limit = settings.max_pgn_bytes if request.endpoint in PGN_ENDPOINTS else settings.max_body_bytes
    g.body_limit = limit
    request.max_content_length = limit + 1
    length = request.content_length
    if length is not None and length > limit:
        raise too_large(limit, f"the body is {length} bytes")
