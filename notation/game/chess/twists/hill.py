"""King of the Hill: a king that reaches one of the four centre squares (d4, e4, d5, e5 on
8x8) wins at once. Nothing here raises."""

from __future__ import annotations

from typing import TYPE_CHECKING

from notation.game.chess.twists import TwistRule
from notation.game.outcome import EndReason, Outcome

if TYPE_CHECKING:
    from notation.game.chess.position import ChessPosition


def hill_of(files: int, ranks: int) -> int:
    """The centre squares of a board with even sides (the 2x2 block in its middle)."""
    hill = 0
    for rank in (ranks // 2 - 1, ranks // 2):
        for file in (files // 2 - 1, files // 2):
            hill |= 1 << (rank * files + file)
    return hill


class KingOfTheHill(TwistRule):
    """A royal piece on the hill ends the game."""

    def __init__(self) -> None:
        self.hill = 0  # the hill's squares, found on first use (a hill is never empty)

    def end(self, position: ChessPosition) -> Outcome | None:
        hill = self.hill
        if not hill:
            rules = position.rules
            hill = self.hill = hill_of(rules.files, rules.ranks)
        if position.royal(0) & hill:
            return Outcome("w", EndReason.HILL)
        if position.royal(1) & hill:
            return Outcome("b", EndReason.HILL)
        return None
