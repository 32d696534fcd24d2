"""The installed ``notation`` command against a real ``dask scheduler`` and ``dask worker``
processes on loopback (ephemeral ports): the same bytes, report and problems as one
process, for plain and compressed inputs, also when a worker is killed in the middle of a
task; a scheduler killed in the middle of a run, and addresses that are not a scheduler,
give one line and status 2.

Every process started here is stopped at the end of its test or module, whatever
happened; every wait is bounded by a generous time limit. Only the connection tests time
anything: a bound of several seconds on a deadline of two.
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

pytestmark = [pytest.mark.live_server, pytest.mark.slow]

TIMEOUT = 300  # seconds any one step may take on a busy machine before the test gives up
ATTEMPTS = 3  # runs started before giving up on catching a worker with a part's file open
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


# A worker's memory monitor runs a paused worker again as soon as its memory is low, and a
# test pauses workers on purpose (``Cluster.set_status``): the monitor's pausing is turned off.
_CLUSTER_ENV = {**os.environ, "DASK_DISTRIBUTED__WORKER__MEMORY__PAUSE": "False"}


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
            process = subprocess.Popen([self.dask, *args], stdout=out, stderr=subprocess.STDOUT, cwd=self.root,
                                       env=_CLUSTER_ENV)
        self.processes.append(process)
        return process

    def start_scheduler(self) -> None:
        info = self.root / "scheduler.json"
        process = self._start(["scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                               "--scheduler-file", str(info)], "scheduler.log")
        self.address = _wait_for("the scheduler's address", lambda: _address(info, process))
        self.client = Client(self.address, timeout=TIMEOUT)

    def start_worker(self, name: str) -> str:
        """Start a worker (no nanny: killing it ends it) and return its address once the
        scheduler has it running. A worker registers as starting and says it is running a
        moment later: one frozen in between would never be given a task."""
        assert self.client is not None
        known = set(self.client.scheduler_info()["workers"])
        process = self._start(["worker", self.address, "--name", name, "--nthreads", "1", "--no-nanny",
                               "--host", "127.0.0.1", "--no-dashboard"], f"{name}.log")

        def registered() -> str | None:
            if process.poll() is not None:
                pytest.fail(f"worker {name} exited: {(self.root / f'{name}.log').read_text()[-2000:]}")
            workers = self.client.scheduler_info()["workers"]  # type: ignore[union-attr]
            return next((address for address, info in workers.items()
                         if address not in known and info["status"] == "running"), None)

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

    def set_status(self, workers: list[str], status: str) -> None:
        """Set each worker's own status (``paused`` or ``running``), as a worker short of
        memory does, and wait until the scheduler has it: Dask gives a paused worker no task."""
        assert self.client is not None

        def on_worker(dask_worker, status=status) -> None:
            from distributed.core import Status

            dask_worker.status = Status[status]

        self.client.run(on_worker, workers=workers)

        def seen() -> bool:
            known = self.client.scheduler_info()["workers"]  # type: ignore[union-attr]
            return all(known[worker]["status"] == status for worker in workers)

        _wait_for(f"the scheduler to see {workers} {status}", seen)

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


def _parts(directory: pathlib.Path, compressed: bool = True) -> bytes:
    """The parts joined, once the run marked the directory complete (and left nothing else)."""
    names = sorted(directory.iterdir())
    assert names[0].name == "_SUCCESS" and names[0].read_bytes() == b""
    names = names[1:]
    assert names and all(name.name.startswith("part-") for name in names), names
    return b"".join(gzip.decompress(name.read_bytes()) if compressed else name.read_bytes() for name in names)


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


@pytest.mark.parametrize("codec", [None, "zst"])
def test_a_worker_killed_in_the_middle_still_gives_the_whole_output(cluster, database, tmp_path, codec):
    """A third worker is frozen (SIGSTOP) so the tasks the scheduler gives it cannot finish,
    and the other two are paused, so it is the one the scheduler gives tasks to; once it
    holds one, the others run again and it is killed: Dask runs its tasks again on the
    others (a compressed input's chunks with them: a frozen worker holds up nothing)."""
    if codec is not None:
        database = _compress(database, codec)
    output, report, summary = _single(database, tmp_path)
    others = list(cluster.worker_processes)
    doomed = cluster.start_worker(f"doomed-{codec}")
    process = cluster.worker_processes.pop(doomed)
    process.send_signal(signal.SIGSTOP)
    cluster.set_status(others, "paused")
    run = None
    try:
        run = subprocess.Popen(
            [installed_script("notation"), "normalize", str(database), "--profile", "xboard", "--dask",
             cluster.address, "--partition-size", "20kB", "-o", "parts", "--compress-parts", "gz",
             "--report", "cluster.jsonl"],
            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_ENV)
        _wait_for("a task on the frozen worker",
                  lambda: cluster.processing_on(doomed) > 0 or run.poll() is not None)
        assert run.poll() is None, run.communicate()  # a run cannot end while its task is held
        cluster.set_status(others, "running")
        process.kill()
        process.wait(TIMEOUT)
        _, stderr = run.communicate(timeout=TIMEOUT)
    finally:
        if run is not None:
            _stop(run)
        _stop(process)
        cluster.set_status(others, "running")
    assert run.returncode == 1, stderr
    assert stderr == summary
    assert _parts(tmp_path / "parts") == output
    assert (tmp_path / "cluster.jsonl").read_bytes() == report
    assert doomed not in cluster.client.scheduler_info()["workers"]


def _compress(path: pathlib.Path, codec: str) -> pathlib.Path:
    import bz2

    import zstandard

    data = path.read_bytes()
    packed = {"gz": gzip.compress, "bz2": bz2.compress, "zst": zstandard.ZstdCompressor().compress}[codec](data)
    target = path.with_name(f"{path.name}.{codec}")
    target.write_bytes(packed)
    return target


@pytest.mark.parametrize("codec", ["zst", "gz", "bz2"])
def test_a_compressed_dump_is_cut_into_chunks_and_gives_one_process_bytes(cluster, database, tmp_path, codec):
    """The command reads the compressed file once and hands its text out in chunks: many
    parts, one process's bytes, report and summary; ``check`` gives one process's answer."""
    dump = _compress(database, codec)
    output, report, summary = _single(dump, tmp_path)
    done = _notation(["normalize", str(dump), "--profile", "xboard", "--dask", cluster.address,
                      "--partition-size", "20kB", "-o", "parts", "--report", "cluster.jsonl"], tmp_path)
    assert (done.returncode, done.stderr) == (1, summary)
    assert len(list((tmp_path / "parts").glob("part-*"))) > 5
    assert _parts(tmp_path / "parts", compressed=False) == output
    assert (tmp_path / "cluster.jsonl").read_bytes() == report

    single = _notation(["check", str(dump), "--format", "json"], tmp_path)
    distributed = _notation(["check", str(dump), "--format", "json", "--dask", cluster.address,
                             "--partition-size", "20kB"], tmp_path)
    assert (distributed.returncode, distributed.stdout, distributed.stderr) == \
        (single.returncode, single.stdout, single.stderr)


def _tasks_done(cluster: Cluster, prefix: str) -> int:
    """How many tasks named ``prefix`` the scheduler has seen finish so far."""
    assert cluster.client is not None

    def count(dask_scheduler, prefix=prefix) -> int:
        found = dask_scheduler.task_prefixes.get(prefix)
        return 0 if found is None else int(found.state_counts.get("memory", 0))

    return cluster.client.run_on_scheduler(count)


def test_check_finds_one_bad_byte_piece_by_piece_not_by_reading_the_file_again(cluster, database, tmp_path):
    """One byte that is not UTF-8 near the end of a file: one process's report, from the
    pieces alone (no task checks the file whole)."""
    damaged = tmp_path / "latin1.pgn"
    data = database.read_bytes()
    at = data.rindex(b"\n[Event ", 0, len(data) - 100) + 3
    damaged.write_bytes(data[:at] + b"\xff" + data[at:])
    single = _notation(["check", str(damaged), "--format", "json"], tmp_path)
    assert b'"code":"pgn-windows-1252"' in single.stdout.replace(b" ", b"")
    pieces, wholes = _tasks_done(cluster, "check_piece"), _tasks_done(cluster, "check_whole")
    distributed = _notation(["check", str(damaged), "--format", "json", "--dask", cluster.address,
                             "--partition-size", "20kB"], tmp_path)
    assert (distributed.returncode, distributed.stdout, distributed.stderr) == \
        (single.returncode, single.stdout, single.stderr)
    assert _tasks_done(cluster, "check_piece") - pieces > 5
    assert _tasks_done(cluster, "check_whole") == wholes


def _open_temporaries(process: subprocess.Popen, directory: pathlib.Path) -> list[str]:
    """The temporary part files ``process`` holds open in ``directory`` (Linux's /proc)."""
    found = []
    for fd in pathlib.Path(f"/proc/{process.pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            target = os.readlink(fd)
            if target.startswith(str(directory) + "/.part-") and target.endswith(".tmp"):
                found.append(target)
    return found


def _kill_while_writing(process: subprocess.Popen, directory: pathlib.Path, run: subprocess.Popen) -> bool:
    """Let the stopped ``process`` run a few milliseconds at a time until it holds a
    temporary part open, then kill it; False if ``run`` ended first."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline and run.poll() is None:
        process.send_signal(signal.SIGCONT)
        time.sleep(0.003)
        process.send_signal(signal.SIGSTOP)
        time.sleep(0.01)  # the stop takes effect
        if _open_temporaries(process, directory):
            process.kill()
            process.wait(TIMEOUT)
            return True
    return False


@pytest.mark.skipif(not pathlib.Path("/proc/self/fd").is_dir(), reason="needs Linux's /proc to see open files")
@pytest.mark.parametrize("codec", [None, "zst"])
def test_a_worker_killed_while_writing_a_part_leaves_no_temporary_file(cluster, database, tmp_path, codec):
    """A worker is killed while it holds a part's temporary file open: the task runs again
    elsewhere, which removes what the dead try left; the parts are one process's bytes. A
    compressed input's chunks that the dead worker held are sent again."""
    if codec is not None:
        database = _compress(database, codec)
    output, report, summary = _single(database, tmp_path)
    others = list(cluster.worker_processes)
    doomed = cluster.start_worker(f"writer-{codec}")
    process = cluster.worker_processes.pop(doomed)
    process.send_signal(signal.SIGSTOP)
    out = tmp_path / "parts"
    # The other workers are paused, so the stopped one is given the tasks. A run it finishes
    # without ever being caught with a file open proves nothing here, so it is started again
    # (its output must still be whole), a bounded number of times.
    try:
        for attempt in range(1, ATTEMPTS + 1):
            shutil.rmtree(out, ignore_errors=True)
            (tmp_path / "cluster.jsonl").unlink(missing_ok=True)
            cluster.set_status(others, "paused")
            run = subprocess.Popen(
                [installed_script("notation"), "normalize", str(database), "--profile", "xboard", "--dask",
                 cluster.address, "--partition-size", "20kB", "-o", "parts", "--compress-parts", "gz",
                 "--report", "cluster.jsonl"],
                cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_ENV)
            try:
                _wait_for("a task on the stopped worker",
                          lambda run=run: cluster.processing_on(doomed) > 0 or run.poll() is not None)
                assert run.poll() is None, run.communicate()  # a run cannot end while its task is held
                killed = _kill_while_writing(process, out, run)
                cluster.set_status(others, "running")
                _, stderr = run.communicate(timeout=TIMEOUT)
            finally:
                _stop(run)
            if killed:
                break
            assert _parts(out) == output, "a run on the stopped worker lost output"
            assert attempt < ATTEMPTS, f"the stopped worker was not caught writing a part in {ATTEMPTS} runs"
    finally:
        _stop(process)
        cluster.set_status(others, "running")
    assert (run.returncode, stderr) == (1, summary)
    assert _parts(out) == output  # _SUCCESS first, then the parts: no ".part-*.tmp" left
    assert (tmp_path / "cluster.jsonl").read_bytes() == report


def test_a_killed_scheduler_is_one_line_exit_2_and_no_success_marker(tmp_path):
    """A scheduler of its own, killed once the first parts are written: the command says so
    in one line, exits 2 and leaves no ``_SUCCESS`` (nor the parts it had written)."""
    own = Cluster(tmp_path)
    try:
        own.start_scheduler()
        own.start_worker("only")
        assert own.client is not None
        own.client.close()  # before its scheduler goes: it would try to reconnect, and log that
        own.client = None
        big = tmp_path / "big.pgn"
        rng = random.Random(17)
        big.write_bytes("".join(rng.choice(GAMES) for _ in range(8000)).encode("utf-8", "surrogateescape"))
        run = subprocess.Popen(
            [installed_script("notation"), "normalize", str(big), "--dask", own.address, "--partition-size", "20kB",
             "-o", "parts"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_ENV)
        try:
            _wait_for("the first part", lambda: list((tmp_path / "parts").glob("part-*")) or run.poll() is not None)
            assert run.poll() is None, run.communicate()
            own.processes[0].kill()  # the scheduler
            _, stderr = run.communicate(timeout=TIMEOUT)
        finally:
            _stop(run)
    finally:
        own.stop()
    text = stderr.decode()
    assert run.returncode == 2, text
    assert len(text.splitlines()) == 1 and "Traceback" not in text, text
    assert "the Dask cluster failed" in text and "no _SUCCESS marker" in text
    assert not (tmp_path / "parts" / "_SUCCESS").exists()


CONNECT_SECONDS = 2


@contextlib.contextmanager
def _server(kind: str) -> Iterator[int]:
    """A loopback port that speaks HTTP (a real HTTP server), answers anything at once with
    HTTP, or accepts and says nothing; its port number."""
    import http.server
    import socket
    import threading

    if kind == "http":
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield server.server_address[1]
        finally:
            server.shutdown()
            server.server_close()
        return
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    accepted: list[socket.socket] = []

    def serve() -> None:
        with contextlib.suppress(OSError):
            while True:
                connection, _ = listener.accept()
                accepted.append(connection)
                if kind == "answers":
                    connection.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield listener.getsockname()[1]
    finally:
        listener.close()
        for connection in accepted:
            connection.close()


@pytest.mark.parametrize("kind", ["http", "answers", "silent"])
def test_an_address_that_is_not_a_scheduler_is_one_line_and_exit_2_within_the_timeout(tmp_path, kind):
    (tmp_path / "a.pgn").write_text('[Event "a"]\n\n1. e4 *\n')
    env = {**_ENV, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": f"{CONNECT_SECONDS}s"}
    with _server(kind) as port:
        for args in (["check", "a.pgn"], ["normalize", "a.pgn", "-o", "out"]):
            started = time.monotonic()
            done = subprocess.run([installed_script("notation"), *args, "--dask", f"tcp://127.0.0.1:{port}"],
                                  capture_output=True, text=True, cwd=tmp_path, env=env, timeout=TIMEOUT)
            elapsed = time.monotonic() - started
            assert done.returncode == 2, done.stderr
            assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr, done.stderr
            assert f"127.0.0.1:{port}" in done.stderr
            assert elapsed < CONNECT_SECONDS + 15, elapsed  # the deadline, and starting Python and Dask
    assert not (tmp_path / "out").exists()  # made only once a scheduler answers


def test_an_address_where_nothing_listens_leaves_no_output_directory(tmp_path):
    """A refused connection: one line, exit 2, and no empty ``-o`` directory left behind."""
    import socket

    (tmp_path / "a.pgn").write_text('[Event "a"]\n\n1. e4 *\n')
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    done = subprocess.run([installed_script("notation"), "normalize", "a.pgn", "-o", "out/parts", "--dask",
                           f"tcp://127.0.0.1:{port}"], capture_output=True, text=True, cwd=tmp_path, env=_ENV,
                          timeout=TIMEOUT)
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr, done.stderr
    assert f"127.0.0.1:{port}" in done.stderr
    assert not (tmp_path / "out").exists()


def test_a_local_cluster_says_nothing_of_a_dashboard_port_in_use(tmp_path):
    """``--dask local:1`` starts no dashboard: port 8787 in use is no news."""
    import socket

    (tmp_path / "a.pgn").write_text('[Event "a"]\n\n1. e4 *\n')
    holder = socket.socket()
    with contextlib.suppress(OSError):  # already taken by something else: just as good
        holder.bind(("127.0.0.1", 8787))
        holder.listen()
    try:
        done = subprocess.run([installed_script("notation"), "check", "a.pgn", "--dask", "local:1"],
                              capture_output=True, text=True, cwd=tmp_path, env=os.environ, timeout=TIMEOUT)
    finally:
        holder.close()
    assert done.returncode == 0, done.stderr
    assert done.stderr == "notation check: 1 file(s), 1 game(s), 1 ply, 0 error(s), 0 warning(s)\n"
