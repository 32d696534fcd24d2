"""``Outcome``: how a game ended, as each variant defines its ends, with the reason.

Only ends the rules decide are here (checkmate, stalemate, a variant's own win); claims
that a player must make (threefold repetition, the fifty-move rule, a draw by agreement,
insufficient material) are not, as the PGN standard leaves them to the game's result.
Nothing here raises.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from notation.setup import Color


class EndReason(enum.Enum):
    """Why a game is over; the value is the stable code front ends print."""

    CHECKMATE = "checkmate"
    STALEMATE = "stalemate"
    NO_PIECES = "no-pieces"  # the side to move has no piece left (Antichess wins; Horde loses)
    ROYAL_CAPTURED = "royal-captured"  # no check in this variant: the king was taken (Dark Chess)
    ROYAL_EXPLODED = "royal-exploded"  # Atomic: a king blew up
    HILL = "hill"  # King of the Hill: a king reached the centre
    THIRD_CHECK = "check-count"  # the last of the checks a side had to give was given
    RACE = "race"  # Racing Kings: a king reached the last rank
    EXTINCTION = "extinction"  # every piece of one kind was lost
    KING_ESCAPED = "king-escaped"  # tafl: the king reached a corner
    KING_CAPTURED = "king-captured"  # tafl: the king was surrounded
    GENERAL_CAPTURED = "general-captured"  # no general left (a finished Xiangqi game)


@dataclass(frozen=True)
class Outcome:
    """The end of a game: ``winner`` (``"w"``, ``"b"`` or None for a draw) and ``reason``."""

    winner: Color | None
    reason: EndReason

    @property
    def result(self) -> str:
        """The PGN result: ``1-0``, ``0-1`` or ``1/2-1/2``."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner == "w" else "0-1"

    def to_dict(self) -> dict[str, str | None]:
        return {"winner": self.winner, "reason": self.reason.value, "result": self.result}
