"""Worker processes for ``--jobs``: starting and stopping the pool.

``start_pool`` makes a ``multiprocessing`` pool (``QuietPool``: one whose bookkeeping
thread does not spin while results wait to be read) whose workers take signals as
``notation.parallel.signals.WorkerSignals`` says (only the parent decides when they end);
``finish_pool`` ends it once every result is in; ``stop_pool`` ends it early (an error, a
signal, a consumer gone) within a bounded time; ``running`` does all three around a
block. Nothing here raises but what ``multiprocessing`` raises.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import threading
from collections.abc import Callable, Iterator
from multiprocessing.pool import Pool
from typing import Any

from notation.parallel.signals import WorkerSignals
from notation.signals import signals_deferred

POOL_STOP_SECONDS = 5.0


class QuietPool(Pool):
    """A ``multiprocessing.pool.Pool`` whose worker-handler thread sleeps while results
    wait in the results pipe.

    The standard pool's worker handler (which replaces dead workers and ends the pool once
    it is closed and every result is in) waits on the results pipe as well as on the
    workers and its notifications. It never reads that pipe (the result-handler thread
    does), so from the moment a result arrives until that thread gets the interpreter
    lock to read it, the handler's wait returns at once, again and again: with many small
    tasks and a busy main thread, the parent's CPU time doubled (``convert --jobs 2`` and
    ``validate --jobs 2`` were no faster than one process). Here it waits on the workers
    and its notifications only, which say all it acts on: a worker died, the pool was
    closed or terminated, the last outstanding result came in (the pool's cache of
    results notifies when it empties). ``_get_sentinels`` is the standard pool's own hook
    for that list, not public API: tests/test_pool.py counts the handler's wake-ups on the
    Python it runs on.
    """

    def _get_sentinels(self) -> list[Any]:
        results = getattr(getattr(self, "_outqueue", None), "_reader", None)
        return [sentinel for sentinel in super()._get_sentinels() if sentinel is not results]  # type: ignore[misc]


def context() -> Any:
    """The start method: fork where there is one (the options, registry included, reach the
    workers without pickling; descriptors are inherited)."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else None)


def can_share_descriptors() -> bool:
    """True when workers inherit the parent's open descriptors (the fork start method)."""
    return "fork" in multiprocessing.get_all_start_methods()


def _init_worker(signals: WorkerSignals, initializer: Callable[..., None] | None, args: tuple) -> None:
    signals.install()  # the parent handles signals and stops the pool
    if initializer is not None:
        initializer(*args)


def start_pool(jobs: int, initializer: Callable[..., None] | None = None,
               initargs: tuple = ()) -> tuple[Pool, WorkerSignals]:
    """A pool of ``jobs`` workers, each running ``initializer(*initargs)`` first, and the
    signals object to tell them the parent is stopping (see ``stop_pool``)."""
    ctx = context()
    signals = WorkerSignals(ctx)
    with signals_deferred():  # workers (and the pool's threads) start with signals blocked
        pool = QuietPool(jobs, initializer=_init_worker, initargs=(signals, initializer, initargs), context=ctx)
    return pool, signals


def finish_pool(pool: Pool) -> None:
    """Every result is in: the workers take their end-of-work sentinels and exit."""
    pool.close()
    pool.join()


def stop_pool(pool: Pool, signals: WorkerSignals | None = None) -> None:
    """``Pool.terminate`` and ``join``, waiting ``POOL_STOP_SECONDS`` at most.

    When the pool is stopped early (a signal, an error), its task thread may be half way
    through sending a large task that no worker will read, and ``terminate`` then waits
    for that thread for ever. The workers are ended before that wait, so after the time
    limit the stuck thread (a daemon) is left to die with the process.
    """
    if signals is not None:
        signals.stopping()
    def stop() -> None:
        pool.terminate()
        pool.join()

    stopper = threading.Thread(target=stop, name="stop-pool", daemon=True)
    stopper.start()
    stopper.join(POOL_STOP_SECONDS)


@contextlib.contextmanager
def running(jobs: int, initializer: Callable[..., None] | None = None, initargs: tuple = ()) -> Iterator[Pool]:
    """Within: ``start_pool``'s pool. When the block ends normally the pool is finished
    (``finish_pool``); when it ends early (an error, a signal, a generator closed because
    its consumer went away) it is stopped (``stop_pool``) and the exception goes on."""
    pool, signals = start_pool(jobs, initializer, initargs)
    finished = False
    try:
        yield pool
        finish_pool(pool)
        finished = True
    finally:
        if not finished:
            stop_pool(pool, signals)
