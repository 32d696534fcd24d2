"""The moves of one game, read, checked and (optionally) rewritten: what ``normalize`` and
``notation check`` both call, so that they find the same problems in the same places.

``read_game_moves(text, first_line, start, ...)`` scans the game's movetext
(``movetext.scan``, within a ``Budget``), walks it from the game's start (``movewalk.walk``;
the start from ``gamestart``) and adds what needs the whole game:

- ``wrong-result`` (a warning): the main line ends in a decided position (a mate, a
  stalemate, a variant's own win) and the ``Result`` tag says otherwise (a ``*`` says
  nothing); without a ``Result`` tag, the result token at the end of the moves is judged;
- ``pgn-movetext-too-long`` / ``pgn-movetext-too-deep`` (errors): the budget stopped the
  scan; the moves before that point are checked, the game is not rewritten;
- ``unknown-start`` (a warning): a variant whose start array is drawn (Chess960) and no FEN;
- ``notation-unavailable`` (a warning): the ``writer``'s notation is not one the variant's
  family writes; the moves are checked and kept as read.

Each problem gets its line and column in the input (``PlacedProblem``). Chess moves are read
as SAN, the PGN standard's notation (a LAN or UCI move is a ``long-algebraic`` or
``uci-in-san`` warning); Xiangqi and tafl moves in any notation their family reads.
Nothing here raises on bad input.
"""

from __future__ import annotations

from typing import NamedTuple

from notation.options import MoveNotation
from notation.pgn.gamestart import UNKNOWN_START, Start
from notation.pgn.movetext import DEFAULT_BUDGET, MOVE, Budget, Locator, Token, movetext_start, scan
from notation.pgn.movewalk import Level, MoveProblem, walk
from notation.pgn.movewrite import MoveWriter
from notation.pgn.tags import Tag
from notation.variants import RuleFamily

WRONG_RESULT = "wrong-result"
NOTATION_UNAVAILABLE = "notation-unavailable"
DECIDED_RESULTS = ("1-0", "0-1", "1/2-1/2")


class PlacedProblem(NamedTuple):
    """A problem of the moves at ``line`` and ``column`` (1-based) of the input."""

    line: int
    column: int
    problem: MoveProblem


class GameMoves(NamedTuple):
    """The problems found (in text order) and the edits of a rewrite (empty when the game
    must be kept as read: an error, or a notation its family does not write)."""

    problems: list[PlacedProblem]
    edits: list[tuple[int, int, str]]

    @property
    def has_errors(self) -> bool:
        return any(placed.problem.level is Level.ERROR for placed in self.problems)


NO_MOVES = GameMoves([], [])


def read_game_moves(
    text: str,
    first_line: int,
    start: Start,
    *,
    result_tag: Tag | None = None,
    writer: MoveWriter | None = None,
    budget: Budget = DEFAULT_BUDGET,
) -> GameMoves:
    """Check (and with ``writer``, rewrite) the moves of one game's ``text``, whose first
    line is ``first_line``; ``result_tag`` is its ``Result`` tag, if any."""
    begin = movetext_start(text)
    found = scan(text, begin, budget)
    tokens = found.tokens
    position = start.position
    if position is None:
        if start.reason is None:
            return NO_MOVES
        first = next((token for token in tokens if token.kind is MOVE), None)
        if first is None:
            return NO_MOVES
        problem = MoveProblem(UNKNOWN_START, start.reason, Level.WARNING, first.start)
        return GameMoves(_placed(text, first_line, [problem]), [])
    variant = position.variant
    reading = MoveNotation.SAN if variant.family is RuleFamily.CHESS else None
    unavailable: MoveProblem | None = None
    if writer is not None and not writer.available(variant):
        first = next((token for token in tokens if token.kind is MOVE), None)
        if first is not None:
            unavailable = MoveProblem(
                NOTATION_UNAVAILABLE,
                f"{variant.name} moves are not written in {writer.notation.value}; they are kept as read",
                Level.WARNING, first.start,
            )
        writer = None
    walked = walk(text, tokens, position, reading=reading, writer=writer, complete=found.overflow is None)
    problems = walked.problems
    if unavailable is not None:
        problems.append(unavailable)
    if found.overflow is not None:
        problems.append(MoveProblem(found.overflow.code, found.overflow.message, Level.ERROR, found.overflow.offset))
    elif walked.end is not None:
        outcome = walked.end.outcome()
        if outcome is not None:
            said, offset = _result_said(text, result_tag, walked.result)
            if said in DECIDED_RESULTS and said != outcome.result:
                problems.append(MoveProblem(
                    WRONG_RESULT,
                    f"the result is {said} but the moves end in {outcome.reason.value}: {outcome.result}",
                    Level.WARNING, offset, walked.plies,
                ))
    if not problems:
        return GameMoves([], walked.edits)
    placed = _placed(text, first_line, problems)
    if any(problem.level is Level.ERROR for problem in problems):
        return GameMoves(placed, [])
    return GameMoves(placed, walked.edits)


def _result_said(text: str, tag: Tag | None, token: Token | None) -> tuple[str | None, int]:
    """The result the game states, and the offset where it says it: the ``Result`` tag's
    value, else the result token ending the main line."""
    if tag is not None:
        return tag.value.strip(), tag.line_offset + tag.value_start
    if token is not None:
        return text[token.start:token.end], token.start
    return None, 0


def _placed(text: str, first_line: int, problems: list[MoveProblem]) -> list[PlacedProblem]:
    locator = Locator(text, first_line)
    out = []
    for problem in sorted(problems, key=lambda p: p.offset):
        line, column = locator.place(problem.offset)
        out.append(PlacedProblem(line, column, problem))
    return out
