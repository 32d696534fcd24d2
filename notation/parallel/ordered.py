"""Running pieces on workers and taking their results back in input order.

``InOrder`` holds the pieces handed out, oldest first, each with its task (or none: work
the parent does itself in its turn), and gives them back with their results in the order
they were put: ``ready`` while too many tasks are in flight, ``drain`` at the end.
``ahead`` runs a task per argument tuple on a pool, a bounded number beyond the result
taken last; ``ahead_by`` does the same through any ``submit`` (``--dask`` submits to a
cluster). A task is anything with ``get()`` (a pool's ``Pending``, a cluster's
future wrapped by its caller: ``Task``). Both raise what ``get`` raised (what a worker
raised); neither checks that the workers are still running.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

if TYPE_CHECKING:
    from notation.parallel.fork_pool import ForkPool

Item = TypeVar("Item")
Result = TypeVar("Result")
Result_co = TypeVar("Result_co", covariant=True)


class Task(Protocol[Result_co]):
    """A task handed to a worker: ``get`` waits for its result (or raises its error)."""

    def get(self) -> Result_co: ...


class InOrder(Generic[Item, Result]):
    """Items in input order, each waiting on a task or on nothing; ``ready`` hands them
    back while ``most`` tasks or more are in flight."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.waiting: deque[tuple[Item, Task[Result] | None]] = deque()
        self.in_flight = 0

    def put(self, item: Item, task: Task[Result] | None = None) -> None:
        """Queue ``item`` after the others, with its ``task`` if any."""
        self.waiting.append((item, task))
        if task is not None:
            self.in_flight += 1

    def take(self) -> tuple[Item, Result | None]:
        """The oldest item and its task's result (None without a task), waited for."""
        item, task = self.waiting.popleft()
        if task is None:
            return item, None
        result = task.get()
        self.in_flight -= 1
        return item, result

    def ready(self) -> Iterator[tuple[Item, Result | None]]:
        """The oldest items, taken while ``most`` tasks or more are in flight."""
        while self.in_flight >= self.most:
            yield self.take()

    def drain(self) -> Iterator[tuple[Item, Result | None]]:
        """Every item left, in order."""
        while self.waiting:
            yield self.take()


def ahead(pool: ForkPool, task: Callable[..., Result], arguments: Iterable[tuple[Any, ...]],
          most: int) -> Iterator[Result]:
    """``task(*args)`` for each of ``arguments``, run by the pool's workers at most ``most``
    (at least 1) beyond the result taken last; the results in order."""
    return ahead_by(lambda args: pool.apply_async(task, args), arguments, most)


def ahead_by(submit: Callable[[tuple[Any, ...]], Task[Result]], arguments: Iterable[tuple[Any, ...]],
             most: int) -> Iterator[Result]:
    """``submit(args)`` for each of ``arguments``, at most ``most`` (at least 1) beyond the
    result taken last; the tasks' results in order. Nothing is submitted before the first
    result is asked for."""
    pending = iter(arguments)
    waiting: deque[Task[Result]] = deque()
    more = True
    while True:
        while more and len(waiting) < max(1, most):
            args = next(pending, None)
            if args is None:
                more = False
            else:
                waiting.append(submit(args))
        if not waiting:
            return
        yield waiting.popleft().get()
