"""The HTTP/1.1 front end: an asyncio server that owns every connection, every timeout and
every error the server layer answers, and hands whole requests to the worker pool.

Per connection, one request at a time (keep-alive, pipelined requests wait their turn):

1. the head arrives under ``header_timeout`` (counted from accept for a connection's first
   request, else from the request's first byte) and ``service.http_head``'s size limits,
   then the connection's one parser reads it (``service.http_request``: a method outside
   RFC 9110's gets 501, methods are case-sensitive) and ``service.http_answer`` writes
   its answer; an idle keep-alive connection is closed after ``keepalive_timeout`` and a
   connection that sends nothing after ``header_timeout``, both without an answer;
2. ``GET``/``HEAD /healthz``, ``/readyz`` and ``/metrics`` are answered here, so they never
   wait for a busy worker (and ``/metrics`` counts every worker's requests, and adds up the
   sibling front ends' figures when there are several: ``Front.peers``), as is a CORS
   preflight ``OPTIONS`` request when ``NOTATION_CORS_ORIGINS`` allows cross-origin use;
3. the body arrives under ``body_timeout`` (the longest pause between two reads, and the
   first part of a minimum average rate, ``BODY_MIN_RATE``) and the
   endpoint's limit (``max_pgn_bytes`` for ``POST /v1/pgn/normalize``, ``max_body_bytes``
   for everything else), in memory up to ``SPOOL_BYTES`` and in a temporary file past it;
4. a worker is acquired (bounded queue) and the answer streams back frame by frame: the
   next frame is read only once the client has taken the last one (``send_timeout``);
5. ``timeout`` bounds step 4 (the wait for a worker included); past it the worker is
   killed and replaced, and the client gets 503/504 if no status was sent yet, else the
   connection is cut. When the client closes its side or stops taking the answer, the
   connection is cut and the worker is not killed: the pool tells it to stop
   (``WorkerPool.abandon``), drops the rest of its answer and gives it the next request.

Every answer carries ``X-Request-ID`` (the client's, or a new one: ``service.request_id``),
which the worker's app also receives and every access log line names; with
``NOTATION_ACCESS_LOG=json`` the access log is one JSON object a line.

Errors answered here are problem+json with ``Connection: close`` (``wire_problems``),
followed by a lingering close: the server shuts its sending side and reads and discards
what the client still sends, for at most ``LINGER_SECONDS`` and ``LINGER_BYTES``, so that
a client that writes its whole body before reading (Python's urllib) gets the answer
instead of a reset. Nothing here runs the app or imports Flask.
"""

from __future__ import annotations

import asyncio
import email.utils
import logging
import os
import tempfile
import time
from collections.abc import Sequence
from typing import Any, BinaryIO

from notation import __version__

from . import wire
from .config import Settings
from .http_answer import AnswerWriter
from .http_head import Head, HeadRejected, HeadScanner, strip_leading_empty_lines
from .http_request import HeadRefused, RequestReader
from .jsonio import dumps
from .metrics import CONTENT_TYPE as METRICS_CONTENT_TYPE
from .metrics import Metrics
from .metrics_peers import render_all
from .request_id import HEADER as REQUEST_ID_HEADER
from .request_id import new_id, request_id
from .wire_problems import closing_response, problem_bytes
from .worker_pool import Lane, Overloaded, WorkerGone, WorkerPool, WorkerProcess

log = logging.getLogger("service.front")
access_log = logging.getLogger("service.access")

PGN_PATH = "/v1/pgn/normalize"
HEALTH_PATH = "/healthz"
READY_PATH = "/readyz"
METRICS_PATH = "/metrics"
SPOOL_BYTES = 1024 * 1024  # bodies larger than this go to a temporary file
INBOX_HIGH_WATER = 256 * 1024  # unread bytes from a client before its socket is not read
WRITE_HIGH_WATER = 256 * 1024  # unsent bytes to a client before the worker is not read
LINGER_SECONDS = 5.0
LINGER_BYTES = 1 << 30
RETRY_AFTER_SECONDS = 1
HOP_BY_HOP = frozenset(
    {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "proxy-connection"}
)
# The slowest average a body may arrive at once its first body_timeout has passed, as
# Apache's mod_reqtimeout (MinRate=500): a body that trickles in never holds its slot long.
BODY_MIN_RATE = 500


class ClientGone(Exception):
    """The client closed its side or stopped taking the answer."""


class Refusal(Exception):
    """An error this layer answers itself (problem+json, then a lingering close)."""

    def __init__(self, status: int, detail: str, headers: Sequence[tuple[str, str]] = ()):
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.headers = list(headers)


class Front:
    """Shared state of the front end: settings, the pool, open connections, shutdown."""

    def __init__(self, settings: Settings, pool: WorkerPool, spool_dir: str, peers: Sequence[str] = ()):
        self.settings = settings
        self.pool = pool
        self.spool_dir = spool_dir
        self.peers = tuple(peers)  # the other front ends' figure sockets (service.metrics_peers)
        self.connections: dict[ClientConnection, None] = {}  # in order of arrival
        self.stopping = False
        self.health_body = dumps({"status": "ok", "version": __version__}).encode("ascii")
        self.cors = settings.cors()
        self.metrics = Metrics()
        self.metrics.gauge("notation_workers", "Worker processes running", lambda: len(pool.workers))
        self.metrics.gauge("notation_workers_idle", "Worker processes waiting for a request", lambda: len(pool.idle))
        self.metrics.gauge("notation_queue_length", "Requests waiting for a free worker", lambda: len(pool.waiters))
        self.metrics.gauge("notation_connections", "Open client connections", lambda: len(self.connections))

    async def render_metrics(self) -> bytes:
        """The Prometheus text of this front end's figures, plus its siblings' when there are any."""
        if not self.peers:
            return self.metrics.render()
        return await render_all(self.metrics, self.peers)

    def ready(self) -> str | None:
        """Why the service cannot take requests now (None: it can)."""
        if self.stopping:
            return "the service is shutting down"
        if not any(worker.alive() for worker in self.pool.workers):
            return "no worker process is running"
        return None

    def protocol(self) -> ClientConnection:
        return ClientConnection(self)

    def admit(self, connection: ClientConnection) -> bool:
        """Register a new connection; past ``max_connections`` close the oldest idle one
        to make room, or refuse this one (503) if none is idle."""
        self.connections[connection] = None
        if len(self.connections) <= self.settings.max_connections:
            return True
        for other in self.connections:
            if other is not connection and other.phase == "idle":
                log.info(
                    "max_connections (%d) reached: closing the oldest idle connection", self.settings.max_connections
                )
                other.close_quietly()
                return True
        return False

    def forget(self, connection: ClientConnection) -> None:
        self.connections.pop(connection, None)

    async def shutdown(self, grace: float) -> None:
        """Close connections with no request in flight; give the others ``grace`` seconds,
        then cut them (their workers are killed)."""
        self.stopping = True
        for connection in list(self.connections):
            if connection.phase in ("idle", "head"):
                connection.close_quietly()
        tasks = [connection.task for connection in self.connections if connection.task is not None]
        if tasks:
            done, pending = await asyncio.wait(tasks, timeout=grace)
            for task in pending:
                task.cancel()
            if pending:
                log.warning("%d request(s) still running after %d s were cut", len(pending), grace)
                await asyncio.wait(pending, timeout=5)


class ClientConnection(asyncio.Protocol):
    """One client connection and the task that serves its requests in turn."""

    def __init__(self, front: Front):
        self.front = front
        self.settings = front.settings
        self.inbox = bytearray()
        self.reader = RequestReader()  # the connection's one parser, request after request
        self.eof = False
        self.phase = "idle"  # idle (no byte of a request yet), head, body, dispatch, respond, linger
        self.task: asyncio.Task | None = None
        self.client_gone = False
        self.transport: asyncio.Transport | None = None
        self.peer: tuple[Any, ...] = ("", 0)
        self.local: tuple[Any, ...] = ("", 0)
        self._data_waiter: asyncio.Future | None = None
        self._drain_waiter: asyncio.Future | None = None
        self._write_paused = False
        self._read_paused = False
        self._lost = False
        self.request_id = new_id()  # of the request being served
        self.origin: str | None = None  # its Origin header
        self.fens = 0  # FENs its answer processed, as the worker said

    # -- asyncio.Protocol ---------------------------------------------------------------

    @property
    def _out(self) -> asyncio.Transport:
        """The connection's transport; ``connection_made`` sets it before anything is sent."""
        assert self.transport is not None
        return self.transport

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.peer = transport.get_extra_info("peername") or ("", 0)
        self.local = transport.get_extra_info("sockname") or ("", 0)
        transport.set_write_buffer_limits(high=WRITE_HIGH_WATER)  # type: ignore[attr-defined]
        accepted = asyncio.get_running_loop().time()
        if not self.front.admit(self):
            self._out.write(
                closing_response(
                    503,
                    f"the server has its maximum of {self.settings.max_connections} connections open; try again later",
                    [("Retry-After", str(RETRY_AFTER_SECONDS))],
                )
            )
            self._out.close()
            self.front.forget(self)
            return
        self.task = asyncio.get_running_loop().create_task(self._run(accepted))

    def data_received(self, data: bytes) -> None:
        self.inbox += data
        self._wake_reader()
        if len(self.inbox) > INBOX_HIGH_WATER and not self._read_paused and self.transport is not None:
            self.transport.pause_reading()
            self._read_paused = True

    def eof_received(self) -> bool:
        self.eof = True
        self._wake_reader()
        self._client_went_away()
        return True  # keep the sending side open: an answer can still be written

    def connection_lost(self, exc: Exception | None) -> None:
        self._lost = True
        self.eof = True
        self._wake_reader()
        if self._drain_waiter is not None and not self._drain_waiter.done():
            self._drain_waiter.set_exception(ClientGone("the connection was lost"))
        self._client_went_away()
        self.front.forget(self)

    def pause_writing(self) -> None:
        self._write_paused = True

    def resume_writing(self) -> None:
        self._write_paused = False
        if self._drain_waiter is not None and not self._drain_waiter.done():
            self._drain_waiter.set_result(None)

    # -- reading and writing ------------------------------------------------------------

    def _wake_reader(self) -> None:
        if self._data_waiter is not None and not self._data_waiter.done():
            self._data_waiter.set_result(None)

    def _client_went_away(self) -> None:
        if self.phase == "dispatch" and self.task is not None and not self.client_gone:
            self.client_gone = True
            self.task.cancel()

    async def _wait_for_data(self, deadline: float, seen: int = 0) -> None:
        """Wait until the inbox holds more than ``seen`` bytes or end of file arrives;
        raises ``TimeoutError`` at ``deadline``."""
        if len(self.inbox) > seen or self.eof:
            return
        loop = asyncio.get_running_loop()
        waiter = self._data_waiter = loop.create_future()
        timer = loop.call_at(deadline, _time_out, waiter)  # leaner than asyncio.timeout_at
        try:
            await waiter
        finally:
            timer.cancel()
            self._data_waiter = None

    def _take_inbox(self, length: int | None = None) -> bytes:
        """The inbox's first ``length`` bytes (all by default), taken out of it."""
        if length is None or length >= len(self.inbox):
            data = bytes(self.inbox)
            self.inbox.clear()
        else:
            data = bytes(self.inbox[:length])
            del self.inbox[:length]
        if self._read_paused and self.transport is not None and not self._lost:
            self.transport.resume_reading()
            self._read_paused = False
        return data

    async def _drain(self) -> None:
        """Wait until the client has taken enough of the answer; raises ``ClientGone`` when
        it takes no byte for ``send_timeout`` seconds or the connection is lost."""
        if self._lost:
            raise ClientGone("the connection was lost")
        if not self._write_paused:
            return
        self._drain_waiter = asyncio.get_running_loop().create_future()
        try:
            unsent = self._out.get_write_buffer_size()
            while True:
                try:
                    await asyncio.wait_for(asyncio.shield(self._drain_waiter), self.settings.send_timeout)
                    return
                except TimeoutError:
                    now_unsent = self._out.get_write_buffer_size()
                    if now_unsent >= unsent:
                        raise ClientGone(
                            f"the client took no byte of its answer for {self.settings.send_timeout} s"
                        ) from None
                    unsent = now_unsent  # slow but moving: wait on
        finally:
            self._drain_waiter = None

    def close_quietly(self) -> None:
        if self.transport is not None:
            self._out.close()
        if self.task is not None and self.phase in ("idle", "head"):
            self.task.cancel()

    # -- serving ------------------------------------------------------------------------

    async def _run(self, accepted: float) -> None:
        served = 0
        try:
            while not self.front.stopping:
                keep_open = await self._serve_one(accepted if served == 0 else None)
                served += 1
                if not keep_open:
                    break
        except asyncio.CancelledError:
            pass
        except Exception:  # noqa: BLE001 - a bug here must not take the server down
            log.exception("connection from %s failed", self.peer[0])
        finally:
            if self.transport is not None:
                if self.client_gone or self.phase == "dispatch":
                    self._out.abort()
                else:
                    self._out.close()
            self.front.forget(self)

    async def _serve_one(self, accepted: float | None) -> bool:
        """Read, dispatch and answer one request; ``True`` to keep the connection open.
        ``accepted`` is the loop time of accept for a connection's first request."""
        self.phase = "idle"
        loop = asyncio.get_running_loop()
        if accepted is not None:
            idle_deadline = accepted + self.settings.header_timeout
        else:
            idle_deadline = loop.time() + self.settings.keepalive_timeout
        while True:  # wait for a request's first byte; blank lines before it are dropped
            strip_leading_empty_lines(self.inbox)
            if self.inbox:
                break
            if self.eof:
                return False
            try:
                await self._wait_for_data(idle_deadline)
            except TimeoutError:
                return False  # idle: close without an answer
        self.phase = "head"
        self.request_id, self.origin, self.fens = new_id(), None, 0
        started = time.monotonic()
        head_deadline = (accepted if accepted is not None else loop.time()) + self.settings.header_timeout
        try:
            return await self._exchange(head_deadline, started)
        except Refusal as refusal:
            await self._refuse(refusal)
            self._log_access("-", "-", refusal.status, started)
            return False

    async def _exchange(self, head_deadline: float, started: float) -> bool:
        data = await self._read_head(head_deadline)
        try:
            request = self.reader.read_head(data)
        except HeadRefused as refused:
            raise Refusal(refused.status, refused.detail) from None
        exchange = AnswerWriter(request.method, request.http_version, request.close)
        target = request.target.decode("latin-1")
        method = request.method.decode("latin-1")
        path = target.split("?", 1)[0]
        given = _header(request, b"x-request-id")
        if given is not None:  # else the new id _serve_one gave
            self.request_id = request_id(given)
        self.origin = _header(request, b"origin")
        local = await self._local_answer(request, method, path)
        if local is not None:
            (await self._read_body(request, self.settings.max_body_bytes)).close()
            status, content_type, payload, extra = local
            self._answer_here(exchange, method, status, content_type, payload, extra)
            self._log_access(method, target, status, started)
            return self._finish_cycle(exchange)
        limit = self.settings.max_pgn_bytes if (method == "POST" and path == PGN_PATH) else self.settings.max_body_bytes
        body = await self._read_body(request, limit)
        try:
            status = await self._forward(request, exchange, body)
        finally:
            body.close()
        self._log_access(method, target, status, started)
        if status == 0:  # cut short: the connection is already aborted
            return False
        return self._finish_cycle(exchange)

    async def _read_head(self, deadline: float) -> bytes:
        """The bytes of a request head through its blank line, within the size limits."""
        scanner = HeadScanner()
        while True:
            try:
                length = scanner.scan(self.inbox)
            except HeadRejected as rejected:
                raise Refusal(rejected.status, rejected.detail) from None
            if length is not None:
                break
            if self.eof:
                raise Refusal(400, "the connection was closed in the middle of the request head")
            try:
                await self._wait_for_data(deadline, seen=len(self.inbox))
            except TimeoutError:
                raise Refusal(408, f"the request head did not arrive within {self.settings.header_timeout} s") from None
        head = bytes(self.inbox[:length])
        del self.inbox[:length]
        return head

    async def _read_body(self, request: Head, limit: int) -> Body:
        """The request body, de-chunked, or a ``Refusal``: 413 past ``limit``, 408 after
        ``body_timeout`` without a byte or when the body averages under ``BODY_MIN_RATE``
        bytes a second after its first ``body_timeout``, 400 for broken chunked framing.
        What follows the body stays in the inbox (a pipelined request)."""
        self.phase = "body"
        body = Body(self.front.spool_dir)
        try:
            declared = _content_length(request)
            if declared is not None and declared > limit:
                raise Refusal(413, f"the body is {declared} bytes; this endpoint accepts at most {limit} bytes")
            reader = self.reader
            if reader.complete:
                return body
            expects = (_header(request, b"expect") or "").lower() == "100-continue"
            if expects and request.http_version == b"1.1" and not self.inbox:  # RFC 9110 10.1.1
                self._write(b"HTTP/1.1 100 Continue\r\n\r\n")
            started = asyncio.get_running_loop().time()
            while not reader.complete:
                if not self.inbox:
                    if self.eof:
                        raise Refusal(400, "the connection was closed before the whole body arrived")
                    await self._wait_for_body(started, body.size)
                    continue
                length = reader.body_piece(self.inbox)
                piece = self._take_inbox(length)
                try:
                    pieces = reader.feed_body(piece)
                except HeadRefused as refused:
                    raise Refusal(refused.status, refused.detail) from None
                for data in pieces:
                    if body.size + len(data) > limit:
                        raise Refusal(413, f"the body is longer than {limit} bytes, the most this endpoint accepts")
                    body.write(data)
            return body
        except BaseException:
            body.close()
            raise

    async def _wait_for_body(self, started: float, size: int) -> None:
        """Wait for more of a body that began at loop time ``started``, ``size`` bytes so
        far: 408 after a pause of ``body_timeout``, or for a body slower on average than
        ``BODY_MIN_RATE`` (the whole body gets body_timeout plus a second per BODY_MIN_RATE bytes)."""
        loop = asyncio.get_running_loop()
        paused = loop.time() + self.settings.body_timeout
        overall = started + self.settings.body_timeout + size / BODY_MIN_RATE
        try:
            await self._wait_for_data(min(paused, overall))
        except TimeoutError:
            if overall < paused:
                raise Refusal(
                    408, f"the body came slower than {BODY_MIN_RATE} bytes a second; {size} bytes came"
                ) from None
            raise Refusal(
                408, f"no byte of the body arrived for {self.settings.body_timeout} s; {size} bytes came"
            ) from None

    async def _forward(self, request: Head, exchange: AnswerWriter, body: Body) -> int:
        """Have a worker answer; returns the status sent, or 0 if the answer was cut."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.settings.timeout
        self.phase = "dispatch"
        worker: WorkerProcess | None = None
        started = False
        status = 0
        if self.eof:  # the client closed its side after sending: no one to answer
            log.info("the client went away before %s was dispatched", _line(request))
            return 0
        try:
            async with asyncio.timeout_at(deadline):
                try:
                    worker = await self.front.pool.acquire(_lane(request))
                except Overloaded as exc:
                    raise Refusal(
                        503,
                        f"the service is overloaded ({exc}); try again later",
                        [("Retry-After", str(RETRY_AFTER_SECONDS))],
                    ) from None
                await worker.send_request(self._wire_head(request, body), body.inline())
                held = b""  # the answer's head, written with its first piece of body (one send)
                while True:
                    kind, payload = await worker.next_frame()
                    if kind == wire.START:
                        status, held = self._start_answer(exchange, wire.parse_json(payload))
                        started = True
                    elif kind == wire.DATA and started:
                        data = exchange.data(payload)
                        self._write(held + data if held else data)
                        held = b""
                        await self._drain()
                    elif kind == wire.END and started:
                        self.fens = int(wire.parse_json(payload).get("fens", 0)) if payload else 0
                        self.front.pool.release(worker)
                        worker = None
                        self._write(held + exchange.end())
                        self.phase = "respond"
                        await self._drain()
                        return status
                    elif kind == wire.ABORT:
                        self.front.pool.release(worker)
                        worker = None
                        self._out.abort()
                        return 0
                    else:
                        raise WorkerGone(f"worker {worker.pid} sent frame type {kind} out of order")
        except TimeoutError:
            if worker is None and not started:
                raise Refusal(
                    503,
                    f"no worker became free within {self.settings.timeout} s; try again later",
                    [("Retry-After", str(RETRY_AFTER_SECONDS))],
                ) from None
            self._discard(worker, f"NOTATION_TIMEOUT ({self.settings.timeout} s) passed during {_line(request)}")
            worker = None
            if not started:
                raise Refusal(
                    504, f"the request took longer than the service allows ({self.settings.timeout} s); it was stopped"
                ) from None
            self._out.abort()
            return 0
        except asyncio.CancelledError:
            if not self.client_gone:
                raise
            self._abandon(worker, deadline, f"the client went away during {_line(request)}")
            worker = None
            self._out.abort()
            return 0
        except ClientGone as gone:
            self._abandon(worker, deadline, f"{gone} during {_line(request)}")
            worker = None
            self._out.abort()
            return 0
        except WorkerGone as exc:
            self._discard(worker, str(exc))
            worker = None
            if not started:
                raise Refusal(500, "the service failed on this request; it has been logged") from None
            self._out.abort()
            return 0
        finally:
            if worker is not None:  # cancelled at shutdown, or a bug: never hand back a busy worker
                self._discard(worker, f"the request {_line(request)} was cut")

    def _abandon(self, worker: WorkerProcess | None, deadline: float, reason: str) -> None:
        """A worker (once given the request) keeps running: the pool cancels the request
        and takes the worker back."""
        if worker is not None:
            log.info("%s; its worker %d is told to stop", reason, worker.pid)
            self.front.pool.abandon(worker, deadline, reason)

    def _discard(self, worker: WorkerProcess | None, reason: str) -> None:
        if worker is not None:
            self.front.pool.discard(worker, reason)

    def _start_answer(self, exchange: AnswerWriter, start: dict[str, Any]) -> tuple[int, bytes]:
        """The status of a worker's answer and the bytes of its head (for the caller to send)."""
        status = int(start["status"])
        headers = [(name, value) for name, value in start["headers"] if name.lower() not in HOP_BY_HOP]
        return status, exchange.head(status, self._common_headers(headers))

    def _convention_headers(self) -> list[tuple[str, str]]:
        """X-Request-ID, and the CORS headers the request's origin gets."""
        if not self.front.cors.enabled:
            return [(REQUEST_ID_HEADER, self.request_id)]
        return [(REQUEST_ID_HEADER, self.request_id), *self.front.cors.headers(self.origin)]

    def _common_headers(self, headers: list[tuple[str, str]]) -> list[tuple[str, str]]:
        """``headers`` less the convention headers, then those, Date and (when stopping)
        ``Connection: close``."""
        convention = self._convention_headers()
        ours = {name.lower() for name, _ in convention}
        headers = [(name, value) for name, value in headers if name.lower() not in ours]
        headers += convention
        headers.append(("Date", _http_date()))
        if self.front.stopping:
            headers.append(("Connection", "close"))
        return headers

    async def _local_answer(
        self, request: Head, method: str, path: str
    ) -> tuple[int, str, bytes, list[tuple[str, str]]] | None:
        """(status, content type, body, headers) of a request answered here, or None."""
        if method in ("GET", "HEAD"):
            if path == HEALTH_PATH:
                return 200, "application/json", self.front.health_body, []
            if path == READY_PATH:
                why = self.front.ready()
                if why is None:
                    return 200, "application/json", dumps({"status": "ready", "version": __version__}).encode(), []
                body = problem_bytes(503, f"not ready: {why}")
                return 503, "application/problem+json", body, [("Retry-After", str(RETRY_AFTER_SECONDS))]
            if path == METRICS_PATH and self.settings.metrics == "on":
                return 200, METRICS_CONTENT_TYPE, await self.front.render_metrics(), []
        if method == "OPTIONS" and self.front.cors.enabled and _header(request, b"access-control-request-method"):
            return 204, "", b"", self.front.cors.preflight(self.origin)
        return None

    def _answer_here(
        self, exchange: AnswerWriter, method: str, status: int, content_type: str, payload: bytes,
        extra: list[tuple[str, str]],
    ) -> None:
        headers = list(extra)
        if status != 204:
            headers += [("Content-Type", content_type), ("Content-Length", str(len(payload)))]
        held = exchange.head(status, self._common_headers(headers))
        if method != "HEAD" and status != 204:
            held += exchange.data(payload)
        self._write(held + exchange.end())

    def _write(self, data: bytes) -> None:
        if data and not self._lost:
            self._out.write(data)

    def _finish_cycle(self, exchange: AnswerWriter) -> bool:
        """Keep the connection for the next request if both sides allow it."""
        return exchange.reusable() and not self.front.stopping

    def _wire_head(self, request: Head, body: Body) -> dict[str, Any]:
        return {
            "method": request.method.decode("latin-1"),
            "target": request.target.decode("latin-1"),
            "version": request.http_version.decode("latin-1"),
            "headers": [
                [name.decode("latin-1"), value.decode("latin-1")]
                for name, value in request.raw
                if name.lower() != b"x-request-id"
            ]
            + [[REQUEST_ID_HEADER, self.request_id]],
            "client": list(self.peer[:2]),
            "server": list(self.local[:2]),
            "body": {"length": body.size, "file": body.path},
        }

    async def _refuse(self, refusal: Refusal) -> None:
        """Write ``refusal`` as problem+json, then close lingering (see the module docstring)."""
        self.phase = "linger"
        if self._lost:
            return
        try:
            headers = [*refusal.headers, *self._convention_headers()]
            self._out.write(closing_response(refusal.status, refusal.detail, headers))
            if self._out.can_write_eof():
                self._out.write_eof()
        except OSError:  # the client reset the connection: nobody to answer
            self._out.abort()
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + LINGER_SECONDS
        discarded = len(self._take_inbox())
        while discarded < LINGER_BYTES and not self.eof:
            try:
                await self._wait_for_data(deadline)
            except TimeoutError:
                break
            discarded += len(self._take_inbox())
        self._out.close()

    def _log_access(self, method: str, target: str, status: int, started: float) -> None:
        """Count the request in the metrics and write its access log line (if asked)."""
        seconds = time.monotonic() - started
        self.front.metrics.observe(method, target.split("?", 1)[0], status, seconds, self.fens)
        took = seconds * 1000
        if self.settings.access_log == "on":
            access_log.info(
                '%s "%s %s" %s %.1fms id=%s', self.peer[0], method, target[:200], status or "cut", took, self.request_id
            )
        elif self.settings.access_log == "json":
            access_log.info("%s", dumps({
                "time": _iso_now(), "request_id": self.request_id, "client": str(self.peer[0]), "method": method,
                "target": target[:200], "status": status or None, "duration_ms": round(took, 1), "fens": self.fens,
            }))


class Body:
    """A request body: in memory up to ``SPOOL_BYTES``, then in a temporary file in
    ``spool_dir`` (deleted by ``close``)."""

    def __init__(self, spool_dir: str):
        self.spool_dir = spool_dir
        self.size = 0
        self.memory = bytearray()
        self.file: BinaryIO | None = None
        self.path: str | None = None

    def write(self, data: bytes) -> None:
        self.size += len(data)
        if self.file is None and self.size <= SPOOL_BYTES:
            self.memory += data
            return
        if self.file is None:
            descriptor, self.path = tempfile.mkstemp(prefix="body-", dir=self.spool_dir)
            self.file = os.fdopen(descriptor, "wb")
            self.file.write(self.memory)
            self.memory = bytearray()
        self.file.write(data)

    def inline(self) -> bytes | None:
        """The bytes to send in a ``BODY`` frame, or ``None`` when the worker reads ``path``."""
        if self.file is not None:
            self.file.flush()
            return None
        return bytes(self.memory)

    def close(self) -> None:
        if self.file is not None:
            self.file.close()
            self.file = None
        if self.path is not None:
            try:
                os.unlink(self.path)
            except OSError:
                pass


def _time_out(waiter: asyncio.Future) -> None:
    if not waiter.done():
        waiter.set_exception(TimeoutError())


def _header(request: Head, name: bytes) -> str | None:
    """The first value of a header (``name`` in lower case), or None."""
    value = request.header(name)
    return None if value is None else value.decode("latin-1")


def _iso_now() -> str:
    """The time now in UTC as ISO 8601 with milliseconds."""
    now = time.time()
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + f".{int(now % 1 * 1000):03d}Z"


def _content_length(request: Head) -> int | None:
    """The declared body length (the parser has checked it is one whole number)."""
    value = request.header(b"content-length")
    return None if value is None else int(value)


def _lane(request: Head) -> Lane:
    """PGN jobs take seconds; everything else takes milliseconds."""
    is_pgn = request.method == b"POST" and request.target.split(b"?", 1)[0] == PGN_PATH.encode()
    return Lane.HEAVY if is_pgn else Lane.LIGHT


def _line(request: Head) -> str:
    return f"{request.method.decode('latin-1')} {request.target.decode('latin-1')[:200]}"


_date_cache: list[Any] = [0, ""]


def _http_date() -> str:
    now = int(time.time())
    if _date_cache[0] != now:
        _date_cache[:] = [now, email.utils.formatdate(now, usegmt=True)]
    return _date_cache[1]
