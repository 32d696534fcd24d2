"""``normalize --jobs`` over a stream (standard input, pipes, compressed files): several
processes, the input order kept.

The parent does no splitting: it cuts the decoded text into chunks of about
``CHUNK_CHARS`` at cut points (``cuts.cut_chunks``: where the splitter, run over the whole
text, starts a new game from a fresh state). Workers split and normalise their chunk,
numbering lines from the chunk's first line (which the parent counts as it cuts), and
send back one ``Batch`` a chunk; the games written as they were read come back as spans
of the chunk, which the parent already holds, so neither their text nor a record per
game crosses the pipe. The parent renumbers games by the chunks before and yields the
batches in input order (``notation.parallel.ordered``). At most ``2 * jobs`` chunks are
in flight.

A stretch with no cut point longer than ``LONGEST_CHUNK_CHARS`` (degenerate input: one huge
game, millions of lines with no tags, no line ends at all) is not held whole: the parent
normalises it itself as it reads it, after the chunks before it, so memory stays bounded
whatever the input and the results are those of one process.

A regular file is read by the workers themselves (``file_jobs``). The pool is
``notation.parallel.pool``'s.

Raises nothing on bad input (see ``normalize``); a worker that dies raises the pool's
error in the parent.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator
from typing import Any

from notation.inputs import ENCODING, ERRORS
from notation.parallel.ordered import InOrder
from notation.parallel.pool import running
from notation.pgn.batch import Batch, ReportEntries, game_batches, numbered
from notation.pgn.cuts import CHUNK_CHARS, LONGEST_CHUNK_CHARS, Stretch, cut_chunks
from notation.pgn.lines import LineCounter, line_breaks
from notation.pgn.normalize import DEFAULT_OPTIONS, NormalizeOptions, Normalizer, Summary, normalize
from notation.pgn.splitter import iter_games

_worker: tuple[Normalizer, ReportEntries] | None = None


def _init_worker(options: NormalizeOptions, entries: ReportEntries) -> None:
    global _worker
    _worker = (Normalizer(options), entries)


_Worked = tuple[Batch, "array[int]", list[str]]  # a chunk's batch, spans and new texts (``_work``)


def _work(chunk: str, first_line: int) -> _Worked:
    """In a worker: the chunk's games as a batch numbered from 1, its ``text`` left empty
    and described by ``spans`` instead, pairs of numbers: ``(start, end)``, text of the
    chunk itself (a run of games written as they were read makes one span, so the parent
    handles a chunk, not each game; it cuts the text from the chunk it already holds, which
    is not sent back), or ``(-1, i)``, ``texts[i]``, a game's new text."""
    if _worker is None:
        raise RuntimeError("_work runs in the pool's workers, which _init_worker set up")
    worker, entries = _worker
    keep_report = entries is ReportEntries.KEEP
    summary = Summary()
    report: list[dict[str, Any]] = []
    rejected: list[str] = []
    spans = array("q")
    texts: list[str] = []
    position = last = chars = 0
    for game in iter_games(chunk, worker.options.limits, first_line=first_line):
        result = worker.normalize_game(game)
        summary.add(result)
        last = result.number
        chars += len(result.text)
        if keep_report:
            report.extend(result.report)
        end = position + len(game.text)
        if result.rejected:
            rejected.append(result.text)
        elif result.text != game.text:
            spans.extend((-1, len(texts)))
            texts.append(result.text)
        elif spans and spans[-2] >= 0 and spans[-1] == position:
            spans[-1] = end
        else:
            spans.extend((position, end))
        position = end
    batch = Batch(b"", "".join(rejected).encode(ENCODING, ERRORS), report, summary, 0, last, chars)
    return batch, spans, texts


def normalize_blocks_parallel(
    blocks: Iterable[str], options: NormalizeOptions = DEFAULT_OPTIONS, jobs: int = 2,
    entries: ReportEntries = ReportEntries.KEEP, *,
    chunk_chars: int | None = None, longest_chunk_chars: int | None = None,
) -> Iterator[Batch]:
    """``normalize`` over the text of ``blocks`` on ``jobs`` processes, as batches in input
    order: the same output, rejects, report and counts as one process (``entries`` DROP:
    no report, the run writes none). ``chunk_chars`` and ``longest_chunk_chars`` default to
    ``CHUNK_CHARS`` and ``LONGEST_CHUNK_CHARS`` (read when called)."""
    if jobs <= 1:
        yield from game_batches(normalize(blocks, options), [0], entries=entries)
        return
    size = CHUNK_CHARS if chunk_chars is None else chunk_chars
    longest = LONGEST_CHUNK_CHARS if longest_chunk_chars is None else longest_chunk_chars
    window: InOrder[str, _Worked] = InOrder(2 * jobs)  # the chunks in flight, in input order
    games_before = [0]  # games in the chunks already collected
    first_line = 1
    local: Normalizer | None = None
    with running(jobs, _init_worker, (options, entries)) as workers:
        for chunk in cut_chunks(blocks, size, max(size, longest)):
            if isinstance(chunk, Stretch):
                for done in window.drain():
                    yield _collect(*done, games_before)
                local = local or Normalizer(options)
                counter = LineCounter(chunk.pieces)
                yield from _serial(local, counter, options, first_line, games_before, entries)
                first_line += counter.breaks
                continue
            window.put(chunk, workers.apply_async(_work, (chunk, first_line)))
            first_line += line_breaks(chunk)
            for done in window.ready():
                yield _collect(*done, games_before)
        for done in window.drain():
            yield _collect(*done, games_before)


def _serial(normalizer: Normalizer, pieces: Iterable[str], options: NormalizeOptions, first_line: int,
            games_before: list[int], entries: ReportEntries) -> Iterator[Batch]:
    """Normalise a stretch in this process, game by game, numbered after the games before it."""
    games = iter_games(pieces, options.limits, first_line=first_line)
    yield from game_batches((normalizer.normalize_game(game) for game in games), games_before, entries=entries)


def _collect(chunk: str, worked: _Worked | None, games_before: list[int]) -> Batch:
    """A chunk's batch with its text put together from its spans, its games numbered after
    those of the chunks before it (lines are already right: the worker numbered them from
    the chunk's first line)."""
    assert worked is not None, "every chunk is handed to a worker"
    batch, spans, texts = worked
    batch.text = "".join([chunk[spans[at]:spans[at + 1]] if spans[at] >= 0 else texts[spans[at + 1]]
                          for at in range(0, len(spans), 2)])
    return numbered(batch, games_before)
