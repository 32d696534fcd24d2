"""``normalize --jobs`` over a regular, uncompressed file: several processes that read it themselves.

The parent does not read the games: the workers find the cut points of the file's nominal
ranges (``pieces.located``, the rule ``cuts.find_cut`` and ``--dask`` use), and each
piece between two cut points (``ranges.pieces``) is read, split, normalised and encoded by
one worker, which writes its output, its rejected games and its report lines (those
only when the run keeps them, ``batch.ReportEntries``) to files of its own in a temporary
directory (a pipe costs the parent far more CPU per byte than copying a file, and a
piece of millions of tiny games, each with a report entry, is held in no process) and
sends back its counts. The parent only puts the pieces in input order
(``notation.parallel.ordered``; ``batch.Batch``), numbers the games after those of the
pieces before (lines are right already: each piece knows its first line) and copies
their files where they go (``Batch.write_text``, ``write_rejected``, ``write_report``;
a worker's files last until the iteration ends). So the output, rejects, report and
summary are those of one process reading the file, whatever the number of workers.

At most ``4 * jobs`` pieces are in flight; the parent is one of the ``jobs`` processes
working (``ParentRole.WORKS``: it takes the next piece while it waits for a result, and
while it holds one the workers must still find pieces waiting). However long a piece (one
huge game, millions of lines without a game start), its worker reads it in blocks and
holds one game at a time, so memory stays bounded whatever the file holds. Nominal ranges
are ``pieces.RANGE_BYTES`` at most, tapering towards the end of the file so the processes
finish together (``notation.parallel.pieces.tapered_ranges``).

Standard input, pipes and compressed files cannot be entered in the middle; they take
``stream_jobs.normalize_blocks_parallel``. Raises nothing on bad PGN (see ``normalize``);
``OSError`` reading the file, and a worker's death, propagate.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import TextIO

from notation.inputs import ENCODING, ERRORS
from notation.parallel.fork_pool import ParentRole
from notation.parallel.ordered import InOrder
from notation.parallel.pieces import tapered_ranges
from notation.parallel.pool import running
from notation.pgn import pieces, ranges
from notation.pgn.batch import Batch, ReportEntries, numbered
from notation.pgn.normalize import NormalizeOptions, Normalizer, Summary
from notation.pgn.report_lines import entry_line
from notation.pgn.splitter import iter_games
from notation.scratch import scratch_directory

_READ_BYTES = 1 << 16  # the blocks a worker reads and decodes, as ``InputFile`` gives them
_WRITE_BYTES = 1 << 16

_worker: tuple[Normalizer, int, str, ReportEntries] | None = None


def _init_worker(options: NormalizeOptions, fd: int, directory: str, entries: ReportEntries) -> None:
    global _worker
    _worker = (Normalizer(options), fd, directory, entries)


def _normalize_piece(piece: ranges.Piece) -> Batch:
    """In a worker: one piece, read from the shared descriptor, as a ``Batch`` whose games
    are numbered from 1 and which holds nothing per game: its text is in
    ``_output_path(piece)``, its rejected games and report lines (when there are any) in
    the files its ``rejected_path`` and ``report_path`` name."""
    if _worker is None:
        raise RuntimeError("_normalize_piece runs in the pool's workers, which _init_worker set up")
    normalizer, fd, directory, entries = _worker
    keep_report = entries is ReportEntries.KEEP
    summary = Summary()
    last = 0
    chars = 0
    base = _output_path(directory, piece)
    rejected_path, report_path = base + ".rejected", base + ".report"
    rejects: TextIO | None = None
    report: TextIO | None = None
    # Written game by game, in small blocks, as one process writes: no large buffer is
    # made (fresh memory costs page faults) however long the piece.
    with contextlib.ExitStack() as stack:
        file = stack.enter_context(pieces.open_ref(fd))
        out = stack.enter_context(_open_written(base))
        text = ranges.read_text(file, piece.start, piece.end, _READ_BYTES)
        for game in iter_games(text, normalizer.options.limits, first_line=piece.first_line):
            result = normalizer.normalize_game(game)
            summary.add(result)
            last = result.number
            chars += len(result.text)
            if result.rejected:
                if rejects is None:
                    rejects = stack.enter_context(_open_written(rejected_path))
                rejects.write(result.text)
            else:
                out.write(result.text)
            if result.report and keep_report:
                if report is None:
                    report = stack.enter_context(_open_written(report_path))
                for entry in result.report:
                    report.write(entry_line(entry))
    return Batch(b"", b"", [], summary, piece.end, last, chars,
                 rejected_path=None if rejects is None else rejected_path,
                 report_path=None if report is None else report_path)


def _open_written(path: str) -> TextIO:
    return open(path, "w", encoding=ENCODING, errors=ERRORS, newline="", buffering=_WRITE_BYTES)


def _output_path(directory: str, piece: ranges.Piece) -> str:
    return os.path.join(directory, f"piece-{piece.start}.pgn")


def _collected(piece: ranges.Piece, batch: Batch | None, directory: str, games_before: list[int]) -> Batch:
    """A worker's batch, its text still in the worker's file (see ``Batch.write_text``),
    its games numbered after those of the pieces before."""
    assert batch is not None, "every piece in the window is handed to a worker"
    batch.text_path = _output_path(directory, piece)
    return numbered(batch, games_before)


def normalize_file_parallel(fd: int, options: NormalizeOptions, jobs: int,
                            entries: ReportEntries = ReportEntries.KEEP, *,
                            range_bytes: int | None = None) -> Iterator[Batch]:
    """The file open as ``fd`` (a regular, uncompressed file; read with ``os.pread``, never
    moved) normalised by ``jobs`` processes, the parent one of them; see the module doc.
    ``entries`` DROP: the batches hold no report (the run writes none). ``range_bytes``
    defaults to ``pieces.RANGE_BYTES``. Raises ``OSError`` when the temporary directory
    cannot be made or written."""
    most = max(1, pieces.RANGE_BYTES if range_bytes is None else range_bytes)
    size = os.fstat(fd).st_size
    nominal = tapered_ranges(size, most, jobs)
    text_from = ranges.first_text(ranges.PositionalFile(fd))  # type: ignore[arg-type]
    games_before = [0]
    window: InOrder[ranges.Piece, Batch] = InOrder(4 * jobs)  # the pieces in flight, in input order
    with scratch_directory("notation-jobs-") as directory:
        with running(jobs, _init_worker, (options, fd, directory, entries), ParentRole.WORKS) as workers:
            found = pieces.located(workers, fd, nominal, text_from, ahead=4 * jobs + 2)
            for piece in ranges.pieces(found, size):
                window.put(piece, workers.apply_async(_normalize_piece, (piece,)))
                for done in window.ready():
                    yield _collected(*done, directory, games_before)
            for done in window.drain():
                yield _collected(*done, directory, games_before)

