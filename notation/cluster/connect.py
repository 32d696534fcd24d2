"""Reaching a Dask cluster: a running scheduler's address, or ``local[:N]``.

``local`` starts a cluster of one single-threaded worker process per core on this machine
(``local:N``: N of them) for as long as the run lasts, with no dashboard: its HTTP server
(health and metrics only) takes a free loopback port, so a port 8787 already in use is no
news. A dashboard is started only when asked for (``ClusterSpec.dashboard``, an address
such as ``:8787`` or ``127.0.0.1:0``; Dask's dashboard needs ``bokeh``): where it really is
(another port when that one is taken) is ``dashboard_link``. Anything else is a
scheduler's address (``tcp://host:8786``, ``host:8786``, ``tls://...``), which serves its
own dashboard.

Before a client is made, the address is asked who it is (Dask's ``identity`` message) under
one deadline covering the TCP connection, Dask's handshake and the answer: Dask's own
connect timeout does not cover the handshake, so a port that accepts and says nothing (the
dashboard's 8787 is an easy slip) would hang. The deadline is Dask's connect timeout
(``distributed.comm.timeouts.connect`` in Dask's configuration, 30 s by default;
``DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT=10s`` sets it).

Raises ``ClusterError`` (one line naming the address) for a spec that is neither, an address
that cannot be reached or gives no answer within the deadline, a server that is not a
Dask scheduler (an HTTP server, a Dask worker), or a dashboard asked for with a
scheduler's address or without ``bokeh``. Nothing about the workers is checked.
"""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from notation.cluster import ClusterError, require
from notation.inputs import describe_error

DEFAULT_CONNECT_SECONDS = 30.0
_LOCAL = re.compile(r"local(?::(\d+))?\Z")
_QUIET_LOGGERS = ("distributed", "tornado", "asyncio")  # with every logger below them


@dataclass(frozen=True)
class ClusterSpec:
    """Where to run: ``workers`` local processes when ``address`` is None; ``dashboard``:
    where the local cluster's dashboard listens (None: no dashboard)."""

    address: str | None
    workers: int
    dashboard: str | None = None


def parse_spec(spec: str, dashboard: str | None = None) -> ClusterSpec:
    """``local``, ``local:N`` or an address (its protocol known to Dask), and the address of
    a local cluster's dashboard if one is wanted; raises ``ClusterError``."""
    local = _LOCAL.match(spec)
    if local is None:
        if not spec.strip() or spec.startswith("local"):
            raise ClusterError(f"--dask {spec!r}: give a scheduler's address (host:port) or local[:N]")
        if dashboard is not None:
            raise ClusterError("--dask-dashboard goes with --dask local[:N]: a running scheduler serves its own "
                               "dashboard (port 8787 by default)")
        return ClusterSpec(_normalized(spec), 0)
    workers = int(local.group(1)) if local.group(1) else (os.cpu_count() or 1)
    if workers < 1:
        raise ClusterError(f"--dask {spec!r}: a local cluster needs at least one worker")
    if dashboard is not None and importlib.util.find_spec("bokeh") is None:
        raise ClusterError("--dask-dashboard needs bokeh, which Dask's dashboard is drawn with: pip install bokeh")
    return ClusterSpec(None, workers, dashboard)


def dashboard_link(client: Any) -> str | None:
    """Where the cluster says its dashboard is (``http://host:port/status``), or None when it
    cannot say; ask only of a cluster started with one (without, the link names its HTTP
    server, which serves health and metrics only)."""
    try:
        link = client.dashboard_link
    except Exception:  # noqa: BLE001 - no dashboard, or Dask cannot say where
        return None
    return link or None


def connect_seconds() -> float:
    """Dask's connect timeout (``distributed.comm.timeouts.connect``), in seconds."""
    import dask.config
    from dask.utils import parse_timedelta

    try:
        seconds = parse_timedelta(dask.config.get("distributed.comm.timeouts.connect"), default="seconds")
    except (KeyError, ValueError, TypeError):
        return DEFAULT_CONNECT_SECONDS
    return float(seconds) if seconds else DEFAULT_CONNECT_SECONDS


def quiet_logs() -> None:
    """Keep Dask's log (and the event loop's) off the command's standard error: the summary
    and the one-line errors are there. A lost scheduler is said once, by the command."""
    known = list(logging.root.manager.loggerDict)  # Dask's configuration sets levels of its own
    for name in [*_QUIET_LOGGERS, *(name for name in known if name.startswith(_QUIET_LOGGERS))]:
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)


@contextmanager
def connect(spec: ClusterSpec) -> Iterator[Any]:
    """A ``distributed.Client`` for the run, closed (with its local cluster) afterwards."""
    require()
    import dask.config
    from distributed import Client, LocalCluster

    quiet_logs()
    # A compressed input's chunks go with their tasks (16 MiB at most with --partition-size
    # auto): that is meant, not a graph to warn about.
    dask.config.set({"distributed.admin.large-graph-warning-threshold": "4GiB"})
    if spec.address is None:
        # The workers are processes of their own, with logging of their own: silence_logs
        # keeps their shutdown chatter (a heartbeat to a scheduler already gone) off the
        # command's standard error too. A task's failure still reaches the client as its error.
        dashboard: dict[str, Any] = (
            {"dashboard_address": spec.dashboard} if spec.dashboard is not None
            else {"dashboard_address": None, "scheduler_kwargs": {"dashboard_address": "127.0.0.1:0"}})
        with LocalCluster(n_workers=spec.workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                          silence_logs=logging.CRITICAL, **dashboard) as cluster, \
                Client(cluster) as client:
            yield client
        return
    seconds = connect_seconds()
    address = spec.address
    identify(address, seconds)
    try:
        client = Client(address, timeout=seconds)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {spec.address!r}: {_one_line(exc)}") from None
    with client:
        yield client


def threads(client: Any) -> int:
    """The worker threads of the cluster now (at least 1)."""
    try:
        workers = client.scheduler_info()["workers"].values()
        return max(1, sum(int(worker.get("nthreads", 1)) for worker in workers))
    except (KeyError, TypeError, AttributeError):
        return 1


def _normalized(address: str) -> str:
    from distributed.comm import registry
    from distributed.comm.addressing import normalize_address, parse_address

    try:
        normalized = normalize_address(address)
        registry.get_backend(parse_address(normalized)[0])
        return normalized
    except (ValueError, TypeError) as exc:
        raise ClusterError(f"--dask {address!r}: not a scheduler's address ({_one_line(exc)})") from None


def identify(address: str, seconds: float) -> dict[str, Any]:
    """The scheduler's answer to ``identity``, all within ``seconds``; raises ``ClusterError``."""
    try:
        answer = asyncio.run(asyncio.wait_for(_identity(address, seconds), seconds))
    except TimeoutError:
        raise ClusterError(
            f"cannot reach the Dask scheduler at {address!r}: no Dask answer within {seconds:g} s "
            "(is it the scheduler's port, 8786 by default, not its dashboard's?)") from None
    except OSError as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {address!r}: {_one_line(exc)}") from None
    except Exception:  # noqa: BLE001 - whatever a server that is not Dask makes the protocol raise
        raise ClusterError(f"{address!r} is not a Dask scheduler: it does not speak Dask's protocol") from None
    kind = answer.get("type") if isinstance(answer, dict) else None
    if kind != "Scheduler":
        what = f"a Dask {kind}" if isinstance(kind, str) else "something else"
        raise ClusterError(f"{address!r} is not a Dask scheduler: it answers as {what}")
    return answer


async def _identity(address: str, seconds: float) -> Any:
    from distributed import Security
    from distributed.comm import connect as open_comm

    comm = await open_comm(address, timeout=seconds, **Security().get_connection_args("client"))
    try:
        await comm.write({"op": "identity", "reply": True})
        return await comm.read()
    finally:
        comm.abort()


def _one_line(exc: BaseException) -> str:
    return " ".join(describe_error(exc).split()) or type(exc).__name__
