"""Normalising with several processes, keeping the input order.

The parent splits the input (``reader.iter_games``) and sends chunks of games to worker
processes; results come back chunk by chunk and are yielded in input order. At most
``2 * jobs`` chunks are in flight, so memory stays bounded whatever the input size.
Unchanged games are not sent back (the parent still holds their text).

Raises nothing on bad input (see ``normalize``); a worker that dies raises the pool's
error in the parent.
"""

from __future__ import annotations

import multiprocessing
from collections import deque
from typing import Iterable, Iterator

from notation.pgn.normalize import GameResult, NormalizeOptions, Normalizer, normalize_games
from notation.pgn.reader import RawGame

CHUNK_CHARS = 1 << 20
CHUNK_GAMES = 2000

_worker: Normalizer | None = None


def _init_worker(options: NormalizeOptions) -> None:
    global _worker
    _worker = Normalizer(options)


def _work(chunk: list[RawGame]) -> list[GameResult]:
    results = []
    for game in chunk:
        result = _worker.normalize_game(game)
        if not result.changed:
            result.text = None  # the parent has it
        results.append(result)
    return results


def _chunks(games: Iterable[RawGame]) -> Iterator[list[RawGame]]:
    chunk: list[RawGame] = []
    size = 0
    for game in games:
        chunk.append(game)
        size += len(game.text)
        if size >= CHUNK_CHARS or len(chunk) >= CHUNK_GAMES:
            yield chunk
            chunk, size = [], 0
    if chunk:
        yield chunk


def _context():
    methods = multiprocessing.get_all_start_methods()
    # fork hands the options (registry included) to the workers without pickling them
    return multiprocessing.get_context("fork" if "fork" in methods else None)


def normalize_parallel(
    games: Iterable[RawGame], options: NormalizeOptions = NormalizeOptions(), jobs: int = 2
) -> Iterator[GameResult]:
    """Like ``normalize_games`` but on ``jobs`` processes; the same results, in order."""
    if jobs <= 1:
        yield from normalize_games(games, options)
        return
    pool = _context().Pool(jobs, initializer=_init_worker, initargs=(options,))
    pending: deque = deque()
    try:
        for chunk in _chunks(games):
            pending.append((chunk, pool.apply_async(_work, (chunk,))))
            while len(pending) >= 2 * jobs:
                yield from _collect(*pending.popleft())
        while pending:
            yield from _collect(*pending.popleft())
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def _collect(chunk: list[RawGame], async_result) -> Iterator[GameResult]:
    for game, result in zip(chunk, async_result.get()):
        if result.text is None:
            result.text = game.text
        yield result
