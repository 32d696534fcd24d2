"""Problem details (RFC 9457) the server layer writes itself, without Flask: for requests
that never reach the app (a malformed head, a body too large or too slow, overload, a
timeout). Same shape as ``service.problems``: ``type`` (``about:blank``), ``title`` (the
status phrase), ``status``, ``detail``.
"""

from __future__ import annotations

from collections.abc import Sequence
from http import HTTPStatus

from .jsonio import dumps_bytes

PROBLEM_MEDIA_TYPE = "application/problem+json"


def phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"


def problem_bytes(status: int, detail: str) -> bytes:
    """The JSON body of a problem with ``status`` and ``detail``."""
    return dumps_bytes({"type": "about:blank", "title": phrase(status), "status": status, "detail": detail})


def closing_response(status: int, detail: str, extra_headers: Sequence[tuple[str, str]] = ()) -> bytes:
    """A whole HTTP/1.1 problem response that ends the connection (``Connection: close``).

    Written whole here because it is also the answer to heads the parser refused."""
    body = problem_bytes(status, detail)
    lines = [
        f"HTTP/1.1 {status} {phrase(status)}",
        f"Content-Type: {PROBLEM_MEDIA_TYPE}",
        f"Content-Length: {len(body)}",
        "Connection: close",
        *(f"{name}: {value}" for name, value in extra_headers),
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body
