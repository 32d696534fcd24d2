"""``MainLineVisitor``: a ``movewalk.MoveVisitor`` that hears only of the main line's moves.

The walk tells its visitor of every move, variations' too, with ``opened`` and ``closed``
around each variation; a visitor that wants the main line alone (a game's identity,
``select --reaches``) counts the depth here and overrides ``main_move``. Nothing here raises.
"""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from notation.game.family import GamePosition
from notation.moves.reading import ReadMove
from notation.problem import Problem


@mypyc_attr(allow_interpreted_subclasses=True)  # ``select``'s visitor is one
class MainLineVisitor:
    """Calls ``main_move`` for each move of the main line played; ``broken`` once a main-line
    move could not be read or played (the walk ends the line there)."""

    __slots__ = ("depth", "broken")

    def __init__(self) -> None:
        self.depth = 0
        self.broken = False

    def main_move(self, read: ReadMove, after: GamePosition) -> None:
        """The main line's next move, read as ``read``, leading to ``after``."""

    def played(self, offset: int, word: str, read: ReadMove, before: GamePosition, after: GamePosition,
               ply: int) -> None:
        if self.depth == 0:
            self.main_move(read, after)

    def failed(self, offset: int) -> None:
        if self.depth == 0:
            self.broken = True

    def marked(self, warning: Problem) -> None:
        pass

    def opened(self) -> None:
        self.depth += 1

    def closed(self) -> None:
        self.depth -= 1
