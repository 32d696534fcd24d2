"""``twists_of(variant)``: the rule objects (``TwistRule``) of a chess-family variant, built
from the registry's ``Twist`` names (``notation.variants.Twist``), in the order their hooks
apply.

Apart from the twists' base class (``notation.game.chess.twists``) so that each twist
module imports the base and this module imports every twist, without a cycle. Each twist's
module is imported where a variant first has it (``twists_of`` runs once per variant): a
standard game's command loads none of the eleven, where each one's import (its module,
its compiled library's loading, its class) was paid by every game's start-up.
Nothing here raises.
"""

from __future__ import annotations

from notation.game.chess.twists import TwistRule
from notation.variants import Stalemate, Twist, Variant


def twists_of(variant: Variant) -> tuple[TwistRule, ...]:
    """The twist rule objects of ``variant``, in the order their hooks apply."""
    names = variant.twists
    found: list[TwistRule] = []
    if Twist.PLACEMENT in names:
        from notation.game.chess.twists.placement import PlacementPhase
        found.append(PlacementPhase(variant))
    if Twist.POCKETS in names:
        from notation.game.chess.twists.pockets import Drops
        found.append(Drops())
    if Twist.ATOMIC in names:
        from notation.game.chess.twists.atomic import Explosions
        found.append(Explosions())
    if Twist.BOMBS in names:
        from notation.game.chess.twists.bombs import Bombs
        found.append(Bombs())
    if Twist.NO_CHECK in names:
        from notation.game.chess.twists.no_check import NoCheck
        found.append(NoCheck())
    if Twist.CHECK_COUNTERS in names:
        from notation.game.chess.twists.check_count import CheckCounting
        found.append(CheckCounting())
    if Twist.KING_OF_THE_HILL in names:
        from notation.game.chess.twists.hill import KingOfTheHill
        found.append(KingOfTheHill())
    if Twist.RACE in names:
        from notation.game.chess.twists.race import Race
        found.append(Race())
    if Twist.EXTINCTION in names:
        from notation.game.chess.twists.extinction import Extinction
        found.append(Extinction(variant))
    if Twist.COMPULSORY_CAPTURE in names:
        from notation.game.chess.twists.compulsory_capture import CompulsoryCapture
        found.append(CompulsoryCapture(royal=bool(variant.royal)))
    if _ends_without_pieces(variant) and Twist.EXTINCTION not in names:
        from notation.game.chess.twists.no_pieces import NoPieces
        found.append(NoPieces(variant))
    return tuple(found)


def _ends_without_pieces(variant: Variant) -> bool:
    """Whether running out of pieces ends ``variant``'s games (``NoPieces``): a side without
    royal pieces, or a losing game."""
    return any(army.royal_count == 0 for army in variant.armies) or variant.stalemate is not Stalemate.DRAW
