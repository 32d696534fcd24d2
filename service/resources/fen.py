"""``POST /v1/fen/convert``, ``/v1/fen/validate``, ``/v1/fen/batch`` and ``/v1/fen/view``: thin views over
``notation.operations``, so the service answers exactly as the CLI does.

A request that breaks its schema is refused whole (422 ``invalid-request``); in a batch a
FEN that cannot be read, an unknown variant or an illegal setup is only that item's result.
``"variant": "auto"`` guesses each FEN's variant as ``--variant auto`` does
(``service.guessing``): single answers carry ``guess``, every answer the CLI's warning.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, request

from notation.errors import NotationError, Problem
from notation.fen.profiles import options_from
from notation.guess import is_auto
from notation.operations import ConvertResult, ValidateResult, ViewResult, convert_fen, validate_fen, view_fen
from notation.options import IllegalPolicy
from notation.variants import AUTO, Registry, Variant

from ..bodies import json_body, load
from ..guessing import SAY, guess_member, resolve, with_guess_warning
from ..metrics import count_fens
from ..problems import INVALID_FEN, ProblemError
from ..schemas import ConvertOut
from ..state import ServiceState, json_response, state

blueprint = Blueprint("fen", __name__, url_prefix="/v1/fen")

# The members of a 200 answer to POST /v1/fen/convert: ``ConvertOut``'s fields.
CONVERT_OK_FIELDS = tuple(ConvertOut().fields)


@blueprint.post("/convert")
def convert() -> Response:
    current = state()
    data = load(current.schemas.convert, json_body(), current.schemas.plain_convert)
    count_fens(request.environ, 1)
    return json_response(convert_answer(current, data))


def convert_answer(current: ServiceState, data: dict[str, Any]) -> dict[str, Any]:
    """The 200 answer to a loaded convert request; raises ``ProblemError`` (422) for a FEN
    that cannot be converted. No Flask: the worker's fast path calls it too."""
    registry = current.registry_for(data["source"])
    resolved = resolve(data["fen"], data["variant"], registry)
    if resolved.problem is not None:
        result = ConvertResult.failure(resolved.problem)
    else:
        result = convert_fen(
            data["fen"],
            resolved.variant,
            options=options_from(data),
            on_illegal=data.get("on_illegal", IllegalPolicy.REFUSE),
            accept=frozenset(data["accept"]),
            registry=registry,
        )
        result.warnings = with_guess_warning(result.warnings, resolved, registry)
    if not result.ok:
        raise ProblemError(
            INVALID_FEN,
            422,
            _summary(result.errors),
            errors=[p.to_dict() for p in result.errors],
            extensions={
                "variant": result.variant,
                "warnings": [p.to_dict() for p in result.warnings],
                **guess_member(resolved),
            },
        )
    # ``ConvertResult.to_dict()`` less what a 200 needs not say (schemas.ConvertOut).
    body = result.to_dict()
    return {**{name: body[name] for name in CONVERT_OK_FIELDS if name in body}, **guess_member(resolved)}


@blueprint.post("/validate")
def validate() -> Response:
    current = state()
    data = load(current.schemas.validate, json_body(), current.schemas.plain_validate)
    count_fens(request.environ, 1)
    return json_response(validate_answer(current, data))


def validate_answer(current: ServiceState, data: dict[str, Any]) -> dict[str, Any]:
    """The answer to a loaded validate request (always 200). No Flask, as ``convert_answer``."""
    registry = current.registry_for(data["source"])
    resolved = resolve(data["fen"], data["variant"], registry)
    if resolved.problem is not None:
        result = ValidateResult.failure(resolved.problem)
    else:
        result = validate_fen(data["fen"], resolved.variant, accept=frozenset(data["accept"]), registry=registry)
        result.warnings = with_guess_warning(result.warnings, resolved, registry)
    return {**result.to_dict(), **guess_member(resolved)}


@blueprint.post("/view")
def view() -> Response:
    """What one side sees of a position with hidden squares (``notation view --json``)."""
    current = state()
    data = load(current.schemas.view, json_body())
    count_fens(request.environ, 1)
    registry = current.registry
    resolved = resolve(data["fen"], data["variant"], registry)
    if resolved.problem is not None:
        result = ViewResult.failure(resolved.problem, data["side"].value)
    else:
        result = view_fen(data["fen"], resolved.variant, data["side"], accept=frozenset(data["accept"]),
                          registry=registry)
        result.warnings = with_guess_warning(result.warnings, resolved, registry)
    return json_response({**result.to_dict(), **guess_member(resolved)})


@blueprint.post("/batch")
def batch() -> Response:
    current = state()
    data = load(current.schemas.batch, json_body())
    registry = current.registry_for(data["source"])
    run = _batch_operation(data, registry)
    default_variant = data["variant"]
    items = data["items"]
    # Each name the items give, found once for the batch (the registry's look-up is Python
    # code): a known name is passed on as its Variant, an unknown one as the name, which
    # its items then report as ``unknown-variant``; ``auto`` is guessed item by item, as
    # the CLI's ``--variant auto`` guesses line by line.
    found = {name: _found_or_name(registry, name) for name in {variant or default_variant for _, variant in items}}
    results = []
    for fen, variant in items:
        named = found[variant or default_variant]
        results.append(_guessed(run, fen, registry, data["operation"]) if named is None else run(fen, named))
    count_fens(request.environ, len(results))
    ok_key = "ok" if data["operation"] == "convert" else "valid"
    succeeded = sum(1 for result in results if result[ok_key])
    body = {
        "operation": data["operation"],
        "summary": {"total": len(results), "ok": succeeded, "failed": len(results) - succeeded},
        "results": results,
    }
    return json_response(body)


def _guessed(
    run: Callable[[str, Variant | str], dict[str, Any]], fen: str, registry: Registry, operation: str
) -> dict[str, Any]:
    """One batch item of variant ``auto``: its guess's result, as ``--variant auto`` answers it."""
    resolved = resolve(fen, AUTO, registry)
    if resolved.problem is not None:
        failure = ConvertResult.failure if operation == "convert" else ValidateResult.failure
        return failure(resolved.problem).to_dict()
    result = run(fen, resolved.variant)
    warning = resolved.warning(registry, SAY)
    if warning is not None:
        result["warnings"] = [warning.to_dict(), *result["warnings"]]
    return result


def _found_or_name(registry: Registry, name: str) -> Variant | str | None:
    """The variant ``name`` names, the name itself when unknown, None for ``auto``."""
    if is_auto(name):
        return None
    try:
        return registry.find(name)
    except NotationError:
        return name


def _batch_operation(data: dict[str, Any], registry: Registry) -> Callable[[str, Variant | str], dict[str, Any]]:
    """The per-item call, with the batch's shared options bound once."""
    accept = frozenset(data["accept"])
    if data["operation"] == "validate":
        return lambda fen, variant: validate_fen(fen, variant, accept=accept, registry=registry).to_dict()
    options = options_from(data)
    on_illegal = data.get("on_illegal", IllegalPolicy.REFUSE)
    return lambda fen, variant: convert_fen(
        fen, variant, options=options, on_illegal=on_illegal, accept=accept, registry=registry
    ).to_dict()


def _summary(problems: list[Problem]) -> str:
    more = f"; and {len(problems) - 1} more problem(s)" if len(problems) > 1 else ""
    return problems[0].describe() + more
