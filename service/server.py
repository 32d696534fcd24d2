"""``serve(settings)``: the asyncio front end (``service.front``) on a listening socket and
a pool of worker processes (``service.worker_pool``) running the Flask app, until SIGTERM
or SIGINT; with ``front_end_count`` above one, that many front-end processes, each with its
share of the workers, accepting on one listening socket.

One front end runs in this process. Several are forked from it (the pre-fork model
gunicorn's documentation describes) after it has bound one listening socket per front end,
all on the same port with ``SO_REUSEPORT`` (the Linux socket(7) man page): the kernel
spreads new connections evenly over them by a hash of their addresses. The sockets stay
open in this process, so a front end that is started again takes over its socket and the
connections waiting on it. This process serves nothing: it waits for every front end to
start its workers, passes SIGTERM/SIGINT on to them, starts again one that dies, and
returns once all have stopped. ``/metrics`` adds up every front end's figures
(``service.metrics_peers``).

On a stop signal each front end stops accepting, closes idle connections, lets requests in
flight finish for ``graceful_timeout`` seconds (then cuts them), stops its workers and
exits. Raises ``ServeError`` when the address cannot be listened on or the workers cannot
start.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import select
import shutil
import signal
import socket
import sys
import tempfile
import time

from .config import Settings
from .front import Front
from .metrics_peers import serve_figures
from .worker_pool import START_SECONDS, STOP_SECONDS, PoolError, WorkerPool

log = logging.getLogger("service.server")

LISTEN_BACKLOG = 1024
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
RESTART_PAUSE_MAX = 30.0  # seconds between restarts of a front end that keeps dying
HEALTHY_SECONDS = 60.0  # a front end that ran this long is started again without delay growth


class ServeError(Exception):
    """The service could not start; the message says why."""


@dataclasses.dataclass(frozen=True)
class Share:
    """What a forked front end gets: its number, its listening sockets, the shared spool
    directory, its own figures socket and its siblings', and where to say it is ready."""

    index: int
    sockets: tuple[socket.socket, ...]
    spool_dir: str
    figures: str
    peers: tuple[str, ...]
    ready_fd: int | None


def serve(settings: Settings) -> None:
    """Serve until stopped by SIGTERM/SIGINT; raises ``ServeError``."""
    logging.basicConfig(
        level=settings.log_level.upper(),
        stream=sys.stderr,
        format="%(asctime)s [%(process)d] %(levelname)s %(name)s: %(message)s",
    )
    if settings.access_log == "on":  # access lines are INFO, whatever NOTATION_LOG_LEVEL says
        logging.getLogger("service.access").setLevel(logging.INFO)
    elif settings.access_log == "json":  # one JSON object a line, nothing around it
        access = logging.getLogger("service.access")
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        access.addHandler(handler)
        access.setLevel(logging.INFO)
        access.propagate = False
    for warning in Settings.removed_variables():
        log.warning(warning)
    if settings.front_end_count == 1:
        asyncio.run(_serve(settings.share(0)))
    else:
        _supervise(settings)


async def _serve(settings: Settings, share: Share | None = None) -> None:
    """One front end and its workers until a stop signal; raises ``ServeError``."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in STOP_SIGNALS:
        loop.add_signal_handler(signum, stop.set)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)  # a forked front end starts with them blocked
    spool_dir = tempfile.mkdtemp(prefix="notation-serve-") if share is None else share.spool_dir
    pool = WorkerPool(settings)
    try:
        try:
            await pool.start()
        except PoolError as exc:
            raise ServeError(str(exc)) from None
        front = Front(settings, pool, spool_dir, share.peers if share is not None else ())
        servers: list[asyncio.Server] = []
        try:
            if share is None:
                servers.append(
                    await loop.create_server(
                        front.protocol, settings.host, settings.port, backlog=LISTEN_BACKLOG, reuse_address=True
                    )
                )
            else:
                for sock in share.sockets:
                    servers.append(await loop.create_server(front.protocol, sock=sock, backlog=LISTEN_BACKLOG))
                servers.append(await serve_figures(share.figures, front.metrics))
        except OSError as exc:
            raise ServeError(f"cannot listen on {settings.host}:{settings.port}: {exc.strerror or exc}") from None
        pids = ", ".join(map(str, pool.pids()))
        if share is None:
            addresses = ", ".join(_address(sock.getsockname()) for sock in servers[0].sockets)
            log.info("listening on %s with %d workers (pids %s)", addresses, pool.size, pids)
        else:
            log.info("front end %d serving with %d workers (pids %s)", share.index, pool.size, pids)
            if share.ready_fd is not None:
                os.write(share.ready_fd, b"R")
                os.close(share.ready_fd)
        await stop.wait()
        log.info("stopping: no new connections; requests in flight have %d s to finish", settings.graceful_timeout)
        for server in servers:
            server.close()
        await front.shutdown(settings.graceful_timeout)
        await asyncio.wait([asyncio.ensure_future(server.wait_closed()) for server in servers], timeout=5)
    finally:
        await pool.close()
        if share is None:
            shutil.rmtree(spool_dir, ignore_errors=True)
        for signum in STOP_SIGNALS:
            loop.remove_signal_handler(signum)
    log.info("stopped")


def _supervise(settings: Settings) -> None:
    """Fork ``front_end_count`` front ends on one listening socket and watch them until a
    stop signal and their exit; raises ``ServeError`` if one cannot start."""
    count = settings.front_end_count
    sockets = _listen(settings, count)
    spool_dir = tempfile.mkdtemp(prefix="notation-serve-")
    run_dir = tempfile.mkdtemp(prefix="notation-run-")  # mode 0700: the figures sockets
    figures = [os.path.join(run_dir, f"front-{index}.sock") for index in range(count)]
    children: dict[int, int] = {}  # pid -> front end number
    born: dict[int, float] = {}  # front end number -> when it was last started
    stopping = [False]

    def on_signal(signum: int, _frame: object) -> None:
        if not stopping[0]:
            log.info("stopping: passing %s on to %d front ends", signal.Signals(signum).name, len(children))
        stopping[0] = True
        _signal_all(children, signal.SIGTERM)

    def start(index: int, ready_fd: int | None) -> None:
        peers = tuple(path for number, path in enumerate(figures) if number != index)
        share = Share(index, tuple(sockets[index]), spool_dir, figures[index], peers, ready_fd)
        born[index] = time.monotonic()
        children[_fork(settings.share(index), share)] = index

    previous = {signum: signal.signal(signum, on_signal) for signum in STOP_SIGNALS}
    read_fd, write_fd = os.pipe()
    try:
        for index in range(count):
            start(index, write_fd)
        os.close(write_fd)
        write_fd = -1
        if _wait_until_ready(read_fd, children, count, stopping):
            addresses = ", ".join(_address(sock.getsockname()) for sock in sockets[0])
            log.info(
                "listening on %s with %d front ends (pids %s) and %d workers", addresses, count,
                ", ".join(map(str, sorted(children))), settings.worker_count,
            )
        pause = 1.0
        while children and not stopping[0]:
            try:
                pid, status = os.wait()
            except ChildProcessError:
                break
            index = children.pop(pid, -1)
            if index < 0 or stopping[0]:
                continue
            log.error("front end %d (pid %d) ended (%s); starting it again", index, pid, _status(status))
            if time.monotonic() - born[index] > HEALTHY_SECONDS:
                pause = 1.0
            deadline = time.monotonic() + pause
            while not stopping[0] and time.monotonic() < deadline:  # a stop signal cuts the pause short
                time.sleep(0.05)
            pause = min(pause * 2, RESTART_PAUSE_MAX)
            if not stopping[0]:
                start(index, None)
        _reap(children, settings.graceful_timeout + 5 + STOP_SECONDS + 5)
    finally:
        if children:  # a start-up failure: the others stop their workers, or are killed
            _signal_all(children, signal.SIGTERM)
            _reap(children, STOP_SECONDS + 5)
        _signal_all(children, signal.SIGKILL)
        for pid in list(children):
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        os.close(read_fd)
        if write_fd >= 0:
            os.close(write_fd)
        for sock in (sock for group in sockets for sock in group):
            sock.close()
        shutil.rmtree(spool_dir, ignore_errors=True)
        shutil.rmtree(run_dir, ignore_errors=True)
    log.info("stopped")


def _fork(settings: Settings, share: Share) -> int:
    """Start one front end in a child process; returns its pid (the child never returns)."""
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)  # until the child's loop handles them
    try:
        pid = os.fork()
    except OSError as exc:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
        raise ServeError(f"cannot start a front end: {exc}") from None
    if pid:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
        return pid
    status = 1
    try:
        for signum in STOP_SIGNALS:
            signal.signal(signum, signal.SIG_DFL)
        asyncio.run(_serve(settings, share))
        status = 0
    except ServeError as exc:
        log.error("front end %d could not start: %s", share.index, exc)
    except BaseException as exc:  # noqa: BLE001 - the child must never return into the parent's code
        log.error("front end %d failed: %s: %s", share.index, type(exc).__name__, exc)
    finally:
        logging.shutdown()
        os._exit(status)
    return 0  # not reached


def _wait_until_ready(read_fd: int, children: dict[int, int], count: int, stopping: list[bool]) -> bool:
    """Wait until ``count`` front ends have said they are ready (True), or a stop signal
    came first (False); raises ``ServeError`` when one exits first or they take longer than
    a worker may take to start."""
    ready = 0
    deadline = time.monotonic() + START_SECONDS + 10
    while ready < count:
        if stopping[0]:
            return False
        for pid in list(children):
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                children.pop(pid)
                raise ServeError(f"front end {pid} could not start ({_status(status)}); see its log above")
        if time.monotonic() > deadline:
            raise ServeError(f"the front ends did not start within {START_SECONDS + 10} s")
        readable, _, _ = select.select([read_fd], [], [], 0.2)
        if readable:
            said = os.read(read_fd, count)
            ready += len(said)
    return True


def _reap(children: dict[int, int], seconds: float) -> None:
    """Wait up to ``seconds`` for the front ends to exit; those left are killed by the caller."""
    deadline = time.monotonic() + seconds
    while children and time.monotonic() < deadline:
        for pid in list(children):
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                index = children.pop(pid)
                if status:
                    log.warning("front end %d (pid %d) ended (%s)", index, pid, _status(status))
        time.sleep(0.05)
    if children:
        log.warning("%d front end(s) still running after %.0f s are killed", len(children), seconds)


def _signal_all(children: dict[int, int], signum: int) -> None:
    for pid in children:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signum)


def _listen(settings: Settings, count: int) -> list[list[socket.socket]]:
    """For each of ``count`` front ends, listening sockets for ``host`` and ``port`` (one per
    address the host names), all bound with ``SO_REUSEPORT``; raises ``ServeError``, also
    when another process listens on the port (with ``SO_REUSEPORT`` or not)."""
    where = f"{settings.host}:{settings.port}"
    try:
        infos = socket.getaddrinfo(settings.host, settings.port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except OSError as exc:
        raise ServeError(f"cannot listen on {where}: {exc.strerror or exc}") from None
    groups: list[list[socket.socket]] = [[] for _ in range(count)]
    port = settings.port
    try:
        for family, kind, proto, _name, address in dict.fromkeys(infos):
            if port:  # SO_REUSEPORT would share a port already served by the same user: refuse it
                with socket.socket(family, kind, proto) as probe:
                    probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                    if family == socket.AF_INET6:
                        probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                    probe.bind((address[0], port, *address[2:]))
            for group in groups:
                sock = socket.socket(family, kind, proto)
                group.append(sock)
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
                if family == socket.AF_INET6:
                    sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                sock.bind((address[0], port, *address[2:]))
                sock.listen(LISTEN_BACKLOG)
                port = sock.getsockname()[1]  # port 0: every socket gets the port the first got
    except OSError as exc:
        for sock in (sock for group in groups for sock in group):
            sock.close()
        raise ServeError(f"cannot listen on {where}: {exc.strerror or exc}") from None
    return groups


def _status(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"killed by {signal.Signals(os.WTERMSIG(status)).name}"
    return f"exit status {os.waitstatus_to_exitcode(status)}"


def _address(sockname: tuple) -> str:
    host, port = sockname[0], sockname[1]
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"
