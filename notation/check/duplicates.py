"""``check --duplicates``: each later copy of a game, across every file checked, reported as
``duplicate-game`` (a warning) naming the first copy's file, line and game number.

The check reads every move already; ``CheckDuplicates.visitor`` gives the walk a
``notation.pgn.identity.MainLine`` that hashes the main line as it goes, so looking for
duplicates costs the check a digest per move and one ``DuplicateFinder`` entry per
distinct game (``notation.pgn.duplicates``: some 150 bytes), nothing per copy. Nothing
here raises on bad input.
"""

from __future__ import annotations

from notation.check.problem import ProblemList, Severity
from notation.game.family import GamePosition
from notation.pgn.duplicates import DUPLICATE_GAME, DuplicateFinder, DuplicateSettings, GameLocation, game_key
from notation.pgn.gamemoves import GameMoves
from notation.pgn.games import RawGame
from notation.pgn.identity import MainLine, StartCodes
from notation.variants import Variant


class CheckDuplicates:
    """The finder of one check run; ``source`` is the file being checked (set by the runner)."""

    def __init__(self, settings: DuplicateSettings) -> None:
        self.settings = settings
        self.finder = DuplicateFinder()
        self.source = ""
        self._starts = StartCodes()

    def visitor(self, position: GamePosition | None, fen: str | None, variant: Variant) -> MainLine | None:
        """The visitor hashing a game's main line from ``position`` (None: no start, no identity)."""
        if position is None:
            return None
        return MainLine(self._starts.code(position, fen, variant))

    def report(self, game: RawGame, visitor: MainLine, moves: GameMoves, problems: ProblemList) -> None:
        """``duplicate-game`` into ``problems`` when ``game`` (walked by ``visitor``) is a later copy."""
        for placed in moves.problems:
            if placed.problem.code in ("pgn-movetext-too-long", "pgn-movetext-too-deep"):
                return
        identity = visitor.identity()
        if identity is None:
            return
        key = game_key(identity, game, self.settings.by_tags)
        first = self.finder.first(key, GameLocation(self.source, game.start_line, game.number))
        if first is None:
            return
        same = "the same variant, start and main line"
        if self.settings.by_tags:
            same += f" and the same {', '.join(self.settings.by_tags)}"
        problems.add(game.start_line, game.start_column, Severity.WARNING, DUPLICATE_GAME,
                     f"the same game as {first.describe()}: {same}")
