"""A bounded pool of worker processes (``service.wsgi_worker``), each serving one request at
a time, for the asyncio front end.

``acquire`` gives an idle worker or waits in a FIFO queue of at most ``queue_bound``
requests (past it: ``Overloaded``). Requests of the ``Lane.HEAVY`` lane (PGN jobs, seconds
of work each) hold at most ``size - 1`` workers at once when there are two or more, so a
stream of them never leaves the light JSON requests without a worker. ``release`` gives a worker
back after a complete answer.
``abandon`` takes back a worker whose client went away mid-request: it is sent ``CANCEL``,
what it still sends is dropped until its answer ends (``END`` or ``ABORT``), and it serves
the next request (logged at INFO: ``worker 123 abandoned ...``); only if its answer does
not end by the request's deadline is it discarded. ``discard`` kills a worker that is
mid-request (timeout, broken answer) with SIGKILL and starts a replacement in the
background; both are logged at WARNING with the pids (``worker 123 killed: ...``,
``worker 456 started, replacing worker 123``). A
replacement that fails to start is retried with a growing pause (at most 30 s).
Raises ``PoolError`` if the first workers cannot start.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import enum
import json
import logging
import socket
import subprocess
import sys
from collections.abc import Coroutine
from typing import Any

from . import wire
from .config import Settings

log = logging.getLogger("service.pool")

# The worker's module by the name the package is installed under (notation_service).
_WORKER_MODULE = __name__.rsplit(".", 1)[0] + ".wsgi_worker"
START_SECONDS = 120  # a worker must say READY within this (imports on a busy machine)
STOP_SECONDS = 5  # an idle worker must exit this long after its socket closes


class Lane(enum.Enum):
    """How long a request may hold a worker: LIGHT (milliseconds) or HEAVY (PGN jobs)."""

    LIGHT = "light"
    HEAVY = "heavy"


class PoolError(Exception):
    """The pool could not start its workers; the message says why."""


class Overloaded(Exception):
    """Every worker is busy and the wait queue is full."""


class WorkerGone(Exception):
    """A worker's socket closed or broke the framing in the middle of a request."""


@dataclasses.dataclass(eq=False)
class WorkerProcess:
    """One worker: its process and the front end's end of its socket pair."""

    process: subprocess.Popen
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    pid: int
    lane: Lane | None = None  # the lane of the request it is serving, None when idle
    frames: wire.FrameBuffer = dataclasses.field(init=False)

    def __post_init__(self) -> None:
        self.frames = wire.FrameBuffer(self.reader)

    def alive(self) -> bool:
        return self.process.poll() is None and not self.writer.is_closing()

    async def send_request(self, head: dict[str, Any], inline_body: bytes | None) -> None:
        """Send a request head (and its body when it is inline); raises ``WorkerGone``."""
        try:
            frames = [wire.json_frame(wire.REQUEST, head)]
            if inline_body is not None:
                frames.append(wire.frame(wire.BODY, inline_body))
            self.writer.write(b"".join(frames))  # one send: each costs a wake-up of the worker
            await self.writer.drain()
        except (OSError, wire.WireError) as exc:
            raise WorkerGone(f"worker {self.pid}: {exc}") from None

    async def next_frame(self) -> tuple[int, bytes]:
        """The worker's next frame; raises ``WorkerGone`` if it died or broke the framing."""
        try:
            return await self.frames.next()
        except (OSError, asyncio.IncompleteReadError, wire.WireError) as exc:
            raise WorkerGone(f"worker {self.pid} ended in the middle of an answer ({exc})") from None

    def cancel(self) -> None:
        """Tell the worker to stop its answer (``CANCEL``); a dead worker is found out by
        the next ``next_frame``."""
        if not self.writer.is_closing():
            self.writer.write(wire.CANCEL_FRAME)

    def kill(self) -> None:
        if self.process.poll() is None:
            try:
                self.process.kill()
            except ProcessLookupError:
                pass
        self.writer.close()


class WorkerPool:
    """``size`` worker processes for ``settings``; see the module docstring."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.size = settings.worker_count
        self.queue_bound = settings.queue_bound
        self.idle: collections.deque[WorkerProcess] = collections.deque()
        self.waiters: collections.deque[tuple[asyncio.Future, Lane]] = collections.deque()
        self.heavy_limit = max(1, self.size - 1)
        self.heavy_busy = 0
        self.workers: set[WorkerProcess] = set()
        self.closing = False
        self._tasks: set[asyncio.Task] = set()
        self._settings_json = json.dumps(dataclasses.asdict(settings))

    async def start(self) -> None:
        """Start every worker and wait until each is ready; raises ``PoolError``."""
        results = await asyncio.gather(*(self._spawn() for _ in range(self.size)), return_exceptions=True)
        failures = [result for result in results if isinstance(result, BaseException)]
        for result in results:
            if isinstance(result, WorkerProcess):
                self.workers.add(result)
                self.idle.append(result)
        if failures:
            await self.close()
            raise PoolError(f"{len(failures)} of {self.size} workers could not start: {failures[0]}")

    def pids(self) -> list[int]:
        return sorted(worker.pid for worker in self.workers)

    async def acquire(self, lane: Lane) -> WorkerProcess:
        """An idle worker, after waiting in line if none may be had; raises ``Overloaded``."""
        while self.idle and self._may_take(lane):
            worker = self.idle.popleft()
            if worker.alive():
                return self._hand(worker, lane)
            self.discard(worker, "it exited while idle")
        if len(self.waiters) >= self.queue_bound:
            raise Overloaded(f"all {self.size} workers are busy and {len(self.waiters)} requests are waiting")
        waiter = asyncio.get_running_loop().create_future()
        entry = (waiter, lane)
        self.waiters.append(entry)
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self.release(waiter.result())  # handed over just as this request gave up
            else:
                self._forget(entry)
            raise

    def release(self, worker: WorkerProcess) -> None:
        """Give back a worker whose last answer is complete."""
        self._unmark(worker)
        if self.closing:
            worker.writer.close()
            return
        for entry in list(self.waiters):
            waiter, lane = entry
            if waiter.done():
                self.waiters.remove(entry)
            elif self._may_take(lane):
                self.waiters.remove(entry)
                waiter.set_result(self._hand(worker, lane))
                return
        self.idle.append(worker)

    def _may_take(self, lane: Lane) -> bool:
        return lane is Lane.LIGHT or self.heavy_busy < self.heavy_limit

    def _hand(self, worker: WorkerProcess, lane: Lane) -> WorkerProcess:
        worker.lane = lane
        if lane is Lane.HEAVY:
            self.heavy_busy += 1
        return worker

    def _unmark(self, worker: WorkerProcess) -> None:
        if worker.lane is Lane.HEAVY:
            self.heavy_busy -= 1
        worker.lane = None

    def discard(self, worker: WorkerProcess, reason: str) -> None:
        """Kill ``worker`` (SIGKILL) and start a replacement in the background."""
        self._unmark(worker)
        worker.kill()
        self.workers.discard(worker)
        if self.closing:
            return
        log.warning("worker %d killed: %s; starting a replacement", worker.pid, reason)
        self._background(self._replace(worker))

    def abandon(self, worker: WorkerProcess, deadline: float, reason: str) -> None:
        """The client of ``worker``'s request went away: cancel the request, drop the rest
        of its answer and give the worker back when the answer ends; if it has not ended by
        ``deadline`` (loop time), or the worker breaks, discard it."""
        worker.cancel()
        self._background(self._take_back(worker, deadline, reason))

    async def _take_back(self, worker: WorkerProcess, deadline: float, reason: str) -> None:
        dropped = 0
        try:
            async with asyncio.timeout_at(deadline):
                while True:
                    kind, payload = await worker.next_frame()
                    if kind in (wire.END, wire.ABORT):
                        break
                    dropped += len(payload)
        except TimeoutError:
            self.discard(worker, f"{reason}, and its answer did not end within NOTATION_TIMEOUT")
            return
        except WorkerGone as exc:
            self.discard(worker, f"{reason}, and then {exc}")
            return
        except asyncio.CancelledError:  # the pool is closing
            worker.kill()
            raise
        log.info("worker %d abandoned the request (%s); %d bytes of its answer dropped", worker.pid, reason, dropped)
        self.release(worker)

    async def close(self) -> None:
        """Stop every worker: idle ones by closing their socket, the rest with SIGKILL."""
        self.closing = True
        for task in list(self._tasks):
            task.cancel()
        for waiter, _lane in self.waiters:
            if not waiter.done():
                waiter.cancel()
        for worker in list(self.workers):
            worker.writer.close()
        loop = asyncio.get_running_loop()
        for worker in list(self.workers):
            try:
                await asyncio.wait_for(loop.run_in_executor(None, worker.process.wait), STOP_SECONDS)
            except TimeoutError:
                worker.kill()
                await loop.run_in_executor(None, worker.process.wait)
        self.workers.clear()
        self.idle.clear()

    async def _replace(self, old: WorkerProcess) -> None:
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, old.process.wait)  # reap it
        pause = 1.0
        while not self.closing:
            try:
                worker = await self._spawn()
            except PoolError as exc:
                log.error(
                    "a replacement for worker %d could not start (%s); trying again in %.0f s", old.pid, exc, pause
                )
                await asyncio.sleep(pause)
                pause = min(pause * 2, 30.0)
                continue
            if self.closing:
                worker.kill()
                return
            log.warning("worker %d started, replacing worker %d", worker.pid, old.pid)
            self.workers.add(worker)
            self.release(worker)
            return

    async def _spawn(self) -> WorkerProcess:
        parent, child = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            process = subprocess.Popen(
                # -P: the working directory is not put on sys.path (a ./service there must not win)
                [sys.executable, "-P", "-m", _WORKER_MODULE, str(child.fileno()), self._settings_json],
                pass_fds=(child.fileno(),),
                stdin=subprocess.DEVNULL,
            )
        except OSError as exc:
            parent.close()
            raise PoolError(f"cannot start a worker process: {exc}") from None
        finally:
            child.close()
        reader, writer = await asyncio.open_unix_connection(sock=parent, limit=1 << 20)
        worker = WorkerProcess(process, reader, writer, process.pid)
        try:
            kind, payload = await asyncio.wait_for(worker.frames.next(), START_SECONDS)
            if kind != wire.READY:
                raise wire.WireError(f"expected READY, got frame type {kind}")
        except (TimeoutError, asyncio.IncompleteReadError, OSError, wire.WireError) as exc:
            worker.kill()
            status = await asyncio.get_running_loop().run_in_executor(None, process.wait)
            raise PoolError(
                f"worker {process.pid} did not start (exit status {status}; {type(exc).__name__}); see its log above"
            ) from None
        except asyncio.CancelledError:
            worker.kill()
            raise
        log.info("worker %d ready", worker.pid)
        return worker

    def _forget(self, entry: tuple[asyncio.Future, Lane]) -> None:
        try:
            self.waiters.remove(entry)
        except ValueError:
            pass

    def _background(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
