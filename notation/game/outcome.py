"""``Outcome``: how a game ended, as each variant defines its ends, with the reason.

Only ends the rules decide are here (checkmate, stalemate, a variant's own win); claims
that a player must make (threefold repetition, the fifty-move rule, a draw by agreement,
insufficient material) are not, as the PGN standard leaves them to the game's result.
Nothing here raises.
"""

from __future__ import annotations

from typing import Final

from notation.lean_enum import LeanEnum
from notation.setup import Color


class EndReason(LeanEnum):
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


# A plain class, not a frozen dataclass: importing dataclasses (it imports inspect and ast)
# and compiling its generated methods from source at import would cost every check's
# start-up. Its attributes are ``Final``: a write is a type error, and in the compiled
# build an ``AttributeError``.
class Outcome:
    """The end of a game: ``winner`` (``"w"``, ``"b"`` or None for a draw) and ``reason``.
    Read-only; equal when both are."""

    __slots__ = ("winner", "reason")
    winner: Final[Color | None]
    reason: Final[EndReason]

    def __init__(self, winner: Color | None, reason: EndReason) -> None:
        self.winner = winner
        self.reason = reason

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Outcome):
            return NotImplemented
        return (self.winner, self.reason) == (other.winner, other.reason)

    def __hash__(self) -> int:
        return hash((self.winner, self.reason))

    def __repr__(self) -> str:
        return f"Outcome(winner={self.winner!r}, reason={self.reason!r})"

    def __reduce__(self) -> tuple[type[Outcome], tuple[Color | None, EndReason]]:
        """Pickled and copied through ``__init__``: compiled (mypyc), the default would set
        the read-only fields one by one and fail."""
        return (Outcome, (self.winner, self.reason))

    @property
    def result(self) -> str:
        """The PGN result: ``1-0``, ``0-1`` or ``1/2-1/2``."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner == "w" else "0-1"

    def to_dict(self) -> dict[str, str | None]:
        return {"winner": self.winner, "reason": self.reason.value, "result": self.result}
