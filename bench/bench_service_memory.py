"""Peak memory of the HTTP service on big request bodies, over loopback.

Starts ``notation serve`` (one worker by default), posts each payload below to
``POST /v1/pgn/normalize`` (the body limit, NOTATION_MAX_PGN_BYTES, is 64 MiB) and reads
the whole answer, then prints, per payload: the status, the lines answered, the wall
time, the CPU seconds and the peak resident memory (VmHWM) of the server processes other
than the master (the workers; the master is printed too). Each payload gets a fresh
server, so each peak is that payload's alone. Linux only.

Payloads: 60 MB of bytes that are not UTF-8 (0x80..0xff, no newline); 64 MiB of
``*\\n\\n`` (22 million tiny games); 64 MiB of one line with no newline; 64 MiB of tag
lines after an open comment (one game with millions of tags); 64 MiB of real
games (the fixtures in fixtures/pgn, repeated); a gzip bomb (1 GiB of zeros gzipped,
refused with 413 once 64 MiB are decoded). ``--concurrent N`` posts N of the non-UTF-8
body at once. ``--root`` measures another checkout (to compare with an older version).

    python bench/bench_service_memory.py [--workers 1] [--concurrent 8] [--only NAME ...] [--root DIR]
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import os
import pathlib
import subprocess
import sys
import threading
import time

from processes import cpu_seconds, descendants, free_port, status_kib, stop_server, wait_until_serving

ROOT = pathlib.Path(__file__).resolve().parents[1]
MiB = 1024 * 1024
LIMIT = 64 * MiB


def payloads() -> dict[str, tuple[bytes, dict[str, str]]]:
    games = b"".join(
        path.read_bytes().rstrip(b"\n") + b"\n\n" for path in sorted((ROOT / "fixtures" / "pgn").glob("*.pgn"))
    )
    real = games * (LIMIT // len(games))
    # an open comment cut at its limit, then millions of tag lines: one game's header
    opening = b'[Event "x"]\n\n1. e4 {\n'
    tag_lines = opening + b'[Event "x"]\n' * ((LIMIT - len(opening)) // 12)
    bomb = gzip.compress(b"\0" * (1024 * MiB), compresslevel=9, mtime=0)
    return {
        "not-utf8-60MB": (bytes(range(0x80, 0x100)) * (60 * 1000 * 1000 // 128), {}),
        "stars-64MiB": (b"*\n\n" * (LIMIT // 3), {}),
        "one-line-64MiB": (b"a" * LIMIT, {}),
        "tag-lines-64MiB": (tag_lines, {}),
        "games-64MiB": (real, {}),
        "gzip-bomb-1GiB": (bomb, {"Content-Encoding": "gzip"}),
    }




def start_server(root: pathlib.Path, port: int, workers: int) -> subprocess.Popen:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")])),
        "NOTATION_LOG_LEVEL": "warning",
        "NOTATION_TIMEOUT": "600",
    }
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "notation",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--workers",
            str(workers),
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=str(root),
    )
    return wait_until_serving(process, port, "notation serve", lambda: len(descendants(process.pid)) >= workers)










def post(port: int, body: bytes, headers: dict[str, str]) -> tuple[int, int, bytes]:
    """Status, number of lines answered, and the last line."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=900)
    try:
        connection.request(
            "POST", "/v1/pgn/normalize", body=body, headers={"Content-Type": "application/x-chess-pgn", **headers}
        )
        response = connection.getresponse()
        lines, tail = 0, b""
        while True:
            data = response.read(1 << 20)
            if not data:
                break
            lines += data.count(b"\n")
            tail = (tail + data)[-4096:]
        last = tail.rstrip(b"\n").rsplit(b"\n", 1)[-1]
        return response.status, lines, last
    finally:
        connection.close()


def measure(process: subprocess.Popen, port: int, name: str, body: bytes, headers: dict[str, str], copies: int) -> None:
    workers = descendants(process.pid)
    everyone = [process.pid, *workers]
    cpu_before = {pid: cpu_seconds(pid) for pid in everyone}
    results: list[tuple[int, int, bytes]] = []

    def one() -> None:
        results.append(post(port, body, headers))

    started = time.perf_counter()
    threads = [threading.Thread(target=one) for _ in range(copies)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - started
    worker_peak = max(status_kib(pid, "VmHWM") for pid in workers) / 1024
    master_peak = status_kib(process.pid, "VmHWM") / 1024
    cpu = sum(cpu_seconds(pid) - cpu_before[pid] for pid in everyone)
    statuses = sorted({status for status, _, _ in results})
    lines = results[0][1]
    last = results[0][2][:100].decode("ascii", "replace")
    label = f"{name} x{copies}" if copies > 1 else name
    print(
        f"{label:22} {len(body) / MiB:7.1f} MiB  status {statuses}  lines {lines:>9}  wall {wall:6.1f} s  "
        f"cpu {cpu:6.1f} s  worker peak RSS {worker_peak:6.0f} MiB  master {master_peak:4.0f} MiB"
    )
    print(f"{'':22} last line: {last}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--concurrent", type=int, default=0, help="also post N non-UTF-8 bodies at once")
    parser.add_argument("--only", nargs="*", help="payload names to run")
    parser.add_argument("--root", type=pathlib.Path, default=ROOT, help="checkout to serve (default: this one)")
    args = parser.parse_args(argv)
    bodies = payloads()
    runs = [(name, 1) for name in args.only or bodies]
    if args.concurrent > 1:
        runs.append(("not-utf8-60MB", args.concurrent))
    print(f"notation serve from {args.root.resolve()}, {args.workers} worker(s), body limit {LIMIT // MiB} MiB")
    for name, copies in runs:
        port = free_port()
        process = start_server(args.root.resolve(), port, args.workers)
        try:
            idle = max(status_kib(pid, "VmRSS") for pid in descendants(process.pid)) / 1024
            print(f"{'':22} (fresh server, idle worker RSS {idle:.0f} MiB)")
            body, headers = bodies[name]
            measure(process, port, name, body, headers, copies)
        finally:
            stop_server(process)
    return 0


if __name__ == "__main__":
    sys.exit(main())
