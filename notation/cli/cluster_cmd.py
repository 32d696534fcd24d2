"""``--dask``: the runs of ``notation normalize`` and ``notation check`` on a cluster
(``notation.cluster``; their options are ``cluster_options``', which every start-up of those
commands needs, where this module waits for a cluster run). Raises ``UsageError`` for
impossible requests and for everything ``ClusterError`` says (missing extra, unreachable
scheduler, unreadable input, unwritable output)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from notation.cli import duplicates_options
from notation.cli.usage import UsageError
from notation.cluster import require
from notation.inputs import Compression

if TYPE_CHECKING:  # names for annotations only: ``check`` and ``normalize`` start up without them
    import argparse

    from notation.check import CheckOptions
    from notation.check.problem import CheckProblem
    from notation.check.runner import Summary as CheckSummary
    from notation.cluster.connect import ClusterSpec
    from notation.cluster.plan import Work
    from notation.pgn.normalize import NormalizeOptions, Summary

def _partition_bytes(args: argparse.Namespace) -> int | None:
    """``--partition-size`` in bytes; None for ``auto`` (chosen once the cluster is known)."""
    from dask.utils import parse_bytes

    if args.partition_size == "auto":
        return None
    try:
        size = int(parse_bytes(args.partition_size))
    except (ValueError, TypeError) as exc:
        raise UsageError(f"--partition-size {args.partition_size!r}: {exc}") from None
    if size < 1:
        raise UsageError("--partition-size must be at least 1 byte")
    return size


@contextmanager
def cluster_errors() -> Iterator[None]:
    """``ClusterError``, and what Dask raises when the cluster fails (a task whose workers
    kept dying, a scheduler gone, a connection lost), as one-line ``UsageError``."""
    try:
        yield
    except Exception as exc:
        from notation.cluster.failures import describe

        message = describe(exc)
        if message is None:
            raise
        raise UsageError(message) from None


def _required() -> None:
    with cluster_errors():
        require()


def normalize(args: argparse.Namespace, options: NormalizeOptions) -> Summary:
    """``notation normalize --dask``: parts in ``-o OUTPUT``, one report, the summary."""
    from notation.cluster import connect, files, plan
    from notation.cluster.normalize import PART_GLOB, InputNames, normalize_on
    from notation.pgn.normalize import MovesOption

    names = [args.input, *getattr(args, "more_inputs", [])]
    _required()
    if args.in_place:
        raise UsageError("--in-place and --dask exclude each other: --dask writes part files to -o DIRECTORY")
    if not args.output or args.output == "-":
        raise UsageError("--dask needs -o DIRECTORY: the part files are written there")
    if args.jobs != 1:
        raise UsageError("--jobs and --dask exclude each other: the cluster's workers do the work")
    if "-" in names:
        raise UsageError("--dask reads files, not standard input")
    size = _partition_bytes(args)
    compression = Compression(args.compress_parts) if args.compress_parts else Compression.NONE
    with cluster_errors():
        inputs = [plan.Input(name, files.absolute(name)) for pattern in names for name in files.expand(pattern)]
        if options.duplicates.active:
            duplicates_options.refuse_repeated([item.name for item in inputs])
        spec = connect.parse_spec(args.dask, args.dask_dashboard)
        # Looked at before a cluster is started for nothing; made only once one is reached
        # (normalize_on), so a bad address leaves no empty directory behind.
        files.prepare_directory(args.output, PART_GLOB, create=False)
        out_dir = files.absolute(args.output)
        sinks: list[files.TextSink] = []
        try:
            report = files.TextSink(args.report) if args.report else None
            sinks += [report] if report else []
            rejects = files.TextSink(args.reject_to) if args.reject_to else None
            sinks += [rejects] if rejects else []
            with connect.connect(spec) as client:
                _say_dashboard("normalize", spec, client)
                work = plan.Work.LIGHT if options.moves is MovesOption.KEEP else plan.Work.HEAVY
                size, chunk = (size, size) if size else _auto_sizes(client, [item.path for item in inputs], work)
                summary = normalize_on(client, inputs, options, out_dir, size, compression, report, rejects,
                                       InputNames.INCLUDED if len(inputs) > 1 else InputNames.OMITTED, chunk)
            for sink in sinks:
                sink.commit()
            files.write_marker(out_dir)  # last: the directory is a whole result
        except BaseException:
            for sink in sinks:
                sink.discard()
            raise
    return summary


def check(args: argparse.Namespace, options: CheckOptions, emit: Callable[[CheckProblem], None]) -> CheckSummary:
    """``notation check --dask``: the problems of every path, in order, as one process finds them."""
    from notation.check.sources import Source
    from notation.cluster import connect, files, plan
    from notation.cluster.check import check_on, discover

    _required()
    if "-" in args.paths:
        raise UsageError("--dask reads files, not standard input")
    size = _partition_bytes(args)
    with cluster_errors():
        found = discover(args.paths)
        spec = connect.parse_spec(args.dask, args.dask_dashboard)
        with connect.connect(spec) as client:
            _say_dashboard("check", spec, client)
            paths = [files.absolute(item.path) for item in found if isinstance(item, Source)]
            size, chunk = (size, size) if size else _auto_sizes(client, paths, plan.Work.HEAVY)  # moves are read
            if options.duplicates is not None and options.duplicates.finds_prefixes:
                from notation.check.prefix_copies import PrefixesUnavailable
                from notation.cluster.check import prefix_copies_on

                try:  # the copies first, in one more pass: the longer game may come later
                    options = options._replace(copies=prefix_copies_on(client, found, options, size, chunk))
                except PrefixesUnavailable as exc:
                    raise UsageError(str(exc)) from None
            return check_on(client, found, options, emit, size, chunk)


def _say_dashboard(command: str, spec: ClusterSpec, client: object) -> None:
    """On standard error: where the dashboard asked for is (``--dask-dashboard``)."""
    from notation.cluster.connect import dashboard_link

    if spec.dashboard is None:
        return
    link = dashboard_link(client)
    where = f"is at {link}" if link else "could not be started"
    sys.stderr.write(f"notation {command}: the Dask dashboard {where}\n")
    sys.stderr.flush()


def _auto_sizes(client: object, paths: list[str], work: Work) -> tuple[int, int]:
    """``--partition-size auto`` for ``paths`` on ``client``'s cluster: the partition size
    and the chunk size of compressed inputs (``plan.auto_partition_bytes``)."""
    from notation.cluster import ClusterError, connect, files, plan
    from notation.inputs import compression_for_name

    sizes = []
    for path in paths:
        try:
            sizes.append((files.size(path), compression_for_name(path)))
        except ClusterError:
            continue  # it is said when it is read
    size = plan.auto_partition_bytes(sizes, connect.threads(client), work)
    return size, plan.auto_chunk_bytes(size)
