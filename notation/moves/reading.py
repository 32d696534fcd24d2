"""``ReadMove``: a move read from text, with the lenient readings it took.

Every notation reader returns one: the ``move`` found and ``warnings``, one ``Problem`` per
repair a strict reader would have refused (``0-0`` for ``O-O``, ``e8Q`` for ``e8=Q``, ...),
each with its own code so that a gate can refuse or accept it. Nothing here raises.

A plain class rather than a frozen dataclass: compiled with mypyc, its construction is a
native call (a frozen dataclass's ``__init__`` runs as Python, once per move read).
"""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from notation.game.move import Move
from notation.problem import Problem


# Compiled: a read move holds its move and its warnings, never itself, so the cycle
# collector need not track it, and the one freed last is made again in place (a game read
# leniently makes one a move). Interpreted, the decorator does nothing.
@mypyc_attr(acyclic=True, free_list_len=1)
class ReadMove:
    """The ``move`` a text names, and a warning per lenient reading. Treated as immutable:
    readers build it once and nothing changes it after."""

    __slots__ = ("move", "warnings")

    move: Move
    warnings: list[Problem]

    def __init__(self, move: Move, warnings: list[Problem] | None = None) -> None:
        self.move = move
        self.warnings = [] if warnings is None else warnings

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ReadMove):
            return NotImplemented
        return self.move == other.move and self.warnings == other.warnings

    def __hash__(self) -> int:
        return hash(self.move)

    def __reduce__(self) -> tuple[type[ReadMove], tuple[Move, list[Problem]]]:
        return (ReadMove, (self.move, self.warnings))

    def __repr__(self) -> str:
        return f"ReadMove(move={self.move!r}, warnings={self.warnings!r})"
