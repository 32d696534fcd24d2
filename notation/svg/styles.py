"""Which board a variant is drawn on: one ``BoardStyle`` per rule family, looked up in a table.

A family missing from ``STYLE_BY_FAMILY`` is drawn as ``BoardStyle.SQUARES``; nothing here
raises.
"""

from __future__ import annotations

from notation.lean_enum import LeanEnum
from notation.variants import RuleFamily, Variant


class BoardStyle(LeanEnum):
    """How the board under the pieces looks."""

    SQUARES = "squares"  # chess: light and dark squares, pieces inside them
    POINTS_PALACE_RIVER = "points-palace-river"  # Xiangqi: pieces on points, a palace each side, the river
    THRONE_CORNERS = "throne-corners"  # tafl games: plain squares, the throne in the middle, marked corners


STYLE_BY_FAMILY: dict[RuleFamily, BoardStyle] = {
    RuleFamily.CHESS: BoardStyle.SQUARES,
    RuleFamily.XIANGQI: BoardStyle.POINTS_PALACE_RIVER,
    RuleFamily.TAFL: BoardStyle.THRONE_CORNERS,
}


def style_of(variant: Variant) -> BoardStyle:
    """The style ``variant``'s family is drawn in (``SQUARES`` for a family not in the table)."""
    return STYLE_BY_FAMILY.get(variant.family, BoardStyle.SQUARES)
