"""RFC 9457 problem details: the one shape of every error response.

``ProblemError`` is raised by views for errors the service defines (bad JSON, an invalid
request, an unconvertible FEN); ``install`` registers one handler for it, for every
``HTTPException`` (404, 405, 413, 415, ...) and for every other exception (500, logged).
Each writes ``application/problem+json`` with ``type``, ``title``, ``status``, ``detail``
and, where there are some, ``errors``; an ``HTTPException``'s own headers (``Allow``) are kept.
"""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

from flask import Flask, Response, request
from werkzeug.exceptions import HTTPException, InternalServerError

from .jsonio import dumps_bytes

PROBLEM_MEDIA_TYPE = "application/problem+json"
TYPE_PREFIX = "tag:notation,2025:problem:"

# Problem types the service defines; every other error is "about:blank" (RFC 9457 4.2.1).
INVALID_JSON = TYPE_PREFIX + "invalid-json"  # 400: the body is not a JSON document
INVALID_REQUEST = TYPE_PREFIX + "invalid-request"  # 422: JSON that breaks the request schema
INVALID_FEN = TYPE_PREFIX + "invalid-fen"  # 422: a FEN that cannot be converted
INVALID_PGN_REQUEST = TYPE_PREFIX + "invalid-pgn-request"  # 422: bad query parameters or PGN body encoding
INVALID_MOVE = TYPE_PREFIX + "invalid-move"  # 422: a move that cannot be played, or a notation the variant lacks

_TITLES = {
    INVALID_JSON: "Request body is not valid JSON",
    INVALID_REQUEST: "Request does not match the schema",
    INVALID_FEN: "FEN cannot be converted",
    INVALID_PGN_REQUEST: "PGN request cannot be processed",
    INVALID_MOVE: "Move cannot be played",
}

log = logging.getLogger("service")


class ProblemError(Exception):
    """An error response the service defines; ``errors`` and ``extensions`` go in the body."""

    def __init__(
        self,
        problem_type: str,
        status: int,
        detail: str,
        *,
        errors: list[dict[str, Any]] | None = None,
        extensions: dict[str, Any] | None = None,
    ):
        super().__init__(detail)
        self.problem_type = problem_type
        self.status = status
        self.detail = detail
        self.errors = errors
        self.extensions = extensions or {}


def problem_response(
    status: int,
    detail: str,
    *,
    problem_type: str = "about:blank",
    title: str | None = None,
    errors: list[dict[str, Any]] | None = None,
    extensions: dict[str, Any] | None = None,
    headers: list[tuple[str, str]] | None = None,
) -> Response:
    body: dict[str, Any] = {
        "type": problem_type,
        "title": title or _TITLES.get(problem_type) or _phrase(status),
        "status": status,
        "detail": detail,
    }
    if errors is not None:
        body["errors"] = errors
    body.update(extensions or {})
    response = Response(dumps_bytes(body), status=status, mimetype=PROBLEM_MEDIA_TYPE)
    for name, value in headers or ():
        if name.lower() not in ("content-type", "content-length"):
            response.headers[name] = value
    return response


def install(app: Flask) -> None:
    """Route every error of ``app`` through a problem+json response."""
    app.register_error_handler(ProblemError, _service_problem)
    app.register_error_handler(HTTPException, _http_problem)
    app.register_error_handler(Exception, _unexpected_problem)


def _service_problem(exc: ProblemError) -> Response:
    return problem_response(
        exc.status, exc.detail, problem_type=exc.problem_type, errors=exc.errors, extensions=exc.extensions
    )


def _http_problem(exc: HTTPException) -> Response:
    status = exc.code or 500
    if status >= 500:
        original = getattr(exc, "original_exception", None)
        if original is not None:
            return _unexpected_problem(original)
    return problem_response(status, _http_detail(exc), headers=exc.get_headers())


def _unexpected_problem(exc: BaseException) -> Response:
    log.error("unexpected error while serving a request", exc_info=exc)
    return problem_response(
        InternalServerError.code,
        "the service failed on this request; it has been logged",
    )


def _http_detail(exc: HTTPException) -> str:
    if exc.code == 404:
        return "no resource at this path; GET /openapi.yaml lists the endpoints"
    if exc.code == 405:
        allowed = ", ".join(sorted(getattr(exc, "valid_methods", None) or ()))
        return f"{request.method} is not allowed on this path; allowed: {allowed}"
    return exc.description or _phrase(exc.code or 500)


def _phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"
