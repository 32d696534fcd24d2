"""``notation check --jobs N``: the files checked by several processes, problems in order
(the pool and the ordering are ``notation.parallel``'s).

What each file becomes:

- a regular, uncompressed PGN file larger than one nominal range
  (``notation.pgn.pieces.RANGE_BYTES``; its ranges taper towards its end so the processes
  finish together, ``notation.parallel.pieces.tapered_ranges``) is cut into pieces at game starts, the
  rule ``--jobs`` of ``normalize`` and ``--dask`` cut by (``notation.pgn.pieces.cut_points``,
  found by the parent as it hands the pieces out: a few kilobytes read at each range's
  start; ``notation.pgn.ranges.spans``); each piece is checked by a worker, which numbers its
  lines from the piece's start and says how many it holds: the parent moves them on by
  the lines of the pieces before as it replays them (numbering them ahead, as ``normalize
  --jobs`` does, means reading every byte once more to count line breaks);
- any other regular file up to ``WHOLE_IN_WORKER_BYTES`` (FEN, EPD, compressed, small) is
  checked whole by one worker;
- standard input, FIFOs and devices (read once), and larger files that cannot be cut, are
  checked by the parent itself, in their turn, streaming as one process does.

Workers send back a ``ProblemLog`` per piece or file: the problems in the order found,
with the settle points between them; a log of more than ``problem.SPILL_EVENTS`` keeps the
earlier ones in a file of its own in the run's private temporary directory, so a piece of
millions of tiny damaged games is held whole by no process. The parent replays them,
piece after piece, file after file, into each file's ``ProblemList``, so the problems and
their order are those of one process. Damage that the reading layer counts over a whole file (bytes that are not
UTF-8, a NUL byte, an overlong line: ``READING_CODES``) makes a piece unusable alone: the
file is then checked by the parent from that piece's start to its end as one stream,
exactly as one process reads it from there (the pieces before held no such damage).
At most ``4 * jobs`` tasks are in flight. The parent is one of the ``jobs`` processes
working (``ParentRole.WORKS``): it takes the next piece while it waits for a result, and
while it holds one the workers must still find pieces waiting.

Never raises on bad input (as ``run.run_check``); a worker's death raises the pool's error.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from notation.check.games import check_pgn_text
from notation.check.judge import PositionJudge
from notation.check.lines import LineEnds, read_blocks
from notation.check.problem import CheckProblem, GameKey, ProblemList, ProblemLog, Severity
from notation.check.runner import (
    MAX_LINE_BYTES,
    NOTHING_FOUND,
    CheckOptions,
    ProgressSink,
    Summary,
    check_found,
    check_stream,
    new_judge,
)
from notation.check.sources import FileKind, Found, Source, Unreadable
from notation.inputs import Compression, InputError, InputFile, describe_error
from notation.parallel.fork_pool import ForkPool, ParentRole, Pending
from notation.parallel.ordered import InOrder
from notation.parallel.pieces import tapered_ranges
from notation.parallel.pool import running
from notation.pgn import pieces, ranges
from notation.scratch import scratch_directory

WHOLE_IN_WORKER_BYTES = 16 << 20  # larger files that cannot be cut are checked by the parent


@dataclass
class Outcome:
    """What a worker sends back for a piece or a whole file."""

    log: ProblemLog
    seen: int = 0  # games (or positions) seen
    line_breaks: int = 0  # lines a piece holds, numbered from 1 in ``log``
    unreadable: str | None = None  # why the file could not be opened (a whole file only)
    failed: bool = False  # reading the piece failed: the parent reads it again


_state: tuple[CheckOptions, PositionJudge, str] | None = None


def _init_worker(options: CheckOptions, spill_directory: str) -> None:
    global _state
    _state = (options, new_judge(options), spill_directory)


def _worker_state() -> tuple[CheckOptions, PositionJudge, str]:
    if _state is None:
        raise RuntimeError("check tasks run in the pool's workers, which _init_worker set up")
    return _state


def _check_whole(path: str, kind: FileKind | None) -> Outcome:
    """In a worker: one whole file, as ``run_check`` checks it (empty-file warning included)."""
    options, judge, spill_directory = _worker_state()
    log = ProblemLog(path, spill_directory)
    try:
        source = InputFile(path)
    except InputError as exc:
        return Outcome(log, unreadable=exc.reason)
    with source:
        check_stream(source.binary, kind, judge, options.variant, log)
    return Outcome(log)


def _check_piece(path: str, piece: ranges.Span) -> Outcome:
    """In a worker: the games of one piece of an uncompressed PGN file, its lines numbered
    from the piece's first."""
    options, judge, spill_directory = _worker_state()
    log = ProblemLog(path, spill_directory)
    try:
        with open(path, "rb") as file:
            # The reading layer numbers lines from the piece's start, but what it reports
            # marks the piece damaged (``ProblemLog.reading_damage``): it is never replayed.
            blocks = read_blocks(ranges.reader(file, piece.start, piece.end), log.add,
                                 max_bytes=MAX_LINE_BYTES[FileKind.PGN])
            checked = check_pgn_text(blocks, judge, options.variant, log)
    except OSError:
        return Outcome(log, failed=True)
    return Outcome(log, checked.games, checked.line_breaks)


@dataclass
class _File:
    """One file being checked in pieces: its list of problems and what its pieces found."""

    source: Source
    problems: ProblemList
    seen: int = 0
    size: int = 0
    lines_before: int = 0  # lines of the pieces replayed so far
    damaged: bool = False  # a piece met reading damage: the rest was read by the parent


Action = Callable[[Outcome | None], None]  # one thing to do in input order, given a task's outcome


@dataclass
class _Run:
    """The parent's side of a run: the actions still to take, in input order (those that
    wait for a worker's outcome with their task)."""

    options: CheckOptions
    count: Callable[[CheckProblem], None]
    summary: Summary
    jobs: int
    progress: ProgressSink | None
    workers: ForkPool
    steps: InOrder[Action, Outcome] = field(init=False)
    judge: PositionJudge | None = None

    def __post_init__(self) -> None:
        self.steps = InOrder(4 * self.jobs)

    def local_judge(self) -> PositionJudge:
        if self.judge is None:
            options = self.options
            self.judge = new_judge(options)
        return self.judge

    def on_key(self) -> Callable[[ProblemList, GameKey], None] | None:
        """Where a worker's game keys go as its part is replayed: the parent's finder."""
        duplicates = self.local_judge().duplicates
        return None if duplicates is None else duplicates.replayed

    def add(self, action: Action, task: Pending[Outcome] | None = None) -> None:
        """Queue a step; take the oldest ones while too many tasks are in flight."""
        self.steps.put(action, task)
        for oldest, outcome in self.steps.ready():
            oldest(outcome)

    def drain(self) -> None:
        for oldest, outcome in self.steps.drain():
            oldest(outcome)

    def advance(self, size: int) -> None:
        if self.progress is not None and size:
            self.progress.advance(size)


def check_in_parallel(found: Iterable[Found], options: CheckOptions, count: Callable[[CheckProblem], None],
                      summary: Summary, jobs: int, progress: ProgressSink | None = None) -> None:
    """Check everything ``found`` with ``jobs`` processes, the parent one of them (see the
    module doc). Problems go to ``count`` in the order one process gives, outcomes into
    ``summary``. Raises ``scratch.ScratchUnavailable`` when the temporary directory cannot be made."""
    with (scratch_directory("notation-check-") as spill_directory,
          running(jobs, _init_worker, (options, spill_directory), ParentRole.WORKS) as workers):
        run = _Run(options, count, summary, jobs, progress, workers)
        for item in found:
            _plan(run, item)
        run.drain()


def _plan(run: _Run, item: Found) -> None:
    """Queue the steps that check ``item``; see the module doc."""
    if not isinstance(item, Source) or item.is_stdin:
        run.add(lambda _: check_found(item, run.options, run.local_judge(), run.count, run.summary, run.progress))
        return
    size, regular, compression = 0, False, Compression.NONE
    try:
        status = os.stat(item.path)
        size, regular = status.st_size, stat.S_ISREG(status.st_mode)
        if regular:  # a FIFO or device is opened once, in its turn
            with InputFile(item.path) as opened:
                compression = opened.compression
    except (OSError, InputError):
        regular = False  # opening it in turn says why it cannot be read
    most = max(1, pieces.RANGE_BYTES)
    if regular and item.kind is FileKind.PGN and compression is Compression.NONE and size > most:
        _plan_pieces(run, item, size, tapered_ranges(size, most, run.jobs))
    elif regular and size <= WHOLE_IN_WORKER_BYTES:
        run.add(lambda outcome: _whole_done(run, item, size, outcome),
                run.workers.apply_async(_check_whole, (item.path, item.kind)))
    else:
        run.add(lambda _: check_found(item, run.options, run.local_judge(), run.count, run.summary, run.progress))


def _whole_done(run: _Run, item: Source, size: int, outcome: Outcome | None) -> None:
    """A whole file a worker checked: its problems replayed, finished, counted."""
    assert outcome is not None
    if outcome.unreadable is not None:
        run.summary.unreadable.append(Unreadable(item.path, outcome.unreadable))
        return
    problems = ProblemList(item.path, run.count)
    outcome.log.replay(problems, on_key=run.on_key())
    problems.finish()
    problems.suppressed += outcome.log.suppressed
    run.summary.file_checked(problems)
    run.advance(size)


def _plan_pieces(run: _Run, item: Source, size: int, nominal: list[tuple[int, int]]) -> None:
    """Queue one step per piece of ``item``, then one to finish the file."""
    file = _File(item, ProblemList(item.path, run.count), size=size)
    with open(item.path, "rb") as opened:
        text_from = ranges.first_text(opened)
        for piece in ranges.spans(pieces.cut_points(opened, nominal, text_from), size):
            run.add(lambda outcome, piece=piece: _piece_done(run, file, piece, outcome),  # type: ignore[misc]
                    run.workers.apply_async(_check_piece, (item.path, piece)))
    run.add(lambda _: _file_done(run, file))


def _piece_done(run: _Run, file: _File, piece: ranges.Span, outcome: Outcome | None) -> None:
    """A piece a worker checked: replayed into its file's list, or, if it met reading
    damage, the file read here from that piece on."""
    assert outcome is not None
    if file.damaged:
        outcome.log.discard()
        return  # the parent has read this piece already, with the rest of the file
    if outcome.failed or outcome.log.reading_damage:
        outcome.log.discard()
        file.damaged = True
        file.seen += _check_rest_here(run, file, piece)
        run.advance(file.size - piece.start)
        return
    outcome.log.replay(file.problems, file.lines_before, run.on_key())
    file.lines_before += outcome.line_breaks
    file.seen += outcome.seen
    file.problems.suppressed += outcome.log.suppressed
    run.advance(piece.end - piece.start)


def _check_rest_here(run: _Run, file: _File, piece: ranges.Span) -> int:
    """Check the file from ``piece`` to its end here, as one stream, into the file's list;
    returns the games seen. An error reading is a ``decompress`` problem, as ``InputFile``
    makes it for one process."""
    judge = run.local_judge()
    problems = file.problems
    first_line = file.lines_before + 1  # every piece before was replayed: its lines counted
    try:
        if piece.start == 0:
            with InputFile(file.source.path) as source:
                blocks = read_blocks(source.binary, problems.add, max_bytes=MAX_LINE_BYTES[FileKind.PGN])
                return check_pgn_text(blocks, judge, run.options.variant, problems).games
        # The reading layer numbers lines from the piece's start: shift them by the lines
        # ended before the piece (a lone CR ends one, as it does for the splitter).
        shift = _line_ends_before(file.source.path, piece.start)

        def report(line: int, column: int, severity: Severity, code: str, message: str) -> None:
            problems.add(line + shift, column, severity, code, message)

        with open(file.source.path, "rb") as opened:
            blocks = read_blocks(ranges.reader(opened, piece.start, file.size), report,
                                 max_bytes=MAX_LINE_BYTES[FileKind.PGN])
            return check_pgn_text(blocks, judge, run.options.variant, problems, first_line=first_line).games
    except (OSError, InputError) as exc:  # the file went away or broke since it was planned
        reason = exc.reason if isinstance(exc, InputError) else describe_error(exc)
        problems.add(first_line, 1, Severity.ERROR, "decompress", f"cannot decompress: {reason}")
        return 0


def _line_ends_before(path: str, end: int) -> int:
    """The lines ended in the first ``end`` bytes of the file (``notation.check.lines.line_ends``)."""
    ends = LineEnds()
    with open(path, "rb") as opened:
        while end > 0:
            block = opened.read(min(end, 1 << 20))
            if not block:
                break
            ends.feed(block)
            end -= len(block)
    return ends.count


def _file_done(run: _Run, file: _File) -> None:
    """Every piece of ``file`` is in: the empty-file warning if nothing was seen, then the rest."""
    problems = file.problems
    if file.seen == 0 and not len(problems):
        problems.add(1, 1, Severity.WARNING, "empty-file", NOTHING_FOUND[FileKind.PGN])
    problems.finish()
    run.summary.file_checked(problems)
