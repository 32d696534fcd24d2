"""``notation check``'s problems found piece by piece on the workers, merged into one file's.

A PGN file is checked in pieces cut at game starts; each piece numbers its lines from 1.
A worker records a piece's problems in a ``PieceLog`` (a ``ProblemLog``: the problems in
the order found, with the settle points between them) and sends back a ``PieceOutcome``;
the client replays the outcomes in order into the file's ``ProblemList`` with a
``FileMerge``, which moves each piece's lines on by the lines before it, so the problems
and their order are those of one process reading the whole file.

The reading layer (``notation.check.lines``) counts some damage over the whole file, and
this is merged here rather than by reading the file again:

- ``encoding``: one process reports the file's first undecodable line in full, then one
  line counting the others at the second such line, which goes out with the file's last
  problems (``ProblemList.add_last``: not where the reading's blocks happened to end). A
  piece records its first bad line's report where it was found (``FirstBad``), how many
  bad lines it holds and its second one; the merge keeps only the file's first report and
  adds the count when the file is finished.
- ``binary-file`` (a NUL byte) and ``decompress`` stop the reading: the piece meeting one
  is the file's last, and the pieces after it are not replayed.
- ``line-too-long`` concerns one line, which never spans two pieces.

The reading layer numbers lines by line feeds, the PGN splitter also by a lone CR: a
reading problem is moved on by the line feeds before its piece, every other by the lines
the splitter counted there, as one process numbers them.

What an inline ``notation: ignore`` suppresses is decided where the suppression is known:
on the worker, for the problems it records, and for the file's first and second bad lines
(``FirstBad.suppressed``; ``PieceOutcome.covered_at_end``: by every suppression of the
piece, as one process judges the count by every suppression of the file, and only the
second line's own game can cover it).

Nothing here reads files or raises on bad input.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from notation.check.problem import READING_CODES, CheckProblem, ProblemList, ProblemLog, ReadCounts, Severity
from notation.check.runner import NOTHING_FOUND
from notation.check.sources import FileKind
from notation.check.suppress import Suppression

ENCODING = "encoding"
STOPPING_CODES = frozenset({"binary-file", "decompress"})  # the reading layer reads no further


def more_bad_lines_message(count: int) -> str:
    """The reading layer's count of undecodable lines after the first (``_EncodingTally``)."""
    return f"{count} more line(s) from here on are not valid UTF-8"


@dataclass(frozen=True)
class FirstBad:
    """A piece's first undecodable line, reported in full if it is the file's first;
    ``suppressed``: an inline suppression known when it was found covers it."""

    problem: CheckProblem
    suppressed: bool


Event = CheckProblem | int | FirstBad  # an int: a settle up to that line


@dataclass
class PieceOutcome:
    """What a worker sends back for one piece: the recorded events, the games seen, the
    lines the splitter counted (``line_breaks``) and the line feeds (``line_feeds``), the
    undecodable lines (``bad_lines``, the first two at ``bad_at``, piece lines) and whether
    all the piece's suppressions cover those two (``covered_at_end``), the problems
    suppressed on the worker, and whether the reading stopped in it."""

    events: list[Event]
    games: int = 0
    line_breaks: int = 0
    line_feeds: int = 0
    bad_lines: int = 0
    bad_at: tuple[int | None, int | None] = (None, None)
    covered_at_end: tuple[bool, bool] = (False, False)
    suppressed: int = 0
    stopped: bool = False
    read: ReadCounts = field(default_factory=ReadCounts)  # games and plies read in the piece


class PieceLog(ProblemLog):
    """The worker's record of one piece; see the module doc. Feed ``read_blocks`` its
    ``add``; ``outcome`` when done."""

    def __init__(self, path: str):
        super().__init__(path)
        self.events: list[Event] = []  # type: ignore[assignment]
        self._suppressions_seen: list[Suppression] = []
        self._bad_lines = 0
        self._bad_at: list[int] = []
        self._stopped = False

    def suppress(self, suppression: Suppression) -> None:
        super().suppress(suppression)
        self._suppressions_seen.append(suppression)

    def add(self, line: int, column: int, severity: Severity, code: str, message: str) -> None:
        if code == ENCODING:
            self._flush_settle()
            if not self._bad_at:  # the reading layer's first report: the piece's first bad line
                self._bad_lines = 1
                self._bad_at.append(line)
                problem = CheckProblem(self.path, max(line, 1), max(column, 1), severity, code, message)
                self.events.append(FirstBad(problem, self._covered(line)))
            else:  # its count of the others, made when the reading ends, at the second one
                self._bad_lines = 1 + int(message.split(" ", 1)[0])
                self._bad_at.append(line)
            return
        if code in STOPPING_CODES:
            self._stopped = True
        super().add(line, column, severity, code, message)

    def outcome(self, games: int, line_breaks: int, line_feeds: int) -> PieceOutcome:
        self._flush_settle()  # the last one too: the file's count of bad lines goes out after it
        at = (self._bad_at + [None, None])[:2]
        return PieceOutcome(self.events, games, line_breaks, line_feeds, self._bad_lines, (at[0], at[1]),
                            self._covered_pair(), self.suppressed, self._stopped, self.read)

    def _flush_settle(self) -> None:
        if self._settle is not None:
            self.events.append(self._settle)
            self._settle = None

    def _covered(self, line: int | None) -> bool:
        return line is not None and any(s.covers(max(line, 1), ENCODING) for s in self._suppressions_seen)

    def _covered_pair(self) -> tuple[bool, bool]:
        at = (self._bad_at + [None, None])[:2]
        return self._covered(at[0]), self._covered(at[1])


@dataclass
class _Second:
    """The file's second undecodable line: its number, and whether the suppressions of its
    piece (its game's among them) cover it."""

    line: int
    covered: bool
    index: int  # 0 or 1: which of its piece's bad lines


@dataclass
class FileMerge:
    """The client's side of one PGN file checked in pieces: replay each piece's outcome in
    order (``add``), then ``finish``; ``games`` and ``suppressed`` count what was replayed."""

    problems: ProblemList
    games: int = 0
    suppressed: int = 0
    lines_before: int = 0
    feeds_before: int = 0
    bad_lines: int = 0
    stopped: bool = False  # the reading stopped in a piece: the rest is not replayed
    _second: _Second | None = field(default=None, repr=False)

    def add(self, outcome: PieceOutcome) -> None:
        """Replay one piece's outcome, in the file's order."""
        if self.stopped:
            return
        bad_before = self.bad_lines
        if self._second is None and bad_before < 2:
            index = 1 - bad_before  # which of this piece's bad lines is the file's second
            line = outcome.bad_at[index]
            if line is not None:
                self._second = _Second(line + self.feeds_before, outcome.covered_at_end[index], index)
        add = self.problems.add
        for event in outcome.events:
            if isinstance(event, int):
                self.problems.settle(event + self.lines_before)
            elif isinstance(event, CheckProblem):
                shift = self.feeds_before if event.code in READING_CODES else self.lines_before
                add(event.line + shift, event.column, event.severity, event.code, event.message)
            elif isinstance(event, FirstBad) and bad_before == 0:
                self._add_or_suppress(event.problem.line + self.feeds_before, event.problem, event.suppressed, add)
        self.bad_lines += outcome.bad_lines
        self.games += outcome.games
        self.suppressed += outcome.suppressed
        self.problems.read.add(outcome.read)
        self.lines_before += outcome.line_breaks
        self.feeds_before += outcome.line_feeds
        self.stopped = outcome.stopped

    def finish(self) -> None:
        """Every piece is in: the empty-file warning if nothing was seen, then the problems
        still held, the count of undecodable lines among them (``ProblemList.add_last``:
        where one process sends it, whatever blocks it read the file in)."""
        # As in one process, a count held is a problem when the empty file is judged.
        if self.games == 0 and not len(self.problems) and (self.bad_lines < 2 or self._second is None):
            self.problems.add(1, 1, Severity.WARNING, "empty-file", NOTHING_FOUND[FileKind.PGN])
        count = self._count()
        if count is not None:
            self.problems.add_last(count.line, count.column, count.severity, count.code, count.message)
        self.problems.finish()

    def _count(self) -> CheckProblem | None:
        """The count of undecodable lines after the first, at the second; None when there is
        none to send (fewer than two, or suppressed: counted as such)."""
        second = self._second
        if self.bad_lines < 2 or second is None:
            return None
        if second.covered:
            self.suppressed += 1
            return None
        return CheckProblem(self.problems.path, second.line, 1, Severity.ERROR, ENCODING,
                            more_bad_lines_message(self.bad_lines - 1))

    def _add_or_suppress(self, line: int, problem: CheckProblem, suppressed: bool, add: Callable[..., None]) -> None:
        if suppressed:
            self.suppressed += 1
        else:
            add(line, problem.column, problem.severity, problem.code, problem.message)
