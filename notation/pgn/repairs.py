"""The repairs ``normalize`` may make, each off unless asked for, and their report codes.

``Repair`` names one repair (``--fix-results``, ``--fix-tags``, ``--fix-move-numbers``);
``NormalizeOptions.repairs`` holds the set asked for. Each repair that changes a game is
reported as a warning under its code (``RESULT_FIXED``, ``TAG_FIXED``,
``MOVE_NUMBERS_FIXED``), saying what was written before and what is written now. The work
of each is in its own module: ``result_repair``, ``tag_repair``, ``move_numbers``; broken
games (``--broken``: ``BrokenGames``, ``GAME_TRUNCATED``, ``GAME_DROPPED``) cut in ``broken``;
``game_repairs`` makes them on a game for ``normalize``. Nothing here raises.
"""

from __future__ import annotations

from typing import Final

from notation.lean_enum import LeanStrEnum

RESULT_FIXED: Final = "result-fixed"
TAG_FIXED: Final = "tag-fixed"
MOVE_NUMBERS_FIXED: Final = "move-numbers-fixed"
GAME_TRUNCATED: Final = "game-truncated"
GAME_DROPPED: Final = "game-dropped"


class Repair(LeanStrEnum):
    """One repair ``normalize`` makes when asked (``--fix-<value>``)."""

    RESULTS = "results"  # the Result tag and the result token: each other and the decided end
    TAGS = "tags"  # dates, Elo and Round values, tag names in their standard case
    MOVE_NUMBERS = "move-numbers"  # move numbers counted from the start position's fullmove

    @property
    def reads_moves(self) -> bool:
        """Whether the repair needs the moves read and played (all but the tags')."""
        return self is not Repair.TAGS


class BrokenGames(LeanStrEnum):
    """What ``normalize`` does with a game whose moves hold an error (``--broken``)."""

    KEEP = "keep"  # written as read, its errors reported (the default)
    TRUNCATE = "truncate"  # cut before its first bad move: a comment saying why, then "*" (a bad variation alone)
    DROP = "drop"  # left out of the output (into the rejects file, where there is one)
