"""Selection over a stream of text, on one process or several: ``selected_text``.

One process splits the text and judges each game in turn (``select.decisions``). With
``jobs`` above 1 the parent cuts the decoded text into chunks at cut points
(``notation.pgn.cuts.cut_chunks``: where the splitter, run over the whole text, starts a
new game from a fresh state), the workers split and judge their chunk and send back only
the spans of the chunk to write and two counts; the parent, which holds the chunk, writes
those spans in input order (``notation.parallel.ordered``; at most ``2 * jobs`` chunks in
flight). A stretch with no cut point for longer than ``LONGEST_CHUNK_CHARS`` (one huge
game) is judged by the parent as it reads it, after the chunks before it, so memory stays
bounded. The output is the same whatever the number of processes.

Raises nothing on bad input; a worker's death raises the pool's error in the parent.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from notation.parallel.ordered import InOrder
from notation.parallel.pool import running
from notation.pgn.cuts import CHUNK_CHARS, LONGEST_CHUNK_CHARS, Stretch, cut_chunks
from notation.pgn.games import DEFAULT_LIMITS, Limits
from notation.pgn.splitter import iter_games
from notation.selection.select import Selector, decisions


@dataclass
class Counts:
    """Games read and games written so far."""

    games: int = 0
    written: int = 0


def _serial(pieces: Iterable[str], selector: Selector, limits: Limits, counts: Counts) -> Iterator[str]:
    for decision in decisions(iter_games(pieces, limits), selector):
        if decision.game:
            counts.games += 1
            counts.written += decision.written
        if decision.written:
            yield decision.raw.text


_worker: tuple[Selector, Limits] | None = None


def _init_worker(selector: Selector, limits: Limits) -> None:
    global _worker
    _worker = (selector, limits)


def _work(chunk: str) -> tuple[array[int], int, int]:
    """In a worker: the spans of ``chunk`` to write (pairs of offsets, runs of written
    games joined), the games read and those written."""
    if _worker is None:
        raise RuntimeError("_work runs in the pool's workers, which _init_worker set up")
    selector, limits = _worker
    spans: array[int] = array("q")
    games = written = position = 0
    for decision in decisions(iter_games(chunk, limits), selector):
        end = position + len(decision.raw.text)
        if decision.game:
            games += 1
            written += decision.written
        if decision.written:
            if spans and spans[-1] == position:
                spans[-1] = end
            else:
                spans.extend((position, end))
        position = end
    return spans, games, written


def selected_text(blocks: Iterable[str], selector: Selector, counts: Counts, *, jobs: int = 1,
                  limits: Limits = DEFAULT_LIMITS, chunk_chars: int = CHUNK_CHARS,
                  longest_chunk_chars: int = LONGEST_CHUNK_CHARS) -> Iterator[str]:
    """The text of the games of ``blocks`` that ``selector`` writes, in input order, each as
    read; ``counts`` is kept up to date. ``jobs`` processes work (the parent cuts and
    writes)."""
    if jobs <= 1:
        yield from _serial(blocks, selector, limits, counts)
        return
    window: InOrder[str, tuple[array[int], int, int]] = InOrder(2 * jobs)
    with running(jobs, _init_worker, (selector, limits)) as workers:
        for chunk in cut_chunks(blocks, chunk_chars, max(chunk_chars, longest_chunk_chars)):
            if isinstance(chunk, Stretch):
                for done in window.drain():
                    yield from _collect(*done, counts)
                yield from _serial(chunk.pieces, selector, limits, counts)
                continue
            window.put(chunk, workers.apply_async(_work, (chunk,)))
            for done in window.ready():
                yield from _collect(*done, counts)
        for done in window.drain():
            yield from _collect(*done, counts)


def _collect(chunk: str, worked: tuple[array[int], int, int] | None, counts: Counts) -> Iterator[str]:
    assert worked is not None, "every chunk is handed to a worker"
    spans, games, written = worked
    counts.games += games
    counts.written += written
    for at in range(0, len(spans), 2):
        yield chunk[spans[at]:spans[at + 1]]
