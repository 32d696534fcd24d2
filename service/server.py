"""``serve(settings)``: the asyncio front end (``service.front``) on a listening socket and
a pool of worker processes (``service.worker_pool``) running the Flask app, until SIGTERM
or SIGINT.

On a stop signal: stop accepting, close idle connections, let requests in flight finish
for ``graceful_timeout`` seconds (then cut them), stop the workers, return. Raises
``ServeError`` when the address cannot be listened on or the workers cannot start.
"""

from __future__ import annotations

import asyncio
import logging
import shutil
import signal
import sys
import tempfile

from .config import Settings
from .front import Front
from .worker_pool import PoolError, WorkerPool

log = logging.getLogger("service.server")

LISTEN_BACKLOG = 1024


class ServeError(Exception):
    """The service could not start; the message says why."""


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
    asyncio.run(_serve(settings))


async def _serve(settings: Settings) -> None:
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    spool_dir = tempfile.mkdtemp(prefix="notation-serve-")
    pool = WorkerPool(settings)
    try:
        try:
            await pool.start()
        except PoolError as exc:
            raise ServeError(str(exc)) from None
        front = Front(settings, pool, spool_dir)
        try:
            server = await loop.create_server(
                front.protocol, settings.host, settings.port, backlog=LISTEN_BACKLOG, reuse_address=True
            )
        except OSError as exc:
            raise ServeError(f"cannot listen on {settings.host}:{settings.port}: {exc.strerror or exc}") from None
        addresses = ", ".join(_address(sock.getsockname()) for sock in server.sockets)
        log.info("listening on %s with %d workers (pids %s)", addresses, pool.size, ", ".join(map(str, pool.pids())))
        await stop.wait()
        log.info("stopping: no new connections; requests in flight have %d s to finish", settings.graceful_timeout)
        server.close()
        await front.shutdown(settings.graceful_timeout)
        await asyncio.wait([asyncio.ensure_future(server.wait_closed())], timeout=5)
    finally:
        await pool.close()
        shutil.rmtree(spool_dir, ignore_errors=True)
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(signum)
    log.info("stopped")


def _address(sockname: tuple) -> str:
    host, port = sockname[0], sockname[1]
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"
