"""Reading request bodies: media type, content coding, size, UTF-8, JSON syntax, then a
marshmallow schema.

Every failure is a ``ProblemError`` or a werkzeug error (400, 413, 415) that says what was
wrong and where: the byte offset of bad UTF-8, the line and column of bad JSON, the JSON
Pointer of each field that breaks the schema. The body is read from ``request.stream`` in
pieces of at most ``content_coding.CHUNK`` bytes and decoded per its ``Content-Encoding``
(``service.content_coding``) as it is read. The endpoint's limit (``g.body_limit``) holds
for the bytes sent and for the decoded bytes alike: a declared ``Content-Length`` over it
gets 413 before anything is read (``app.before_request``); otherwise reading stops one
piece past it, so neither a chunked upload nor a decompression bomb is ever held past the
limit.
"""

from __future__ import annotations

import codecs
import json
import tempfile
from collections.abc import Iterator, Mapping
from typing import IO, Any

import orjson
from flask import g, request
from marshmallow import Schema, ValidationError
from werkzeug.exceptions import RequestEntityTooLarge, UnsupportedMediaType

from notation.pgn.streams import ENCODING, ERRORS

from .content_coding import CHUNK, coding_of, decoded
from .plain_load import PlainStrings
from .problems import INVALID_JSON, INVALID_REQUEST, ProblemError

JSON_MEDIA_TYPE = "application/json"
SPOOL_IN_MEMORY = 1 << 20  # spooled bodies up to this size stay in memory, larger ones go to a temporary file


def json_body() -> Any:
    """The request body parsed as JSON; raises ``ProblemError`` (400) or ``UnsupportedMediaType``.

    orjson parses it (a 10,000-FEN batch in a millisecond); what orjson refuses goes to the
    standard parser, whose messages name the line and column, and which also takes the
    few documents orjson does not (escaped lone surrogates, numbers past a double).
    Integers past 64 bits come as floats from orjson: no field of a request body is an
    integer, so they are refused as the wrong type either way."""
    require_media_type((JSON_MEDIA_TYPE,), json_suffix=True)
    data = read_body()
    if not data.strip():
        raise ProblemError(INVALID_JSON, 400, "the request body is empty; send a JSON object")
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        pass  # the standard parser says what is wrong, or takes what orjson does not (see above)
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
    """The whole decoded body, in memory (for JSON bodies: their limit is small).

    Raises as ``body_chunks`` does.
    """
    return b"".join(body_chunks())


def spool_body() -> IO[bytes]:
    """The whole decoded body in a temporary file (in memory up to ``SPOOL_IN_MEMORY``),
    positioned at its start; the caller closes it. Memory stays bounded whatever the size.

    Raises as ``body_chunks`` does, and ``OSError`` when the temporary file cannot be
    written (a full disk): that is the server's failure, not the client's.
    """
    spool = tempfile.SpooledTemporaryFile(max_size=SPOOL_IN_MEMORY, prefix="notation-body-")
    try:
        for chunk in body_chunks():
            spool.write(chunk)
        spool.seek(0)
    except BaseException:
        spool.close()
        raise
    return spool


def body_chunks() -> Iterator[bytes]:
    """The body decoded per its ``Content-Encoding``, in pieces of at most ``CHUNK`` bytes.

    Raises ``UnsupportedCoding`` (415) before reading for a coding the service does not
    decode, ``CorruptBody`` (400) for bad compressed data, and ``RequestEntityTooLarge``
    (413) as soon as the bytes sent or the decoded bytes go past ``g.body_limit``.
    """
    coding = coding_of(request.headers.get("Content-Encoding"))
    limit = g.body_limit
    chunks = _sent_chunks(limit)
    if coding is None:
        yield from chunks
        return
    size = 0
    for chunk in decoded(chunks, coding):
        size += len(chunk)
        if size > limit:
            raise too_large(
                limit, f"the body is longer once decoded from {coding.value} (the limit counts decoded bytes)"
            )
        yield chunk


def _sent_chunks(limit: int) -> Iterator[bytes]:
    """The bytes sent, as read from ``request.stream`` (which ``app._limit_body`` stops
    one byte past the limit); raises ``RequestEntityTooLarge`` once past ``limit``."""
    read = request.stream.read
    size = 0
    while True:
        chunk = read(CHUNK)
        if not chunk:
            return
        size += len(chunk)
        if size > limit:
            raise too_large(limit, "the body is longer")
        yield chunk


def utf8_blocks(binary: IO[bytes], size: int = 1 << 18) -> Iterator[str]:
    """The text of ``binary`` decoded as ``notation normalize`` reads files (UTF-8 with
    ``surrogateescape``: bytes that are not UTF-8 become lone surrogates U+DC80..U+DCFF),
    in blocks cut anywhere, each from ``size`` bytes read (at most ``size`` + 3 characters:
    the decoder holds back an incomplete character's bytes until the next block); the
    same text as decoding the whole at once. Never raises on bad bytes."""
    decoder = codecs.getincrementaldecoder(ENCODING)(ERRORS)
    while True:
        data = binary.read(size)
        text = decoder.decode(data, final=not data)
        if text:
            yield text
        if not data:
            return


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
            problem_type,
            400,
            f"the body is not UTF-8: byte {exc.start} (0x{data[exc.start]:02x}) cannot start or continue a character",
        ) from None


def load(schema: Schema, data: Any, plain: PlainStrings | None = None) -> dict[str, Any]:
    """``schema.load(data)``; raises ``ProblemError`` (422) listing every field that is wrong.

    ``plain``, the schema's ``PlainStrings``, loads an all-string body without marshmallow."""
    if plain is not None:
        loaded = plain.load(data)
        if loaded is not None:
            return loaded
    try:
        return schema.load(data)
    except ValidationError as exc:
        raise invalid_request(list(flatten_messages(exc.messages))) from None


def single_query(repeatable: frozenset[str] = frozenset()) -> dict[str, Any]:
    """The request's query parameters: one value each, a list for the ``repeatable`` ones;
    raises ``ProblemError`` (422, naming them) for the others given more than once."""
    args = request.args.to_dict(flat=False)
    repeated = [name for name, values in args.items() if len(values) > 1 and name not in repeatable]
    if repeated:
        raise invalid_request(
            [{"code": "invalid-field", "message": "Given more than once.", "parameter": name} for name in repeated]
        )
    return {name: values if name in repeatable else values[0] for name, values in args.items()}


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
