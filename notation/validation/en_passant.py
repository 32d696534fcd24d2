"""En passant: ``invalid-ep-square`` when the written square could not follow a double step.

The test is ``notation.rules.en_passant.plausible``: right rank for the side to move, the
square and the one behind it empty, an enemy pawn just in front. Whether a pawn can
actually take there is not asked (the PGN standard writes the square after every double
step); the writer's ``EnPassantMode`` decides whether to keep it. Variants without en
passant (``NO_EN_PASSANT``) and setups in a placement phase have no plausible square.
"""

from __future__ import annotations

from collections.abc import Sequence

from notation.errors import Problem
from notation.rules.en_passant import plausible
from notation.validation.context import Context, side
from notation.variants import Twist


def reason(ctx: Context, ep: int) -> str | None:
    """Why ``ep`` is implausible, or None when it is plausible."""
    position = ctx.position
    if plausible(position, ep):
        return None
    if Twist.NO_PAWN_DOUBLE_STEP in ctx.variant.twists:
        return f"pawns never step twice in {ctx.variant.name}"
    if position.rules.no_en_passant:
        return f"nobody takes en passant in {ctx.variant.name}"
    if position.placing:
        return "the pieces are still being placed: nobody has moved a pawn yet"
    geometry = ctx.setup.geometry
    if not 0 <= ep < geometry.size:
        return f"it is not on the {geometry} board"
    name = ctx.square_name(ep)
    us = position.turn
    if position.rules.no_double_step[us ^ 1]:
        return f"{side(us ^ 1)}'s pawns never step twice in {ctx.variant.name}"
    if geometry.ranks < 4:
        return f"pawns cannot step twice on a board of {geometry.ranks} ranks"
    files = geometry.files
    rank = geometry.ranks - 2 if us == 0 else 3  # 1-based: the sixth or the third on 8x8
    if ep // files != rank - 1:
        return f"with {side(us)} to move the en passant square is on rank {rank}, not {name}"
    if position.occupied >> ep & 1:
        return f"{name} is occupied by the {ctx.piece_on(ep)}"
    origin = ep + files if us == 0 else ep - files
    if position.occupied >> origin & 1:
        return f"the {ctx.piece_on(origin)} stands where the pawn came from"
    pushed = ep - files if us == 0 else ep + files
    return f"no {side(us ^ 1)} pawn on {ctx.square_name(pushed)} that could have stepped over {name}"


def find_problems(ctx: Context) -> Sequence[Problem]:
    """The square's problem, if it has one (nothing found: an empty tuple, no list made)."""
    ep = ctx.setup.ep_square
    if ep is None:
        return ()
    why = reason(ctx, ep)
    if why is None:
        return ()
    return [Problem("invalid-ep-square", f"en passant square {ctx.square_name(ep)}: {why}", field="en-passant")]
