"""``twists_of(variant)``: the rule objects (``TwistRule``) of a chess-family variant, built
from the registry's ``Twist`` names (``notation.variants.Twist``), in the order their hooks
apply.

Apart from the twists' base class (``notation.game.chess.twists``) so that each twist
module imports the base and this module imports every twist, without a cycle. Nothing
here raises.
"""

from __future__ import annotations

from notation.game.chess.twists import TwistRule
from notation.game.chess.twists.atomic import Explosions
from notation.game.chess.twists.bombs import Bombs
from notation.game.chess.twists.check_count import CheckCounting
from notation.game.chess.twists.compulsory_capture import CompulsoryCapture
from notation.game.chess.twists.extinction import Extinction
from notation.game.chess.twists.hill import KingOfTheHill
from notation.game.chess.twists.no_check import NoCheck
from notation.game.chess.twists.no_pieces import NoPieces, applies_to
from notation.game.chess.twists.placement import PlacementPhase
from notation.game.chess.twists.pockets import Drops
from notation.game.chess.twists.race import Race
from notation.variants import Twist, Variant


def twists_of(variant: Variant) -> tuple[TwistRule, ...]:
    """The twist rule objects of ``variant``, in the order their hooks apply."""
    names = variant.twists
    found: list[TwistRule] = []
    if Twist.PLACEMENT in names:
        found.append(PlacementPhase(variant))
    if Twist.POCKETS in names:
        found.append(Drops())
    if Twist.ATOMIC in names:
        found.append(Explosions())
    if Twist.BOMBS in names:
        found.append(Bombs())
    if Twist.NO_CHECK in names:
        found.append(NoCheck())
    if Twist.CHECK_COUNTERS in names:
        found.append(CheckCounting())
    if Twist.KING_OF_THE_HILL in names:
        found.append(KingOfTheHill())
    if Twist.RACE in names:
        found.append(Race())
    if Twist.EXTINCTION in names:
        found.append(Extinction(variant))
    if Twist.COMPULSORY_CAPTURE in names:
        found.append(CompulsoryCapture(royal=bool(variant.royal)))
    if applies_to(variant) and Twist.EXTINCTION not in names:
        found.append(NoPieces(variant))
    return tuple(found)
