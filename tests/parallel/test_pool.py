"""The worker pool every ``--jobs`` run uses (``notation.parallel.fork_pool`` through
``notation.parallel.pool``): results and errors come back to the task they belong to, the
parent takes tasks while every worker is busy, large tasks and answers cross without a
deadlock, a worker that dies fails the work instead of hanging it, and workers take
SIGTERM only once the parent stops the pool.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
import threading
import time

import pytest

from notation.parallel import fork_pool, pool
from notation.parallel.fork_pool import ParentRole, RemoteError, WorkerLost

pytestmark = [pytest.mark.slow]

WAIT_SECONDS = 120  # generous bound for every wait: the machine is shared and slow at times
ROLES = pytest.mark.parametrize("role", list(ParentRole), ids=lambda role: role.name)


def _echo(data):
    return data


def _pid_after(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def _fail(message: str) -> None:
    raise ValueError(message)


class _Unpicklable(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.handle = threading.Lock()  # a lock cannot be pickled


class _TwoArguments(Exception):
    def __init__(self, first: str, second: str) -> None:
        super().__init__(f"{first} and {second}")  # args no longer match __init__'s


def _made_again_only_where_raised(*args: object) -> Exception:
    raise TypeError("this exception is made again only where it was raised")


class _Unloadable(Exception):
    """Pickles, and cannot be loaded again in any process: tblib's pickling (which
    ``distributed`` installs for every exception class when it is imported) keeps its
    ``__reduce__``, where it makes a two-argument exception such as ``_TwoArguments``
    cross."""

    def __reduce__(self):
        return (_made_again_only_where_raised, self.args)


def _raise_unpicklable() -> None:
    raise _Unpicklable("deep inside a worker")


def _raise_two_arguments() -> None:
    raise _TwoArguments("one", "two")


def _raise_unloadable() -> None:
    raise _Unloadable("deep inside a worker")


def _crosses(exc: Exception) -> bool:
    """Whether ``exc`` pickles and loads again in this process (and so in its workers,
    forked from it)."""
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:  # noqa: BLE001 - any failure means it cannot cross
        return False
    return True


_initialized: list[str] = []


def _record_start(word: str) -> None:
    _initialized.append(word)


def _initialized_words() -> list[str]:
    return list(_initialized)


def _refuse_start() -> None:
    raise RuntimeError("cannot start")


def _refuse_start_in(pid: int) -> None:
    if os.getpid() == pid:
        raise RuntimeError("cannot start")


def _stdin_text() -> str:
    return sys.stdin.read()


def _in_worker(workers, function, args: tuple = ()):
    """``function(*args)`` handed to the pool and left to a worker: the parent takes a task
    only inside ``get``, and ``ready`` only reads what the workers sent. The task, done."""
    task = workers.apply_async(function, args)
    deadline = time.monotonic() + WAIT_SECONDS
    while not task.ready():
        if time.monotonic() > deadline:
            pytest.fail(f"no worker answered {function.__name__} within {WAIT_SECONDS} s")
        time.sleep(0.005)
    return task


def _in_time(action, seconds: float = WAIT_SECONDS):
    """``action()`` in a thread, failing the test if it has not returned in ``seconds``."""
    outcome: list = []
    runner = threading.Thread(target=lambda: outcome.append(action()), daemon=True)
    runner.start()
    runner.join(seconds)
    if runner.is_alive():
        pytest.fail(f"{action} did not return within {seconds} s")
    return outcome[0] if outcome else None


@ROLES
def test_results_come_back_to_their_tasks_in_order(role):
    with pool.running(3, parent=role) as workers:
        tasks = [workers.apply_async(_echo, (number,)) for number in range(200)]
        assert [task.get() for task in tasks] == list(range(200))
        assert workers.apply_async(divmod, (17, 5)).get() == (3, 2)


def test_no_thread_is_started():
    before = threading.active_count()
    with pool.running(2) as workers:
        assert workers.apply_async(_echo, (1,)).get() == 1
        assert threading.active_count() == before


def test_the_parent_takes_a_task_while_every_worker_is_busy():
    # --jobs 2 forks one worker; the parent is the second process working.
    with pool.running(2, parent=ParentRole.WORKS) as workers:
        worker = _in_worker(workers, os.getpid).get()
        assert worker != os.getpid()
        busy = workers.apply_async(time.sleep, (0.5,))
        while _readable_tasks(workers):  # until the worker has taken it
            time.sleep(0.005)
        assert workers.apply_async(os.getpid).get() == os.getpid()  # taken here, the worker being busy
        busy.get()


def test_a_task_error_is_raised_by_get_wherever_the_task_ran():
    with pool.running(2, parent=ParentRole.WORKS) as workers:
        with pytest.raises(ValueError, match="in a worker"):
            _in_worker(workers, _fail, ("in a worker",)).get()
        with pytest.raises(ValueError, match="in the parent"):
            workers.apply_async(_fail, ("in the parent",)).get()  # whoever takes it
        assert _in_worker(workers, _echo, ("still working",)).get() == "still working"


@pytest.mark.parametrize("task", [_raise_unpicklable, _raise_unloadable])
def test_an_exception_that_cannot_cross_arrives_as_its_traceback(task):
    with pool.running(2, parent=ParentRole.WORKS) as workers:
        with pytest.raises(RemoteError) as raised:
            _in_worker(workers, task).get()
    text = str(raised.value)
    assert "Traceback" in text and task.__name__ in text


def test_an_exception_whose_arguments_differ_from_its_args_crosses_where_it_pickles():
    # Plain pickle cannot make it again (its args are not its __init__'s): it arrives as
    # its traceback. Where distributed was imported (the cluster tests, in this process),
    # tblib pickles it, and it arrives itself.
    expected = _TwoArguments if _crosses(_TwoArguments("one", "two")) else RemoteError
    with pool.running(2, parent=ParentRole.WORKS) as workers:
        with pytest.raises(expected) as raised:
            _in_worker(workers, _raise_two_arguments).get()
    assert "one and two" in str(raised.value)


@ROLES
def test_a_task_that_cannot_be_pickled_raises_from_get(role):
    with pool.running(2, parent=role) as workers:
        task = workers.apply_async(_echo, (lambda: None,))
        with pytest.raises(Exception, match="pickle"):
            task.get()
        assert workers.apply_async(_echo, (2,)).get() == 2


@ROLES
def test_large_tasks_and_answers_cross_without_a_deadlock(role):
    # Several times the pipes' capacity each way, with every process writing at once.
    blocks = [bytes([number]) * (3 << 20) for number in range(12)]

    def run() -> bool:
        with pool.running(3, parent=role) as workers:
            tasks = [workers.apply_async(_echo, (block,)) for block in blocks]
            return all(task.get() == block for task, block in zip(tasks, blocks, strict=True))

    assert _in_time(run)


def test_the_initializer_runs_in_the_workers_and_in_the_parent_before_its_first_task():
    _initialized.clear()
    with pool.running(2, _record_start, ("started",), ParentRole.WORKS) as workers:
        assert _in_worker(workers, _initialized_words).get() == ["started"]
        assert _initialized == []  # not in the parent before it takes a task
        busy = workers.apply_async(time.sleep, (0.5,))
        while _readable_tasks(workers):
            time.sleep(0.005)
        assert workers.apply_async(_initialized_words).get() == ["started"]  # here, once
        busy.get()
    assert _initialized == ["started"]
    _initialized.clear()


def test_an_initializer_that_fails_makes_each_task_fail_with_its_error():
    with pool.running(2, _refuse_start, parent=ParentRole.WORKS) as workers:
        with pytest.raises(RuntimeError, match="cannot start"):
            _in_worker(workers, _echo, (1,)).get()
    only_the_parent_fails = (os.getpid(),)
    with pool.running(2, _refuse_start_in, only_the_parent_fails, ParentRole.WORKS) as workers:
        assert _in_worker(workers, _echo, (1,)).get() == 1
        busy = workers.apply_async(time.sleep, (0.5,))
        while _readable_tasks(workers):
            time.sleep(0.005)
        for _ in range(2):  # each task the parent takes, as the worker is busy
            with pytest.raises(RuntimeError, match="cannot start"):
                workers.apply_async(_echo, (1,)).get()
        busy.get()


def test_a_worker_reads_no_standard_input():
    with pool.running(2) as workers:
        assert _in_worker(workers, _stdin_text).get() == ""


@ROLES
def test_a_killed_worker_fails_the_work_instead_of_hanging_it(role):
    def run() -> str:
        with pytest.raises(WorkerLost) as lost:
            with pool.running(2, parent=role) as workers:
                pid = _in_worker(workers, os.getpid).get()
                slow = workers.apply_async(time.sleep, (30,))
                while _readable_tasks(workers):
                    time.sleep(0.005)
                os.kill(pid, signal.SIGKILL)
                with pytest.raises(WorkerLost):
                    slow.get()
                workers.apply_async(_echo, (1,)).get()  # a task handed out after: the same error
        return str(lost.value)

    message = _in_time(run)
    assert "SIGKILL" in message and "worker process" in message


def test_a_worker_killed_while_waiting_for_a_task_fails_the_work():
    # An idle worker holds the pool's token while it waits for a task: the parent, unable
    # to take the token, must still see that worker gone.
    def run() -> str:
        with pytest.raises(WorkerLost) as lost:
            with pool.running(2, parent=ParentRole.WORKS) as workers:
                pid = _in_worker(workers, os.getpid).get()
                time.sleep(0.2)  # back waiting for a task, the token in hand
                os.kill(pid, signal.SIGKILL)
                workers.apply_async(_echo, (1,)).get()
        return str(lost.value)

    assert "SIGKILL" in _in_time(run, 60)


@ROLES
def test_a_pool_closed_with_tasks_running_ends_when_they_are_done(role):
    workers, _ = pool.start_pool(3, parent=role)
    tasks = [workers.apply_async(time.sleep, (0.2,)) for _ in range(6)]
    _in_time(lambda: pool.finish_pool(workers))
    assert all(task.ready() and task.successful() for task in tasks)


def test_terminate_ends_workers_that_ignore_sigterm():
    workers, _ = pool.start_pool(2)  # no stopping(): the workers ignore SIGTERM
    pid = _in_worker(workers, os.getpid).get()
    slow = workers.apply_async(time.sleep, (30,))
    while _readable_tasks(workers):
        time.sleep(0.005)
    started = time.monotonic()
    workers.terminate(0.3)
    assert time.monotonic() - started < 10
    assert not _alive(pid)
    with pytest.raises(WorkerLost):
        slow.get()


def test_workers_ignore_sigterm_until_the_parent_is_stopping():
    workers, signals = pool.start_pool(2)
    try:
        pid = _in_worker(workers, os.getpid).get()
        os.kill(pid, signal.SIGTERM)
        time.sleep(0.2)
        assert _alive(pid)  # the worker is still there (either worker may take the next task)
        assert _in_worker(workers, _echo, (1,)).get() == 1
        signals.stopping()
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + WAIT_SECONDS
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not _alive(pid)
    finally:
        pool.stop_pool(workers, signals)


def _readable_tasks(workers) -> bool:
    """Whether a task waits in the pool's task pipe, not yet taken."""
    return fork_pool._readable(workers._tasks_read)


def _alive(pid: int) -> bool:
    """Whether ``pid`` is a child still running (not yet ended, reaped or not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
