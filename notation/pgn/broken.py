"""Broken games cut short: where ``normalize --broken truncate`` cuts a game whose moves hold errors.

``notation.pgn.repairs.BrokenGames`` is the choice: ``KEEP`` (the game written as read, its errors reported: what
``normalize`` has always done), ``TRUNCATE`` (each bad variation cut before its first bad
move, and the game cut before a bad move of its main line, a comment saying why in place of
the rest) or ``DROP`` (the game left out; with a rejects file it goes there).

Where the cuts fall (``find_cuts``), going through the errors of the moves in text order:

- an error of one move (an illegal, ambiguous or unreadable move, a move after the game's
  end) inside a variation cuts that variation, the innermost holding it: its moves before
  the bad one are kept, a comment saying why takes the place of the rest, and its own ``)``
  closes it (``(2. Bc4 Nc6 3. Qxh8 (3. Qh5))`` becomes ``(2. Bc4 Nc6 {variation cut here:
  ...})``; a bad first move leaves ``({variation cut here: ...})``). The main line and
  everything after the variation stay as they were, its result included, and the errors
  after the variation are looked at in turn;
- any other error cuts the game and ends the cuts: a bad move of the main line, a ``)``
  without its ``(``, a variation before any move, a ``(`` never closed, the movetext's
  budget. The game is cut before the error, or where it lies inside a variation, before the
  ``(`` that opens the outermost variation holding it; the comment and a ``*`` result take
  the place of the rest. The white space that ended the game stays after the new result.
  Where the cut falls right after the tags on their line (``[Result "0-1"] Qxz9 *``), the
  comment starts after a blank line: a comment on a tag's line would read as a damaged tag
  line.

Every cut falls before the move number written right before the bad move (``12. Qxh1`` is
cut before ``12.``); everything before it is kept byte for byte. ``CutText`` is a game's
text with its cuts made, and says where each of its offsets was in the text read.

Nothing here raises.
"""

from __future__ import annotations

from typing import NamedTuple

from notation.pgn.gamemoves import PlacedProblem
from notation.pgn.movetext import DEFAULT_BUDGET, T_CLOSE, T_END, T_MOVE, T_NUMBER, T_OPEN, Budget, Scanner
from notation.pgn.movewalk import ERROR, MoveProblem


class Cut(NamedTuple):
    """Where a broken game is cut: the text ``[start, end)`` is replaced, ``cause`` is the
    error that cut it. A variation's cut (``variation``) ends at its ``)``, which stays; the
    game's cut ends where the game's content ends, its closing white space kept."""

    start: int
    end: int
    cause: PlacedProblem
    variation: bool


def find_cuts(text: str, begin: int, problems: list[PlacedProblem], budget: Budget = DEFAULT_BUDGET) -> list[Cut]:
    """Where to cut the game ``text`` whose movetext starts at ``begin`` (see the module
    doc), in text order: the variations' cuts, then the game's cut, if any; empty when
    ``problems`` (in text order) hold no error."""
    errors = [placed for placed in problems if placed.problem.level is ERROR]
    cuts: list[Cut] = []
    if not errors:
        return cuts
    index = 0
    scanner = Scanner(text, begin, budget)
    opened: list[int] = []  # where the variations the scan is in open, the outermost first
    numbers = -1  # where the move numbers right before the current token start
    kind = scanner.next()
    while kind != T_END:
        start = scanner.start
        cause = errors[index]
        if start >= cause.problem.offset:
            at = numbers if (kind == T_MOVE or kind == T_OPEN) and numbers >= 0 else start
            if opened and cause.problem.move is not None:  # one move's error, inside a variation
                close = _close(scanner)
                if close >= 0:
                    cuts.append(Cut(at, close, cause, True))
                    opened.pop()
                    while index < len(errors) and errors[index].problem.offset < close:
                        index += 1
                    if index == len(errors):
                        return cuts
                    numbers = -1
                    kind = scanner.next()
                    continue
            cuts.append(Cut(opened[0] if opened else at, len(text.rstrip()), cause, False))
            return cuts
        if kind == T_NUMBER:
            if numbers < 0:
                numbers = start
        else:
            numbers = -1
        if kind == T_OPEN:
            opened.append(start)
        elif kind == T_CLOSE and opened:
            opened.pop()
        kind = scanner.next()
    # the error is past the last token read (a budget's end)
    cause = errors[index]
    cuts.append(Cut(opened[0] if opened else cause.problem.offset, len(text.rstrip()), cause, False))
    return cuts


def _close(scanner: Scanner) -> int:
    """Where the ``)`` closing the variation the ``scanner`` is in lies (the scanner is left
    on it); -1 where the scan ends first."""
    depth = 0
    kind = scanner.next()
    while kind != T_END:
        if kind == T_OPEN:
            depth += 1
        elif kind == T_CLOSE:
            if depth == 0:
                return scanner.start
            depth -= 1
        kind = scanner.next()
    return -1


def cut_comment(cause: MoveProblem, variation: bool = False) -> str:
    """The comment written where a game (or a ``variation``) is cut: the error's code, ply,
    the move as written and the message (braces and line breaks taken out, so that it stays
    one comment)."""
    where = f" at ply {cause.ply}" if cause.ply is not None else ""
    move = f" {cause.move!r}" if cause.move is not None else ""
    said = f"{'variation' if variation else 'game'} cut here: {cause.code}{where}{move}: {cause.message}"
    for char in "{}\r\n":
        said = said.replace(char, " ")
    return "{" + said + "}"


def cut_replacement(text: str, cut: Cut, result: str) -> str:
    """What replaces ``text[cut.start:cut.end]``: the comment, and for the game's cut
    ``result``; a space before them where the kept text does not end in white space (or,
    in a variation, its ``(``)."""
    before = text[cut.start - 1] if cut.start > 0 else " "
    if cut.variation:
        return f"{'' if before.isspace() or before == '(' else ' '}{cut_comment(cut.cause.problem, True)}"
    space = "" if before.isspace() else " "
    line_start = max(text.rfind("\n", 0, cut.start), text.rfind("\r", 0, cut.start)) + 1
    if text[line_start:cut.start].rstrip().endswith("]"):  # tags and moves on one line: the cut's after the tags
        ending = "\r\n" if "\r\n" in text else "\r" if "\r" in text and "\n" not in text else "\n"
        space = ending * 2  # a brace comment right after a tag on its line would read as a broken tag line
    return f"{space}{cut_comment(cut.cause.problem)} {result}"


class CutText:
    """A game's ``text`` with its ``cuts`` made (the game's cut ending in ``result``):
    ``text``, and ``source(offset)``, where an offset of it was in the text read. The
    offsets of the comments put in map to the start of their cut."""

    __slots__ = ("text", "game_cut", "_shifts")

    def __init__(self, text: str, cuts: list[Cut], result: str) -> None:
        out: list[str] = []
        shifts: list[tuple[int, int, int]] = []  # (start, end) of a comment in the new text, its cut's end
        done = 0
        length = 0
        self.game_cut = -1  # where the game's cut starts in the new text (-1: not cut)
        for cut in cuts:
            new = cut_replacement(text, cut, result)
            out.append(text[done:cut.start])
            length += cut.start - done
            if not cut.variation:
                self.game_cut = length
            out.append(new)
            shifts.append((length, length + len(new), cut.end))
            length += len(new)
            done = cut.end
        out.append(text[done:])
        self.text = "".join(out)
        self._shifts = shifts

    def source(self, offset: int) -> int:
        """Where ``offset`` of the cut text was in the text read."""
        shift = 0  # what the cuts before ``offset`` took away
        for start, end, cut_end in self._shifts:
            if offset < end:
                return offset + shift if offset <= start else start + shift
            shift = cut_end - end
        return offset + shift
