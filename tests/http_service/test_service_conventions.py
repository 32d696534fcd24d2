"""Service conventions on the live ``notation serve`` (real sockets, worker processes):
X-Request-ID, JSON-lines access logs, CORS (off by default), /readyz and /metrics counted
across every worker."""

from __future__ import annotations

import concurrent.futures
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest
from installed import installed_script
from paths import ROOT

pytestmark = [pytest.mark.live_server, pytest.mark.slow]

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
ORIGIN = "https://app.example"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    def __init__(self, log: Path, **env: str):
        self.port = free_port()
        self.log = log
        self._stderr = open(log, "w")
        environ = {**os.environ, "NOTATION_LOG_LEVEL": "warning", **env}
        self.process = subprocess.Popen(
            [installed_script("notation"), "serve", "--host", "127.0.0.1", "--port", str(self.port), "--workers", "2"],
            env=environ, stdout=subprocess.DEVNULL, stderr=self._stderr,
        )
        deadline = time.monotonic() + 120  # a bound on start-up, not a timing assertion
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"notation serve exited: {log.read_text()}")
            try:
                if self.request("GET", "/readyz")[0] == 200:
                    return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise AssertionError("notation serve was not ready within 120 s")

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            connection.close()

    def post(self, path: str, obj, headers: dict | None = None):
        headers = {"Content-Type": "application/json", **(headers or {})}
        return self.request("POST", path, json.dumps(obj).encode(), headers)

    def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()
        finally:
            self._stderr.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    log = tmp_path_factory.mktemp("serve") / "stderr.log"
    running = Server(log, NOTATION_ACCESS_LOG="json", NOTATION_CORS_ORIGINS=f"{ORIGIN}, https://other.example")
    yield running
    running.stop()


@pytest.fixture(scope="module")
def plain_server(tmp_path_factory):
    running = Server(tmp_path_factory.mktemp("serve") / "stderr.log", NOTATION_METRICS="off")
    yield running
    running.stop()


def test_request_id_is_echoed_or_made(server):
    _, headers, _ = server.request("GET", "/v1/variants", headers={"X-Request-ID": "trace-1234.abc"})
    assert headers["X-Request-ID"] == "trace-1234.abc"
    made = {server.request("GET", "/healthz")[1]["X-Request-ID"] for _ in range(3)}
    assert len(made) == 3 and all(re.fullmatch(r"[0-9a-f]{32}", made_id) for made_id in made)
    _, headers, _ = server.request("GET", "/healthz", headers={"X-Request-ID": "bad id\twith spaces"})
    assert headers["X-Request-ID"] != "bad id\twith spaces"
    status, headers, _ = server.post("/v1/fen/convert", {"fen": "x"}, {"X-Request-ID": "convert-1"})
    assert (status, headers["X-Request-ID"]) == (422, "convert-1")


def test_request_id_on_an_answer_of_the_server_layer(server):
    with socket.create_connection(("127.0.0.1", server.port), timeout=60) as sock:
        sock.sendall(b"GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n")
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 505 ") and b"\r\nX-Request-ID: " in answer


def test_cors_for_listed_origins_only(server, plain_server):
    _, headers, _ = server.request("GET", "/healthz", headers={"Origin": ORIGIN})
    assert headers["Access-Control-Allow-Origin"] == ORIGIN
    assert "X-Request-ID" in headers["Access-Control-Expose-Headers"]
    _, headers, _ = server.request("GET", "/v1/variants", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in headers and headers["Vary"] == "Origin"
    preflight = {
        "Origin": ORIGIN, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type",
    }
    status, headers, body = server.request("OPTIONS", "/v1/fen/convert", headers=preflight)
    assert (status, body) == (204, b"")
    assert "POST" in headers["Access-Control-Allow-Methods"]
    assert "Content-Type" in headers["Access-Control-Allow-Headers"]
    # off by default: no CORS header, whatever the origin
    _, headers, _ = plain_server.request("GET", "/v1/variants", headers={"Origin": ORIGIN})
    assert not [name for name in headers if name.lower().startswith("access-control-")]
    status, headers, _ = plain_server.request("OPTIONS", "/v1/fen/convert", headers=preflight)
    assert "Access-Control-Allow-Origin" not in headers


def test_readyz(server):
    status, headers, body = server.request("GET", "/readyz")
    assert (status, headers["Content-Type"]) == (200, "application/json")
    assert json.loads(body)["status"] == "ready"
    assert server.request("HEAD", "/readyz")[0] == 200


def metric(text: str, name: str, **labels: str) -> float:
    wanted = ",".join(f'{key}="{value}"' for key, value in sorted(labels.items()))
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        head, _, value = line.rpartition(" ")
        metric_name, _, label_text = head.partition("{")
        found = ",".join(sorted(label_text.rstrip("}").split(","))) if label_text else ""
        if metric_name == name and found == wanted:
            return float(value)
    return 0.0


def test_metrics_count_every_workers_requests(server):
    before = server.request("GET", "/metrics")[2].decode()
    items = [START] * 5

    def batch(_: int) -> int:
        return server.post("/v1/fen/batch", {"operation": "validate", "items": items})[0]

    with concurrent.futures.ThreadPoolExecutor(4) as pool:  # both workers answer some
        assert list(pool.map(batch, range(12))) == [200] * 12
    assert server.post("/v1/fen/convert", {"fen": "not a fen"})[0] == 422
    status, headers, body = server.request("GET", "/metrics")
    assert status == 200 and headers["Content-Type"].startswith("text/plain")
    after = body.decode()

    def grew(name: str, **labels: str) -> float:
        return metric(after, name, **labels) - metric(before, name, **labels)

    assert grew("notation_http_requests_total", method="POST", route="/v1/fen/batch", status="200") == 12
    assert grew("notation_fens_processed_total", route="/v1/fen/batch") == 60
    assert grew("notation_fens_processed_total", route="/v1/fen/convert") == 1
    assert grew("notation_http_errors_total", route="/v1/fen/convert", kind="client") == 1
    assert grew("notation_http_request_duration_seconds_count", route="/v1/fen/batch") == 12
    assert metric(after, "notation_workers") == 2


def test_metrics_can_be_turned_off(plain_server):
    status, headers, _ = plain_server.request("GET", "/metrics")
    assert (status, headers["Content-Type"]) == (404, "application/problem+json")


def test_access_log_is_json_lines_naming_the_request_id(tmp_path):
    log = tmp_path / "stderr.log"
    running = Server(log, NOTATION_ACCESS_LOG="json")
    try:
        running.post("/v1/fen/validate", {"fen": START}, {"X-Request-ID": "logged-1"})
    finally:
        assert running.stop() == 0
    entries = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
    mine = [entry for entry in entries if entry["request_id"] == "logged-1"]
    assert len(mine) == 1
    assert mine[0]["method"] == "POST" and mine[0]["target"] == "/v1/fen/validate"
    assert mine[0]["status"] == 200 and mine[0]["fens"] == 1 and mine[0]["duration_ms"] >= 0
    assert {"time", "client"} <= set(mine[0])


def test_every_setting_is_documented():
    from notation_service.config import ENV_NAMES

    root = ROOT
    guide = (root / "docs" / "service.md").read_text(encoding="utf-8")
    contract = (root / "service" / "openapi.yaml").read_text(encoding="utf-8")
    assert [name for name in ENV_NAMES.values() if f"`{name}`" not in guide] == []
    for convention in ("X-Request-ID", "NOTATION_CORS_ORIGINS", "NOTATION_METRICS", "/readyz", "/metrics"):
        assert convention in contract and convention in guide
