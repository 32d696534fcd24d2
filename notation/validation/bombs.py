"""Bombs (itsyourturn Atomic, the ``BOMBS`` twist): ``bad-bomb``.

Each side's bomb (``Setup.bombs``, White's then Black's) must sit on a piece of its own
side: a bomb on an empty square or on an enemy piece is ``bad-bomb``, as are bombs in a
variant without the twist. At most one per side is the field's shape (the reader refuses
more). Any piece may carry it, the king included (the rules page excludes none).

``may_have_detonated``: the side not to move has no bomb, so its last move may have been
a detonation, which removes several pieces at once; the king and check validators then
accept what only a detonation leaves (a missing king, extra checkers). Nothing raises.
"""

from __future__ import annotations

from notation.errors import Problem
from notation.squares import square_name
from notation.validation.context import Context, side
from notation.variants import Twist


def find_problems(ctx: Context) -> list[Problem]:
    bombs = ctx.setup.bombs
    if bombs is None or bombs == (None, None):
        return []
    if Twist.BOMBS not in ctx.variant.twists:
        return [Problem("bad-bomb", f"{ctx.variant.name} has no bombs", field="bombs")]
    problems = []
    for colour, square in enumerate(bombs):
        if square is None:
            continue
        letter = ctx.setup.cells[square]
        if letter == ".":
            why = "the square is empty"
        elif letter.isupper() != (colour == 0):
            why = f"it holds the {ctx.piece_on(square)}; a bomb sits on a piece of its own side"
        else:
            continue
        problems.append(Problem("bad-bomb", f"{side(colour)}'s bomb on {square_name(square)}: {why}", field="bombs"))
    return problems


def may_have_detonated(ctx: Context) -> bool:
    """Whether the last move may have been a detonation: a ``BOMBS`` variant whose side
    not to move has no bomb (it detonated, or lost it earlier)."""
    if not ctx.variant.has_bombs:
        return False
    bombs = ctx.setup.bombs or (None, None)
    return bombs[ctx.position.turn ^ 1] is None
