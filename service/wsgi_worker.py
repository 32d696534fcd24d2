"""A worker process: runs the Flask app (``create_app``) as WSGI on requests that arrive as
wire frames (``service.wire``), one at a time, until its socket closes.

Started by the worker pool as ``python -m notation_service.wsgi_worker FD SETTINGS_JSON`` with one
end of a socket pair as file descriptor FD. The front end has already read, size-checked
and de-chunked the body: it arrives inline (a ``BODY`` frame) or as the path of a spooled
file, and ``CONTENT_LENGTH`` is always its true length. Answers stream back as ``DATA``
frames as the app yields them (each held until the next is ready, so that a one-chunk
answer is one write); sending blocks while the client is slow (backpressure).
The hot single-position endpoints (``POST /v1/fen/convert``, ``/v1/fen/validate``,
``/v1/moves`` and ``/v1/play``: every click on the page's board) take a fast path
(``FastPath``) past Flask when the request is plain and answers 200: the same bytes, at
half the CPU or less. The worker ignores SIGINT (the front end decides when workers stop)
and ends when the front end closes the socket. When a request's client goes away, the
front end sends ``CANCEL``: the worker stops the answer at its next piece (``ABORT``) or
finishes it, and the front end drops what it sends and gives the worker the next request;
only a request past ``NOTATION_TIMEOUT`` gets its worker killed (SIGKILL). Exit status: 0
at end of file, 3 if the app cannot be built.
"""

from __future__ import annotations

import gc
import io
import json
import logging
import os
import signal
import socket
import sys
from collections.abc import Callable, Iterable
from typing import Any, BinaryIO
from urllib.parse import unquote_to_bytes, urlsplit

import orjson

from . import wire
from .jsonio import dumps_bytes
from .metrics import BEHIND_FRONT_KEY, FENS_KEY

log = logging.getLogger("service.worker")

DATA_PIECE = 256 * 1024  # largest DATA frame: a big answer is sent in pieces of this size

# Headers the front end consumed; the app sees the de-chunked body and its true length.
DROPPED_HEADERS = frozenset(
    {"content-length", "transfer-encoding", "expect", "connection", "keep-alive", "te", "trailer", "upgrade"}
)


def build_environ(head: dict[str, Any], body: BinaryIO) -> dict[str, Any]:
    """The PEP 3333 environ of one request head (as the front end sends it)."""
    target = head["target"]
    if target.startswith(("http://", "https://")):  # absolute-form (RFC 9112 3.2.2)
        parts = urlsplit(target)
        path, query = parts.path or "/", parts.query
    else:
        path, _, query = target.partition("?")
    server_host, server_port = head["server"]
    client_host, client_port = head["client"]
    environ: dict[str, Any] = {
        "REQUEST_METHOD": head["method"],
        "SCRIPT_NAME": "",
        "PATH_INFO": unquote_to_bytes(path).decode("latin-1"),
        "QUERY_STRING": query,
        "RAW_URI": target,
        "SERVER_NAME": str(server_host),
        "SERVER_PORT": str(server_port),
        "SERVER_PROTOCOL": f"HTTP/{head['version']}",
        "REMOTE_ADDR": str(client_host),
        "REMOTE_PORT": str(client_port),
        "CONTENT_LENGTH": str(head["body"]["length"]),
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "http",
        "wsgi.input": body,
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    for name, value in head["headers"]:
        lower = name.lower()
        if lower in DROPPED_HEADERS or "_" in name:  # "_" would let Foo_Bar pose as Foo-Bar
            continue
        if lower == "content-type":
            environ["CONTENT_TYPE"] = value
            continue
        key = "HTTP_" + name.upper().replace("-", "_")
        environ[key] = f"{environ[key]},{value}" if key in environ else value
    return environ


class FastPath:
    """The answer to a plain single-position request without Flask: ``POST`` to the exact
    path, one ``Content-Type: application/json``, no ``Content-Encoding``, an inline body
    within the limit that orjson reads and the endpoint's schema loads (``PlainStrings``
    first where the endpoint has one, as ``bodies.load``), and a 200 answer. Anything else
    (an error included) is left to the app, which words it; what this answers is byte for
    byte what the app answers (tests/http_service/test_service_fast_path.py)."""

    JSON = "application/json"

    def __init__(self, app: Any):
        from .resources import fen, moves
        from .state import EXTENSION_KEY

        current = app.extensions[EXTENSION_KEY]
        schemas = current.schemas
        self.current = current
        self.limit = current.settings.max_body_bytes
        # path: (schema, its all-string loader or None, the view's answer, FENs it counts)
        self.routes: dict[str, tuple[Any, Any, Callable[[Any, dict[str, Any]], Any], int]] = {
            "/v1/fen/convert": (schemas.convert, schemas.plain_convert, fen.convert_answer, 1),
            "/v1/fen/validate": (schemas.validate, schemas.plain_validate, fen.validate_answer, 1),
            "/v1/moves": (schemas.moves, None, moves.moves_answer, 0),
            "/v1/play": (schemas.play, None, moves.play_answer, 0),
        }

    def answer(self, head: dict[str, Any], body: bytes) -> bytes | None:
        """The frames of the answer (START, DATA, END), or None for the app to answer."""
        route = self.routes.get(head["target"])
        if route is None or head["method"] != "POST" or len(body) > self.limit:
            return None
        content_type = None
        for name, value in head["headers"]:
            lower = name.lower()
            if lower == "content-type":
                if content_type is not None:
                    return None
                content_type = value
            elif lower == "content-encoding":
                return None
        if content_type != self.JSON:
            return None
        try:
            data = orjson.loads(body)
        except orjson.JSONDecodeError:
            return None
        schema, plain, run, fens = route
        loaded = plain.load(data) if plain is not None else None
        try:
            if loaded is None:
                loaded = schema.load(data)
            payload = dumps_bytes(run(self.current, loaded))
        except Exception:  # noqa: BLE001 - a refusal (400, 422) or a bug: the app answers it as always
            return None
        start = {"status": 200, "headers": [["Content-Type", self.JSON], ["Content-Length", str(len(payload))]]}
        end = wire.json_frame(wire.END, {"fens": fens}) if fens else wire.frame(wire.END)
        return wire.json_frame(wire.START, start) + wire.frame(wire.DATA, payload) + end


class Worker:
    """Serves requests from ``channel`` with ``app`` until the front end closes it."""

    def __init__(self, app: Callable, channel: wire.BlockingChannel, fast: FastPath | None = None):
        self.app = app
        self.channel = channel
        self.fast = fast

    def serve_forever(self) -> None:
        while True:
            received = self.channel.receive()
            if received is None:
                return
            kind, payload = received
            if kind == wire.CANCEL:  # for a request that ended before it arrived
                continue
            if kind != wire.REQUEST:
                raise wire.WireError(f"expected a request frame, got type {kind}")
            head = wire.parse_json(payload)
            where = head["body"]
            if where.get("file"):
                with open(where["file"], "rb") as spooled:
                    self.handle(head, spooled)
                continue
            received = self.channel.receive()
            if received is None or received[0] != wire.BODY:
                raise wire.WireError("expected a body frame after the request")
            frames = self.fast.answer(head, received[1]) if self.fast is not None else None
            if frames is not None:
                self.channel.send_raw(frames)
                continue
            with io.BytesIO(received[1]) as body:
                self.handle(head, body)

    def handle(self, head: dict[str, Any], body: BinaryIO) -> None:
        """Run the app on one request and stream its answer back as frames.

        The latest chunk is held back until the next one (or the end) is ready, so that an
        answer of one chunk goes out as one write: START, DATA and END together."""
        pending: list[Any] = []
        held = bytearray()  # frames not sent yet: at most START and one chunk
        sent = [False]

        def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Callable:
            if exc_info is not None and sent[0]:
                raise exc_info[1].with_traceback(exc_info[2])
            pending[:] = [status, headers]
            return write

        def add_start() -> None:
            if not sent[0]:
                status, headers = pending
                held.extend(wire.json_frame(wire.START, {"status": int(status.split(" ", 1)[0]), "headers": headers}))
                sent[0] = True

        def flush() -> None:
            if held:
                self.channel.send_raw(bytes(held))
                held.clear()

        def write(data: bytes) -> None:
            if data:
                view = memoryview(data)
                for start in range(0, len(view), DATA_PIECE):  # the front end holds one piece at a time
                    flush()
                    add_start()
                    held.extend(wire.frame(wire.DATA, bytes(view[start : start + DATA_PIECE])))

        result: Iterable[bytes] = ()
        environ = build_environ(head, body)
        environ[BEHIND_FRONT_KEY] = True  # the front end records the request's metrics
        try:
            result = self.app(environ, start_response)
            for chunk in result:
                write(chunk)
                if self.channel.cancel_requested():  # its client went away: stop here
                    held.clear()
                    self.channel.send(wire.ABORT)
                    return
            add_start()
            fens = environ.get(FENS_KEY, 0)  # for the front end's metrics
            held.extend(wire.json_frame(wire.END, {"fens": fens}) if fens else wire.frame(wire.END))
            flush()
        except OSError:
            raise  # the front end is gone: nothing left to answer to
        except Exception:  # noqa: BLE001 - Flask answers its own errors; this is a bug past it
            log.exception("the app failed while answering %s %s", head["method"], head["target"])
            if sent[0]:
                flush()
                self.channel.send(wire.ABORT)
            else:
                from .wire_problems import problem_bytes

                self.channel.send_json(
                    wire.START, {"status": 500, "headers": [["Content-Type", "application/problem+json"]]}
                )
                self.channel.send(
                    wire.DATA, problem_bytes(500, "the service failed on this request; it has been logged")
                )
                self.channel.send(wire.END)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()


def tune_collector() -> None:
    """Set the cyclic garbage collector for serving, once the app is built: what was
    imported and built so far lives as long as the worker, and ``gc.freeze`` keeps every
    later full collection from walking it again (each such walk is a stall for every
    request waiting behind it, and CPU a batch pays). The thresholds stay Python's: raising
    them made batches no cheaper and the young collections single requests meet longer.
    """
    gc.freeze()


def main(argv: list[str]) -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    fd, settings_json = int(argv[1]), argv[2]
    from .config import Settings

    settings = Settings(**json.loads(settings_json))
    logging.basicConfig(
        level=settings.log_level.upper(),
        stream=sys.stderr,
        format="%(asctime)s [%(process)d] %(levelname)s %(name)s: %(message)s",
    )
    try:
        from .app import create_app

        app = create_app(settings)
    except Exception:  # noqa: BLE001 - reported once, the pool stops retrying in a loop
        log.exception("the app could not be built")
        return 3
    tune_collector()
    channel = wire.BlockingChannel(socket.socket(fileno=fd))
    try:
        channel.send_json(wire.READY, {"pid": os.getpid()})
    except OSError as exc:  # the front end died while this worker was starting: nobody to serve
        log.info("worker ends before serving: %s", exc)
        return 0
    try:
        Worker(app, channel, FastPath(app)).serve_forever()
    except (OSError, wire.WireError) as exc:  # the front end went away mid-request
        log.info("worker ends: %s", exc)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
