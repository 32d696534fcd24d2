"""``Safety``: what a chess-family move must leave of the mover's royal pieces.

Its own module so that the rules (``rules``) and the twists that change it (Atomic, Dark
Chess) both import it without importing each other. Nothing here raises.
"""

from __future__ import annotations

import enum


class Safety(enum.Enum):
    """What a move must leave of its own royal pieces."""

    ROYAL = "royal"  # no royal piece of the mover may stand attacked after the move (check)
    NONE = "none"  # nothing is royal, or check does not exist (Dark Chess): any move goes
    ATOMIC = "atomic"  # the mover's king must survive the explosion; touching kings never check
