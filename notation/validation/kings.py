"""Royal piece counts: ``missing-king``, ``too-many-kings``, ``king-in-pocket``.

Each side must have exactly ``Army.royal_count`` royal pieces (``Variant.royal``) that are
not promoted: none at all for Horde's White or any side of a variant without royal
pieces. What a side to move without its royal piece means is the variant's king rule's
answer (``notation.rules.king_rules``, ``KingRule.mover_royal_loss``): under the ``ATOMIC``
twist it may have lost its king (it exploded: the game is over). A royal piece in a
pocket is ``king-in-pocket``: it is never captured, so it never reaches a pocket.
Promoted royal pieces (a pawn made king) are not royal.
Under the ``BOMBS`` twist either king may be missing when the last move may have been a
detonation (``bombs.may_have_detonated``).
In a placement phase (``PLACEMENT`` twist, a piece left in hand) royal pieces in hand
count with those on the board: they are yet to be placed. Under the ``NO_CHECK`` twist a
side to move without its royal piece has had it captured: the game is over, reported as
the warning ``king-captured`` (a code of ``FINISHED_GAME_CODES``), not as ``missing-king``.
"""

from __future__ import annotations

from notation.errors import Problem
from notation.rules.king_rules import RoyalLoss
from notation.validation.bombs import may_have_detonated
from notation.validation.context import COLOURS, Context, side


def find_problems(ctx: Context) -> list[Problem]:
    problems = []
    variant, position, rules = ctx.variant, ctx.position, ctx.rules
    pockets = ctx.setup.pockets
    for colour in range(2):
        count = position.royal_count(colour)  # compiled on 8x8, counted on words: no int made
        if position.placing and pockets is not None:
            count += sum(pockets.count(COLOURS[colour], letter) for letter in rules.royal)
        wanted = rules.royal_count[colour]
        if count == wanted:
            continue
        name = ctx.royal_name()
        if count < wanted:
            loss = RoyalLoss.MISSING
            if colour == position.turn and count == 0:
                loss = position.rules.kings.mover_royal_loss
            if loss is RoyalLoss.EXPLODED:
                continue
            if count == 0 and may_have_detonated(ctx):
                continue  # blown up by a detonation: the game is over
            if loss is RoyalLoss.CAPTURED:
                problems.append(
                    Problem(
                        "king-captured",
                        f"{side(colour)} has no {name} and is to move: it was captured, the game is over",
                        field="placement",
                    )
                )
                continue
            problems.append(
                Problem("missing-king", f"{side(colour)} has no {name}", field="placement")
            )
        else:
            where = ", ".join(ctx.square_list(position.royal[colour]))
            if wanted == 0:
                message = f"{side(colour)} has a {name} on {where}; in {variant.name} {side(colour)} has none"
            else:
                message = f"{side(colour)} has {count} {name}s ({where}); a side has exactly {wanted}"
            problems.append(Problem("too-many-kings", message, field="placement"))
    if pockets is not None and rules.royal and not position.placing:  # in hand, yet to be placed
        for colour, pocket in enumerate((pockets.white, pockets.black)):
            for letter in pocket:
                if letter in rules.royal:
                    problems.append(
                        Problem(
                            "king-in-pocket",
                            f"{side(colour)}'s pocket holds a {ctx.piece_name(letter)}; "
                            "royal pieces are never captured",
                            field="pockets",
                        )
                    )
                    break
    return problems
