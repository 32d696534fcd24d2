"""Who gives check: ``opposite-check``, ``too-many-checkers``, ``impossible-check``,
``race-check``.

Only royal pieces are checked, by the variant's king rule (``KingRule.checkers``, as
``notation.rules.royal_attacks.checkers`` asks it); a variant without them
has none of these problems, nor has a variant with the ``NO_CHECK`` twist (a king may
stand attacked; capturing it ends the game) or a setup in its placement phase (nobody has
moved, so nobody gave check). ``opposite-check``: the side not to move is in check. With the
side to move in check: under the ``RACE`` twist any check is ``race-check``; otherwise
more than two checkers is ``too-many-checkers`` (reported once, under that code alone),
and two checkers are ``impossible-check`` when they lie on one line with the king or when
neither moves along a line (a discovered check always comes from a line piece). In Atomic
the side not to move may be in check once the side to move has lost its king (the game is
over). After a plausible double step (en passant square) the check must come from the
pushed pawn or be discovered by it. In Atomic explosions clear lines, so only the
double-step test applies there; so too in itsyourturn Atomic when the last move may have
been a detonation (``bombs.may_have_detonated``). Each of these twists is asked through the
variant's king rule (``notation.rules.king_rules``), not a flag.
"""

from __future__ import annotations

from collections.abc import Sequence

from notation.errors import Problem
from notation.rules.bitboard import square_count, squares
from notation.rules.en_passant import plausible
from notation.rules.king_rules import RoyalLoss
from notation.validation.bombs import may_have_detonated
from notation.validation.context import Context, side


def find_problems(ctx: Context) -> Sequence[Problem]:
    """Who gives check, and whether that can be (nobody in check: an empty tuple, no list
    made)."""
    position = ctx.position
    kings = position.rules.kings
    if not ctx.rules.royal or not kings.checks_exist or position.placing:
        return ()
    us = position.turn
    them = us ^ 1
    # In Atomic a move that explodes the enemy king wins even from check: with the side to
    # move's king gone, the other side may stand in check.
    # itsyourturn Atomic: the last move may have been a detonation (asked only where it matters).
    gone = not position.royal_count(us) and (kings.mover_royal_loss is RoyalLoss.EXPLODED or may_have_detonated(ctx))
    theirs = 0 if gone else kings.checkers(position, them)
    ours = kings.checkers(position, us)
    if not theirs and not ours:
        return ()  # the usual answer
    problems: list[Problem] = []
    if theirs:
        problems.append(
            Problem(
                "opposite-check",
                f"{_royal_attacked(ctx, them, theirs)} with {side(us)} to move",
                field="turn",
            )
        )
    if not ours:
        return problems
    described = _royal_attacked(ctx, us, ours)
    if kings.checks_refused:
        message = f"{described}: nobody may give check in {ctx.variant.name}"
        problems.append(Problem("race-check", message, field="placement"))
        return problems
    count = square_count(ours)
    if count > 2 and kings.checks_follow_lines and not may_have_detonated(ctx):
        message = f"{described}: no move gives more than two checks"
        problems.append(Problem("too-many-checkers", message, field="placement"))
        return problems
    ep = ctx.setup.ep_square
    if ep is not None and plausible(position, ep):
        reason = _after_double_step(ctx, ours, ep)
    elif count == 2 and kings.checks_follow_lines and not may_have_detonated(ctx):
        reason = _two_checkers(ctx, ours)
    else:
        reason = None
    if reason:
        problems.append(Problem("impossible-check", f"{described}: {reason}", field="placement"))
    return problems


def _royal_attacked(ctx: Context, colour: int, attackers: int) -> str:
    royal = ctx.position.royal[colour]
    return f"{ctx.pieces_on(royal)} attacked by {ctx.pieces_on(attackers, colour=False)}"


def _two_checkers(ctx: Context, checking: int) -> str | None:
    position = ctx.position
    first, second = squares(checking)
    them = position.turn ^ 1
    if checking & position.hoppers[them]:
        # A grasshopper's check runs through a hurdle beside the king, and that hurdle may
        # be the other checker, just moved there (a pawn's step onto d2 checks e1 and lets
        # a grasshopper on b4 hop to e1): nothing here rules such a pair out.
        return None
    if position.tables.line[first][second] & position.royal[position.turn]:
        return "two checkers on one line with the king cannot both give check"
    steppers = position.pawns[them] | position.knights[them] | position.kings[them]
    if checking & steppers == checking:
        return "two checks by pieces that do not move along lines cannot come from one move"
    return None


def _after_double_step(ctx: Context, checking: int, ep: int) -> str | None:
    position = ctx.position
    if square_count(checking) > 1:
        return "after a double pawn step (en passant square given) only one piece can give check"
    us = position.turn
    files = position.tables.files
    pushed_to = ep - files if us == 0 else ep + files
    pushed_from = ep + files if us == 0 else ep - files
    if checking == 1 << pushed_to:
        return None
    before = (position.occupied & ~(1 << pushed_to)) | (1 << pushed_from)
    for royal in squares(position.royal[us]):
        if position.attackers(royal, us ^ 1, before):
            return "the check was there before the double pawn step the en passant square says was the last move"
    return None
