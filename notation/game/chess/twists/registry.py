"""``twists_of(variant)``: the rule twist objects of a chess-family variant, built from the
registry's ``Twist`` values, in the order their hooks apply.

Apart from the twists' base class (``notation.game.chess.twists``) so that each twist
module imports the base and this module imports every twist, without a cycle. Nothing
here raises.
"""

from __future__ import annotations

from notation.game.chess.twists import Twist
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
from notation.variants import Twist as Name
from notation.variants import Variant


def twists_of(variant: Variant) -> tuple[Twist, ...]:
    """The twist objects of ``variant``, in the order their hooks apply."""
    names = variant.twists
    found: list[Twist] = []
    if Name.PLACEMENT in names:
        found.append(PlacementPhase(variant))
    if Name.POCKETS in names:
        found.append(Drops())
    if Name.ATOMIC in names:
        found.append(Explosions())
    if Name.BOMBS in names:
        found.append(Bombs())
    if Name.NO_CHECK in names:
        found.append(NoCheck())
    if Name.CHECK_COUNTERS in names:
        found.append(CheckCounting())
    if Name.KING_OF_THE_HILL in names:
        found.append(KingOfTheHill())
    if Name.RACE in names:
        found.append(Race())
    if Name.EXTINCTION in names:
        found.append(Extinction(variant))
    if Name.COMPULSORY_CAPTURE in names:
        found.append(CompulsoryCapture(royal=bool(variant.royal)))
    if applies_to(variant) and Name.EXTINCTION not in names:
        found.append(NoPieces(variant))
    return tuple(found)
