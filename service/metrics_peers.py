"""``/metrics`` over several front-end processes: each front end hands its figures to its
siblings on a private Unix socket, and the one asked for ``/metrics`` sums them all.

``serve_figures`` answers every connection on ``path`` with the JSON of ``snapshot`` (the
samples of a ``Metrics`` registry) and closes it. ``render_all`` reads the siblings' in
parallel, each within ``PEER_SECONDS`` (a sibling that does not answer, say a front end
being restarted, is left out, and ``notation_front_ends_reporting`` says how many were
summed), adds them up by sample name and labels (a ``_created`` timestamp takes the
earliest instead), and writes the Prometheus text. Nothing here reads a request; a sibling's
answer that is not the expected JSON is left out as a silent one is.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Iterable, Sequence
from typing import Any

from prometheus_client import CollectorRegistry
from prometheus_client.exposition import generate_latest
from prometheus_client.metrics_core import Metric

from .metrics import Metrics

PEER_SECONDS = 1.0
MAX_FIGURES_BYTES = 16 * 1024 * 1024  # a sibling's answer longer than this is left out
REPORTING = "notation_front_ends_reporting"


def snapshot(metrics: Metrics) -> list[Any]:
    """``metrics``' families as JSON-ready lists: name, type, help, samples (name, labels, value)."""
    return [
        [family.name, family.type, family.documentation, [[s.name, s.labels, s.value] for s in family.samples]]
        for family in metrics.registry.collect()
    ]


def merge(snapshots: Iterable[list[Any]]) -> bytes:
    """The Prometheus text of ``snapshots`` added up; raises ``ValueError`` (or ``TypeError``,
    ``KeyError``) on a malformed snapshot, which ``render_all`` has already left out."""
    families: dict[str, tuple[str, str, dict[tuple[str, tuple[tuple[str, str], ...]], float]]] = {}
    count = 0
    for taken in snapshots:
        count += 1
        for name, kind, documentation, samples in taken:
            _kind, _doc, values = families.setdefault(name, (kind, documentation, {}))
            for sample_name, labels, value in samples:
                key = (sample_name, tuple(sorted(labels.items())))
                if key not in values:
                    values[key] = float(value)
                elif sample_name.endswith("_created"):
                    values[key] = min(values[key], float(value))
                else:
                    values[key] += float(value)
    metrics = []
    for name, (kind, documentation, values) in families.items():
        metric = Metric(name, documentation, kind)
        for (sample_name, labels), value in values.items():
            metric.add_sample(sample_name, dict(labels), value)
        metrics.append(metric)
    reporting = Metric(REPORTING, "Front-end processes whose figures this answer adds up", "gauge")
    reporting.add_sample(REPORTING, {}, float(count))
    metrics.append(reporting)
    return generate_latest(_Fixed(metrics))


class _Fixed(CollectorRegistry):
    """A registry that collects a fixed list of metric families."""

    def __init__(self, metrics: list[Metric]):
        super().__init__(auto_describe=False)
        self._metrics = metrics

    def collect(self) -> Any:
        yield from self._metrics


async def serve_figures(path: str, metrics: Metrics) -> asyncio.Server:
    """A Unix socket server at ``path`` answering ``snapshot(metrics)``; raises ``OSError``."""

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError):
            writer.write(json.dumps(snapshot(metrics)).encode("utf-8"))
            await writer.drain()
        writer.close()

    return await asyncio.start_unix_server(answer, path=path)


async def render_all(own: Metrics, peers: Sequence[str]) -> bytes:
    """The Prometheus text of ``own`` plus every sibling at ``peers`` that answers in time."""
    taken = await asyncio.gather(*(_figures(path) for path in peers))
    return merge([snapshot(own), *(figures for figures in taken if figures is not None)])


async def _figures(path: str) -> list[Any] | None:
    try:
        async with asyncio.timeout(PEER_SECONDS):
            reader, writer = await asyncio.open_unix_connection(path)
            try:
                data = await reader.read(MAX_FIGURES_BYTES + 1)
                while data and len(data) <= MAX_FIGURES_BYTES:
                    more = await reader.read(MAX_FIGURES_BYTES + 1 - len(data))
                    if not more:
                        break
                    data += more
            finally:
                writer.close()
        if len(data) > MAX_FIGURES_BYTES:
            return None
        figures = json.loads(data)
        merge([figures])  # malformed figures are left out here, not in the sum
        return figures
    except (OSError, TimeoutError, ValueError, TypeError, KeyError):
        return None
