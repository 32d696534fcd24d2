"""Every answer checked against openapi.yaml: its status is one the operation documents, its
media type one that status documents, and a JSON body (each line of a JSON-lines stream)
valid against that media type's schema as OpenAPI 3.0.3 reads it (``nullable`` only
beside a ``type``), with openapi-schema-validator's read validator.

``ContractClient`` is a Flask test client that checks every answer it receives and records
which operation answered with which status (``CHECKED``), so that a test can ask whether
every operation has had a success and an error answer checked.
"""

from __future__ import annotations

import collections
import json
import re
from functools import cache
from typing import Any

import yaml
from flask.testing import FlaskClient
from openapi_schema_validator import OAS30ReadValidator, oas30_format_checker

from notation_service.resources.meta import spec_bytes

# operationId -> the statuses of the answers checked in this test session
CHECKED: collections.defaultdict[str, set[int]] = collections.defaultdict(set)

# The lines of a JSON-lines answer, by their `kind`.
LINE_SCHEMAS = {"game": "PgnGameLine", "summary": "PgnSummaryLine", "error": "PgnErrorLine"}


class ContractBroken(AssertionError):
    """An answer the contract does not allow; the message says what and where."""


@cache
def spec() -> dict[str, Any]:
    return yaml.safe_load(spec_bytes())


@cache
def routes() -> list[tuple[re.Pattern[str], str, dict[str, Any]]]:
    """(path pattern, path template, path item) for every path of the contract."""
    found = []
    for template, item in spec()["paths"].items():
        pattern = re.sub(r"\\\{(\w+)\\\}", r"[^/]+", re.escape(template))
        found.append((re.compile(pattern + r"\Z"), template, item))
    return found


def operation(method: str, path: str) -> tuple[str, dict[str, Any]] | None:
    """(path template, operation) of ``method path``; None where the contract has none."""
    for pattern, template, item in routes():
        if pattern.match(path):
            chosen = item.get("get" if method == "HEAD" else method.lower())
            return (template, chosen) if chosen is not None else None
    return None


def resolved(node: dict[str, Any]) -> dict[str, Any]:
    """``node`` with its ``$ref`` (to a component) followed."""
    while "$ref" in node:
        *_, kind, name = node["$ref"].split("/")
        node = spec()["components"][kind][name]
    return node


def schema_errors(schema: dict[str, Any], value: Any) -> list[str]:
    """What in ``value`` breaks ``schema`` (whose ``$ref``s point into the contract)."""
    validator = OAS30ReadValidator({**schema, "components": spec()["components"]}, format_checker=oas30_format_checker)
    return [
        f"{'/'.join(str(part) for part in error.absolute_path) or '(the body)'}: {error.message}"
        for error in validator.iter_errors(value)
    ]


def check_answer(method: str, path: str, status: int, media_type: str, body: bytes) -> str | None:
    """Raise ``ContractBroken`` if the answer breaks the contract; return the operationId
    (None for a path or method the contract does not have, which the app answers 404 or
    405 as plain HTTP errors)."""
    where = f"{method} {path} -> {status} {media_type}"
    found = operation(method, path)
    if found is None:
        if status not in (404, 405):
            raise ContractBroken(f"{where}: the contract has no such operation")
        return None
    _template, op = found
    responses = op["responses"]
    documented = responses.get(str(status)) or responses.get("default")
    if documented is None:
        raise ContractBroken(f"{where}: status {status} is not documented (it has {sorted(responses)})")
    documented = resolved(documented)
    content = documented.get("content")
    if not content:
        if body and method != "HEAD":
            raise ContractBroken(f"{where}: the contract documents no body, the answer has {len(body)} bytes")
        return op["operationId"]
    if media_type not in content:
        raise ContractBroken(f"{where}: media type not documented (it has {sorted(content)})")
    if method == "HEAD":
        return op["operationId"]
    schema = content[media_type].get("schema", {})
    if media_type == "application/x-ndjson":
        problems = []
        for number, line in enumerate(body.decode("utf-8").splitlines(), 1):
            value = json.loads(line)
            line_schema = {"$ref": f"#/components/schemas/{LINE_SCHEMAS.get(value.get('kind'), 'PgnGameLine')}"}
            problems += [f"line {number}: {problem}" for problem in schema_errors(line_schema, value)]
    elif media_type.endswith("json"):
        problems = schema_errors(schema, json.loads(body))
    else:
        problems = schema_errors(schema, body.decode("utf-8", "replace"))
    if problems:
        raise ContractBroken(f"{where} breaks the contract:\n  " + "\n  ".join(problems[:20]))
    return op["operationId"]


class ContractClient(FlaskClient):
    """A test client whose every answer is checked with ``check_answer``."""

    def open(self, *args: Any, **kwargs: Any) -> Any:
        response = super().open(*args, **kwargs)
        request = response.request
        body = response.get_data()
        operation_id = check_answer(request.method, request.path, response.status_code, response.mimetype, body)
        if operation_id is not None:
            CHECKED[operation_id].add(response.status_code)
        return response
