"""Prometheus metrics of the service: requests, latency, errors and FENs processed.

``Metrics`` holds one ``prometheus_client`` registry. Under ``notation serve`` the asyncio
front end sees every request (the worker processes only run the app), so it alone records
them, and ``GET /metrics`` is answered there: the figures cover every worker without any
sharing between processes (with several front ends, ``service.metrics_peers`` adds
theirs up). A worker reports how many FENs its answer processed in the ``END`` frame
(``FENS_KEY`` of the WSGI environ, which the app's endpoints add to with ``count_fens``).
An app served by another WSGI server records its own requests (one process's figures)
through ``install``.

Routes are labelled by their template (``/v1/fen/convert``; any other path is ``other``),
so a client cannot grow the label set. Nothing here reads settings or sockets.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest

METRICS_KEY = "notation.metrics"  # app.extensions key of an app's own Metrics
FENS_KEY = "notation.fens_processed"
BEHIND_FRONT_KEY = "notation.behind_front"  # set by the worker: the front end records the request

ROUTES = frozenset({
    "/healthz", "/readyz", "/metrics", "/openapi.yaml", "/v1/variants",
    "/v1/fen/convert", "/v1/fen/validate", "/v1/fen/batch", "/v1/pgn/normalize",
})
CONTENT_TYPE = CONTENT_TYPE_LATEST
# Seconds: from a millisecond FEN answer to a PGN database of a minute.
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)


def route_of(path: str) -> str:
    """The route label of a request path."""
    return path if path in ROUTES else "other"


def error_kind(status: int) -> str | None:
    """``client`` (4xx), ``server`` (5xx), ``cut`` (0: no complete answer) or None."""
    if status == 0:
        return "cut"
    if 400 <= status < 500:
        return "client"
    if status >= 500:
        return "server"
    return None


class Metrics:
    """The service's counters; ``observe`` one request, ``render`` the exposition text."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.requests = Counter(
            "notation_http_requests", "HTTP requests answered, by method, route and status",
            ["method", "route", "status"], registry=self.registry,
        )
        self.latency = Histogram(
            "notation_http_request_duration_seconds", "Time from a request's first byte to its answer's last",
            ["route"], buckets=BUCKETS, registry=self.registry,
        )
        self.errors = Counter(
            "notation_http_errors", "Requests answered with an error: client (4xx), server (5xx), cut (no answer)",
            ["route", "kind"], registry=self.registry,
        )
        self.fens = Counter(
            "notation_fens_processed", "FENs read (and judged or converted) by the service",
            ["route"], registry=self.registry,
        )
        # The labelled children of each (method, route, status) seen: labels() costs a lock
        # and a check a call. Bounded: methods, routes and statuses are few.
        self._children: dict[tuple[str, str, int], list[Any]] = {}

    def observe(self, method: str, path: str, status: int, seconds: float, fens: int = 0) -> None:
        route = route_of(path)
        key = (method if method in _METHODS else "other", route, status)
        children = self._children.get(key)
        if children is None:
            kind = error_kind(status)
            children = [
                self.requests.labels(key[0], route, str(status or "cut")),
                self.latency.labels(route),
                None if kind is None else self.errors.labels(route, kind),
                None,  # the FENs counter, made at the first FEN (a route without any shows none)
            ]
            if len(self._children) < 10_000:
                self._children[key] = children
        requests, latency, errors, fens_counter = children
        requests.inc()
        latency.observe(seconds)
        if errors is not None:
            errors.inc()
        if fens:
            if fens_counter is None:
                fens_counter = children[3] = self.fens.labels(route)
            fens_counter.inc(fens)

    def gauge(self, name: str, documentation: str, read: Callable[[], float]) -> None:
        """A value read at each scrape (the front end's workers, queue, connections)."""
        Gauge(name, documentation, registry=self.registry).set_function(read)

    def render(self) -> bytes:
        return generate_latest(self.registry)


_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def install(app: Any) -> Metrics:
    """Give a Flask app its own ``Metrics`` (``app.extensions[METRICS_KEY]``), recording
    each request it answers unless a worker says the front end records it."""
    from flask import g, request

    metrics = Metrics()
    app.extensions[METRICS_KEY] = metrics

    def started() -> None:
        g.metrics_started = time.monotonic()

    def finished(response: Any) -> Any:
        if not request.environ.get(BEHIND_FRONT_KEY):
            seconds = time.monotonic() - g.get("metrics_started", time.monotonic())
            metrics.observe(request.method, request.path, response.status_code, seconds,
                            request.environ.get(FENS_KEY, 0))
        return response

    app.before_request(started)
    app.after_request(finished)
    return metrics


def count_fens(environ: dict, count: int) -> None:
    """Add ``count`` FENs processed to this request's tally (an app endpoint calls it)."""
    environ[FENS_KEY] = environ.get(FENS_KEY, 0) + count
