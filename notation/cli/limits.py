"""``--jobs``: the option and its limit on this machine. ``jobs_from`` raises ``UsageError``
for a value below 1 or above ``jobs_limit()``.
"""

from __future__ import annotations

import os

from notation.cli.usage import UsageError

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing here
if TYPE_CHECKING:
    import argparse


def add_jobs_option(parser: argparse.ArgumentParser) -> None:
    """``--jobs/-j N``: answer the inputs with N worker processes (``args.jobs``)."""
    parser.add_argument(
        "--jobs", "-j", type=int, default=1, metavar="N",
        help="processes answering the inputs at once (default: 1); the output is the same, in the same order",
    )


JOBS_PER_CORE = 4  # --jobs at most this many a core (and MIN_JOBS_LIMIT on any machine)


MIN_JOBS_LIMIT = 8


def jobs_limit() -> int:
    """The most ``--jobs`` this machine accepts: each worker is a process with its own
    memory, and thousands of them would exhaust it long before they sped anything up."""
    return max(MIN_JOBS_LIMIT, JOBS_PER_CORE * (os.cpu_count() or 1))


def jobs_from(args: argparse.Namespace) -> int:
    """``args.jobs``; raises ``UsageError`` below 1 or above ``jobs_limit()``."""
    jobs = int(args.jobs)
    if jobs < 1:
        raise UsageError("--jobs must be at least 1")
    limit = jobs_limit()
    if jobs > limit:
        raise UsageError(
            f"--jobs {jobs} is more than this machine can use: at most {limit} "
            f"({JOBS_PER_CORE} a core, {os.cpu_count() or 1} cores)"
        )
    return jobs
