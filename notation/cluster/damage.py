"""``notation check``'s problems found piece by piece on the workers, merged into one file's.

A PGN file is checked in pieces cut at game starts; each piece numbers its lines from 1.
A worker records a piece's problems in a ``PieceLog`` (a ``ProblemLog``: the problems in
the order found, with the settle points between them) and sends back a ``PieceOutcome``;
the client replays the outcomes in order into the file's ``ProblemList`` with a
``FileMerge``, which moves each piece's lines on by the lines before it, so the problems
and their order are those of one process reading the whole file.

The reading layer (``notation.check.lines``) reports some damage for the whole file, and
this is merged here rather than by reading the file again (bytes that are not UTF-8 are
no such damage: the PGN reader reports them once a game, ``pgn-windows-1252``):

- ``binary-file`` (a NUL byte) and ``decompress`` stop the reading: the piece meeting one
  is the file's last, and the pieces after it are not replayed.
- ``line-too-long`` concerns one line, which never spans two pieces.

The reading layer and the PGN splitter each number a piece's lines from its start (a line
ends at a LF, a CR LF or a lone CR for both): a reading problem is moved on by the lines
the reading layer counted before its piece (``line_feeds``, counted from the bytes read),
every other by the lines the splitter counted there, as one process numbers them.

What an inline ``notation: ignore`` suppresses is decided where the suppression is known:
on the worker, for the problems it records.

Nothing here reads files or raises on bad input.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from notation.check.problem import (
    READING_CODES,
    CheckProblem,
    GameKey,
    ProblemList,
    ProblemLog,
    ReadCounts,
    Severity,
)
from notation.check.runner import NOTHING_FOUND
from notation.check.sources import FileKind

STOPPING_CODES = frozenset({"binary-file", "decompress"})  # the reading layer reads no further

Event = CheckProblem | int | GameKey  # an int: a settle up to that line; a game's key (``--duplicates``)


@dataclass
class PieceOutcome:
    """What a worker sends back for one piece: the recorded events, the games seen, the
    lines the splitter counted (``line_breaks``) and the reading layer's (``line_feeds``), the
    problems suppressed on the worker, and whether the reading stopped in it."""

    events: list[Event]
    games: int = 0
    line_breaks: int = 0
    line_feeds: int = 0
    suppressed: int = 0
    stopped: bool = False
    read: ReadCounts = field(default_factory=ReadCounts)  # games and plies read in the piece


class PieceLog(ProblemLog):
    """The worker's record of one piece; see the module doc. Feed ``read_blocks`` its
    ``add``; ``outcome`` when done."""

    def __init__(self, path: str):
        super().__init__(path)
        self.events: list[Event] = []
        self._stopped = False

    def add(self, line: int, column: int, severity: Severity, code: str, message: str) -> None:
        if code in STOPPING_CODES:
            self._stopped = True
        super().add(line, column, severity, code, message)

    def outcome(self, games: int, line_breaks: int, line_feeds: int) -> PieceOutcome:
        self._flush_settle()  # the last one too
        return PieceOutcome(self.events, games, line_breaks, line_feeds, self.suppressed, self._stopped, self.read)

    def _flush_settle(self) -> None:
        if self._settle is not None:
            self.events.append(self._settle)
            self._settle = None


@dataclass
class FileMerge:
    """The client's side of one PGN file checked in pieces: replay each piece's outcome in
    order (``add``), then ``finish``; ``games`` and ``suppressed`` count what was replayed."""

    problems: ProblemList
    games: int = 0
    suppressed: int = 0
    lines_before: int = 0
    feeds_before: int = 0
    stopped: bool = False  # the reading stopped in a piece: the rest is not replayed
    on_key: Callable[[ProblemList, GameKey], None] | None = None  # ``check --duplicates``: the client's finder

    def add(self, outcome: PieceOutcome) -> None:
        """Replay one piece's outcome, in the file's order."""
        if self.stopped:
            return
        add = self.problems.add
        for event in outcome.events:
            if isinstance(event, int):
                self.problems.settle(event + self.lines_before)
            elif isinstance(event, CheckProblem):
                shift = self.feeds_before if event.code in READING_CODES else self.lines_before
                add(event.line + shift, event.column, event.severity, event.code, event.message)
            elif self.on_key is not None:  # a game's key: the client decides, the games before counted
                self.on_key(self.problems, event._replace(line=event.line + self.lines_before))
        self.games += outcome.games
        self.suppressed += outcome.suppressed
        self.problems.read.add(outcome.read)
        self.lines_before += outcome.line_breaks
        self.feeds_before += outcome.line_feeds
        self.stopped = outcome.stopped

    def finish(self) -> None:
        """Every piece is in: the empty-file warning if nothing was seen, then the problems
        still held."""
        if self.games == 0 and not len(self.problems):
            self.problems.add(1, 1, Severity.WARNING, "empty-file", NOTHING_FOUND[FileKind.PGN])
        self.problems.finish()
