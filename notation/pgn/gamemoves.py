"""The moves of one game, read, checked and (optionally) rewritten: what ``normalize`` and
``notation check`` both call, so that they find the same problems in the same places.

``read_game_moves(text, first_line, start, ...)`` scans the game's movetext
(``movetext.Scanner``, within a ``Budget``), walks it from the game's start
(``movewalk.walk``; the start from ``gamestart``; a ``visitor`` is told of every move
played) and adds what needs the whole game:

- ``wrong-result`` (a warning): the main line ends in a decided position (a mate, a
  stalemate, a variant's own win) and the ``Result`` tag says otherwise (a ``*`` says
  nothing); without a ``Result`` tag, the result token at the end of the moves is judged;
- ``pgn-movetext-too-long`` / ``pgn-movetext-too-deep`` (errors): the budget stopped the
  scan; the moves before that point are checked, the game is not rewritten;
- ``unknown-start`` (a warning): a variant whose start array is drawn (Chess960) and no FEN;
- ``notation-unavailable`` (a warning): the ``writer``'s notation is not one the variant's
  family writes; the moves are checked and kept as read.

Each problem gets its line and column in the input (``PlacedProblem``); ``GameMoves.end``
is the position the main line ends in. Chess moves are read as SAN, the PGN standard's
notation (a LAN or UCI move is a ``long-algebraic`` or ``uci-in-san`` warning); Xiangqi
and tafl moves in any notation their family reads. Nothing here raises on bad input.
Compiled with mypyc (pyproject.toml).
"""

from __future__ import annotations

from typing import ClassVar, Final

from notation.game.family import GamePosition
from notation.move_options import MoveLanguage, MoveNotation
from notation.pgn.gamestart import UNKNOWN_START, Start
from notation.pgn.movetext import (
    DEFAULT_BUDGET,
    Budget,
    Locator,
    Scanner,
    Token,
    canonical_result,
    first_move,
    movetext_place,
)
from notation.pgn.movewalk import ERROR, WARNING, MoveProblem, MoveVisitor, walk
from notation.pgn.movewrite import MoveWriter
from notation.pgn.tags import Tag
from notation.pgn.text_edits import NO_EDITS, TextEdits
from notation.records import Record
from notation.variants import RuleFamily

WRONG_RESULT: Final = "wrong-result"
NOTATION_UNAVAILABLE: Final = "notation-unavailable"
DECIDED_RESULTS: Final = ("1-0", "0-1", "1/2-1/2")


class PlacedProblem(Record):
    """A problem of the moves at ``line`` and ``column`` (1-based) of the input."""

    _NAMES: ClassVar = ("line", "column", "problem")

    def __init__(self, line: int, column: int, problem: MoveProblem) -> None:
        self.line: Final = line
        self.column: Final = column
        self.problem: Final = problem


class GameMoves(Record):
    """The problems found (in text order), the edits of a rewrite (empty when the game
    must be kept as read: an error, or a notation its family does not write), the
    position the main line ends in (None when an error stopped it, or none was read) and
    the ``plies`` of the main line played (up to a move that failed)."""

    _NAMES: ClassVar = ("problems", "edits", "end", "plies")

    def __init__(self, problems: list[PlacedProblem], edits: TextEdits, end: GamePosition | None = None,
                 plies: int = 0) -> None:
        self.problems: Final = problems
        self.edits: Final = edits
        self.end: Final = end
        self.plies: Final = plies

    @property
    def has_errors(self) -> bool:
        for placed in self.problems:
            if placed.problem.level is ERROR:
                return True
        return False


NO_MOVES: Final = GameMoves([], NO_EDITS)
# Enum members read per game, bound once: compiled, C statics, not a look-up through
# their class's attribute hook each time (an enum is not a native class).
_CHESS: Final = RuleFamily.CHESS
_SAN: Final = MoveNotation.SAN


def read_game_moves(
    text: str,
    first_line: int,
    start: Start,
    *,
    result_tag: Tag | None = None,
    writer: MoveWriter | None = None,
    budget: Budget = DEFAULT_BUDGET,
    visitor: MoveVisitor | None = None,
    letters: MoveLanguage = MoveLanguage.EN,
    first_column: int = 1,
) -> GameMoves:
    """Check (and with ``writer``, rewrite) the moves of one game's ``text``, whose first
    line is ``first_line``; ``result_tag`` is its ``Result`` tag, if any; ``letters`` the
    language of chess moves' piece letters (``--piece-letters``); ``visitor`` is told of
    each move played (``movewalk.MoveVisitor``); ``first_column``: the column of the text's
    first character (a game that starts mid-line)."""
    known = movetext_place(text)
    begin = known[0]
    position = start.position
    if position is None:
        if start.reason is None:
            return NO_MOVES
        first = first_move(text, begin, budget)
        if first < 0:
            return NO_MOVES
        problem = MoveProblem(UNKNOWN_START, start.reason, WARNING, first)
        return GameMoves(_placed(text, first_line, first_column, known, [problem]), NO_EDITS)
    variant = position.variant
    reading = _SAN if variant.family is _CHESS else None
    unavailable: MoveNotation | None = None
    if writer is not None and not writer.available(variant):
        unavailable, writer = writer.notation, None
    scanner = Scanner(text, begin, budget)
    walked = walk(text, scanner, position, reading=reading, writer=writer, visitor=visitor, letters=letters)
    problems = walked.problems
    overflow = scanner.overflow
    if unavailable is not None and walked.first_move >= 0:
        problems.append(MoveProblem(
            NOTATION_UNAVAILABLE,
            f"{variant.name} moves are not written in {unavailable.value}; they are kept as read",
            WARNING, walked.first_move,
        ))
    if overflow is not None:
        problems.append(MoveProblem(overflow.code, overflow.message, ERROR, overflow.offset))
    elif walked.end is not None:
        said, offset = _result_said(text, result_tag, walked.result)
        outcome = walked.end.outcome() if said is not None and said in DECIDED_RESULTS else None
        if outcome is not None and said != outcome.result:  # the end is judged only against a decided result
            problems.append(MoveProblem(
                WRONG_RESULT,
                f"the result is {said} but the moves end in {outcome.reason.value}: {outcome.result}",
                WARNING, offset, walked.plies,
            ))
    end = walked.end if overflow is None else None
    plies = walked.plies
    if not problems:
        return GameMoves([], walked.edits, end, plies)
    placed = _placed(text, first_line, first_column, known, problems)
    for problem in problems:
        if problem.level is ERROR:
            return GameMoves(placed, NO_EDITS, end, plies)
    return GameMoves(placed, walked.edits, end, plies)


def _result_said(text: str, tag: Tag | None, token: Token | None) -> tuple[str | None, int]:
    """The result the game states, and the offset where it says it: the ``Result`` tag's
    value, else the result token ending the main line."""
    if tag is not None:
        return tag.value.strip(), tag.line_offset + tag.value_start
    if token is not None:
        return canonical_result(text[token.start:token.end]), token.start
    return None, 0


def _placed(text: str, first_line: int, first_column: int, known: tuple[int, int],
            problems: list[MoveProblem]) -> list[PlacedProblem]:
    """``problems`` in text order (equal offsets keep their order), each with its line and
    column, counted on from the movetext's start (``known``: ``movetext_place``'s). The walk
    finds them in text order but for a few (a mark after its move, the result): they are
    sorted only when out of order, as most games' one or two are not."""
    if not _in_text_order(problems):
        problems = sorted(problems, key=_offset_of)
    locator = Locator(text, first_line, first_column, known)
    out = []
    for problem in problems:
        line, column = locator.place(problem.offset)
        out.append(PlacedProblem(line, column, problem))
    return out


def _in_text_order(problems: list[MoveProblem]) -> bool:
    for index in range(1, len(problems)):
        if problems[index].offset < problems[index - 1].offset:
            return False
    return True


def _offset_of(problem: MoveProblem) -> int:
    return problem.offset
