"""Tasks on a Dask cluster taken in the order they were added, a bounded number at a time.

``InOrder`` keeps steps in the order they are added: a task started on the cluster with
what to do with its result, or an action to run here in its turn. At most ``limit`` tasks
are in flight: adding one more first takes the oldest steps, so memory stays bounded on
the client and the scheduler (what each task carries: a compressed input's chunk goes
with its task) and on the workers (results not yet taken). Results are taken, and actions run,
strictly in the order the steps were added.

A task whose worker dies is run again elsewhere by Dask itself (its inputs go with it,
through the scheduler). ``take`` raises what a task raised, or Dask's errors
(``KilledWorker``, a lost scheduler); ``cancel`` drops every task in flight.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

Start = Callable[[], Sequence[Any]]  # starts a task: its futures, the task's own last


@dataclass
class _Step:
    done: Callable[[Any], None]
    start: Start | None = None
    futures: Sequence[Any] = ()


def in_flight_limit(threads: int) -> int:
    """Two tasks for each worker thread, and two more."""
    return 2 * max(1, threads) + 2


class InOrder:
    """See the module doc."""

    def __init__(self, client: Any, limit: int):
        self._client = client
        self.limit = max(1, limit)
        self._steps: deque[_Step] = deque()
        self._in_flight = 0

    def add(self, start: Start, done: Callable[[Any], None]) -> None:
        """Start a task now (``start`` gives its futures); ``done`` takes its result in turn."""
        while self._in_flight >= self.limit:
            self.take()
        step = _Step(done, start, start())
        self._steps.append(step)
        self._in_flight += 1

    def then(self, action: Callable[[], None]) -> None:
        """Run ``action`` here once every step before it is done."""
        self._steps.append(_Step(lambda _: action()))

    def take(self) -> None:
        """Take the oldest step: wait for its task's result, if any, then hand it on."""
        step = self._steps[0]
        result = None
        if step.start is not None:
            result = self._result(step)
            self._in_flight -= 1
        self._steps.popleft()
        step.done(result)

    def drain(self) -> None:
        while self._steps:
            self.take()

    def cancel(self) -> None:
        """Drop every step; cancel the tasks in flight (errors doing so are ignored)."""
        futures = [future for step in self._steps for future in step.futures]
        self._steps.clear()
        self._in_flight = 0
        if futures:
            try:
                self._client.cancel(futures)
            except Exception:  # noqa: BLE001 - the cluster may be gone: nothing left to cancel
                pass

    def _result(self, step: _Step) -> Any:
        result = step.futures[-1].result()
        for future in step.futures:
            future.release()
        step.futures = ()
        return result
