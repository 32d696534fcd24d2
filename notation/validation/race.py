"""Race positions: ``race-over`` (Race twist: Black to move with both royal pieces on the
last rank (the eighth on 8x8), so the race was decided before the last move). Check under the Race twist
(``race-check``) is judged with the other problems of who gives check, in ``checkers``.
"""

from __future__ import annotations

from notation.errors import Problem
from notation.validation.context import Context


def find_problems(ctx: Context) -> list[Problem]:
    if not ctx.rules.kings.race_to_last_rank or ctx.position.turn != 1:  # the turn first: no pair made
        return []
    white, black = ctx.position.royal
    last = ctx.position.tables.last_rank
    if white & last and black & last:
        ranks = ctx.setup.geometry.ranks
        rank = "eighth" if ranks == 8 else f"last ({ranks})"
        return [
            Problem(
                "race-over",
                f"both kings are on the {rank} rank ({ctx.pieces_on((white | black) & last)}) "
                "with black to move: the race is over",
                field="turn",
            )
        ]
    return []
