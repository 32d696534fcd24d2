"""Reading request bodies: media type, size, UTF-8, JSON syntax, then a marshmallow schema.

Every failure is a ``ProblemError`` (or werkzeug's 413/415) that says what was wrong and
where: the byte offset of bad UTF-8, the line and column of bad JSON, the JSON Pointer of
each field that breaks the schema. The size limit is checked before the body is read
(``app.before_request``); reading also stops at the limit when no length was sent.
"""

from __future__ import annotations

import json
from typing import Any, Iterator, Mapping

from flask import g, request
from marshmallow import Schema, ValidationError
from werkzeug.exceptions import RequestEntityTooLarge, UnsupportedMediaType

from service.problems import INVALID_JSON, INVALID_REQUEST, ProblemError

JSON_MEDIA_TYPE = "application/json"


def json_body() -> Any:
    """The request body parsed as JSON; raises ``ProblemError`` (400) or ``UnsupportedMediaType``."""
    require_media_type((JSON_MEDIA_TYPE,), json_suffix=True)
    data = read_body()
    if not data.strip():
        raise ProblemError(INVALID_JSON, 400, "the request body is empty; send a JSON object")
    text = utf8_text(data, INVALID_JSON)
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise ProblemError(
            INVALID_JSON, 400, f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from None
    except RecursionError:
        raise ProblemError(INVALID_JSON, 400, "not accepted JSON: nested too deeply") from None
    except ValueError as exc:  # NaN/Infinity, integers longer than Python converts
        raise ProblemError(INVALID_JSON, 400, f"not accepted JSON: {exc}") from None


def read_body() -> bytes:
    """The whole body; raises ``RequestEntityTooLarge`` past the endpoint's limit."""
    data = request.get_data(cache=False)
    limit = g.body_limit
    if len(data) > limit:
        raise too_large(limit, "the body is longer")
    return data


def too_large(limit: int, what: str) -> RequestEntityTooLarge:
    return RequestEntityTooLarge(f"{what}; this endpoint accepts at most {limit} bytes")


def require_media_type(accepted: tuple[str, ...], *, json_suffix: bool = False) -> None:
    """Raise 415 unless the body's media type is one of ``accepted`` (charset, if any, UTF-8)."""
    mimetype = request.mimetype
    ok = mimetype in accepted or (json_suffix and mimetype.startswith("application/") and mimetype.endswith("+json"))
    if not ok:
        sent = request.content_type or "no Content-Type"
        raise UnsupportedMediaType(f"send the body as {' or '.join(accepted)}; got {sent}")
    charset = request.mimetype_params.get("charset")
    if charset is not None and charset.lower().replace("-", "") != "utf8":
        raise UnsupportedMediaType(f"send the body in UTF-8; got charset={charset}")


def utf8_text(data: bytes, problem_type: str) -> str:
    """``data`` decoded as UTF-8; raises ``ProblemError`` (400) naming the first bad byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ProblemError(
            problem_type, 400, f"the body is not UTF-8: byte {exc.start} (0x{data[exc.start]:02x}) cannot start or continue a character"
        ) from None


def load(schema: Schema, data: Any) -> dict[str, Any]:
    """``schema.load(data)``; raises ``ProblemError`` (422) listing every field that is wrong."""
    try:
        return schema.load(data)
    except ValidationError as exc:
        raise invalid_request(list(flatten_messages(exc.messages))) from None


def load_query(schema: Schema, data: Any) -> dict[str, Any]:
    """``schema.load`` of query parameters; errors name the ``parameter`` (422)."""
    try:
        return schema.load(data)
    except ValidationError as exc:
        errors = []
        for error in flatten_messages(exc.messages):
            name, _, index = error.pop("pointer").lstrip("/").partition("/")
            error["parameter"] = name
            if index:
                error["message"] = f"value {int(index) + 1}: {error['message']}"
            errors.append(error)
        raise invalid_request(errors) from None


def invalid_request(errors: list[dict[str, Any]]) -> ProblemError:
    first = errors[0]
    where = f"query parameter {first['parameter']}" if "parameter" in first else (first["pointer"] or "the body")
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return ProblemError(INVALID_REQUEST, 422, f"{where}: {first['message']}{more}", errors=errors)


def field_error(pointer: str, message: str, code: str = "invalid-field") -> dict[str, Any]:
    return {"code": code, "message": message, "pointer": pointer}


def flatten_messages(messages: Any, pointer: str = "") -> Iterator[dict[str, Any]]:
    """marshmallow's nested error messages as a flat list with JSON Pointers (RFC 6901)."""
    if isinstance(messages, Mapping):
        for key, value in messages.items():
            part = "" if key == "_schema" else "/" + str(key).replace("~", "~0").replace("/", "~1")
            yield from flatten_messages(value, pointer + part)
    elif isinstance(messages, (list, tuple)):
        for message in messages:
            if isinstance(message, (Mapping, list, tuple)):
                yield from flatten_messages(message, pointer)
            else:
                yield field_error(pointer, str(message), _code_of(str(message)))
    else:
        yield field_error(pointer, str(messages), _code_of(str(messages)))


def _code_of(message: str) -> str:
    if message == "Unknown field.":
        return "unknown-field"
    if message == "Missing data for required field.":
        return "missing-field"
    return "invalid-field"


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")
