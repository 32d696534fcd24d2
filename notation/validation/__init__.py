"""Validation: is a parsed ``Setup`` a position of its variant? Every problem, at once.

``validate(setup, variant)`` runs every validator below and returns all their problems (an
empty list means legal), each with a stable code, a message naming squares and the FEN
field concerned. ``repair(setup, variant)`` drops bad castling rights and implausible en
passant squares and reports each drop as a warning. Neither raises on any Setup; the
variant may be a registry name (``UnknownVariantError`` if unknown).

Validators, one module each, each with ``find_problems(ctx)``: ``material`` (empty,
too-many-pieces, too-many-pawns, race-material, pawns-on-backrank), ``kings``
(missing-king, too-many-kings, king-in-pocket), ``castling`` (bad-castling-rights),
``en_passant`` (invalid-ep-square), ``checkers`` (who gives check: opposite-check,
too-many-checkers, impossible-check, race-check), ``race`` (race-over),
``check_counters`` (Three-check's counters: bad-check-counters), ``placement`` (a
placement phase under way: placement-army, placement-region, placement-pawn-files,
placement-bishops). Codes in ``WARNING_CODES`` (king-captured: a finished game) are
findings, not faults: the front ends report them as warnings and the setup stays valid.
Codes and choices: docs/validation.md.
Not checked: whether the position can be reached from the start array (beyond what the
codes above say), move counters.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from notation.errors import Problem
from notation.rules.position import position_of
from notation.setup import Setup
from notation.squares import square_name
from notation.validation import castling, check_counters, checkers, en_passant, kings, material, placement, race
from notation.validation.context import Context
from notation.variants import DEFAULT_REGISTRY, RuleFamily, Variant

# Each validator's ``find_problems(ctx)`` returns its problems; ``validate`` runs them all.
VALIDATORS = (
    material.find_problems,
    kings.find_problems,
    castling.find_problems,
    en_passant.find_problems,
    checkers.find_problems,
    race.find_problems,
    check_counters.find_problems,
    placement.find_problems,
)

CODES: tuple[str, ...] = (
    "empty",
    "missing-king",
    "too-many-kings",
    "too-many-pawns",
    "too-many-pieces",
    "pawns-on-backrank",
    "bad-castling-rights",
    "invalid-ep-square",
    "opposite-check",
    "too-many-checkers",
    "impossible-check",
    "race-check",
    "race-over",
    "race-material",
    "king-in-pocket",
    "bad-check-counters",
    "placement-army",
    "placement-region",
    "placement-pawn-files",
    "placement-bishops",
    "king-captured",
)

# Codes that describe a finished game rather than a fault; front ends report them as warnings.
WARNING_CODES: frozenset[str] = frozenset({"king-captured"})


def _judge_chess(setup: Setup, variant: Variant) -> list[Problem]:
    ctx = Context(setup, variant, position_of(setup, variant))
    problems: list[Problem] = []
    for find_problems in VALIDATORS:
        problems += find_problems(ctx)
    return problems


# The judge of each rule family: every problem of a setup of one of its variants.
JUDGES: dict[RuleFamily, Callable[[Setup, Variant], list[Problem]]] = {
    RuleFamily.CHESS: _judge_chess,
}


def validate(setup: Setup, variant: Variant | str, *, accept: Collection[str] = ()) -> list[Problem]:
    """Every problem of ``setup`` under ``variant``'s rules, minus the ``accept``ed codes."""
    found = DEFAULT_REGISTRY.find(variant)
    problems = JUDGES[found.family](setup, found)
    if accept:
        problems = [p for p in problems if p.code not in accept]
    return problems


def repair(setup: Setup, variant: Variant | str) -> tuple[Setup, list[Problem]]:
    """``setup`` without bad castling rights and implausible en passant squares.

    Returns the repaired setup and one warning per repair (codes ``repaired-castling`` and
    ``repaired-en-passant``). Other problems are left for ``validate`` to report.
    """
    found = DEFAULT_REGISTRY.find(variant)
    if found.family is not RuleFamily.CHESS:
        return setup, []  # castling rights and en passant squares are chess's
    ctx = Context.of(setup, found)
    warnings: list[Problem] = []
    changes: dict[str, Any] = {}
    bad_rights = castling.judge_rights(ctx)
    if bad_rights:
        changes["castling"] = frozenset(sq for sq in setup.castling if sq not in bad_rights)
        for sq, why in sorted(bad_rights.items()):
            warnings.append(
                Problem(
                    "repaired-castling",
                    f"dropped the castling right on {square_name(sq)}: {why}",
                    field="castling",
                    extra={"square": square_name(sq)},
                )
            )
    ep = setup.ep_square
    if ep is not None:
        ep_why = en_passant.reason(ctx, ep)
        if ep_why is not None:
            changes["ep_square"] = None
            warnings.append(
                Problem(
                    "repaired-en-passant",
                    f"dropped the en passant square {square_name(ep)}: {ep_why}",
                    field="en-passant",
                    extra={"square": square_name(ep)},
                )
            )
    return (setup.with_changes(**changes) if changes else setup), warnings


__all__ = ["CODES", "WARNING_CODES", "repair", "validate"]
