"""``"variant": "auto"`` in every endpoint that takes a FEN and a variant: the guess of
``notation.guess`` (the one the CLI's ``--variant auto`` makes), with its reason.

``resolve`` raises nothing: a name that is not ``auto`` is passed on (found, or as the name
for the pipeline to report ``unknown-variant``), and a failed guess is its problem
(``unknown-variant``, suggesting the variants that fit). ``guess_member`` is the ``guess``
member of an answer; ``with_guess_warning`` puts the ``guessed-variant`` warning first, as
the CLI's JSON lines have it (none for a guess of the default variant).
"""

from __future__ import annotations

from typing import Any

from notation.errors import Problem
from notation.guess import Resolved, is_auto, resolve_variant
from notation.variants import Registry


def resolve(fen: str | None, name: str, registry: Registry) -> Resolved:
    """What ``name`` stands for beside ``fen`` (``notation.guess.resolve_variant``); a name
    other than ``auto`` is passed on as it is, for the pipeline to look up."""
    return resolve_variant(fen, name, registry) if is_auto(name) else Resolved(name)


def guess_member(resolved: Resolved) -> dict[str, Any]:
    """``{"guess": {"variant", "name", "reason"}}`` when ``auto`` guessed, else nothing."""
    return {"guess": resolved.guess.to_dict()} if resolved.guess is not None else {}


def with_guess_warning(warnings: list[Problem], resolved: Resolved, registry: Registry) -> list[Problem]:
    """``warnings`` with the guess's ``guessed-variant`` warning first (where there is one)."""
    warning = resolved.warning(registry)
    return warnings if warning is None else [warning, *warnings]
