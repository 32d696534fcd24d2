"""Worker processes for ``--jobs``: starting and stopping the pool.

``start_pool`` forks a ``ForkPool`` (``notation.parallel.fork_pool``; the parent's part in
the work is its ``ParentRole``) whose workers take signals as
``notation.parallel.signals.WorkerSignals`` says (only the parent decides when they end);
``finish_pool`` ends it once every result is in; ``stop_pool`` ends it early (an error, a
signal, a consumer gone) within ``POOL_STOP_SECONDS``; ``running`` does all three around a
block. Nothing here raises but what ``os`` raises (no pipes or processes left: ``OSError``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

from notation.parallel.fork_pool import ForkPool, ParentRole
from notation.parallel.signals import WorkerSignals
from notation.signals import signals_deferred

POOL_STOP_SECONDS = 5.0


def start_pool(jobs: int, initializer: Callable[..., None] | None = None, initargs: tuple = (),
               parent: ParentRole = ParentRole.HANDS_OUT) -> tuple[ForkPool, WorkerSignals]:
    """A pool of ``jobs`` processes working (the parent one of them if ``parent`` says it
    works), each running ``initializer(*initargs)`` first, and the signals object to tell
    the workers the parent is stopping (see ``stop_pool``)."""
    signals = WorkerSignals()
    with signals_deferred():  # workers start with signals blocked, until their handlers are in
        pool = ForkPool(jobs, signals, initializer, initargs, parent)
    return pool, signals


def finish_pool(pool: ForkPool) -> None:
    """Every result is in: the workers' task pipes are closed and they exit."""
    pool.close()
    pool.join()


def stop_pool(pool: ForkPool, signals: WorkerSignals | None = None) -> None:
    """The workers ended now: SIGTERM, then SIGKILL for any still running after
    ``POOL_STOP_SECONDS``; tasks not done fail with ``WorkerLost``."""
    if signals is not None:
        signals.stopping()
    pool.terminate(POOL_STOP_SECONDS)


@contextlib.contextmanager
def running(jobs: int, initializer: Callable[..., None] | None = None, initargs: tuple = (),
            parent: ParentRole = ParentRole.HANDS_OUT) -> Iterator[ForkPool]:
    """Within: ``start_pool``'s pool. When the block ends normally the pool is finished
    (``finish_pool``); when it ends early (an error, a signal, a generator closed because
    its consumer went away) it is stopped (``stop_pool``) and the exception goes on."""
    pool, signals = start_pool(jobs, initializer, initargs, parent)
    finished = False
    try:
        yield pool
        finish_pool(pool)
        finished = True
    finally:
        if not finished:
            stop_pool(pool, signals)
