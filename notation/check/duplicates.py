"""``check --duplicates``: each later copy of a game, across every file checked, reported as
``duplicate-game`` (a warning) naming the first copy's file, line and game number.

The check reads every move already; ``CheckDuplicates.visitor`` gives the walk a
``notation.pgn.identity.MainLine`` that hashes the main line as it goes, so looking for
duplicates costs the check a digest per move and one ``DuplicateFinder`` entry per
distinct game (``notation.pgn.duplicates``: under 200 bytes), nothing per copy. With
``--jobs`` a worker records each game's key in its ``ProblemLog`` (``GameKey``), and the
parent decides as it replays the parts in input order, with the one finder. A game is
numbered among its file's games as ``check`` counts them. With ``--duplicates-by prefix``
the copies are found over every file before the check (``prefix_copies``: the longer game
may come later) and given here (``copies``, per file by first line and column): a game is
reported when it is one of them, its message naming the game kept as ``normalize
--duplicates mark`` does. Nothing here raises on bad input.
"""

from __future__ import annotations

from collections.abc import Mapping

from notation.check.problem import GameKey, ProblemList, ProblemLog, Severity
from notation.game.family import GamePosition
from notation.pgn.duplicates import (
    DUPLICATE_GAME,
    DuplicateFinder,
    DuplicateSettings,
    GameLocation,
    Verdict,
    game_key,
)
from notation.pgn.gamemoves import GameMoves
from notation.pgn.games import RawGame
from notation.pgn.identity import MainLine, StartCodes
from notation.variants import Variant


class CheckDuplicates:
    """The finder of one check run (the parent's, with ``--jobs``)."""

    def __init__(self, settings: DuplicateSettings,
                 copies: Mapping[str, Mapping[tuple[int, int], Verdict]] | None = None) -> None:
        self.settings = settings
        self.copies = copies
        self.finder = DuplicateFinder()
        self._starts = StartCodes()

    def visitor(self, position: GamePosition | None, fen: str | None, variant: Variant) -> MainLine | None:
        """The visitor hashing a game's main line from ``position`` (None: no start, no identity)."""
        if position is None:
            return None
        return MainLine(self._starts.code(position, fen, variant))

    def report(self, game: RawGame, visitor: MainLine, moves: GameMoves, problems: ProblemList) -> None:
        """``duplicate-game`` into ``problems`` when ``game`` (walked by ``visitor``) is a
        later copy; in a worker (``problems`` a ``ProblemLog``), its key is recorded for
        the parent to decide (``replayed``)."""
        for placed in moves.problems:
            if placed.problem.code in ("pgn-movetext-too-long", "pgn-movetext-too-deep"):
                return
        identity = visitor.identity()
        if identity is None:
            return
        key = game_key(identity, game, self.settings.by_tags)
        number = problems.read.games  # the file's games so far, this one included
        if isinstance(problems, ProblemLog):
            silenced = problems.covered(game.start_line, DUPLICATE_GAME)
            problems.add_key(GameKey(game.start_line, game.start_column, key, number, silenced))
            return
        self._decide(problems, key, game.start_line, game.start_column, number)

    def replayed(self, target: ProblemList, found: GameKey) -> None:
        """A key a worker recorded, replayed into the file's list ``target`` (its games before
        the part counted in ``target.read``)."""
        number = target.read.games + found.number
        if found.suppressed:
            if self._verdict(target.path, found.key, found.line, found.column, number) is not None:
                target.suppressed += 1
            return
        self._decide(target, found.key, found.line, found.column, number)

    def _verdict(self, path: str, key: bytes, line: int, column: int, number: int) -> Verdict | None:
        """The game kept of the game at ``line`` and ``column`` of ``path`` when it is a copy."""
        if self.copies is not None:
            return self.copies.get(path, {}).get((line, column))
        first = self.finder.first(key, GameLocation(path, line, number))
        return None if first is None else Verdict(first)

    def _decide(self, problems: ProblemList, key: bytes, line: int, column: int, number: int) -> None:
        verdict = self._verdict(problems.path, key, line, column, number)
        if verdict is None:
            return
        tags = f" and the same {', '.join(self.settings.by_tags)}" if self.settings.by_tags else ""
        if verdict.prefix:
            message = (f"a prefix of {verdict.kept.describe()}, which is kept: the same variant and start{tags}, and "
                       "its main line the start of that game's")
        else:
            message = f"the same game as {verdict.kept.describe()}: the same variant, start and main line{tags}"
        problems.add(line, column, Severity.WARNING, DUPLICATE_GAME, message)
