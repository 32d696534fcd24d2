"""Request bodies with a ``Content-Encoding``: gzip, x-gzip, deflate, zstd and identity are
decoded for every endpoint with a body; the body limit counts decoded bytes (a bomb gets
413 without expanding past it); corrupt data gets 400, other codings 415 naming the
accepted ones. Through the Flask test client, and over real sockets against
``notation serve``."""

from __future__ import annotations

import dataclasses
import gzip
import http.client
import io
import json
import os
import pathlib
import signal
import socket
import subprocess
import sys
import time
import zlib

import pytest
import zstandard
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from paths import ROOT
from service_fixtures import FIXTURES, TEST_SETTINGS, app, assert_problem, client  # noqa: F401

from notation_service.content_coding import ACCEPT_ENCODING, CHUNK, Coding, CorruptBody, decoded

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
INVALID_JSON = "tag:notation,2025:problem:invalid-json"
JSON_LIMIT = TEST_SETTINGS["max_body_bytes"]
PGN_LIMIT = TEST_SETTINGS["max_pgn_bytes"]
PGN = (FIXTURES / "pgn" / "lichess_variants.pgn").read_bytes()


def raw_deflate(data: bytes) -> bytes:
    compressor = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    return compressor.compress(data) + compressor.flush()


def zstd(data: bytes) -> bytes:
    return zstandard.ZstdCompressor(level=3).compress(data)


ENCODERS = {
    "gzip": lambda data: gzip.compress(data, mtime=0),
    "x-gzip": lambda data: gzip.compress(data, mtime=0),
    "GZip": lambda data: gzip.compress(data, mtime=0),
    "deflate": zlib.compress,
    "deflate (raw)": raw_deflate,
    "zstd": zstd,
    "identity": lambda data: data,
    "identity, gzip": lambda data: gzip.compress(data, mtime=0),
    "gzip (two members)": lambda data: gzip.compress(data[:7], mtime=0) + gzip.compress(data[7:], mtime=0),
    "zstd (two frames)": lambda data: zstd(data[:7]) + zstd(data[7:]),
}


def header_of(name: str) -> str:
    return name.split(" (")[0]


def post(client, path: str, data: bytes, encoding: str | None, content_type: str, environ: dict | None = None):
    headers = {"Content-Encoding": encoding} if encoding is not None else {}
    return client.post(path, data=data, content_type=content_type, headers=headers, environ_overrides=environ or {})


def post_json(client, path: str, data: bytes, encoding: str | None, **kwargs):
    return post(client, path, data, encoding, "application/json", **kwargs)


def post_pgn(client, data: bytes, encoding: str | None, **kwargs):
    return post(client, "/v1/pgn/normalize", data, encoding, "application/x-chess-pgn", **kwargs)


# -- decoded for every endpoint with a body --------------------------------------------------

JSON_REQUESTS = [
    ("/v1/fen/convert", {"fen": START, "variant": "crazyhouse", "profile": "lichess"}),
    ("/v1/fen/validate", {"fen": START, "variant": "standard"}),
    ("/v1/fen/batch", {"operation": "validate", "items": [START, "8/8/8/8/8/8/8/8 w - - 0 1"]}),
]


@pytest.mark.parametrize("name", ENCODERS)
@pytest.mark.parametrize("path, body", JSON_REQUESTS, ids=[p for p, _ in JSON_REQUESTS])
def test_json_bodies_are_decoded(client, path, body, name):
    plain = json.dumps(body).encode()
    expected = post_json(client, path, plain, None)
    assert expected.status_code == 200
    response = post_json(client, path, ENCODERS[name](plain), header_of(name))
    assert (response.status_code, response.get_data()) == (200, expected.get_data())


@pytest.mark.parametrize("name", ENCODERS)
def test_pgn_bodies_are_decoded(client, name):
    expected = post_pgn(client, PGN, None)
    assert expected.status_code == 200 and expected.get_data().count(b"\n") > 2
    response = post_pgn(client, ENCODERS[name](PGN), header_of(name))
    assert (response.status_code, response.mimetype, response.get_data()) == (
        200,
        "application/x-ndjson",
        expected.get_data(),
    )


def test_chunked_encoded_body_without_length_is_decoded(client):
    environ = {"wsgi.input": io.BytesIO(zstd(PGN)), "wsgi.input_terminated": True, "CONTENT_LENGTH": ""}
    response = post_pgn(client, b"", "zstd", environ=environ)
    assert response.get_data() == post_pgn(client, PGN, None).get_data()


def test_decoded_json_is_checked_as_json(client):
    problem = assert_problem(
        post_json(client, "/v1/fen/convert", gzip.compress(b'{"fen": "\xff"}'), "gzip"), 400, INVALID_JSON
    )
    assert "byte 9 (0xff)" in problem["detail"]
    problem = assert_problem(post_json(client, "/v1/fen/convert", zstd(b"{"), "zstd"), 400, INVALID_JSON)
    assert "line 1, column 2" in problem["detail"]
    assert "empty" in assert_problem(post_json(client, "/v1/fen/convert", b"", "gzip"), 400, INVALID_JSON)["detail"]


# -- the limit counts decoded bytes; bombs stop there ----------------------------------------

BOMBS = {
    "gzip": lambda size: gzip.compress(b"\0" * size, compresslevel=9, mtime=0),
    "deflate": lambda size: zlib.compress(b"\0" * size, 9),
    "zstd": lambda size: zstd(b"\0" * size),
}


@pytest.mark.parametrize("coding", BOMBS)
def test_bombs_are_413_once_past_the_limit(client, coding):
    json_bomb = BOMBS[coding](JSON_LIMIT * 200)
    assert len(json_bomb) < JSON_LIMIT
    problem = assert_problem(post_json(client, "/v1/fen/batch", json_bomb, coding), 413)
    assert str(JSON_LIMIT) in problem["detail"] and "decoded" in problem["detail"]
    pgn_bomb = BOMBS[coding](PGN_LIMIT * 100)
    assert len(pgn_bomb) < PGN_LIMIT
    problem = assert_problem(post_pgn(client, pgn_bomb, coding), 413)
    assert str(PGN_LIMIT) in problem["detail"] and "decoded" in problem["detail"]


@pytest.mark.parametrize("coding", BOMBS)
def test_a_body_that_decodes_to_exactly_the_limit_is_read(client, coding):
    body = b"*\n" + b" " * (PGN_LIMIT - 2)
    assert post_pgn(client, ENCODERS[coding](body), coding).status_code == 200
    assert_problem(post_pgn(client, ENCODERS[coding](body + b" "), coding), 413)


def test_an_encoded_body_over_the_limit_as_sent_is_413_unread(client):
    body = os.urandom(PGN_LIMIT + 1000)  # incompressible: gzip makes it longer still
    problem = assert_problem(post_pgn(client, gzip.compress(body), "gzip"), 413)
    assert str(PGN_LIMIT) in problem["detail"]


@pytest.mark.slow
@pytest.mark.parametrize("coding", list(Coding))
def test_decoders_hand_on_bounded_pieces_and_stop_when_no_longer_pulled(coding):
    bomb = zeros(coding, 1 << 30)  # one GiB of zeros: some KiB to a MiB compressed
    assert len(bomb) > 4 * 4096
    fed = 0

    def chunks():
        nonlocal fed
        for start in range(0, len(bomb), 4096):
            fed += 1
            yield bomb[start : start + 4096]

    pulled = 0
    pieces = decoded(chunks(), coding)
    for piece in pieces:
        assert 0 < len(piece) <= CHUNK
        pulled += len(piece)
        if pulled > 8 * CHUNK:
            break
    pieces.close()
    assert pulled <= 9 * CHUNK
    assert fed == 1  # the first 4 KiB of input held more than was pulled: nothing more was read


def zeros(coding: Coding, size: int) -> bytes:
    """``size`` zero bytes compressed, without holding them all at once."""
    compressor = {
        Coding.GZIP: lambda: zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS),
        Coding.DEFLATE: lambda: zlib.compressobj(9),
        Coding.ZSTD: lambda: zstandard.ZstdCompressor(level=19).compressobj(),
    }[coding]()
    block = b"\0" * (1 << 20)
    return b"".join(compressor.compress(block) for _ in range(size // len(block))) + compressor.flush()


# -- other codings: 415 naming the accepted ones; corrupt data: 400 -------------------------


@pytest.mark.parametrize(
    "encoding", ["br", "compress", "x-compress", "gzip, br", "gzip, gzip", "deflate, zstd", "zstd;q=1", "*"]
)
@pytest.mark.parametrize("path", ["/v1/fen/convert", "/v1/pgn/normalize"])
def test_other_codings_are_415_naming_the_accepted_ones(client, path, encoding):
    content_type = "application/x-chess-pgn" if path.endswith("normalize") else "application/json"
    response = post(client, path, b"{}", encoding, content_type)
    problem = assert_problem(response, 415)
    assert ACCEPT_ENCODING in problem["detail"]
    assert response.headers["Accept-Encoding"] == "gzip, x-gzip, deflate, zstd, identity"


def _truncated(data: bytes) -> bytes:
    return data[: len(data) - 4]


CORRUPT = [
    ("gzip", b"this is not gzip at all"),
    ("gzip", _truncated(gzip.compress(PGN))),
    ("gzip", gzip.compress(PGN) + b"trailing junk"),
    ("x-gzip", gzip.compress(PGN)[:10]),
    ("deflate", b"\x78\x9c" + b"\xff" * 40),
    ("deflate", b"\xff" * 40),
    ("deflate", _truncated(zlib.compress(PGN))),
    ("deflate", zlib.compress(PGN) + b"x"),
    ("deflate", b"\x78"),
    ("zstd", b"not zstd either"),
    ("zstd", _truncated(zstd(PGN))),
    ("zstd", zstd(PGN) + b"junk after the frame"),
    (
        "zstd",
        zstandard.ZstdCompressor(
            compression_params=zstandard.ZstdCompressionParameters.from_level(3, window_log=24)
        ).compress(PGN * 2000),
    ),  # a 16 MiB window: over RFC 9659's 8 MiB
]


@pytest.mark.parametrize("encoding, body", CORRUPT)
@pytest.mark.parametrize("path", ["/v1/fen/batch", "/v1/pgn/normalize"])
def test_corrupt_data_is_400_naming_the_coding(client, path, encoding, body):
    content_type = "application/x-chess-pgn" if path.endswith("normalize") else "application/json"
    problem = assert_problem(post(client, path, body, encoding, content_type), 400)
    assert problem["type"] == "about:blank"
    assert f"Content-Encoding: {header_of(encoding).replace('x-', '')}" in problem["detail"]


@settings(max_examples=80, deadline=None, derandomize=True)
@given(
    data=st.binary(max_size=5000) | st.text(max_size=2000).map(str.encode),
    coding=st.sampled_from(list(Coding)),
    cuts=st.lists(st.integers(0, 6000), max_size=8),
)
def test_decoding_does_not_depend_on_how_the_body_is_cut(data, coding, cuts):
    encoded = {Coding.GZIP: gzip.compress, Coding.DEFLATE: zlib.compress, Coding.ZSTD: zstd}[coding](data)
    bounds = sorted({0, len(encoded), *(c for c in cuts if c < len(encoded))})
    pieces = [encoded[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]
    assert b"".join(decoded(iter(pieces), coding)) == data


@settings(max_examples=80, deadline=None, derandomize=True)
@given(data=st.binary(max_size=300), coding=st.sampled_from(list(Coding)))
def test_arbitrary_bytes_decode_or_are_corrupt(data, coding):
    try:
        b"".join(decoded(iter([data]), coding))
    except CorruptBody as exc:
        assert coding.value in exc.description


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.binary(max_size=200), encoding=st.sampled_from(["gzip", "deflate", "zstd", "br", "gzip, zstd"]))
def test_no_encoded_body_gets_a_5xx(client, body, encoding):
    for path, content_type in (("/v1/fen/convert", "application/json"), ("/v1/pgn/normalize", "text/plain")):
        response = post(client, path, body, encoding, content_type)
        assert response.status_code in (200, 400, 413, 415, 422), response.get_data(as_text=True)


# -- over real sockets against notation serve -----------------------------------------------

GAMES = b"".join(p.read_bytes().rstrip(b"\n") + b"\n\n" for p in sorted((FIXTURES / "pgn").glob("*.pgn")))
BIG_PGN = GAMES * (12 * 1024 * 1024 // len(GAMES))
SERVER_JSON_LIMIT = 32 * 1024
SERVER_PGN_LIMIT = 16 * 1024 * 1024


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclasses.dataclass(frozen=True)
class Served:
    port: int
    pid: int  # the front end (its children are the workers)
    tmpdir: str  # the server's TMPDIR, where spooled bodies go


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    port = free_port()
    tmpdir = str(tmp_path_factory.mktemp("server-tmp"))
    env = {
        **os.environ,
        "TMPDIR": tmpdir,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        "NOTATION_MAX_BODY_BYTES": str(SERVER_JSON_LIMIT),
        "NOTATION_MAX_PGN_BYTES": str(SERVER_PGN_LIMIT),
        "NOTATION_LOG_LEVEL": "warning",
        "NOTATION_TIMEOUT": "600",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "notation", "serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "1"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise AssertionError(f"notation serve exited with {process.returncode}: {process.stderr.read()}")
            try:
                if request(port, "GET", "/healthz")[0] == 200:
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise AssertionError("notation serve did not answer /healthz within 60 s") from None
                time.sleep(0.1)
        yield Served(port, process.pid, tmpdir)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def request(port: int, method: str, path: str, body=None, headers: dict | None = None, chunked: bool = False):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        connection.request(method, path, body=body, headers=headers or {}, encode_chunked=chunked)
        response = connection.getresponse()
        return response.status, response.headers, response.read()
    finally:
        connection.close()


@pytest.mark.live_server
def test_served_encoded_bodies_are_decoded(server):
    plain = request(server.port, "POST", "/v1/pgn/normalize", PGN, {"Content-Type": "application/x-chess-pgn"})
    assert plain[0] == 200
    for name in ("gzip", "deflate", "zstd"):
        status, headers, data = request(
            server.port,
            "POST",
            "/v1/pgn/normalize",
            ENCODERS[name](PGN),
            {"Content-Type": "application/x-chess-pgn", "Content-Encoding": name},
        )
        assert (status, data) == (200, plain[2])
    body = json.dumps(JSON_REQUESTS[0][1]).encode()
    status, headers, data = request(
        server.port,
        "POST",
        "/v1/fen/convert",
        gzip.compress(body),
        {"Content-Type": "application/json", "Content-Encoding": "gzip"},
    )
    assert status == 200 and json.loads(data)["variant"] == "crazyhouse"


@pytest.mark.slow
@pytest.mark.live_server
def test_served_chunked_bomb_is_413(server):
    bomb = zeros(Coding.ZSTD, SERVER_PGN_LIMIT * 64)
    assert len(bomb) < SERVER_PGN_LIMIT
    pieces = (bomb[i : i + 1000] for i in range(0, len(bomb), 1000))
    status, headers, data = request(
        server.port,
        "POST",
        "/v1/pgn/normalize",
        pieces,
        {"Content-Type": "text/plain", "Content-Encoding": "zstd"},
        chunked=True,
    )
    assert (status, headers["Content-Type"]) == (413, "application/problem+json")
    assert "decoded" in json.loads(data)["detail"]


@pytest.mark.live_server
def test_served_other_codings_and_corrupt_data(server):
    status, headers, data = request(
        server.port, "POST", "/v1/fen/validate", b"{}", {"Content-Type": "application/json", "Content-Encoding": "br"}
    )
    assert (status, headers["Content-Type"], headers["Accept-Encoding"]) == (
        415,
        "application/problem+json",
        ACCEPT_ENCODING,
    )
    status, headers, data = request(
        server.port,
        "POST",
        "/v1/fen/validate",
        b"\x1f\x8b junk",
        {"Content-Type": "application/json", "Content-Encoding": "gzip"},
    )
    assert (status, headers["Content-Type"]) == (400, "application/problem+json")


@pytest.mark.slow
@pytest.mark.live_server
def test_a_client_that_sends_everything_before_reading_does_not_deadlock(server):
    """The body and its answer are each larger than what loopback sockets buffer: the
    service must read the whole body before it writes the answer."""
    body = BIG_PGN
    head = (
        f"POST /v1/pgn/normalize HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-chess-pgn\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode()
    with socket.create_connection(("127.0.0.1", server.port), timeout=300) as sock:
        sock.sendall(head + body)  # every byte sent before one is read
        received = bytearray()
        while chunk := sock.recv(1 << 20):
            received += chunk
    head_end = received.index(b"\r\n\r\n")
    assert received.startswith(b"HTTP/1.1 200")
    assert len(received) > len(body)
    assert b'"kind":"summary"' in received[-2000:]
    assert head_end > 0


def _spooled_bodies(served: Served) -> list[str]:
    """The files in the server's TMPDIR that the front end or its workers have open."""
    pids = [str(served.pid)]
    for children in pathlib.Path(f"/proc/{served.pid}/task").glob("*/children"):
        pids.extend(children.read_text().split())
    found = []
    for pid in pids:
        for fd in pathlib.Path(f"/proc/{pid}/fd").glob("*"):
            try:
                target = os.readlink(fd)
            except OSError:  # closed meanwhile
                continue
            if target.startswith(served.tmpdir):
                found.append(target)
    return found


@pytest.mark.live_server
@pytest.mark.skipif(not pathlib.Path("/proc/self/fd").is_dir(), reason="needs /proc")
def test_a_client_that_goes_away_mid_answer_leaves_nothing_open(server):
    with socket.create_connection(("127.0.0.1", server.port), timeout=300) as sock:
        sock.sendall(
            b"POST /v1/pgn/normalize HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
            + f"Content-Length: {len(BIG_PGN)}\r\n\r\n".encode()
            + BIG_PGN
        )
        assert sock.recv(65536).startswith(b"HTTP/1.1 200")
        assert _spooled_bodies(server), "the body (over 1 MiB) should be spooled to a file while it is answered"
    deadline = time.monotonic() + 120  # a bound on the wait, not a timing assertion
    while _spooled_bodies(server) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _spooled_bodies(server) == []
    assert request(server.port, "GET", "/healthz")[0] == 200
