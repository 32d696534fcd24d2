"""Helpers the service benches share: a free loopback port, stopping a server, reading a
process tree's memory and CPU from /proc (Linux), and percentiles of latencies."""

from __future__ import annotations

import http.client
import os
import pathlib
import signal
import socket
import subprocess
import time
from collections.abc import Callable


def free_port() -> int:
    """A loopback port nothing listens on (the OS picks it)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until_serving(
    process: subprocess.Popen, port: int, what: str, ready: Callable[[], bool] = lambda: True, seconds: float = 60
) -> subprocess.Popen:
    """``process`` once ``GET /healthz`` on ``port`` answers 200 and ``ready()`` holds;
    raises ``SystemExit`` (after stopping it) if it exits or is not up within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            said = process.stderr.read() if process.stderr else ""
            said = said.decode(errors="replace") if isinstance(said, bytes) else said
            raise SystemExit(f"{what} exited with status {process.returncode}: {said.strip()}")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/healthz")
            status = connection.getresponse().status
            connection.close()
            if status == 200 and ready():
                return process
        except OSError:
            pass
        time.sleep(0.2)
    stop_server(process)
    raise SystemExit(f"{what} did not answer /healthz within {seconds:.0f} s")


def stop_server(process: subprocess.Popen) -> None:
    """SIGTERM, 30 s to stop, then SIGKILL (to its whole group when it leads one)."""
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        try:
            if os.getpgid(process.pid) == process.pid:
                os.killpg(process.pid, signal.SIGKILL)
            else:
                process.kill()
        except ProcessLookupError:
            pass
        process.wait()


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (children, their children, ...)."""
    found: list[int] = []
    todo = [pid]
    while todo:
        parent = todo.pop()
        for task in pathlib.Path(f"/proc/{parent}/task").glob("*"):
            try:
                children = (task / "children").read_text().split()
            except OSError:
                continue
            for child in map(int, children):
                found.append(child)
                todo.append(child)
    return found


def status_kib(pid: int, field: str) -> int:
    """A ``/proc/PID/status`` figure in KiB (``VmRSS``, ``VmHWM``), 0 once it is gone."""
    try:
        for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of ``pid`` so far, 0 once it is gone."""
    try:
        fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], fraction: float) -> float:
    """The value below which ``fraction`` of ``values`` lie (NaN for none)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def split_processes(pid: int, server: str = "front") -> tuple[list[int], list[int]]:
    """The serving layer's processes (``pid`` and any front ends below it) and the worker
    processes (those running ``wsgi_worker``) of ``notation serve`` (``server`` "front");
    for another server (gunicorn, waitress), ``pid`` and every process below it."""
    if server != "front":
        return [pid], descendants(pid)
    serving, workers = [pid], []
    for child in descendants(pid):
        try:
            command = pathlib.Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        (workers if b"wsgi_worker" in command else serving).append(child)
    return serving, workers
