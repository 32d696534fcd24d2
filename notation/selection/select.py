"""Selecting games by their tags, variant, positions, length and problems: ``select_games``.

``Selector(criteria)`` judges one game (``criteria.Criteria``); the cheapest tests go
first and a game is judged no further once one fails: the tags (on a clean game only the
tags asked for are read), the variant (the ``Variant`` tag, or the ``FEN`` tag's when its
castling rights make the game Chess960, as ``read_games`` says), then the moves, read only
when a criterion needs them (``--reaches``, ``--plies``; by the walk ``notation check``
uses), and last the problems, found as ``notation check`` finds them (its
``check_game``: the same codes, the same ``{notation: ignore[...]}`` comments obeyed).

- The main line's plies are those played up to its end or to a move that fails (the
  plies ``check`` counts); a game with no start to play from (an unreadable or illegal
  FEN, an unknown variant, Chess960 without a FEN) has 0 plies and reaches nothing.
- ``--reaches``: the start and the position after each move of the main line, compared
  by ``positions.PositionKey`` (counters ignored; transpositions found).

``select_games(games, criteria)`` filters ``read_games``'s games; ``decisions(raw_games,
selector)`` says of each piece the splitter hands on whether it is written (a game too
large to hold whole follows its first part; a blank stretch holding no game is no game
and is not written), for front ends that copy the games' text as read. Nothing here raises
on bad input.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from notation.check.games import check_game
from notation.check.judge import PositionJudge
from notation.check.problem import CheckProblem, ProblemList
from notation.game.family import GamePosition
from notation.move_options import MoveLanguage
from notation.moves import ReadMove
from notation.pgn.gamemoves import read_game_moves
from notation.pgn.gameread import PgnGame
from notation.pgn.games import RawGame
from notation.pgn.gamestart import Start, StartPositions
from notation.pgn.main_line import MainLineVisitor
from notation.pgn.movetext import DEFAULT_BUDGET, Budget
from notation.selection.criteria import Criteria, Keep
from notation.selection.positions import Targets
from notation.variants import DEFAULT_REGISTRY, Registry

__all__ = ["Decision", "Selector", "decisions", "select_games"]


class _MainLine(MainLineVisitor):
    """Watches the main line for the target positions."""

    __slots__ = ("targets", "reached")

    def __init__(self, targets: tuple, reached: bool) -> None:
        super().__init__()
        self.targets = targets
        self.reached = reached

    def main_move(self, read: ReadMove, after: GamePosition) -> None:
        if not self.reached and Targets.reached(self.targets, after):
            self.reached = True


class Selector:
    """Judges games by ``criteria`` (see the module doc). ``registry``, ``piece_letters``
    and ``budget`` as ``read_games`` takes them: give the same to both."""

    def __init__(self, criteria: Criteria, *, registry: Registry = DEFAULT_REGISTRY,
                 piece_letters: MoveLanguage | str = MoveLanguage.EN, budget: Budget = DEFAULT_BUDGET) -> None:
        self.criteria = criteria
        self.registry = registry
        self.letters = MoveLanguage(piece_letters)
        self.budget = budget
        self.starts = StartPositions(registry)
        self.targets = Targets(criteria.reaches, self.starts)
        names = sorted({test.name for test in criteria.tags})
        self._tag_names = re.compile("|".join(re.escape(name) for name in names)).pattern if names else ""
        self._judge: PositionJudge | None = None

    # -- the whole decision -----------------------------------------------------------
    def written(self, raw: RawGame) -> bool:
        """Whether the game ``raw`` (a first part, not blank) is written: it meets the
        criteria, or with ``Keep.OTHERS`` it does not."""
        return self.matches_raw(raw) is (self.criteria.keep is Keep.MATCHING)

    def matches_raw(self, raw: RawGame) -> bool:
        """Whether the game ``raw`` meets every criterion."""
        if not self._tags_hold(raw):
            return False
        if not self.criteria.reads_game:
            return True
        game = PgnGame(raw, self.registry.default, self.starts, self.registry, self.budget, self.letters)
        return self._rest_holds(game)

    def matches(self, game: PgnGame) -> bool:
        """Whether ``game`` (from ``read_games``) meets every criterion."""
        return self._tags_hold(game.raw) and self._rest_holds(game)

    # -- the tests ----------------------------------------------------------------------
    def _tags_hold(self, raw: RawGame) -> bool:
        tests = self.criteria.tags
        if not tests:
            return True
        values: dict[str, str] = {}
        for tag in raw.find_tags(self._tag_names):
            values.setdefault(tag.name, tag.value)
        return all(test.holds(values.get(test.name)) for test in tests)

    def _rest_holds(self, game: PgnGame) -> bool:
        criteria = self.criteria
        if criteria.variants and (game.variant is None or game.variant.key not in criteria.variants):
            return False
        if criteria.reaches or criteria.plies is not None:
            reached, plies = self._walk(game)
            if criteria.reaches and not reached:
                return False
            if criteria.plies is not None and not criteria.plies.holds(plies):
                return False
        return not criteria.problems or bool(criteria.problems & self.problem_codes(game.raw))

    def _walk(self, game: PgnGame) -> tuple[bool, int]:
        """(whether the main line reaches a target, its plies)."""
        start = game.start
        raw = game.raw
        if start is None or raw.part != 0 or raw.continues:
            return False, 0
        targets = self.targets.of(start.variant) if self.criteria.reaches else ()
        watch = _MainLine(targets, bool(targets) and Targets.reached(targets, start))
        visitor = watch if targets and not watch.reached else None
        moves = read_game_moves(raw.read_text, raw.start_line, Start(start), budget=self.budget, visitor=visitor,
                                letters=self.letters, first_column=raw.start_column)
        return watch.reached, moves.plies

    def problem_codes(self, raw: RawGame) -> set[str]:
        """The codes of the problems ``notation check`` finds in the game ``raw`` (those a
        ``notation: ignore`` comment silences left out)."""
        if self._judge is None:
            self._judge = PositionJudge(self.registry, letters=self.letters)
        found: list[CheckProblem] = []
        problems = ProblemList("", found.append)
        check_game(raw, self._judge, self.registry.default, problems)
        problems.finish()
        return {problem.code for problem in found}


def select_games(games: Iterable[PgnGame], criteria: Criteria, *, registry: Registry = DEFAULT_REGISTRY,
                 piece_letters: MoveLanguage | str = MoveLanguage.EN,
                 budget: Budget = DEFAULT_BUDGET) -> Iterator[PgnGame]:
    """The games of ``games`` (``read_games``'s, given the same ``registry``,
    ``piece_letters`` and ``budget``) that meet ``criteria``, in order; with
    ``Keep.OTHERS`` those that do not. Raises nothing on bad input."""
    selector = Selector(criteria, registry=registry, piece_letters=piece_letters, budget=budget)
    keep = criteria.keep is Keep.MATCHING
    for game in games:
        if selector.matches(game) is keep:
            yield game


class Decision(NamedTuple):
    """One piece the splitter handed on: the ``raw`` game (or a later part, or a blank
    stretch), whether it is a ``game`` (a first part that is not blank) and whether it is
    ``written``."""

    raw: RawGame
    game: bool
    written: bool


def decisions(raw_games: Iterable[RawGame], selector: Selector) -> Iterator[Decision]:
    """Each piece of ``raw_games`` (``iter_games``'s) with its ``Decision``, in order."""
    written = False
    for raw in raw_games:
        if raw.part != 0:
            yield Decision(raw, False, written)  # a later part goes where its game went
            continue
        if blank(raw.text):
            written = False
            yield Decision(raw, False, False)
            continue
        written = selector.written(raw)
        yield Decision(raw, True, written)


def blank(text: str) -> bool:
    """Whether ``text`` holds nothing but white space (no copy made, unlike ``strip``)."""
    return not text or text.isspace()
