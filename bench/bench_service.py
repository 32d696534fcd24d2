"""Load test of the HTTP service on loopback: `notation serve` (or, with ``--server
gunicorn``, the former gunicorn gthread design) as installed (compiled or pure build: the
first line says which), single converts and 10,000-item batches.

First, how single requests scale with the workers: for 1, 2 and all ``--workers`` (each
count once), a fresh server answers single converts from a closed loop of raw keep-alive
sockets (``raw_load``: a prebuilt request and a Content-Length read, far cheaper per
request than http.client, so the client takes little of the cores it shares with the
server); it prints requests/s, p50/p99, and the CPU the serving layer (the front ends and
the listening process) and the workers spent per request, read from /proc: that split holds
on a loaded machine where the wall-clock figures do not. Each server runs its default number
of front ends (``NOTATION_FRONT_ENDS`` in the environment sets it), which each line names.
The same server then answers ``--scaling-batches`` 10,000-FEN batches a worker from two
clients a worker (FENs/s, p50/p99 a batch, server CPU a FEN). Beside these, the /healthz
p50/p99 of bench_soak's attack held for ``--soak-seconds``, and, when gunicorn is installed
(the dev extra), the same single converts at ``--workers`` under gunicorn gthread running
the app (through Flask) for comparison.

Then three phases at ``--workers``, each bounded by a request count and a time limit:

1. closed loop: ``--threads`` keep-alive clients (http.client) send single converts as
   fast as they are answered: requests/s at saturation, p50/p99;
2. fixed rate (open loop): single converts sent at ``--rate`` requests/s whatever the
   answers do, on a pool of keep-alive connections (asyncio); each latency counts from
   the moment its request was due, so a stall is not hidden by the client waiting for it
   (no coordinated omission). Prints p50/p99 of the answers, how many were sent over 1 ms
   late (the client could not keep pace), how many were refused (an answer other than
   200, by status) and how many failed (the connection broke, or no answer within 60 s);
3. batches of ``--batch-size`` FENs from ``--batch-threads`` keep-alive clients (two a
   worker: one batch waits in the queue while another is answered, so no worker idles
   between two): FENs/s, and the CPU each process (front end, workers, this client)
   spent per batch.

Then the ratios against python-chess (``chess.Board(fen).fen()`` in this process, one
core) and the library in process (``convert_fen(...).to_dict()``, one core), measured in
the same run. The server is stopped at the end. Listens on 127.0.0.1 only.

    python bench/bench_service.py [--workers N] [--seconds S] [--requests N] [--rate R]
        [--paced-seconds S] [--batches N] [--server front|gunicorn] [--scaling-seconds S]
        [--scaling-batches N] [--soak-seconds S]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import http.client
import importlib.util
import json
import os
import pathlib
import random
import socket
import subprocess
import sys
import threading
import time
from typing import Any

import chess  # test/bench-only oracle (GPL): never imported by the runtime

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # the bench helpers; notation itself is the installed package

from processes import cpu_seconds, free_port, percentile, split_processes, stop_server, wait_until_serving  # noqa: E402

import notation.fen.reader  # noqa: E402
from notation.operations import convert_fen  # noqa: E402

LATE_SECONDS = 0.001  # a paced request sent later than this after its time counts as late
IDLE_SECONDS = 2.0  # a paced connection idle this long is closed (the server closes them after 5 s)


# The server runs the installed package: with PYTHONSAFEPATH, ``python -m`` does not put
# the current directory first on the path, where the repository's sources (pure Python)
# would shadow the compiled build that ``pip install .`` gave.
SERVER_ENV = {"PYTHONSAFEPATH": "1"}


def build() -> str:
    """Which build of notation the server runs: ``compiled`` (mypyc) or ``pure``."""
    probe = "import notation.fen.reader as r; print('pure' if r.__file__.endswith('.py') else 'compiled')"
    done = subprocess.run([sys.executable, "-c", probe], env={**os.environ, **SERVER_ENV}, capture_output=True,
                          text=True, check=False)
    return done.stdout.strip() or "unknown"


def bench_build() -> str:
    """Which build this process measures in process (another bench run before this one in
    the same process may have put the sources first on the path)."""
    return "pure" if (notation.fen.reader.__file__ or "").endswith(".py") else "compiled"


def corpus(size: int, seed: int = 20250101) -> list[str]:
    """Distinct standard FENs from seeded random playouts."""
    rng = random.Random(seed)
    seen: dict[str, None] = {}
    while len(seen) < size:
        board = chess.Board()
        for _ in range(rng.randint(1, 120)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            seen.setdefault(board.fen(), None)
    return list(seen)[:size]


def per_second(function, items: list[str], seconds: float = 2.0) -> float:
    """Items per second of ``function`` over ``items`` (repeated up to ``seconds``)."""
    done, start = 0, time.perf_counter()
    while True:
        for item in items:
            function(item)
        done += len(items)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed




def server_command(server: str, port: int, workers: int) -> list[str]:
    if server == "gunicorn":  # the former design, for comparison (gunicorn is in the dev extra)
        return [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers", str(workers),
                "--worker-class", "gthread", "--threads", "4", "--keep-alive", "5", "--log-level", "warning",
                "notation_service:create_app()"]
    return [
        sys.executable, "-m", "notation", "serve", "--host", "127.0.0.1", "--port", str(port), "--workers", str(workers)
    ]


def start_server(port: int, workers: int, server: str = "front") -> subprocess.Popen:
    env = {
        **os.environ,
        **SERVER_ENV,
        "NOTATION_LOG_LEVEL": "warning",
        "NOTATION_MAX_BODY_BYTES": str(16 * 1024 * 1024),
    }
    process = subprocess.Popen(
        server_command(server, port, workers),
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    return wait_until_serving(process, port, f"{server} server")




def load(port: int, bodies: list[bytes], threads: int, seconds: float) -> tuple[list[float], float, int]:
    """POST each body once (shared queue) from ``threads`` keep-alive clients; stops at the
    time limit. Returns latencies (s), wall time, and the number of non-200 answers."""
    lock = threading.Lock()
    queue = iter(bodies)
    latencies: list[float] = []
    failures = [0]
    deadline = time.perf_counter() + seconds

    def worker() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        headers = {"Content-Type": "application/json"}
        while time.perf_counter() < deadline:
            with lock:
                body = next(queue, None)
            if body is None:
                break
            path_, data = body
            began = time.perf_counter()
            connection.request("POST", path_, body=data, headers=headers)
            response = connection.getresponse()
            response.read()
            took = time.perf_counter() - began
            with lock:
                latencies.append(took)
                if response.status != 200:
                    failures[0] += 1
        connection.close()

    start = time.perf_counter()
    pool = [threading.Thread(target=worker) for _ in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    return latencies, time.perf_counter() - start, failures[0]


def raw_load(port: int, request: bytes, connections: int, seconds: float, limit: int) -> tuple[list[float], float, int]:
    """Send ``request`` (one whole HTTP/1.1 request) over ``connections`` keep-alive sockets
    in a closed loop, at most ``limit`` times in all and for at most ``seconds``. Returns
    latencies (s), wall time and the number of non-200 answers. A closed connection is
    reopened; an answer without Content-Length is not expected (the service sends it)."""
    lock = threading.Lock()
    latencies: list[float] = []
    failures = [0]
    remaining = [limit]
    deadline = time.perf_counter() + seconds

    def one_client() -> None:
        sock = socket.create_connection(("127.0.0.1", port))
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        buffer = b""
        mine: list[float] = []
        bad = 0
        while time.perf_counter() < deadline:
            with lock:
                if remaining[0] <= 0:
                    break
                remaining[0] -= 1
            began = time.perf_counter()
            sock.sendall(request)
            while b"\r\n\r\n" not in buffer:
                chunk = sock.recv(65536)
                if not chunk:
                    raise OSError("the server closed a keep-alive connection")
                buffer += chunk
            head, _, buffer = buffer.partition(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            while len(buffer) < length:
                chunk = sock.recv(65536)
                if not chunk:
                    raise OSError("the server closed a connection in the middle of an answer")
                buffer += chunk
            buffer = buffer[length:]
            mine.append(time.perf_counter() - began)
            if not head.startswith(b"HTTP/1.1 200"):
                bad += 1
        sock.close()
        with lock:
            latencies.extend(mine)
            failures[0] += bad

    start = time.perf_counter()
    pool = [threading.Thread(target=one_client) for _ in range(connections)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    return latencies, time.perf_counter() - start, failures[0]


def scaling(
    server: str, worker_counts: list[int], body: bytes, seconds: float, limit: int,
    batch_body: bytes = b"", batch_items: int = 0, batches: int = 0,
) -> list[str]:
    """For each worker count, a fresh server answering single converts in a closed loop
    (``raw_load``, four connections a worker): lines of req/s, p50/p99 and CPU per request;
    then, given ``batch_body`` (``batch_items`` FENs), up to ``batches`` batches a worker
    from two keep-alive clients a worker: FENs/s, p50/p99 a batch and CPU a FEN."""
    lines = []
    for count in worker_counts:
        port = free_port()
        request = (
            f"POST /v1/fen/convert HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n".encode("ascii") + body
        )
        process = start_server(port, count, server)
        batch_line = ""
        try:
            connections = 4 * count
            raw_load(port, request, connections, seconds, 200 * count)  # warm up every worker
            serving, workers = split_processes(process.pid, server)
            before = [sum(map(cpu_seconds, serving)), sum(map(cpu_seconds, workers)), time.process_time()]
            latencies, wall, failed = raw_load(port, request, connections, seconds, limit)
            after = [sum(map(cpu_seconds, serving)), sum(map(cpu_seconds, workers)), time.process_time()]
            if batch_body and batches:
                batch_line = batch_scaling(port, process.pid, server, count, batch_body, batch_items, batches, seconds)
        finally:
            stop_server(process)
        done = max(1, len(latencies))
        front_us, worker_us, client_us = ((b - a) / done * 1e6 for a, b in zip(before, after, strict=True))
        front_ends = len(serving) - 1 or 1  # with several, the parent serves nothing
        lines.append(
            f"  {count:2} worker{'s' if count > 1 else ' '}, {front_ends} front end{'s' if front_ends > 1 else ' '}: "
            f"{len(latencies) / wall:7,.0f} req/s "
            f"({len(latencies)} in {wall:.1f} s, {connections} connections); "
            f"p50 {percentile(latencies, 0.50) * 1000:.2f} ms, p99 {percentile(latencies, 0.99) * 1000:.2f} ms; "
            f"CPU a request: serving layer {front_us:.0f} us, worker {worker_us:.0f} us "
            f"({front_us + worker_us:.0f} us in all; client {client_us:.0f} us); non-200: {failed}"
        )
        if batch_line:
            lines.append(batch_line)
    return lines


def batch_scaling(
    port: int, pid: int, server: str, count: int, body: bytes, items: int, batches: int, seconds: float
) -> str:
    """One line: ``batches`` x ``count`` batches of ``items`` FENs from two clients a worker."""
    serving, workers = split_processes(pid, server)
    load(port, [("/v1/fen/batch", body)] * count, 2 * count, seconds * 4)  # warm up
    before = sum(map(cpu_seconds, serving)) + sum(map(cpu_seconds, workers))
    latencies, wall, failed = load(port, [("/v1/fen/batch", body)] * (batches * count), 2 * count, seconds * 4)
    spent = sum(map(cpu_seconds, serving)) + sum(map(cpu_seconds, workers)) - before
    fens = max(1, len(latencies) * items)
    return (
        f"             batches of {items:,} FENs: {len(latencies) * items / wall:9,.0f} FENs/s "
        f"({len(latencies)} in {wall:.1f} s, {2 * count} clients); p50 {percentile(latencies, 0.50) * 1000:.0f} ms, "
        f"p99 {percentile(latencies, 0.99) * 1000:.0f} ms a batch; CPU {spent / fens * 1e6:.1f} us a FEN "
        f"(server); non-200: {failed}"
    )


def soak_figure(seconds: float) -> str:
    """The /healthz line of bench_soak (its default attack) held for ``seconds``."""
    import bench_soak

    port = free_port()
    process = bench_soak.start_server("front", port)
    args = argparse.Namespace(seconds=seconds, server="front", slowloris=50, silent=100, liars=8, busy=0)
    try:
        result = asyncio.run(bench_soak.soak(port, args, process.pid))
    finally:
        stop_server(process)
    health = result["health"]
    return (
        f"  /healthz under attack (bench_soak, {seconds:.0f} s of 50 slowloris + 100 silent + 8 liars; the server's "
        f"defaults): {len(health)} answered, p50 {percentile(health, 0.5) * 1000:.1f} ms, "
        f"p99 {percentile(health, 0.99) * 1000:.1f} ms, max {max(health, default=float('nan')) * 1000:.1f} ms; "
        f"errors {len(result['health_errors'])}"
    )


async def _paced(port: int, bodies: list[bytes], rate: float, seconds: float) -> dict[str, Any]:
    """Send ``bodies`` (whole HTTP requests) at ``rate`` a second for at most ``seconds``,
    each on an idle keep-alive connection or a new one. Returns ``latencies`` (s, from the
    moment each was due), and how many were ``sent``, ``late``, ``failed``, and ``refused``
    (a Counter of statuses other than 200)."""
    loop = asyncio.get_running_loop()
    idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter, float]] = []  # last used last
    opened: list[asyncio.StreamWriter] = []
    latencies: list[float] = []
    counts = {"late": 0, "failed": 0}
    refused: collections.Counter[int] = collections.Counter()

    async def one(request: bytes, due: float) -> None:
        try:
            while idle and loop.time() - idle[0][2] > IDLE_SECONDS:  # the server may be closing it
                idle.pop(0)[1].close()
            if idle:
                reader, writer, _ = idle.pop()
            else:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                opened.append(writer)
            if loop.time() - due > LATE_SECONDS:
                counts["late"] += 1
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            status = int(head.split(b" ", 2)[1])
            length = 0
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            await reader.readexactly(length)
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
            counts["failed"] += 1
            return
        latencies.append(loop.time() - due)
        if status != 200:
            refused[status] += 1
            writer.close()  # a refusal may close the connection (503: Connection: close)
            return
        idle.append((reader, writer, loop.time()))

    tasks = []
    start = loop.time()
    for index, request in enumerate(bodies):
        due = start + index / rate
        if due - start > seconds:
            break
        if due > loop.time():
            await asyncio.sleep(due - loop.time())
        tasks.append(asyncio.ensure_future(one(request, due)))
    done, pending = await asyncio.wait(tasks, timeout=60) if tasks else (set(), set())
    for task in pending:
        task.cancel()
    counts["failed"] += len(pending)
    for writer in opened:
        writer.close()
    return {"latencies": latencies, "sent": len(tasks), "refused": refused, **counts}


def paced(port: int, bodies: list[tuple[str, bytes]], rate: float, seconds: float) -> dict[str, Any]:
    """``_paced`` of POST requests to ``port`` (see there)."""
    requests = [
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(data)}\r\n\r\n".encode("ascii") + data
        for path, data in bodies
    ]
    return asyncio.run(_paced(port, requests, rate, seconds))




def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="worker processes (default: CPUs)")
    parser.add_argument(
        "--server", choices=("front", "gunicorn"), default="front", help="notation serve, or the former gunicorn design"
    )
    parser.add_argument("--seconds", type=float, default=15.0, help="time limit of each phase")
    parser.add_argument("--requests", type=int, default=3000, help="single converts to send (closed loop)")
    parser.add_argument("--threads", type=int, default=8, help="client threads for single converts (closed loop)")
    parser.add_argument("--rate", type=float, default=1000.0, help="single converts a second (fixed-rate phase)")
    parser.add_argument("--paced-seconds", type=float, default=10.0, help="length of the fixed-rate phase")
    parser.add_argument(
        "--scaling-seconds", type=float, default=5.0, help="time limit of each worker count's single converts"
    )
    parser.add_argument("--scaling-requests", type=int, default=20_000, help="single converts per worker count")
    parser.add_argument(
        "--scaling-batches", type=int, default=4, help="10,000-FEN batches a worker at each worker count (0: none)"
    )
    parser.add_argument(
        "--soak-seconds", type=float, default=10.0, help="seconds of bench_soak's attack for its /healthz p99 (0: none)"
    )
    parser.add_argument("--batches", type=int, default=16, help="batches to send")
    parser.add_argument("--batch-size", type=int, default=10_000)
    parser.add_argument(
        "--batch-threads", type=int, help="client threads sending batches (default: two a worker, so none waits idle)"
    )
    args = parser.parse_args(argv)
    batch_threads = args.batch_threads or 2 * args.workers

    fens = corpus(max(args.batch_size, args.requests))
    python_chess = per_second(lambda fen: chess.Board(fen).fen(), fens[:2000])
    library = per_second(lambda fen: convert_fen(fen, "standard").to_dict(), fens[:2000])

    counts = sorted({1, min(2, args.workers), args.workers})
    batch_fens = fens[: args.batch_size]
    batch_body = json.dumps({"operation": "convert", "variant": "standard", "items": batch_fens}).encode()
    scaled = scaling(
        args.server, counts,
        json.dumps({"fen": fens[0], "variant": "standard", "profile": "lichess"}).encode(),
        args.scaling_seconds, args.scaling_requests, batch_body, len(batch_fens), args.scaling_batches,
    )
    soaked = soak_figure(args.soak_seconds) if args.soak_seconds > 0 and args.server == "front" else ""
    compared = []
    if args.server == "front" and importlib.util.find_spec("gunicorn") is not None:  # the dev extra has it
        compared = scaling(
            "gunicorn", [args.workers],
            json.dumps({"fen": fens[0], "variant": "standard", "profile": "lichess"}).encode(),
            args.scaling_seconds, args.scaling_requests,
        )

    port = free_port()
    server = start_server(port, args.workers, args.server)
    try:
        singles = [
            ("/v1/fen/convert", json.dumps({"fen": fen, "variant": "standard", "profile": "lichess"}).encode())
            for fen in fens[: args.requests]
        ]
        load(port, singles[:200], args.threads, args.seconds)  # warm up every worker
        latencies, wall, failed = load(port, singles, args.threads, args.seconds)
        rps = len(latencies) / wall

        wanted = int(args.rate * args.paced_seconds)
        paced_bodies = [singles[index % len(singles)] for index in range(wanted)]
        serving, workers = split_processes(server.pid, args.server)
        processes = {"serving layer": serving, "workers": workers}
        cpu_before = {name: sum(map(cpu_seconds, pids)) for name, pids in processes.items()}
        client_before = time.process_time()
        fixed = paced(port, paced_bodies, args.rate, args.paced_seconds)
        paced_cpu = {name: sum(map(cpu_seconds, pids)) - cpu_before[name] for name, pids in processes.items()}
        paced_cpu["client"] = time.process_time() - client_before

        batches = [("/v1/fen/batch", batch_body)] * args.batches
        cpu_before = {name: sum(map(cpu_seconds, pids)) for name, pids in processes.items()}
        client_before = time.process_time()
        batch_latencies, batch_wall, batch_failed = load(port, batches, batch_threads, args.seconds * 4)
        cpu = {name: sum(map(cpu_seconds, pids)) - cpu_before[name] for name, pids in processes.items()}
        cpu["client"] = time.process_time() - client_before
        fens_per_second = len(batch_latencies) * len(batch_fens) / batch_wall
    finally:
        stop_server(server)

    done = max(1, len(batch_latencies))
    print(f"service ({args.server}, 127.0.0.1, notation {build()} build, {os.cpu_count()} cores)")
    print("  single converts and batches by worker count (closed loop, raw keep-alive sockets; CPU from /proc):")
    for line in scaled:
        print(line)
    if soaked:
        print(soaked)
    for line in compared:
        print("  the same single converts under gunicorn (gthread, 4 threads a worker, the app through Flask; "
              "its serving layer is the arbiter):")
        print(line.replace("1 front end ", "gunicorn   "))
    print(f"  at {args.workers} workers:")
    print(f"  single convert, closed loop ({args.threads} keep-alive threads): {len(latencies)} requests in "
          f"{wall:.1f} s = {rps:,.0f} req/s; p50 {percentile(latencies, 0.50) * 1000:.2f} ms, "
          f"p99 {percentile(latencies, 0.99) * 1000:.2f} ms; non-200: {failed}")
    answered = fixed["latencies"]
    statuses = ", ".join(f"{count} x {status}" for status, count in sorted(fixed["refused"].items()))
    print(f"  single convert at a fixed {args.rate:,.0f} req/s (open loop): {fixed['sent']} sent, {len(answered)} "
          f"answered; p50 {percentile(answered, 0.50) * 1000:.2f} ms, p99 {percentile(answered, 0.99) * 1000:.2f} ms; "
          f"late (>{LATE_SECONDS * 1000:.0f} ms): {fixed['late']}; refused: {sum(fixed['refused'].values())}"
          f"{f' ({statuses})' if statuses else ''}; failed: {fixed['failed']}")
    served = max(1, len(answered) - sum(fixed["refused"].values()))  # a 503 costs the front end only
    print("  CPU per single convert answered 200: " + ", ".join(
        f"{name} {seconds / served * 1e6:.0f} us" for name, seconds in paced_cpu.items()
    ) + f" ({sum(paced_cpu.values()) / served * 1e6:.0f} us in all; the machine has {os.cpu_count()} cores)")
    print(f"  batch convert ({batch_threads} keep-alive threads): {len(batch_latencies)} x {len(batch_fens):,} FENs "
          f"in {batch_wall:.1f} s "
          f"= {fens_per_second:,.0f} FENs/s; "
          f"p50 {percentile(batch_latencies, 0.50):.2f} s per batch; non-200: {batch_failed}")
    print("  CPU per batch: " + ", ".join(f"{name} {seconds / done * 1000:.0f} ms" for name, seconds in cpu.items())
          + f" ({sum(cpu.values()) / done / len(batch_fens) * 1e6:.1f} us a FEN in all)")
    per_fen = sum(cpu.values()) / (done * len(batch_fens))
    cores = os.cpu_count() or 1
    print(f"  batch ceiling at that CPU a FEN with all {cores} cores busy: {cores / per_fen:,.0f} FENs/s "
          f"(the wall-clock figure above falls short of it when other processes take CPU)")
    print(f"  in process, one core: python-chess Board(fen).fen() {python_chess:,.0f} FENs/s; "
          f"notation convert_fen(...).to_dict() {library:,.0f} FENs/s ({bench_build()} build)")
    print(f"  ratio batch service / python-chess in process: {fens_per_second / python_chess:.2f}")
    print(f"  ratio batch service / convert_fen in process:  {fens_per_second / library:.2f}")
    print(f"  ratio single-convert req/s / python-chess FENs/s: {rps / python_chess:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
