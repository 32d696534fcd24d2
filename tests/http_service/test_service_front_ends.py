"""Several front-end processes on one port (``NOTATION_FRONT_ENDS``): the settings share out
the workers, queue and connections; ``/metrics`` adds up every front end's figures; slow,
silent and lying clients starve no front end's ``/healthz``; a request over
``NOTATION_TIMEOUT`` gets 504; a front end that dies is started again; SIGTERM drains every
front end and exits 0.

Against the installed ``notation serve`` with the helpers of ``test_service_front``; no
timed assertions, every wait bounded, every process cleaned up.
"""

from __future__ import annotations

import http.client
import json
import os
import pathlib
import re
import signal
import socket
import subprocess
import time

import pytest
from installed import installed_script
from test_service_front import (
    PROBLEM,
    WAIT,
    Attack,
    Server,
    convert,
    giant_game,
    many_games,
    request,
)

from notation_service.config import ConfigError, Settings

pytestmark = [pytest.mark.live_server, pytest.mark.slow]


def test_shares_add_up_to_the_settings():
    settings = Settings(workers=5, front_ends=2, max_queue=9, max_connections=1001)
    shares = [settings.share(index) for index in range(settings.front_end_count)]
    assert [share.workers for share in shares] == [3, 2]
    assert sum(share.queue_bound for share in shares) == 9
    assert sum(share.max_connections for share in shares) == 1001
    assert all(share.front_end_count == 1 for share in shares)


def test_front_ends_default_to_half_the_workers():
    assert Settings(workers=1).front_end_count == 1
    assert Settings(workers=3).front_end_count == 1
    assert Settings(workers=8).front_end_count == 4
    assert Settings.from_env({"NOTATION_WORKERS": "8", "NOTATION_FRONT_ENDS": "3"}).front_end_count == 3


def test_each_front_end_needs_two_workers():
    with pytest.raises(ConfigError, match="NOTATION_FRONT_ENDS: each front end needs two workers"):
        Settings(workers=3, front_ends=2)
    with pytest.raises(ConfigError, match="NOTATION_FRONT_ENDS"):
        Settings.from_env({"NOTATION_FRONT_ENDS": "-1"})


@pytest.fixture(scope="module")
def server():
    running = Server(
        workers=4,
        NOTATION_FRONT_ENDS="2",
        NOTATION_TIMEOUT="3",
        NOTATION_HEADER_TIMEOUT="2",
        NOTATION_BODY_TIMEOUT="2",
        NOTATION_KEEPALIVE_TIMEOUT="1",
        NOTATION_SEND_TIMEOUT="1",
    )
    try:
        running.wait_for_log(r"listening on http://127\.0\.0\.1:\d+ with 2 front ends")
        yield running
    finally:
        status = running.stop()
        log = running.log_text()
        os.unlink(running.log.name)
    assert status == 0, log
    assert "Traceback" not in log, log


def metric(text: str, name: str) -> float:
    found = re.search(rf"^{re.escape(name)} (\S+)$", text, re.MULTILINE)
    assert found, f"{name} not in:\n{text}"
    return float(found.group(1))


def scrape(port: int) -> str:
    status, _, data = request(port, "GET", "/metrics")
    assert status == 200
    return data.decode()


CONVERTS = 'notation_http_requests_total{method="POST",route="/v1/fen/convert",status="200"}'


def converts_counted(port: int) -> float:
    text = scrape(port)
    return metric(text, CONVERTS) if CONVERTS in text else 0.0


def test_metrics_add_up_over_every_front_end(server):
    before = converts_counted(server.port)
    for _ in range(12):  # each on a new connection: the kernel spreads them over the front ends
        assert convert(server.port) == 200
    for _ in range(4):  # whichever front end answers, the figures are everyone's
        text = scrape(server.port)
        assert metric(text, CONVERTS) == before + 12
        assert metric(text, "notation_workers") == 4
        assert metric(text, "notation_front_ends_reporting") == 2


def test_slow_silent_and_lying_clients_starve_no_front_end(server):
    attack = Attack(server.port, slowloris=30, silent=60, liars=8)
    try:
        for _ in range(10):
            assert request(server.port, "GET", "/healthz")[0] == 200
            assert convert(server.port) == 200
    finally:
        attack.stop()


def test_request_over_notation_timeout_gets_504(server):
    status, content_type, data = request(
        server.port, "POST", "/v1/pgn/normalize", giant_game(15), {"Content-Type": "application/x-chess-pgn"}
    )
    assert (status, content_type) == (504, PROBLEM)
    assert json.loads(data)["status"] == 504
    server.wait_for_log(r"worker (\d+) killed: NOTATION_TIMEOUT \(3 s\) passed during POST /v1/pgn/normalize")


def children(pid: int) -> list[int]:
    found: list[int] = []
    for task in pathlib.Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += map(int, (task / "children").read_text().split())
        except OSError:
            pass
    return found


def test_a_front_end_that_dies_is_started_again(server):
    front_ends = children(server.process.pid)
    assert len(front_ends) == 2
    os.kill(front_ends[0], signal.SIGKILL)
    server.wait_for_log(rf"front end \d \(pid {front_ends[0]}\) ended \(killed by SIGKILL\); starting it again")
    deadline = time.monotonic() + WAIT
    while len(server.log_text().split(" serving with 2 workers")) < 4 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert server.log_text().count(" serving with 2 workers") == 3
    for _ in range(12):
        assert convert(server.port) == 200
    assert metric(scrape(server.port), "notation_front_ends_reporting") == 2


def test_sigterm_drains_every_front_end_and_exits_0():
    running = Server(workers=4, NOTATION_FRONT_ENDS="2")
    try:
        front_ends = children(running.process.pid)
        connection = http.client.HTTPConnection("127.0.0.1", running.port, timeout=WAIT)
        connection.request(
            "POST", "/v1/pgn/normalize", body=many_games(1), headers={"Content-Type": "application/x-chess-pgn"}
        )
        response = connection.getresponse()
        assert response.status == 200
        running.process.send_signal(signal.SIGTERM)
        lines = response.read().decode().splitlines()
        connection.close()
        assert json.loads(lines[-1])["kind"] == "summary"
        assert running.process.wait(timeout=WAIT) == 0
        assert not [pid for pid in front_ends if pathlib.Path(f"/proc/{pid}").exists()]
        with pytest.raises(OSError):
            request(running.port, "GET", "/healthz")
        assert running.log_text().count("service.server: stopped") == 3
    finally:
        running.cleanup()


def test_a_port_in_use_stops_it_with_status_1_even_for_a_server_like_itself():
    with socket.socket() as taken:
        taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [installed_script("notation"), "serve", "--port", str(port), "--workers", "4", "--front-ends", "2"],
            env={**os.environ, "NOTATION_LOG_LEVEL": "warning"}, capture_output=True, text=True, timeout=WAIT,
        )
    assert done.returncode == 1, done.stderr
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr
    assert "Traceback" not in done.stderr
