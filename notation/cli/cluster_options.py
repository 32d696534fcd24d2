"""``--dask``: the options ``notation normalize`` and ``notation check`` take for a cluster run
(the runs are ``cluster_cmd``'s, imported only for one). Raises ``UsageError`` for
``--dask-dashboard`` without ``--dask``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from notation.cli.usage import UsageError
from notation.inputs import Compression

if TYPE_CHECKING:
    import argparse

DEFAULT_PARTITION_SIZE = "auto"
PART_COMPRESSIONS = [c.value for c in Compression if c is not Compression.NONE]


def add_options(parser: argparse.ArgumentParser, command: Literal["normalize", "check"]) -> None:
    """``--dask``, ``--dask-dashboard`` and ``--partition-size``; for ``normalize``,
    ``--compress-parts`` too."""
    group = parser.add_argument_group("cluster (the dask extra: pip install 'notation[dask]')")
    group.add_argument("--dask", metavar="ADDRESS", default=None,
                       help="run on the Dask scheduler at ADDRESS (host:port), or on local[:N] worker processes; "
                            "inputs may then be fsspec URLs (s3://, gs://, az://, http(s)://) and globs")
    group.add_argument("--dask-dashboard", metavar="ADDRESS", default=None,
                       help="with --dask local[:N]: start Dask's dashboard at ADDRESS (e.g. 127.0.0.1:8787; "
                            "another port if that one is taken) and print where it is on standard error; it "
                            "needs bokeh (default: no dashboard)")
    group.add_argument("--partition-size", metavar="SIZE", default=DEFAULT_PARTITION_SIZE,
                       help="with --dask: bytes of input per task, cut at game starts (default: auto, about "
                            "four tasks per worker thread over all the inputs, from 8MiB (4MiB where every move is "
                            "read) to 128MiB)")
    if command == "normalize":
        group.add_argument("--compress-parts", choices=PART_COMPRESSIONS, default=None,
                           help="with --dask: compress the part files of the OUTPUT directory")


def refuse_without_dask(args: argparse.Namespace) -> None:
    """Raises ``UsageError`` for ``--dask-dashboard`` given without ``--dask`` (no cluster,
    so no dashboard, would be started)."""
    if args.dask is None and args.dask_dashboard is not None:
        raise UsageError("--dask-dashboard goes with --dask local[:N]: without --dask no cluster is started")
