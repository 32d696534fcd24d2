"""``Safety``: what a chess-family move must leave of the mover's royal pieces.

Its own module so that the rules (``rules``) and the twists that change it (Dark Chess)
both import it without importing each other. A twist that changes how kings are attacked
(Atomic) keeps ``ROYAL`` and answers the position's king-safety questions itself
(``TwistRule.changes_king_safety``). Nothing here raises.
"""

from __future__ import annotations

from notation.lean_enum import LeanEnum


class Safety(LeanEnum):
    """What a move must leave of its own royal pieces."""

    ROYAL = "royal"  # no royal piece of the mover may stand attacked after the move (check)
    NONE = "none"  # nothing is royal, or check does not exist (Dark Chess): any move goes
