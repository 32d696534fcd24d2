"""``"variant": "auto"`` in every endpoint that takes a FEN and a variant: the guess of
``notation.guess`` (the one the CLI's ``--variant auto`` makes), with its reason.

``resolve`` raises nothing: a name that is not ``auto`` is passed on (found, or as the name
for the pipeline to report ``unknown-variant``), and a failed guess is its problem (the
FEN's own when no variant reads it, else ``unknown-variant``; suggesting variants to say in
the request's ``variant`` field). ``guess_member`` is the ``guess``
member of an answer; ``with_guess_warning`` puts the ``guessed-variant`` warning first, as
the CLI's JSON lines have it (none for a guess of the default variant).
"""

from __future__ import annotations

from typing import Any

from notation.errors import Problem
from notation.guess import Resolved, is_auto, resolve_variant, with_hint
from notation.variants import Registry

# How a request says which variant it means, for the guess's warning (``Guess.warning``).
SAY = '"variant": "{key}"'


def resolve(fen: str | None, name: str, registry: Registry) -> Resolved:
    """What ``name`` stands for beside ``fen`` (``notation.guess.resolve_variant``); a name
    other than ``auto`` is passed on as it is, for the pipeline to look up. A failed guess's
    problem says how to choose in the service's words (the request's ``variant`` field)."""
    if not is_auto(name):
        return Resolved(name)
    resolved = resolve_variant(fen, name, registry)
    if resolved.problem is None:
        return resolved
    problem = with_hint(resolved.problem, 'the request\'s "variant" field', "GET /v1/variants")
    return Resolved(resolved.variant, resolved.guess, problem)


def guess_member(resolved: Resolved) -> dict[str, Any]:
    """``{"guess": {"variant", "name", "reason"}}`` when ``auto`` guessed, else nothing."""
    return {"guess": resolved.guess.to_dict()} if resolved.guess is not None else {}


def with_guess_warning(warnings: list[Problem], resolved: Resolved, registry: Registry) -> list[Problem]:
    """``warnings`` with the guess's ``guessed-variant`` warning first (where there is one)."""
    warning = resolved.warning(registry, SAY)
    return warnings if warning is None else [warning, *warnings]
