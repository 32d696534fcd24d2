"""Load test of the HTTP service on loopback: `notation serve` (or, with ``--server
gunicorn``, the former gunicorn gthread design), a threaded keep-alive client
(http.client), single converts and 10,000-item batches.

Prints requests/s with p50/p99 latency for single converts, FENs/s for batches, and the
ratios against python-chess (``chess.Board(fen).fen()`` in this process, one core) and
against the library called in process (``convert_fen``, one core), measured in the same run.
Bounded: a request count and a time limit per phase; the server is stopped at the end.
Listens on 127.0.0.1 only.

    python bench/bench_service.py [--workers N] [--seconds S] [--requests N] [--batches N] [--server front|gunicorn]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import pathlib
import random
import subprocess
import sys
import threading
import time

import chess  # test/bench-only oracle (GPL): never imported by the runtime

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from processes import free_port, percentile, stop_server, wait_until_serving  # noqa: E402

from notation.operations import convert_fen  # noqa: E402


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
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
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




def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="worker processes (default: CPUs)")
    parser.add_argument(
        "--server", choices=("front", "gunicorn"), default="front", help="notation serve, or the former gunicorn design"
    )
    parser.add_argument("--seconds", type=float, default=15.0, help="time limit of each phase")
    parser.add_argument("--requests", type=int, default=3000, help="single converts to send")
    parser.add_argument("--threads", type=int, default=8, help="client threads for single converts")
    parser.add_argument("--batches", type=int, default=12, help="batches to send")
    parser.add_argument("--batch-size", type=int, default=10_000)
    args = parser.parse_args(argv)

    fens = corpus(max(args.batch_size, args.requests))
    python_chess = per_second(lambda fen: chess.Board(fen).fen(), fens[:2000])
    library = per_second(lambda fen: convert_fen(fen, "standard"), fens[:2000])

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

        batch_fens = fens[: args.batch_size]
        batch_body = json.dumps({"operation": "convert", "variant": "standard", "items": batch_fens}).encode()
        batches = [("/v1/fen/batch", batch_body)] * args.batches
        batch_latencies, batch_wall, batch_failed = load(port, batches, args.workers, args.seconds * 4)
        fens_per_second = len(batch_latencies) * len(batch_fens) / batch_wall
    finally:
        stop_server(server)

    print(f"service ({args.server}, {args.workers} workers, 127.0.0.1), client: {args.threads} keep-alive threads")
    print(f"  single convert: {len(latencies)} requests in {wall:.1f} s = {rps:,.0f} req/s; "
          f"p50 {percentile(latencies, 0.50) * 1000:.2f} ms, p99 {percentile(latencies, 0.99) * 1000:.2f} ms; "
          f"non-200: {failed}")
    print(f"  batch convert:  {len(batch_latencies)} x {len(batch_fens):,} FENs in {batch_wall:.1f} s "
          f"= {fens_per_second:,.0f} FENs/s; "
          f"p50 {percentile(batch_latencies, 0.50):.2f} s per batch; non-200: {batch_failed}")
    print(f"  in process, one core: python-chess Board(fen).fen() {python_chess:,.0f} FENs/s; "
          f"notation convert_fen {library:,.0f} FENs/s")
    print(f"  ratio batch service / python-chess in process: {fens_per_second / python_chess:.2f}")
    print(f"  ratio batch service / convert_fen in process:  {fens_per_second / library:.2f}")
    print(f"  ratio single-convert req/s / python-chess FENs/s: {rps / python_chess:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
