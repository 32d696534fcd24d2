"""Soak test of the server layer on loopback: while slowloris, silent and Content-Length
liar connections are held open, how fast do /healthz and an ordinary POST /v1/fen/convert
from other clients get answered?

For ``--seconds`` (default 60) it holds ``--slowloris`` connections that send a request
head one byte a second, ``--silent`` connections that send nothing and ``--liars`` that
promise a 1,000-byte body and send 60; each is reopened as soon as the server closes it, so
the attack stays at full strength. Meanwhile one client polls GET /healthz and another
POST /v1/fen/convert, each on a new connection with a 5 s timeout (a timeout or a non-200 is
an error). Prints p50/p99/max of both, the errors, and the peak RSS of the worker processes.
``--busy N`` adds N clients that keep posting a 2 MB PGN to /v1/pgn/normalize (CPU-bound
work that keeps workers busy); their answers are counted, not timed.

``--server front`` (default) runs ``notation serve`` with its defaults (or what
``NOTATION_WORKERS`` and ``NOTATION_FRONT_ENDS`` in the environment say); ``--server gunicorn``
runs the former design (gunicorn gthread, one worker per CPU, 4 threads, keep-alive 5 s;
needs gunicorn, which is in the dev extra); ``--server waitress`` runs waitress with 4
threads, if it is installed. Loopback only; every loop is bounded by the duration and the
server is stopped at the end.

    python bench/bench_soak.py [--seconds 60] [--server front|gunicorn|waitress]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import pathlib
import shutil
import subprocess
import sys
import time

from processes import free_port, percentile, split_processes, status_kib, stop_server, wait_until_serving

ROOT = pathlib.Path(__file__).resolve().parents[1]
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
CONVERT_BODY = json.dumps({"fen": START, "variant": "crazyhouse", "profile": "lichess"}).encode()
PGN_BODY = ((ROOT / "fixtures" / "pgn" / "lichess_variants.pgn").read_text(encoding="utf-8") + "\n\n").encode() * 400
POLL_TIMEOUT = 5.0
POLL_PAUSE = 0.05
PARENT = {"front": "front end(s)", "gunicorn": "arbiter", "waitress": "the one waitress process"}




def server_command(kind: str, port: int) -> list[str]:
    cpus = os.cpu_count() or 1
    if kind == "front":
        notation = shutil.which("notation", path=str(pathlib.Path(sys.executable).parent)) or ""
        command = [notation] if notation else [sys.executable, "-m", "notation"]
        return [*command, "serve", "--host", "127.0.0.1", "--port", str(port)]
    if kind == "gunicorn":
        return [
            sys.executable,
            "-m",
            "gunicorn",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(cpus),
            "--worker-class",
            "gthread",
            "--threads",
            "4",
            "--timeout",
            "60",
            "--keep-alive",
            "5",
            "--log-level",
            "warning",
            "notation_service:create_app()",
        ]
    if kind == "waitress":
        return [
            sys.executable,
            "-m",
            "waitress",
            "--listen",
            f"127.0.0.1:{port}",
            "--threads",
            "4",
            "--connection-limit",
            "1000",
            "--call",
            "notation_service:create_app",
        ]
    raise SystemExit(f"unknown server {kind!r}")


def start_server(kind: str, port: int) -> subprocess.Popen:
    env = {
        **os.environ,
        "NOTATION_LOG_LEVEL": "warning",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    process = subprocess.Popen(
        server_command(kind, port),
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
    )
    return wait_until_serving(process, port, kind)








class Soak:
    def __init__(self, port: int, seconds: float):
        self.port = port
        self.deadline = time.monotonic() + seconds
        self.opened = 0
        self.closed_by_server = 0

    def running(self) -> bool:
        return time.monotonic() < self.deadline

    async def _connect(self):
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.opened += 1
        return reader, writer

    async def _until_closed(self, reader: asyncio.StreamReader) -> None:
        """Wait (at most until the end of the soak) for the server to close; count it."""
        remaining = self.deadline - time.monotonic()
        try:
            while remaining > 0:
                if not await asyncio.wait_for(reader.read(65536), remaining):
                    self.closed_by_server += 1
                    return
                remaining = self.deadline - time.monotonic()
        except (TimeoutError, OSError):
            pass

    async def slowloris(self) -> None:
        while self.running():
            try:
                reader, writer = await self._connect()
                writer.write(b"G")
                closed = asyncio.ensure_future(self._until_closed(reader))
                head = b"ET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100_000
                for byte in head:
                    if closed.done() or not self.running():
                        break
                    await asyncio.sleep(1.0)
                    writer.write(bytes([byte]))
                await closed
                writer.close()
            except OSError:
                await asyncio.sleep(0.1)

    async def silent(self) -> None:
        while self.running():
            try:
                reader, writer = await self._connect()
                await self._until_closed(reader)
                writer.close()
            except OSError:
                await asyncio.sleep(0.1)

    async def liar(self) -> None:
        while self.running():
            try:
                reader, writer = await self._connect()
                writer.write(
                    b"POST /v1/fen/convert HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    b"Content-Length: 1000\r\n\r\n" + b"{" * 60
                )
                await self._until_closed(reader)
                writer.close()
            except OSError:
                await asyncio.sleep(0.1)

    async def busy(self, done: list[int]) -> None:
        request = (
            b"POST /v1/pgn/normalize HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
            b"Content-Type: application/x-chess-pgn\r\nContent-Length: %d\r\n\r\n" % len(PGN_BODY)
        ) + PGN_BODY
        while self.running():
            try:
                reader, writer = await self._connect()
                writer.write(request)
                answer = await asyncio.wait_for(reader.read(), max(0.1, self.deadline - time.monotonic()))
                writer.close()
                done[0 if b'"kind":"summary"' in answer[-600:] else 1] += 1
            except (TimeoutError, OSError):
                await asyncio.sleep(0.1)

    async def poll(self, request: bytes, latencies: list[float], errors: list[str]) -> None:
        while self.running():
            began = time.perf_counter()
            try:
                reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", self.port), POLL_TIMEOUT)
                writer.write(request)
                answer = await asyncio.wait_for(reader.read(), POLL_TIMEOUT)
                writer.close()
                if answer.startswith(b"HTTP/1.1 200"):
                    latencies.append(time.perf_counter() - began)
                else:
                    errors.append(answer[:40].decode("latin-1") or "closed without an answer")
            except (TimeoutError, OSError) as exc:
                errors.append(type(exc).__name__)
            await asyncio.sleep(POLL_PAUSE)


async def soak(port: int, args: argparse.Namespace, pid: int) -> dict:
    run = Soak(port, args.seconds)
    health: list[float] = []
    health_errors: list[str] = []
    ordinary: list[float] = []
    ordinary_errors: list[str] = []
    peak = {"workers_max": 0, "workers_sum": 0, "parent": 0}

    async def sample_rss() -> None:
        while run.running():
            serving, children = split_processes(pid, args.server)
            workers = [status_kib(child, "VmRSS") for child in children]
            peak["workers_max"] = max(peak["workers_max"], max(workers, default=0))
            peak["workers_sum"] = max(peak["workers_sum"], sum(workers))
            peak["parent"] = max(peak["parent"], sum(status_kib(one, "VmRSS") for one in serving))
            await asyncio.sleep(1.0)

    health_request = b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    convert_request = (
        b"POST /v1/fen/convert HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n%s" % (len(CONVERT_BODY), CONVERT_BODY)
    )
    tasks = [run.silent() for _ in range(args.silent)]
    tasks += [run.liar() for _ in range(args.liars)]
    tasks += [run.slowloris() for _ in range(args.slowloris)]
    busy_done = [0, 0]
    tasks += [run.busy(busy_done) for _ in range(args.busy)]
    tasks += [
        run.poll(health_request, health, health_errors),
        run.poll(convert_request, ordinary, ordinary_errors),
        sample_rss(),
    ]
    await asyncio.gather(*tasks)
    return {
        "health": health,
        "health_errors": health_errors,
        "ordinary": ordinary,
        "ordinary_errors": ordinary_errors,
        "peak": peak,
        "opened": run.opened,
        "closed": run.closed_by_server,
        "busy": busy_done,
    }




def describe(name: str, latencies: list[float], errors: list[str]) -> str:
    kinds = {kind: errors.count(kind) for kind in sorted(set(errors))}
    return (
        f"  {name:9} {len(latencies):5} answered; p50 {percentile(latencies, 0.5) * 1000:7.1f} ms, "
        f"p99 {percentile(latencies, 0.99) * 1000:7.1f} ms, max {max(latencies, default=float('nan')) * 1000:7.1f} ms; "
        f"errors {len(errors)} {kinds if kinds else ''}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the attack is held (default 60)")
    parser.add_argument("--server", choices=("front", "gunicorn", "waitress"), default="front")
    parser.add_argument("--slowloris", type=int, default=50)
    parser.add_argument("--silent", type=int, default=100)
    parser.add_argument("--liars", type=int, default=8)
    parser.add_argument("--busy", type=int, default=0, help="clients posting 2 MB PGN jobs all along (default 0)")
    args = parser.parse_args(argv)

    port = free_port()
    server = start_server(args.server, port)
    try:
        result = asyncio.run(soak(port, args, server.pid))
    finally:
        stop_server(server)
    peak = result["peak"]
    print(
        f"soak: {args.server}, {args.seconds:.0f} s holding {args.slowloris} slowloris + {args.silent} silent + "
        f"{args.liars} Content-Length liars{f' + {args.busy} busy PGN clients' if args.busy else ''}"
        f" on 127.0.0.1 ({os.cpu_count()} CPUs)"
    )
    print(describe("/healthz", result["health"], result["health_errors"]))
    print(describe("convert", result["ordinary"], result["ordinary_errors"]))
    if args.busy:
        print(f"  2 MB PGN jobs: {result['busy'][0]} complete, {result['busy'][1]} cut or failed")
    print(f"  attack connections opened {result['opened']}, closed by the server {result['closed']}")
    print(
        f"  peak RSS: worker processes {peak['workers_max'] / 1024:.0f} MiB each at most, "
        f"{peak['workers_sum'] / 1024:.0f} MiB together; "
        f"{PARENT[args.server]} {peak['parent'] / 1024:.0f} MiB"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
