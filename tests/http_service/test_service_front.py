"""The server layer over real sockets against the installed ``notation serve``: slow, silent
and lying clients do not starve anyone, malformed heads get problem+json with the right
status, oversized bodies get a 413 that urllib and requests receive, NOTATION_TIMEOUT kills
the worker (and a replacement starts), a client that leaves ends its request and not its
worker, SIGTERM exits 0.

No timed assertions: latencies under attack are printed (``pytest -s``), not asserted; every
wait is bounded generously and every process and socket is cleaned up.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import pathlib
import re
import select
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request

import pytest
from installed import installed_script
from paths import ROOT

pytestmark = [pytest.mark.live_server, pytest.mark.slow]

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
PROBLEM = "application/problem+json"
LIMIT = 32 * 1024
WAIT = 60.0  # the bound of every wait in this file; never reached when things work
PGN_GAMES = (ROOT / "fixtures" / "pgn" / "lichess_variants.pgn").read_text(encoding="utf-8")
LIAR_HEAD = (
    b"POST /v1/fen/convert HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """``notation serve`` in a subprocess; its standard error goes to a file we can poll."""

    def __init__(self, workers: int = 2, **env: str):
        self.port = free_port()
        self.log = tempfile.NamedTemporaryFile(prefix="notation-serve-", suffix=".log", delete=False)
        environ = {**os.environ, "NOTATION_LOG_LEVEL": "info", "NOTATION_MAX_BODY_BYTES": str(LIMIT), **env}
        self.process = subprocess.Popen(
            [
                installed_script("notation"),
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--workers",
                str(workers),
            ],
            env=environ,
            stdout=subprocess.DEVNULL,
            stderr=self.log,
            stdin=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"notation serve exited with {self.process.returncode}: {self.log_text()}")
            with contextlib.suppress(OSError):
                if request(self.port, "GET", "/healthz")[0] == 200:
                    return
            time.sleep(0.1)
        self.stop()
        raise AssertionError(f"notation serve did not answer /healthz within {WAIT} s")

    def log_text(self) -> str:
        return pathlib.Path(self.log.name).read_text(encoding="utf-8", errors="replace")

    def wait_for_log(self, pattern: str) -> re.Match:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            found = re.search(pattern, self.log_text())
            if found:
                return found
            time.sleep(0.05)
        raise AssertionError(f"no log line matched {pattern!r}:\n{self.log_text()}")

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=WAIT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        return self.process.returncode

    def cleanup(self) -> None:
        self.stop()
        os.unlink(self.log.name)


def served(workers: int = 2, *, tracebacks: bool = False, **env: str):
    """A ``Server`` for a fixture to yield; once stopped it must have exited 0 (and logged
    no traceback unless ``tracebacks``)."""
    running = Server(workers, **env)
    try:
        yield running
    finally:
        status = running.stop()
        log = running.log_text()
        os.unlink(running.log.name)
    assert status == 0, log
    assert tracebacks or "Traceback" not in log, log


@pytest.fixture(scope="module")
def server():
    """Short connection timeouts so that the attacks end within seconds."""
    yield from served(
        NOTATION_HEADER_TIMEOUT="2",
        NOTATION_BODY_TIMEOUT="2",
        NOTATION_KEEPALIVE_TIMEOUT="1",
        NOTATION_SEND_TIMEOUT="1",
        NOTATION_ACCESS_LOG="on",
    )


@pytest.fixture(scope="module")
def slow_server():
    """NOTATION_TIMEOUT=1, for requests made slow on purpose."""
    yield from served(tracebacks=True, NOTATION_TIMEOUT="1", NOTATION_MAX_PGN_BYTES=str(64 * 1024 * 1024))


def request(port: int, method: str, path: str, body: bytes | None = None, headers: dict | None = None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.getheader("Content-Type"), response.read()
    finally:
        connection.close()


def convert(port: int) -> int:
    body = json.dumps({"fen": START, "variant": "crazyhouse"}).encode()
    return request(port, "POST", "/v1/fen/convert", body, {"Content-Type": "application/json"})[0]


def raw_exchange(port: int, data: bytes) -> bytes:
    """Send ``data``, then read until the server closes the connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT) as sock:
        sock.sendall(data)
        return read_to_close(sock)


def read_to_close(sock: socket.socket) -> bytes:
    received = bytearray()
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            break
        if not chunk:
            break
        received += chunk
    return bytes(received)


def parse_problem(answer: bytes, status: int) -> dict:
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    assert lines[0].startswith(f"HTTP/1.1 {status} "), answer[:300]
    headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:])}
    assert headers["content-type"] == PROBLEM, headers
    assert headers["connection"] == "close", headers
    problem = json.loads(body[: int(headers["content-length"])])
    assert problem["status"] == status and problem["type"] == "about:blank" and problem["detail"], problem
    return problem


def giant_game(megabytes: int) -> bytes:
    """One PGN game of ``megabytes`` MB of short comments, each over two lines (under the
    16 M-character part size, so no answer line comes out until it is all read): over a
    second of work per megabyte, since every line inside a comment goes through the movetext
    scanner one at a time (a comment closed on its own line would be taken many lines at once)."""
    line = "{ c\nc }\n"
    return ('[Event "slow"]\n[Variant "Crazyhouse"]\n\n' + line * (megabytes * 1_000_000 // len(line)) + "*\n").encode()


def many_games(megabytes: int) -> bytes:
    return ((PGN_GAMES + "\n\n") * (megabytes * 1024 * 1024 // len(PGN_GAMES))).encode()


MALFORMED = [
    ("Content-Length abc", b"POST /v1/fen/convert HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", 400),
    ("Content-Length -1", b"POST /v1/fen/convert HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", 400),
    (
        "two equal Content-Lengths",
        b"POST /v1/fen/convert HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}",
        400,
    ),
    (
        "two Content-Lengths",
        b"POST /v1/fen/convert HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
        400,
    ),
    (
        "Content-Length and chunked",
        b"POST /v1/fen/convert HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        400,
    ),
    ("9,000-byte request line", b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),
    ("request line that never ends", b"GET /" + b"a" * 20000, 414),
    (
        "150 headers",
        b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-H%d: y\r\n" % i for i in range(150)) + b"\r\n",
        431,
    ),
    ("a 9,000-byte header", b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"y" * 9000 + b"\r\n\r\n", 431),
    ("HTTP/9.9", b"GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n", 505),
    ("HTTP/2 preface", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 505),
    ("NUL in a header", b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\x00b\r\n\r\n", 400),
    ("no Host", b"GET /healthz HTTP/1.1\r\n\r\n", 400),
    ("not HTTP", b"hello there\r\n\r\n", 400),
    ("space before colon", b"GET /healthz HTTP/1.1\r\nHost : x\r\n\r\n", 400),
    ("gzip transfer coding", b"POST /v1/fen/convert HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
    ("broken chunk size", b"POST /v1/fen/convert HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
    (
        "declared body over the limit",
        b"POST /v1/fen/batch HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000\r\n\r\n",
        413,
    ),
]


@pytest.mark.parametrize("data, status", [case[1:] for case in MALFORMED], ids=[case[0] for case in MALFORMED])
def test_malformed_requests_get_problem_json_with_their_status(server, data, status):
    parse_problem(raw_exchange(server.port, data), status)


def test_oversized_body_413_reaches_urllib(server):
    body = b"x" * (20 * 1024 * 1024)
    post = urllib.request.Request(
        f"http://127.0.0.1:{server.port}/v1/fen/convert", data=body, headers={"Content-Type": "application/json"}
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(post, timeout=WAIT)
    assert refused.value.code == 413
    assert refused.value.headers["Content-Type"] == PROBLEM
    assert json.loads(refused.value.read())["status"] == 413


def test_oversized_body_413_reaches_requests(server):
    requests = pytest.importorskip("requests")
    answer = requests.post(
        f"http://127.0.0.1:{server.port}/v1/fen/batch",
        data=b"[" * (20 * 1024 * 1024),
        headers={"Content-Type": "application/json"},
        timeout=WAIT,
    )
    assert answer.status_code == 413 and answer.headers["Content-Type"] == PROBLEM
    assert answer.json()["status"] == 413


def test_keep_alive_serves_several_requests_then_closes_when_idle(server):
    with socket.create_connection(("127.0.0.1", server.port), timeout=WAIT) as sock:
        body = json.dumps({"fen": START}).encode()
        one = (
            b"POST /v1/fen/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
        )
        sock.sendall(one + b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")  # pipelined
        answers = read_to_close(sock)  # the server closes the idle connection by itself
    assert answers.count(b"HTTP/1.1 200 OK") == 2
    assert b'"valid":true' in answers and b'"status":"ok"' in answers


def test_silent_connection_is_closed_without_an_answer(server):
    with socket.create_connection(("127.0.0.1", server.port), timeout=WAIT) as sock:
        assert read_to_close(sock) == b""


def test_slow_head_gets_408(server):
    with socket.create_connection(("127.0.0.1", server.port), timeout=WAIT) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHo")
        parse_problem(read_to_close(sock), 408)


def test_content_length_liar_gets_408(server):
    with socket.create_connection(("127.0.0.1", server.port), timeout=WAIT) as sock:
        sock.sendall(
            LIAR_HEAD
            + b" " * 60
        )
        problem = parse_problem(read_to_close(sock), 408)
    assert "60 bytes came" in problem["detail"]


def test_body_that_trickles_in_gets_408_though_it_never_pauses(server):
    """A byte every half second never pauses for NOTATION_BODY_TIMEOUT (2 s), but averages
    far under 500 bytes a second: refused once the first 2 s (and a second per 500 bytes)
    have passed, while the client is still sending."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=WAIT) as sock:
        sock.sendall(LIAR_HEAD)
        began = time.monotonic()
        try:
            while time.monotonic() - began < WAIT:
                sock.sendall(b" ")
                readable, _, _ = select.select([sock], [], [], 0.5)
                if readable:
                    break
        except (BrokenPipeError, ConnectionResetError):
            pass
        problem = parse_problem(read_to_close(sock), 408)
    assert "slower than 500 bytes a second" in problem["detail"]


class Attack:
    """Slowloris (a head one byte a second), silent and Content-Length liar connections,
    held open from threads until ``stop``."""

    def __init__(self, port: int, slowloris: int, silent: int, liars: int):
        self.port = port
        self.stopping = threading.Event()
        self.sockets: list[socket.socket] = []
        self.threads: list[threading.Thread] = []
        for _ in range(silent):
            self.sockets.append(socket.create_connection(("127.0.0.1", port), timeout=WAIT))
        for _ in range(liars):
            sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
            sock.sendall(
                LIAR_HEAD
                + b"{" * 60
            )
            self.sockets.append(sock)
        for _ in range(slowloris):
            thread = threading.Thread(target=self._slowloris, daemon=True)
            thread.start()
            self.threads.append(thread)

    def _slowloris(self) -> None:
        head = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 1000
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=WAIT) as sock:
            for byte in head:  # bounded: the head never ends, the server cuts it first
                if self.stopping.wait(1.0):
                    return
                sock.sendall(bytes([byte]))

    def stop(self) -> None:
        self.stopping.set()
        for thread in self.threads:
            thread.join(WAIT)
        for sock in self.sockets:
            sock.close()


def test_slow_silent_and_lying_clients_do_not_starve_others(server):
    attack = Attack(server.port, slowloris=50, silent=100, liars=8)
    latencies = []
    try:
        for _ in range(10):
            began = time.perf_counter()
            assert request(server.port, "GET", "/healthz")[0] == 200
            assert convert(server.port) == 200
            latencies.append(time.perf_counter() - began)
    finally:
        attack.stop()
    print(
        f"healthz + convert under attack: max {max(latencies) * 1000:.1f} ms, "
        f"all {[round(x * 1000, 1) for x in latencies]}"
    )
    assert convert(server.port) == 200


def test_request_over_notation_timeout_gets_504_and_its_worker_is_replaced(slow_server):
    before = slow_server.log_text().count("started, replacing worker")
    status, content_type, data = request(
        slow_server.port, "POST", "/v1/pgn/normalize", giant_game(15), {"Content-Type": "application/x-chess-pgn"}
    )
    assert (status, content_type) == (504, PROBLEM)
    assert json.loads(data)["status"] == 504
    killed = slow_server.wait_for_log(
        r"worker (\d+) killed: NOTATION_TIMEOUT \(1 s\) passed during POST /v1/pgn/normalize"
    )
    slow_server.wait_for_log(rf"worker \d+ started, replacing worker {killed.group(1)}")
    assert slow_server.log_text().count("started, replacing worker") == before + 1
    assert convert(slow_server.port) == 200


def worker_pids(running: Server) -> set[int]:
    """The pids of the workers that said they were ready, per the log."""
    return {int(pid) for pid in re.findall(r"worker (\d+) ready", running.log_text())}


def assert_worker_kept(running: Server, pid: int, request_line: str) -> None:
    """Worker ``pid`` abandoned the request of ``request_line`` and serves the next one:
    it runs, nothing was killed or started, and a request is answered by it."""
    running.wait_for_log(rf"worker {pid} abandoned the request \(.* during {re.escape(request_line)}\)")
    assert convert(running.port) == 200
    os.kill(pid, 0)  # still running
    log = running.log_text()
    assert "killed" not in log and "replacing worker" not in log, log
    assert worker_pids(running) == {pid}


@pytest.fixture
def one_worker():
    """One worker, so that the request after an abandoned one must be served by it."""
    yield from served(1, NOTATION_MAX_PGN_BYTES=str(64 * 1024 * 1024), NOTATION_SEND_TIMEOUT="1")


def test_client_that_leaves_mid_answer_ends_its_request_not_its_worker(one_worker):
    (pid,) = worker_pids(one_worker)
    with post_pgn(one_worker.port, many_games(8)) as sock:
        assert sock.recv(12) == b"HTTP/1.1 200"  # the worker has started answering
    # The answer stream is stopped at its next piece, not played to its end.
    assert_worker_kept(one_worker, pid, "POST /v1/pgn/normalize")
    dropped = re.search(r"abandoned the request .*; (\d+) bytes of its answer dropped", one_worker.log_text())
    assert dropped and int(dropped.group(1)) < len(many_games(8)), one_worker.log_text()


def busy_workers(running: Server) -> int:
    metrics = request(running.port, "GET", "/metrics")[2].decode()
    total = re.search(r"^notation_workers (\d+)", metrics, re.M)
    idle = re.search(r"^notation_workers_idle (\d+)", metrics, re.M)
    assert total and idle, metrics
    return int(total.group(1)) - int(idle.group(1))


def test_client_that_leaves_before_its_answer_ends_its_request_not_its_worker(one_worker):
    # A tab closed while the worker reads a game (no answer line comes out until it is all
    # read): the answer, when it comes, is dropped.
    (pid,) = worker_pids(one_worker)
    with post_pgn(one_worker.port, giant_game(2)):
        deadline = time.monotonic() + WAIT
        while busy_workers(one_worker) == 0:  # wait until its worker has the request
            assert time.monotonic() < deadline
            time.sleep(0.02)
    one_worker.wait_for_log(r"the client went away during POST /v1/pgn/normalize; its worker \d+ is told to stop")
    assert_worker_kept(one_worker, pid, "POST /v1/pgn/normalize")


def post_pgn(port: int, body: bytes, *, receive_buffer: int | None = None) -> socket.socket:
    """A connection that has sent a PGN job (the caller reads or closes it)."""
    sock = socket.socket()
    if receive_buffer:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.settimeout(WAIT)
    sock.connect(("127.0.0.1", port))
    sock.sendall(
        b"POST /v1/pgn/normalize HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-chess-pgn\r\n"
        b"Content-Length: %d\r\n\r\n" % len(body) + body
    )
    return sock


def test_client_that_stops_reading_ends_its_request_not_its_worker(one_worker):
    (pid,) = worker_pids(one_worker)
    with post_pgn(one_worker.port, many_games(8), receive_buffer=4096) as sock:
        assert sock.recv(12) == b"HTTP/1.1 200"  # then reads no more
        one_worker.wait_for_log(
            r"the client took no byte of its answer for 1 s during POST /v1/pgn/normalize; "
            r"its worker \d+ is told to stop"
        )
        assert_worker_kept(one_worker, pid, "POST /v1/pgn/normalize")


def test_pgn_jobs_past_the_queue_bound_get_503_and_json_requests_still_get_a_worker():
    """Two workers: PGN jobs may hold one; NOTATION_MAX_QUEUE=1 lets one more wait."""
    running = Server(NOTATION_MAX_QUEUE="1")
    try:
        # A PGN job whose client reads only the status line: its worker is held (backpressure).
        holding = post_pgn(running.port, many_games(8), receive_buffer=4096)
        assert holding.recv(12) == b"HTTP/1.1 200"
        waiting = post_pgn(running.port, PGN_GAMES.encode())  # small: queued before the convert is answered
        assert convert(running.port) == 200  # the light lane still has its worker
        answer = raw_exchange(
            running.port,
            b"POST /v1/pgn/normalize HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n*\n",
        )
        problem = parse_problem(answer, 503)
        assert b"\r\nRetry-After: 1\r\n" in answer and "overloaded" in problem["detail"]
        holding.close()  # its request ends, its worker is free; the waiting job then runs
        assert waiting.recv(12) == b"HTTP/1.1 200"
        waiting.close()
    finally:
        running.cleanup()


def test_past_max_connections_the_oldest_idle_one_makes_room_else_503():
    running = Server(NOTATION_MAX_CONNECTIONS="4", NOTATION_HEADER_TIMEOUT="120")  # only eviction closes a silent one
    opened: list[socket.socket] = []
    try:
        for _ in range(4):  # a second request begun on each, so none is idle
            sock = socket.create_connection(("127.0.0.1", running.port), timeout=WAIT)
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHo")
            received = b""
            while not received.endswith(b"}"):  # the first answer: the server has read the rest too
                chunk = sock.recv(4096)
                assert chunk, received
                received += chunk
            opened.append(sock)
        answer = raw_exchange(running.port, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert (
            b"\r\nRetry-After: 1\r\n" in answer and "maximum of 4 connections" in parse_problem(answer, 503)["detail"]
        )
        for sock in opened:
            sock.close()
        deadline = time.monotonic() + WAIT
        while (
            request(running.port, "GET", "/healthz", headers={"Connection": "close"})[0] != 200
        ):  # the closed ones are gone
            assert time.monotonic() < deadline
        opened = [socket.create_connection(("127.0.0.1", running.port), timeout=WAIT) for _ in range(4)]  # silent
        assert request(running.port, "GET", "/healthz")[0] == 200
        assert read_to_close(opened[0]) == b""  # the oldest idle connection was closed for it
    finally:
        for sock in opened:
            sock.close()
        running.cleanup()


def test_sigterm_lets_the_request_in_flight_finish_and_exits_0():
    running = Server()
    try:
        body = many_games(1)
        connection = http.client.HTTPConnection("127.0.0.1", running.port, timeout=WAIT)
        connection.request("POST", "/v1/pgn/normalize", body=body, headers={"Content-Type": "application/x-chess-pgn"})
        response = connection.getresponse()
        assert response.status == 200
        running.process.send_signal(signal.SIGTERM)
        lines = response.read().decode().splitlines()
        connection.close()
        assert json.loads(lines[-1])["kind"] == "summary"
        assert running.process.wait(timeout=WAIT) == 0
        with pytest.raises(OSError):
            request(running.port, "GET", "/healthz")
    finally:
        running.cleanup()
