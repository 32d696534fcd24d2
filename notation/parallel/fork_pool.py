"""A pool of forked worker processes that take their tasks from one shared pipe, the
parent taking its share while it waits if it has nothing else to do (``ForkPool``): the
pool every ``--jobs`` run uses.

Why not ``multiprocessing.pool.Pool``: importing and starting it (``tempfile``,
``socket``, ``subprocess``, three bookkeeping threads, a shared queue and its locks) cost
each ``--jobs`` run more time before its workers start than a tenth of a second of work;
a parent that only hands out tasks sits idle while ``jobs`` workers work, each paying to
copy the pages it touches of the memory it shares with the parent; and a worker that
dies (the kernel's out-of-memory killer, ``kill -9``) leaves it waiting for that worker's
result for ever.

How: the parent writes each task, in the order given, to one pipe. A process takes the
next task whole while it holds the pool's token, one datagram in a socket pair, so each
task goes to whichever process is free first. Workers block for the token and answer
each on a pipe of their own, which the parent reads whenever it waits for a result
(``Pending.get``): no thread. What a pipe cannot take yet waits in the parent, which
writes it at ``apply_async`` and while it waits. A message is a frame: its length (8
bytes, little-endian), then a pickle; a task is ``(number, function, args)``, an answer
``(number, True, value)`` or ``(number, False, exception)``. Workers exit when the task
pipe ends (``join``).

The parent's part (``ParentRole``): where it has its own work between results (reading
and cutting a stream, writing answers), it only hands out tasks and ``jobs`` workers are
forked (``HANDS_OUT``). Where it only hands out pieces of a file and puts their results
in order, ``jobs - 1`` are forked and the parent is the last of the ``jobs``
(``WORKS``): while it waits for a result, it takes the next task if every worker is busy
(the token is free) and the task waits whole in the pipe. Its tasks are then best small
to send (a piece named by its offsets, not its text): a task the parent is still writing
is not one it can take. The initializer runs in each worker when it starts, and in the
parent before the first task it takes. A worker that ends while the pool runs breaks it: every task not yet
answered, and every later one, raises ``WorkerLost`` (which worker, and how it ended), and
the other workers are stopped. A task's own exception is raised again by ``get`` (a
``RemoteError`` with the worker's traceback where it cannot be pickled). The workers
inherit the parent's memory at the fork: only tasks and answers are pickled.
"""

from __future__ import annotations

import _socket  # the C core of ``socket``, all this needs: ``socket`` takes ~3 ms to import
import fcntl
import os
import pickle
import select
import signal
import struct
import sys
import time
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from notation.lean_enum import LeanEnum
from notation.parallel.signals import WorkerSignals

Result = TypeVar("Result")

_HEADER = struct.Struct("<Q")
_PIPE_BYTES = 1 << 20  # asked of the kernel for each pipe (Linux: the most it gives by default)
_READ_BYTES = 1 << 20
_TOKEN = b"."
_TOKEN_PAUSE = 0.0001  # seconds between looks while a worker holds the token to take a task


class ParentRole(LeanEnum):
    """What the parent does while the workers work (see the module doc)."""

    HANDS_OUT = "hands out"  # jobs workers; the parent only hands out tasks and takes results
    WORKS = "works"  # jobs - 1 workers; the parent also takes tasks while it waits for a result


class WorkerLost(RuntimeError):
    """A worker process ended before the pool's work was done; the message says which and how."""


class RemoteError(Exception):
    """A task failed in a worker with an exception that could not be pickled: its traceback."""


class Pending(Generic[Result]):
    """A task handed to the pool: ``get`` waits for its result and returns it, or raises
    what the task raised (``WorkerLost`` if the pool broke first)."""

    def __init__(self, pool: ForkPool) -> None:
        self._pool = pool
        self._done = False
        self._value: Any = None
        self._error: BaseException | None = None

    def finish(self, value: Any = None, error: BaseException | None = None) -> None:
        """The pool's side: the task's result (or error) is in."""
        self._done, self._value, self._error = True, value, error

    def ready(self) -> bool:
        """Whether the result is in (reading what the workers have sent, without waiting)."""
        if not self._done:
            self._pool.pump(wait=False)
        return self._done

    def successful(self) -> bool:
        """Whether the task returned (its result is in, and it raised nothing)."""
        return self.ready() and self._error is None

    def get(self) -> Result:
        """The task's result, waited for (where the parent works, it meanwhile takes tasks
        no worker can take); raises what the task raised. A signal's exception raised in a task the
        parent took goes on from here."""
        while not self._done:
            self._pool.wait_step()
        if self._error is not None:
            raise self._error
        return self._value


class _Worker:
    """The parent's side of one worker: its answers pipe and the bytes read from it that
    are not yet a whole frame."""

    def __init__(self, pid: int, answers: int) -> None:
        self.pid = pid
        self.answers: int | None = answers  # None once closed
        self.inbox = bytearray()
        self.how: str | None = None  # how it ended, once reaped

    def reap(self, wait: bool) -> str | None:
        """How the worker ended (reaped now or before), or None if it runs on and ``wait``
        is false."""
        if self.how is None:
            self.how = _reap(self.pid, wait)
        return self.how

    def signal(self, signo: int) -> None:
        if self.how is None:  # a reaped worker's pid may be another process's by now
            try:
                os.kill(self.pid, signo)
            except ProcessLookupError:
                pass


class ForkPool:
    """``jobs`` processes working: ``jobs`` forked workers, or ``jobs - 1`` (one at least)
    and the parent while it waits, as ``parent`` says; see the module doc. Make it with the
    handled signals blocked (``notation.signals.signals_deferred``): the workers unblock
    them once their handlers (``signals``) are in. For one thread of the parent only.
    Raises ``OSError`` when the pipes or processes cannot be made."""

    def __init__(self, jobs: int, signals: WorkerSignals, initializer: Callable[..., None] | None = None,
                 initargs: tuple = (), parent: ParentRole = ParentRole.HANDS_OUT) -> None:
        self._signals = signals
        self._parent_works = parent is ParentRole.WORKS
        self._initializer = initializer
        self._initargs = initargs
        self._initialized = initializer is None  # in the parent, before the first task it takes
        self._initializer_error: Exception | None = None
        self._workers: list[_Worker] = []
        self._by_fd: dict[int, _Worker] = {}
        self._pending: dict[int, Pending[Any]] = {}
        self._numbers = 0
        self._outbox = bytearray()
        self._closed = False
        self._broken: WorkerLost | None = None
        self._tasks_read, self._tasks = _pipe()
        self._token_take, self._token_give = _socket.socketpair(_socket.AF_UNIX, _socket.SOCK_DGRAM)
        self._token_give.send(_TOKEN)
        try:
            for _ in range(max(1, jobs - 1 if self._parent_works else jobs)):
                self._fork()
        except BaseException:
            self.terminate(0.0)
            raise
        os.set_blocking(self._tasks, False)

    def _fork(self) -> None:
        answers_read, answers_write = _pipe()
        pid = os.fork()
        if pid == 0:  # the worker: it never returns from here
            status = 1
            try:
                # The parent's ends: held here, they would keep the task pipe open after the
                # parent closes it, and another worker's answers pipe after that worker ends.
                for fd in [self._tasks, answers_read, *(worker.answers for worker in self._workers)]:
                    if fd is not None:
                        os.close(fd)
                _serve(self._tasks_read, self._token_take, self._token_give, answers_write, self._signals,
                       self._initializer, self._initargs)
                status = 0
            finally:
                os._exit(status)
        os.close(answers_write)
        os.set_blocking(answers_read, False)
        worker = _Worker(pid, answers_read)
        self._workers.append(worker)
        self._by_fd[answers_read] = worker

    def apply_async(self, function: Callable[..., Result], args: tuple = ()) -> Pending[Result]:
        """Hand ``function(*args)`` to the pool; ``get`` on the answer waits for its
        result. A task that cannot be pickled raises from ``get``, as do its errors, and
        every task handed to a broken pool (``WorkerLost``). Raises ``ValueError`` once the
        pool is closed."""
        pending: Pending[Result] = Pending(self)
        if self._broken is not None:  # before the closed check: breaking closed the pool
            pending.finish(error=self._broken)
            return pending
        if self._closed:
            raise ValueError("the pool is closed: it takes no more tasks")
        self._numbers += 1
        try:
            frame = _frame((self._numbers, function, args))
        except Exception as exc:  # noqa: BLE001 - the task's own error, raised by get
            pending.finish(error=exc)
            return pending
        self._pending[self._numbers] = pending
        self._outbox += frame
        self.pump(wait=False)
        return pending

    def wait_step(self) -> None:
        """One step of waiting for results: where the parent works, take a task here if
        one waits that no worker can take now; else wait until the workers answer or can
        take more of the tasks."""
        self.pump(wait=False)
        if self._pending and not (self._parent_works and self._take_one()):
            self.pump(wait=True)

    def pump(self, wait: bool) -> None:
        """Write what the task pipe can take, read what the workers sent and finish those
        tasks; with ``wait``, first block until one of these can be done. Does nothing
        when no task is waiting for its answer."""
        if not self._pending or self._broken is not None:
            return
        poller = select.poll()
        if self._outbox:
            poller.register(self._tasks, select.POLLOUT)
        for worker in self._workers:
            if worker.answers is not None:
                poller.register(worker.answers, select.POLLIN)
        for fd, _ in poller.poll(None if wait else 0):
            if fd == self._tasks:
                self._write()
            else:
                self._read(self._by_fd[fd])
            if self._broken is not None:
                return

    def _take_one(self) -> bool:
        """Run here the next task waiting whole in the pipe, if the token can be had
        (every worker is busy); True if one ran. A worker holds the token only while it
        takes a task or while the pipe is empty: while a task waits, look again shortly,
        reading the answers meanwhile (a worker that died holding the token ends its
        answers pipe, which breaks the pool)."""
        while not self._outbox and self._broken is None and _readable(self._tasks_read):
            try:
                self._token_take.recv(1, _socket.MSG_DONTWAIT)
            except BlockingIOError:
                time.sleep(_TOKEN_PAUSE)
                self.pump(wait=False)
                continue
            try:
                frame = _read_frame(self._tasks_read) if _readable(self._tasks_read) else None
            finally:
                self._token_give.send(_TOKEN)
            if frame is None:
                return False
            self._run_here(frame)
            return True
        return False

    def _run_here(self, frame: bytearray) -> None:
        number, function, args = pickle.loads(frame)
        pending = self._pending.pop(number)
        try:
            if not self._initialized:
                self._initialized = True
                assert self._initializer is not None
                try:
                    self._initializer(*self._initargs)
                except Exception as exc:  # noqa: BLE001 - each task taken here raises it, as in a worker
                    self._initializer_error = exc
            if self._initializer_error is not None:
                raise self._initializer_error
            value = function(*args)
        except Exception as exc:  # noqa: BLE001 - the task's own error, raised by get
            pending.finish(error=exc)
            return
        pending.finish(value)

    def _write(self) -> None:
        try:
            written = os.write(self._tasks, self._outbox)
        except BlockingIOError:
            return
        del self._outbox[:written]

    def _read(self, worker: _Worker) -> None:
        assert worker.answers is not None
        ended = False
        while True:
            try:
                data = os.read(worker.answers, _READ_BYTES)
            except BlockingIOError:
                break
            if not data:
                ended = True
                break
            worker.inbox += data
            if len(data) < _READ_BYTES:
                break
        inbox = worker.inbox
        while len(inbox) >= _HEADER.size:
            (length,) = _HEADER.unpack_from(inbox)
            end = _HEADER.size + length
            if len(inbox) < end:
                break
            body = inbox[_HEADER.size:end]
            del inbox[:end]
            number, ok, value = pickle.loads(body)
            pending = self._pending.pop(number)
            if ok:
                pending.finish(value)
            else:
                pending.finish(error=value)
        if ended:
            self._break(worker)

    def _break(self, worker: _Worker) -> None:
        """``worker`` ended while the pool runs: every task not answered fails, the others stop."""
        self._close_answers(worker)
        how = worker.reap(wait=True)
        self._broken = WorkerLost(f"worker process {worker.pid} {how} before the work was done")
        self._signals.stopping()
        self.terminate(0.5)

    def _close_answers(self, worker: _Worker) -> None:
        if worker.answers is not None:
            del self._by_fd[worker.answers]
            os.close(worker.answers)
            worker.answers = None

    def _close_tasks(self) -> None:
        for fd in (self._tasks, self._tasks_read):
            if fd >= 0:
                os.close(fd)
        self._tasks = self._tasks_read = -1
        self._token_take.close()
        self._token_give.close()

    def close(self) -> None:
        """Take no more tasks; the workers exit after the tasks handed out (``join``)."""
        self._closed = True

    def join(self) -> None:
        """After ``close``: wait for every task's answer (taking tasks here meanwhile), end
        the task pipe, and wait for the workers to exit. Raises ``ValueError`` before
        ``close``."""
        if not self._closed:
            raise ValueError("join: close the pool first")
        while self._pending and self._broken is None:
            self.wait_step()
        self._close_tasks()
        for worker in self._workers:
            self._close_answers(worker)
            worker.reap(wait=True)

    def terminate(self, seconds: float) -> None:
        """End the workers now: SIGTERM (after ``WorkerSignals.stopping``, it ends them),
        then SIGKILL for any still running after ``seconds``. Tasks not answered raise
        ``WorkerLost``."""
        self._closed = True
        self._close_tasks()
        for worker in self._workers:
            worker.signal(signal.SIGTERM)
        deadline = time.monotonic() + seconds
        for worker in self._workers:
            self._close_answers(worker)
            while worker.reap(wait=False) is None:
                if time.monotonic() >= deadline:
                    worker.signal(signal.SIGKILL)
                    worker.reap(wait=True)
                    break
                time.sleep(0.002)
        lost = self._broken or WorkerLost("the worker processes were stopped before the work was done")
        for pending in self._pending.values():
            pending.finish(error=lost)
        self._pending.clear()


def _pipe() -> tuple[int, int]:
    """A pipe, made as large as the system gives without privileges where it can be set."""
    read, write = os.pipe()
    try:
        fcntl.fcntl(write, getattr(fcntl, "F_SETPIPE_SZ", 1031), _PIPE_BYTES)
    except OSError:
        pass  # a smaller pipe works, with more turns of reading and writing
    return read, write


def _readable(fd: int) -> bool:
    """Whether ``fd`` has bytes to read now."""
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return bool(poller.poll(0))


def _frame(message: Any) -> bytes:
    data = pickle.dumps(message, pickle.HIGHEST_PROTOCOL)
    return _HEADER.pack(len(data)) + data


def _reap(pid: int, wait: bool) -> str | None:
    """How the child ``pid`` ended (now reaped), or None if it runs on and ``wait`` is false."""
    try:
        done, status = os.waitpid(pid, 0 if wait else os.WNOHANG)
    except ChildProcessError:
        return "ended"  # reaped already
    if done == 0:
        return None
    if os.WIFSIGNALED(status):
        return f"was killed by {signal.Signals(os.WTERMSIG(status)).name}"
    return f"exited with status {os.waitstatus_to_exitcode(status)}"


def _serve(tasks: int, token_take: Any, token_give: Any, answers: int, signals: WorkerSignals,
           initializer: Callable[..., None] | None, initargs: tuple) -> None:
    """The worker's loop: take the token, read the next task whole, give the token back,
    run the task and answer; until the task pipe ends."""
    signals.install()
    try:  # a task that read standard input would take the parent's
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - as long as the worker
    except OSError:  # pragma: no cover - no /dev/null
        pass
    failed: Exception | None = None
    if initializer is not None:
        try:
            initializer(*initargs)
        except Exception as exc:  # noqa: BLE001 - each task raises it in the parent
            failed = exc
    while True:
        token_take.recv(1)
        try:
            frame = _read_frame(tasks)
        finally:
            token_give.send(_TOKEN)
        if frame is None:
            return
        number, function, args = pickle.loads(frame)
        try:
            if failed is not None:
                raise failed
            answer = _frame((number, True, function(*args)))
        except Exception as exc:  # noqa: BLE001 - raised again in the parent
            answer = _error_frame(number, exc)
        _write_all(answers, answer)


def _read_frame(fd: int) -> bytearray | None:
    """The next frame's body from ``fd``, or None if the pipe ended before one. Raises
    ``EOFError`` if it ended in the middle of one."""
    header = _read_exactly(fd, _HEADER.size)
    if header is None:
        return None
    (length,) = _HEADER.unpack(header)
    body = _read_exactly(fd, length)
    if body is None:
        raise EOFError("the task pipe ended in the middle of a task")
    return body


def _read_exactly(fd: int, size: int) -> bytearray | None:
    data = bytearray()
    while len(data) < size:
        block = os.read(fd, size - len(data))
        if not block:
            if data:
                raise EOFError("the task pipe ended in the middle of a task")
            return None
        data += block
    return data


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _error_frame(number: int, exc: Exception) -> bytes:
    """``exc`` as an answer: itself, or its traceback's text where it cannot be pickled
    and loaded again (an exception class whose arguments differ from its ``args``)."""
    try:
        frame = _frame((number, False, exc))
        pickle.loads(memoryview(frame)[_HEADER.size:])
        return frame
    except Exception:  # noqa: BLE001 - an exception's attributes may not pickle
        import traceback

        return _frame((number, False, RemoteError("".join(traceback.format_exception(exc)))))
