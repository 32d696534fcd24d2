"""Broken games cut short: where ``normalize --broken truncate`` cuts a game whose moves hold an error.

``notation.pgn.repairs.BrokenGames`` is the choice: ``KEEP`` (the game written as read, its errors reported: what
``normalize`` has always done), ``TRUNCATE`` (the game cut before its first bad move, a
comment saying why and a ``*`` result in place of the rest) or ``DROP`` (the game left out;
with a rejects file it goes there).

Where the cut falls (``find_cut``): before the first error of the moves in text order
(an illegal, ambiguous or unreadable move, a move after the game's end, a ``)`` without its
``(``, a variation before any move, the movetext's budget), and before the move number
written right before that move (``12. Qxh1`` is cut before ``12.``). An error inside a
variation cuts the game before the ``(`` that opens the outermost variation holding it: the
main line up to there is kept, and nothing after the cut is. Everything before the cut is
kept byte for byte; the white space that ended the game stays after the new result. Where
the cut falls right after the tags on their line (``[Result "0-1"] Qxz9 *``), the comment
starts after a blank line: a comment on a tag's line would read as a damaged tag line.

Nothing here raises.
"""

from __future__ import annotations

from typing import NamedTuple

from notation.pgn.gamemoves import PlacedProblem
from notation.pgn.movetext import DEFAULT_BUDGET, T_CLOSE, T_END, T_MOVE, T_NUMBER, T_OPEN, Budget, Scanner
from notation.pgn.movewalk import ERROR, MoveProblem


class Cut(NamedTuple):
    """Where a broken game is cut: the text ``[start, end)`` is replaced (``end``: where
    the game's content ends, its closing white space kept), ``cause`` is the first error."""

    start: int
    end: int
    cause: PlacedProblem


def first_error(problems: list[PlacedProblem]) -> PlacedProblem | None:
    """The first error of the moves in text order (``problems`` are in text order), or None."""
    for placed in problems:
        if placed.problem.level is ERROR:
            return placed
    return None


def find_cut(text: str, begin: int, problems: list[PlacedProblem], budget: Budget = DEFAULT_BUDGET) -> Cut | None:
    """Where to cut the game ``text`` whose movetext starts at ``begin`` (see the module
    doc); None when ``problems`` hold no error."""
    cause = first_error(problems)
    if cause is None:
        return None
    target = cause.problem.offset
    scanner = Scanner(text, begin, budget)
    depth = 0
    outermost = -1  # the "(" of the outermost variation the scan is in
    numbers = -1  # where the move numbers right before the current token start
    at = -1
    kind = scanner.next()
    while kind != T_END:
        start = scanner.start
        if start >= target:
            at = numbers if (kind == T_MOVE or kind == T_OPEN) and numbers >= 0 else start
            break
        if kind == T_NUMBER:
            if numbers < 0:
                numbers = start
        else:
            numbers = -1
        if kind == T_OPEN:
            if depth == 0:
                outermost = start
            depth += 1
        elif kind == T_CLOSE and depth > 0:
            depth -= 1
        kind = scanner.next()
    if at < 0:  # the error is past the last token read (a budget's end)
        at = target
    if depth > 0:
        at = outermost
    return Cut(at, len(text.rstrip()), cause)


def cut_comment(cause: MoveProblem) -> str:
    """The comment written where a game is cut: the error's code, ply, the move as written
    and the message (braces and line breaks taken out, so that it stays one comment)."""
    where = f" at ply {cause.ply}" if cause.ply is not None else ""
    move = f" {cause.move!r}" if cause.move is not None else ""
    said = f"game cut here: {cause.code}{where}{move}: {cause.message}"
    for char in "{}\r\n":
        said = said.replace(char, " ")
    return "{" + said + "}"


def cut_replacement(text: str, cut: Cut, result: str) -> str:
    """What replaces ``text[cut.start:cut.end]``: the comment and ``result``, a space
    before them where the kept text does not end in white space."""
    space = "" if cut.start == 0 or text[cut.start - 1].isspace() else " "
    line_start = max(text.rfind("\n", 0, cut.start), text.rfind("\r", 0, cut.start)) + 1
    if text[line_start:cut.start].rstrip().endswith("]"):  # tags and moves on one line: the cut's after the tags
        ending = "\r\n" if "\r\n" in text else "\r" if "\r" in text and "\n" not in text else "\n"
        space = ending * 2  # a brace comment right after a tag on its line would read as a broken tag line
    return f"{space}{cut_comment(cut.cause.problem)} {result}"
