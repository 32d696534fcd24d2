"""Normalising with several processes, keeping the input order.

The parent does no splitting: it cuts the decoded text into chunks of about
``CHUNK_CHARS`` at points where every run of the splitter starts a new game, a blank line
followed by a well-formed tag line at the start of a line (``reader.iter_games`` ends
any game there, even one inside an unterminated or multi-line comment). Workers split and
normalise their chunk, numbering lines from the chunk's first line (which the parent
counts as it cuts); the parent renumbers games by the chunks before and yields the results
in input order. At most ``2 * jobs`` chunks are in flight, so memory stays
bounded whatever the input size. A text with no such cut point is one chunk.

Raises nothing on bad input (see ``normalize``); a worker that dies raises the pool's
error in the parent.
"""

from __future__ import annotations

import multiprocessing
import re
import threading
from collections import deque
from typing import Iterable, Iterator

from notation.pgn.normalize import GameResult, NormalizeOptions, Normalizer, normalize
from notation.pgn.reader import iter_games
from notation.signals import WorkerSignals, signals_deferred

CHUNK_CHARS = 1 << 20

# A line break, an empty line, then a tag line: where a chunk may start. The tag line must
# be whole (its line end seen) and well formed, as the splitter itself requires.
_CUT = re.compile(r'\n\r?\n(?=\[[A-Za-z0-9_][A-Za-z0-9_+#=:.\-]*[ \t]+"(?:[^"\\\r\n]|\\.)*"\][ \t]*(?:\r\n|\r|\n))')

_worker: Normalizer | None = None


def _init_worker(options: NormalizeOptions, signals: WorkerSignals) -> None:
    global _worker
    signals.install()  # the parent handles signals and stops the pool
    _worker = Normalizer(options)


def _work(chunk: str, first_line: int) -> list[tuple[GameResult, int]]:
    """Each game's result and the length of its input text. An unchanged game's text is
    not sent back (``None``): the parent cuts it from the chunk it already holds."""
    out = []
    for game in iter_games(chunk, _worker.options.limits, first_line=first_line):
        result = _worker.normalize_game(game)
        length = len(game.text)
        if result.text == game.text:
            result.text = None  # type: ignore[assignment]
        out.append((result, length))
    return out


def cut_chunks(blocks: Iterable[str], size: int = CHUNK_CHARS) -> Iterator[str]:
    """The text of ``blocks`` in chunks of at least ``size`` characters (but the last),
    each cut just before a game start that every splitter agrees on. Joined, the chunks
    are the text exactly."""
    buffer = ""
    for block in blocks:
        buffer += block
        while len(buffer) >= size:
            found = _CUT.search(buffer, size - 1)
            if found is None:
                break
            cut = found.end()
            yield buffer[:cut]
            buffer = buffer[cut:]
    if buffer:
        yield buffer


def _line_breaks(text: str) -> int:
    """Lines ended in ``text``: at ``\\r\\n``, ``\\n`` or a lone ``\\r``, as the splitter counts."""
    return text.count("\n") + text.count("\r") - text.count("\r\n")


def normalize_blocks_parallel(
    blocks: Iterable[str], options: NormalizeOptions = NormalizeOptions(), jobs: int = 2, *, chunk_chars: int = CHUNK_CHARS
) -> Iterator[GameResult]:
    """Like ``normalize`` over the text of ``blocks``, on ``jobs`` processes; the same
    results, in order."""
    if jobs <= 1:
        yield from normalize(blocks, options)
        return
    context = _context()
    signals = WorkerSignals(context)
    pool = None
    pending: deque = deque()
    games_before = [0]  # games in the chunks already collected
    first_line = 1
    try:
        with signals_deferred():  # workers (and the pool's threads) start with signals blocked
            pool = context.Pool(jobs, initializer=_init_worker, initargs=(options, signals))
        for chunk in cut_chunks(blocks, chunk_chars):
            pending.append((chunk, pool.apply_async(_work, (chunk, first_line))))
            first_line += _line_breaks(chunk)
            while len(pending) >= 2 * jobs:
                yield from _collect(*pending.popleft(), games_before)
        while pending:
            yield from _collect(*pending.popleft(), games_before)
        pool.close()
    finally:
        if pool is not None:
            signals.stopping()
            _stop_pool(pool)


POOL_STOP_SECONDS = 5.0


def _stop_pool(pool) -> None:
    """``Pool.terminate`` and ``join``, waiting ``POOL_STOP_SECONDS`` at most.

    When the pool is stopped early (a signal, an error), its task thread may be half way
    through sending a large chunk that no worker will read, and ``terminate`` then waits
    for that thread for ever. The workers are ended before that wait, so after the time
    limit the stuck thread (a daemon) is left to die with the process.
    """
    stopper = threading.Thread(target=lambda: (pool.terminate(), pool.join()), name="stop-pool", daemon=True)
    stopper.start()
    stopper.join(POOL_STOP_SECONDS)


def _collect(chunk: str, async_result, games_before: list[int]) -> Iterator[GameResult]:
    """A chunk's results, numbered after the games of the chunks before it (lines are
    already right: the worker numbered them from the chunk's first line)."""
    offset = games_before[0]
    last = 0
    position = 0
    for result, length in async_result.get():
        if result.text is None:
            result.text = chunk[position:position + length]
        position += length
        last = result.number
        if offset:
            result.number += offset
            for entry in result.report:
                entry["game"] += offset
        yield result
    games_before[0] = offset + last


def _context():
    methods = multiprocessing.get_all_start_methods()
    # fork hands the options (registry included) to the workers without pickling them
    return multiprocessing.get_context("fork" if "fork" in methods else None)
