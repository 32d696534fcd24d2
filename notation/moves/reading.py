"""``ReadMove``: a move read from text, with the lenient readings it took.

Every notation reader returns one: the ``move`` found and ``warnings``, one ``Problem`` per
repair a strict reader would have refused (``0-0`` for ``O-O``, ``e8Q`` for ``e8=Q``, ...),
each with its own code so that a gate can refuse or accept it. Nothing here raises.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from notation.game.move import Move
from notation.problem import Problem


@dataclass(frozen=True)
class ReadMove:
    """The ``move`` a text names, and a warning per lenient reading."""

    move: Move
    warnings: list[Problem] = field(default_factory=list)
