"""The installed ``notation`` command against a real ``dask scheduler`` and ``dask worker``
processes on loopback (ephemeral ports): the same bytes, report and problems as one
process, also when a worker is killed in the middle of the run.

Every process started here is stopped at the end of the module, whatever happened; every
wait is bounded by a generous time limit, and nothing is timed.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import pathlib
import random
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator

import pytest
from distributed import Client
from installed import installed_script
from test_normalize_properties import GAMES

TIMEOUT = 300  # seconds any one step may take on a busy machine before the test gives up
ATTEMPTS = 3  # runs started before giving up on the scheduler handing the frozen worker a task
POLL = 0.1


def _wait_for(what: str, ready, timeout: float = TIMEOUT):
    """``ready()``'s first true value, polled; fails the test after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = ready()
        if value:
            return value
        time.sleep(POLL)
    pytest.fail(f"gave up waiting for {what} after {timeout} s")


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        process.send_signal(signal.SIGCONT)  # a stopped process cannot act on SIGTERM
        process.terminate()
    try:
        process.wait(30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(30)


class Cluster:
    """A scheduler and its workers, each a ``dask`` process of this environment."""

    def __init__(self, root: pathlib.Path):
        self.root = root
        self.processes: list[subprocess.Popen] = []
        self.dask = installed_script("dask")
        self.address = ""
        self.client: Client | None = None
        self.worker_processes: dict[str, subprocess.Popen] = {}  # by worker address

    def _start(self, args: list[str], log: str) -> subprocess.Popen:
        with open(self.root / log, "wb") as out:
            process = subprocess.Popen([self.dask, *args], stdout=out, stderr=subprocess.STDOUT, cwd=self.root)
        self.processes.append(process)
        return process

    def start_scheduler(self) -> None:
        info = self.root / "scheduler.json"
        process = self._start(["scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                               "--scheduler-file", str(info)], "scheduler.log")
        self.address = _wait_for("the scheduler's address", lambda: _address(info, process))
        self.client = Client(self.address, timeout=TIMEOUT)

    def start_worker(self, name: str) -> str:
        """Start a worker (no nanny: killing it ends it) and return its address once registered."""
        assert self.client is not None
        known = set(self.client.scheduler_info()["workers"])
        process = self._start(["worker", self.address, "--name", name, "--nthreads", "1", "--no-nanny",
                               "--host", "127.0.0.1", "--no-dashboard"], f"{name}.log")

        def registered() -> str | None:
            if process.poll() is not None:
                pytest.fail(f"worker {name} exited: {(self.root / f'{name}.log').read_text()[-2000:]}")
            new = set(self.client.scheduler_info()["workers"]) - known  # type: ignore[union-attr]
            return next(iter(new), None)

        worker = _wait_for(f"worker {name} to register", registered)
        self.worker_processes[worker] = process
        return worker

    def processing_on(self, worker: str) -> int:
        """How many tasks the scheduler has given ``worker`` and not seen finished."""
        assert self.client is not None

        def count(dask_scheduler, address=worker) -> int:
            state = dask_scheduler.workers.get(address)
            return 0 if state is None else len(state.processing)

        return self.client.run_on_scheduler(count)

    def stop(self) -> None:
        if self.client is not None:
            with contextlib.suppress(Exception):
                self.client.close(timeout=30)
        for process in reversed(self.processes):
            _stop(process)


def _address(info: pathlib.Path, process: subprocess.Popen) -> str | None:
    if process.poll() is not None:
        pytest.fail(f"the scheduler exited: {(info.parent / 'scheduler.log').read_text()[-2000:]}")
    try:
        return json.loads(info.read_text())["address"]
    except (OSError, ValueError, KeyError):
        return None  # not written yet, or half written


@pytest.fixture(scope="module")
def cluster(tmp_path_factory) -> Iterator[Cluster]:
    running = Cluster(tmp_path_factory.mktemp("dask"))
    try:
        running.start_scheduler()
        running.start_worker("a")
        running.start_worker("b")
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def database(tmp_path_factory) -> pathlib.Path:
    """About 250 KB of the fixtures' games, damage included."""
    path = tmp_path_factory.mktemp("data") / "games.pgn"
    rng = random.Random(16)
    path.write_bytes("".join(rng.choice(GAMES) for _ in range(800)).encode("utf-8", "surrogateescape"))
    return path


_ENV = {**os.environ, "PYTHONWARNINGS": "ignore"}  # the summary lines are compared, not Python's warnings


def _notation(args: list[str], cwd: pathlib.Path) -> subprocess.CompletedProcess:
    return subprocess.run([installed_script("notation"), *args], capture_output=True, cwd=cwd, timeout=TIMEOUT,
                          env=_ENV)


def _single(database: pathlib.Path, cwd: pathlib.Path) -> tuple[bytes, bytes, bytes]:
    done = _notation(["normalize", str(database), "--profile", "xboard", "-o", "single.pgn",
                      "--report", "single.jsonl"], cwd)
    assert done.returncode == 1, done.stderr  # the fixtures' damage is reported
    return (cwd / "single.pgn").read_bytes(), (cwd / "single.jsonl").read_bytes(), done.stderr


def _parts(directory: pathlib.Path) -> bytes:
    names = sorted(directory.iterdir())
    assert names and all(name.name.startswith("part-") for name in names)
    return b"".join(gzip.decompress(name.read_bytes()) for name in names)


def test_normalize_and_check_on_a_scheduler_and_two_workers(cluster, database, tmp_path):
    output, report, summary = _single(database, tmp_path)
    done = _notation(["normalize", str(database), "--profile", "xboard", "--dask", cluster.address,
                      "--partition-size", "20kB", "-o", "parts", "--compress-parts", "gz",
                      "--report", "cluster.jsonl"], tmp_path)
    assert done.returncode == 1, done.stderr
    assert done.stderr == summary
    assert len(list((tmp_path / "parts").iterdir())) > 5
    assert _parts(tmp_path / "parts") == output
    assert (tmp_path / "cluster.jsonl").read_bytes() == report

    single = _notation(["check", str(database), "--format", "json"], tmp_path)
    distributed = _notation(["check", str(database), "--format", "json", "--dask", cluster.address,
                             "--partition-size", "20kB"], tmp_path)
    assert (distributed.returncode, distributed.stdout, distributed.stderr) == \
        (single.returncode, single.stdout, single.stderr)
    assert single.returncode == 1 and single.stdout


def test_a_worker_killed_in_the_middle_still_gives_the_whole_output(cluster, database, tmp_path):
    """A third worker is frozen (SIGSTOP) so the tasks the scheduler gives it cannot finish;
    once it holds one, it is killed: Dask runs its tasks again on the others."""
    output, report, summary = _single(database, tmp_path)
    doomed = cluster.start_worker("doomed")
    process = cluster.worker_processes[doomed]
    process.send_signal(signal.SIGSTOP)
    # The scheduler chooses where tasks go: a run may finish on the other two workers
    # without ever giving the frozen one a task. Such a run proves nothing here, so it is
    # started again (its output must still be whole), a bounded number of times.
    for attempt in range(1, ATTEMPTS + 1):
        shutil.rmtree(tmp_path / "parts", ignore_errors=True)
        (tmp_path / "cluster.jsonl").unlink(missing_ok=True)
        run = subprocess.Popen(
            [installed_script("notation"), "normalize", str(database), "--profile", "xboard", "--dask",
             cluster.address, "--partition-size", "20kB", "-o", "parts", "--compress-parts", "gz",
             "--report", "cluster.jsonl"],
            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_ENV)
        try:
            _wait_for("a task on the frozen worker",
                      lambda run=run: cluster.processing_on(doomed) > 0 or run.poll() is not None)
            held = run.poll() is None  # a run cannot end while the frozen worker holds a task
            if held:
                process.kill()
                process.wait(TIMEOUT)
            _, stderr = run.communicate(timeout=TIMEOUT)
        finally:
            _stop(run)
        if held:
            break
        assert _parts(tmp_path / "parts") == output, "a run on the other workers lost output"
        assert attempt < ATTEMPTS, f"the scheduler gave the frozen worker no task in {ATTEMPTS} runs"
    assert run.returncode == 1, stderr
    assert stderr == summary
    assert _parts(tmp_path / "parts") == output
    assert (tmp_path / "cluster.jsonl").read_bytes() == report
    assert doomed not in cluster.client.scheduler_info()["workers"]
