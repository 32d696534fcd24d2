"""``notation serve`` (front end and worker processes) on a free loopback port, spoken to over real sockets."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time

import pytest
from paths import ROOT

pytestmark = [pytest.mark.live_server, pytest.mark.slow]

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
LIMIT = 32 * 1024


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        "NOTATION_MAX_BODY_BYTES": str(LIMIT),
        "NOTATION_LOG_LEVEL": "warning",
        "PORT": "1",  # overridden by --port
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "notation", "serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "2"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        _wait_until_up(port, process)
        yield port
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    assert process.returncode == 0, process.stderr.read()


def _wait_until_up(port: int, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"notation serve exited with {process.returncode}: {process.stderr.read()}")
        try:
            status, _, _ = request(port, "GET", "/healthz")
            if status == 200:
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError("notation serve did not answer /healthz within 60 s")


def request(port: int, method: str, path: str, body: bytes | None = None, headers: dict | None = None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.getheader("Content-Type"), response.read()
    finally:
        connection.close()


def post_json(port: int, path: str, obj) -> tuple[int, str, dict]:
    headers = {"Content-Type": "application/json"}
    status, content_type, data = request(port, "POST", path, json.dumps(obj).encode(), headers)
    return status, content_type, json.loads(data)


def test_health_contract_and_variants(server):
    assert request(server, "GET", "/healthz")[0] == 200
    status, content_type, data = request(server, "GET", "/openapi.yaml")
    assert (status, content_type) == (200, "application/yaml")
    assert data == (ROOT / "service" / "openapi.yaml").read_bytes()
    status, _, data = request(server, "GET", "/v1/variants")
    assert status == 200 and "crazyhouse" in {v["key"] for v in json.loads(data)["variants"]}
    from notation.variants import DEFAULT_REGISTRY

    for shown in json.loads(data)["variants"]:
        variant = DEFAULT_REGISTRY.get(shown["key"])
        board = {"files": variant.geometry.files, "ranks": variant.geometry.ranks}
        assert (shown["geometry"], shown["family"]) == (board, variant.family.value)


def test_convert_validate_and_batch(server):
    request_body = {"fen": START, "variant": "crazyhouse", "profile": "lichess"}
    status, content_type, body = post_json(server, "/v1/fen/convert", request_body)
    assert (status, content_type) == (200, "application/json")
    assert body["fen"] == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1"
    status, content_type, body = post_json(server, "/v1/fen/convert", {"fen": START + " x", "variant": "standard"})
    assert (status, content_type) == (422, "application/problem+json")
    assert body["errors"][0]["code"] == "fen-syntax"
    request_body = {"operation": "validate", "items": [START, "8/8/8/8/8/8/8/8 w - - 0 1"]}
    status, _, body = post_json(server, "/v1/fen/batch", request_body)
    assert status == 200 and [r["valid"] for r in body["results"]] == [True, False]


def test_declared_length_over_the_limit_is_refused_unread(server):
    with socket.create_connection(("127.0.0.1", server), timeout=30) as sock:
        sock.sendall(
            b"POST /v1/fen/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 1000000000\r\n\r\n"
        )
        head = sock.recv(65536).decode("latin-1")
    assert head.startswith("HTTP/1.1 413")
    assert "application/problem+json" in head


def test_chunked_body_over_the_limit_is_413(server):
    connection = http.client.HTTPConnection("127.0.0.1", server, timeout=30)
    chunks = (b'{"operation": "validate", "items": [' + b'"x",' * 1000 for _ in range(LIMIT // 4000 + 2))
    connection.request(
        "POST", "/v1/fen/batch", body=chunks, headers={"Content-Type": "application/json"}, encode_chunked=True
    )
    response = connection.getresponse()
    assert response.status == 413
    assert response.getheader("Content-Type") == "application/problem+json"
    connection.close()


def test_bad_requests_over_the_wire_are_problems(server):
    assert request(server, "DELETE", "/v1/fen/convert")[:2] == (405, "application/problem+json")
    assert request(server, "GET", "/nothing")[:2] == (404, "application/problem+json")
    status, content_type, _ = request(server, "POST", "/v1/fen/convert", b"{", {"Content-Type": "application/json"})
    assert (status, content_type) == (400, "application/problem+json")
