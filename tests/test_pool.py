"""The worker pool every ``--jobs`` run uses (``notation.parallel.pool``): its bookkeeping
thread sleeps while results wait to be read, a pool closed with tasks still running
still ends once they are done, and its workers take SIGTERM only once the parent stops.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from multiprocessing import pool as mp_pool

import pytest

from notation.parallel import pool

WAIT_SECONDS = 120  # generous bound for every wait: the machine is shared and slow at times


def _echo(data: bytes) -> bytes:
    return data


def _busy(seconds: float) -> None:
    """Hold the interpreter for ``seconds``, as a parent writing answers does."""
    end = time.monotonic() + seconds
    count = 0
    while time.monotonic() < end:
        count += 1


def test_the_worker_handler_sleeps_while_results_wait(monkeypatch):
    # The standard pool's worker handler also waits on the results pipe, which it never
    # reads: while results sat there it woke again and again (hundreds to thousands of
    # times for these tasks); here only its notifications wake it.
    wakes: list[float] = []
    real = mp_pool.Pool._wait_for_updates  # what the handler calls, whatever the subclass

    def counted(*args, **kwargs):
        wakes.append(time.monotonic())
        real(*args, **kwargs)

    monkeypatch.setattr(mp_pool.Pool, "_wait_for_updates", staticmethod(counted))
    workers, _ = pool.start_pool(2)
    try:
        # A task still running until the others are in keeps the pool's cache from emptying
        # (each time it empties, the handler is rightly woken): the count is the handler's.
        held = workers.apply_async(time.sleep, (0.3,))
        results = [workers.apply_async(_echo, (bytes(20_000),)) for _ in range(300)]
        _busy(0.5)  # the results come back while the main thread holds the interpreter
        assert all(result.get(timeout=WAIT_SECONDS) == bytes(20_000) for result in results)
        held.get(timeout=WAIT_SECONDS)
    finally:
        pool.finish_pool(workers)
    assert len(wakes) <= 10, len(wakes)


def test_a_pool_closed_with_tasks_running_ends_when_they_are_done():
    # The handler no longer wakes for each result: the pool's cache, which notifies it
    # when the last outstanding result is in, is what ends a pool closed before that.
    workers, _ = pool.start_pool(2)
    results = [workers.apply_async(time.sleep, (0.2,)) for _ in range(4)]
    finishing = threading.Thread(target=pool.finish_pool, args=(workers,), daemon=True)
    finishing.start()
    finishing.join(WAIT_SECONDS)
    if finishing.is_alive():
        pool.stop_pool(workers)
        pytest.fail("a pool closed with tasks running never ended")
    assert all(result.ready() and result.successful() for result in results)


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_workers_ignore_sigterm_until_the_parent_is_stopping(monkeypatch, method):
    # The flag the parent sets reaches the workers whatever the start method: a shared
    # mapping where they are forked, a shared value where they are not. (The tasks are
    # builtins: a spawned worker imports what it runs, and the tests are not a package.)
    monkeypatch.setattr(pool, "context", lambda: multiprocessing.get_context(method))
    workers, signals = pool.start_pool(1)
    try:
        pid = workers.apply_async(os.getpid).get(timeout=WAIT_SECONDS)
        os.kill(pid, signal.SIGTERM)
        time.sleep(0.2)
        assert workers.apply_async(os.getpid).get(timeout=WAIT_SECONDS) == pid  # the same worker, still there
        signals.stopping()
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + WAIT_SECONDS
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not _alive(pid)
    finally:
        pool.stop_pool(workers, signals)


def _alive(pid: int) -> bool:
    """Whether ``pid`` is a child still running (not yet ended, reaped or not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
