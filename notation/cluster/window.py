"""Tasks on a Dask cluster taken in the order they were added, a bounded number at a time.

The ordering is ``notation.parallel.ordered``'s, which ``--jobs`` uses: ``InOrder`` keeps
steps in the order they are added, each a task started on the cluster with what to do
with its result, or an action to run here in its turn. At most ``limit`` tasks are in
flight: adding one more first takes the oldest steps, so memory stays bounded on the
client and the scheduler (what each task carries: a compressed input's chunk goes with
its task) and on the workers (results not yet taken). Results are taken, and actions run,
strictly in the order the steps were added. What is Dask's own is here: a task's futures
(``DaskTask``: its result waited for, then the futures released) and ``cancel``.

A task whose worker dies is run again elsewhere by Dask itself (its inputs go with it,
through the scheduler). ``take`` raises what a task raised, or Dask's errors
(``KilledWorker``, a lost scheduler); ``cancel`` drops every task in flight.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from notation.parallel import ordered

Start = Callable[[], Sequence[Any]]  # starts a task: its futures, the task's own last
Done = Callable[[Any], None]


class DaskTask:
    """A task's Dask futures (the task's own last) as a ``notation.parallel.ordered.Task``:
    ``get`` waits for the last one's result, then releases them all."""

    def __init__(self, futures: Sequence[Any]):
        self.futures = futures

    def get(self) -> Any:
        result = self.futures[-1].result()
        for future in self.futures:
            future.release()
        self.futures = ()
        return result


def in_flight_limit(threads: int) -> int:
    """Two tasks for each worker thread, and two more."""
    return 2 * max(1, threads) + 2


class InOrder:
    """See the module doc."""

    def __init__(self, client: Any, limit: int):
        self._client = client
        self.limit = max(1, limit)
        self._steps: ordered.InOrder[Done, Any] = ordered.InOrder(self.limit)

    def add(self, start: Start, done: Done) -> None:
        """Start a task now (``start`` gives its futures); ``done`` takes its result in turn."""
        self._run(self._steps.ready())  # room first: at most ``limit`` tasks in flight
        self._steps.put(done, DaskTask(start()))

    def then(self, action: Callable[[], None]) -> None:
        """Run ``action`` here once every step before it is done."""
        self._steps.put(lambda _: action())

    def drain(self) -> None:
        self._run(self._steps.drain())

    def cancel(self) -> None:
        """Drop every step; cancel the tasks in flight (errors doing so are ignored)."""
        futures = [future for _, task in self._steps.waiting if isinstance(task, DaskTask)
                   for future in task.futures]
        self._steps.waiting.clear()
        self._steps.in_flight = 0
        if futures:
            try:
                self._client.cancel(futures)
            except Exception:  # noqa: BLE001 - the cluster may be gone: nothing left to cancel
                pass

    @staticmethod
    def _run(taken: Any) -> None:
        for done, result in taken:
            done(result)
