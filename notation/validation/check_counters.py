"""Three-check counters: ``bad-check-counters``.

Remaining checks must lie in ``0..Variant.checks_to_win`` and cannot both be 0 (the game
ends when the first side reaches 0). A variant without the ``CHECK_COUNTERS`` twist must
have none (the reader refuses them there; this guards setups built in code).
"""

from __future__ import annotations

from notation.errors import Problem
from notation.validation.context import Context, side


def find_problems(ctx: Context) -> list[Problem]:
    counters = ctx.setup.remaining_checks
    variant = ctx.variant
    if counters is None:
        return []
    if not variant.has_check_counters:
        return [Problem("bad-check-counters", f"{variant.name} has no check counters", field="checks")]
    problems = []
    top = variant.checks_to_win
    for colour, left in enumerate(counters):
        if left < 0:
            message = f"{side(colour)} has given {top - left} checks; {variant.name} ends at {top}"
        elif left > top:
            message = f"{side(colour)} has {left} checks left to give; {variant.name} starts with {top}"
        else:
            continue
        problems.append(Problem("bad-check-counters", message, field="checks"))
    if counters[0] == 0 and counters[1] == 0:
        problems.append(
            Problem(
                "bad-check-counters",
                "both sides have given all their checks; the game ends when the first one does",
                field="checks",
            )
        )
    return problems
