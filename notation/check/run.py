"""Running the check: every source found, read as a stream, judged, problems handed on.

``run_check`` calls ``emit`` with each file's problems in line order, file after file, as
soon as they are final, so front ends print as they go. It never raises on bad input: files
that cannot be opened are listed in the summary as unreadable; everything wrong inside a
file is a problem. Errors writing the output (a closed pipe) propagate.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable

from notation.check.problem import CheckProblem
from notation.check.runner import (
    CheckOptions,
    ProgressSink,
    Summary,
    check_found,
    counter,
    new_judge,
    without_excluded,
)
from notation.check.sources import Found, Source, discover


def run_check(
    paths: list[str],
    options: CheckOptions,
    emit: Callable[[CheckProblem], None],
    progress: ProgressSink | None = None,
    jobs: int = 1,
) -> Summary:
    """Check every source ``paths`` lead to; see the module doc. With ``progress``, the
    files are found first (so their total size is known), then read. ``jobs`` above 1:
    that many processes do the checking, the parent one of them (``notation.check.jobs``); the
    problems, their order and the summary are the same. With ``--duplicates-by prefix``
    the copies are found over every file first (``prefix_copies``; it raises
    ``PrefixesUnavailable`` for inputs that cannot be read twice)."""
    summary = Summary()
    count = counter(options, summary, emit)
    found_all: Iterable[Found] = without_excluded(discover(paths, options.stdin_kind), options, summary)
    prefixes = options.duplicates is not None and options.duplicates.finds_prefixes
    if progress is not None or prefixes:
        found_all = list(found_all)
    if prefixes and options.copies is None:
        from notation.check.prefix_copies import find_prefix_copies  # the copies first: the longer may come later

        options = options._replace(copies=find_prefix_copies(list(found_all), options, jobs))
    if progress is not None:
        progress.total(_total_size(list(found_all)))
    if jobs > 1:
        from notation.check.jobs import check_in_parallel  # the worker pool: only with --jobs

        check_in_parallel(found_all, options, count, summary, jobs, progress)
        return summary
    judge = new_judge(options)
    for found in found_all:
        check_found(found, options, judge, count, summary, progress)
    return summary


def _total_size(found: list[Found]) -> int | None:
    total = 0
    for item in found:
        if isinstance(item, Source):
            if item.is_stdin:
                return None
            try:
                total += os.stat(item.path).st_size
            except OSError:
                continue
    return total
