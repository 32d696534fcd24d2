"""Reaching a Dask cluster: a running scheduler's address, or ``local[:N]``.

``local`` starts a cluster of one single-threaded worker process per core on this machine
(``local:N``: N of them) for as long as the run lasts; anything else is a scheduler's
address (``tcp://host:8786``, ``host:8786``, ``tls://...``). Raises ``ClusterError`` for a
spec that is neither, or a scheduler that cannot be reached within ``CONNECT_SECONDS``.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from notation.cluster import ClusterError, require
from notation.inputs import describe_error

CONNECT_SECONDS = 30
_LOCAL = re.compile(r"local(?::(\d+))?\Z")


@dataclass(frozen=True)
class ClusterSpec:
    """Where to run: ``workers`` local processes when ``address`` is None."""

    address: str | None
    workers: int


def parse_spec(spec: str) -> ClusterSpec:
    """``local``, ``local:N`` or an address; raises ``ClusterError``."""
    local = _LOCAL.match(spec)
    if local is None:
        if not spec.strip() or spec.startswith("local"):
            raise ClusterError(f"--dask {spec!r}: give a scheduler's address (host:port) or local[:N]")
        return ClusterSpec(spec, 0)
    workers = int(local.group(1)) if local.group(1) else (os.cpu_count() or 1)
    if workers < 1:
        raise ClusterError(f"--dask {spec!r}: a local cluster needs at least one worker")
    return ClusterSpec(None, workers)


@contextmanager
def connect(spec: ClusterSpec) -> Iterator[Any]:
    """A ``distributed.Client`` for the run, closed (with its local cluster) afterwards."""
    require()
    from distributed import Client, LocalCluster

    # The command's standard error holds its summary and errors; Dask's log stays out of it
    # unless something fails there (a slow event loop on a busy machine is not news).
    logging.getLogger("distributed").setLevel(logging.ERROR)
    if spec.address is None:
        with LocalCluster(n_workers=spec.workers, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            yield client
        return
    try:
        client = Client(spec.address, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {spec.address!r}: {describe_error(exc)}") from None
    with client:
        yield client
