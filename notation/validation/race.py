"""Race positions: ``race-over`` (Race twist: Black to move with both royal pieces on the
eighth rank, so the race was decided before the last move). Check under the Race twist
(``race-check``) is judged with the other problems of who gives check, in ``checkers``.
"""

from __future__ import annotations

from notation.errors import Problem
from notation.rules.bitboard import RANK_8
from notation.validation.context import Context


def find_problems(ctx: Context) -> list[Problem]:
    if not ctx.position.race:
        return []
    white, black = ctx.position.royal
    if ctx.position.turn == 1 and white & RANK_8 and black & RANK_8:
        return [
            Problem(
                "race-over",
                f"both kings are on the eighth rank ({ctx.pieces_on((white | black) & RANK_8)}) "
                "with black to move: the race is over",
                field="turn",
            )
        ]
    return []
