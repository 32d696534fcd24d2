"""``notation check`` on a cluster: partitions checked on the workers, problems in order.

Files are found as ``notation.check.sources.discover`` finds them (local paths and
directories), or through fsspec (URLs, globs). A PGN file larger than the partition size
is cut at game starts (``plan``); every other file (FEN, EPD, compressed) is checked whole
on one worker. The client hands the problems on file by file, partition by partition, so
they come in the order one process gives.

Damage the reading layer reports (bytes that are not UTF-8, a NUL byte, an overlong
line, corrupt compressed data) is counted over a whole file and may stop its reading: a
file cut into partitions where a partition reports such damage is checked again, whole,
on one worker, so its problems are still exactly those of one process.

Never raises on bad input (``Unreadable`` files are listed in the summary); raises
``ClusterError`` only for a URL whose file system is not installed.
"""

from __future__ import annotations

import glob
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from notation.check import CheckOptions
from notation.check.games import check_pgn_text
from notation.check.judge import PositionJudge
from notation.check.lines import read_blocks
from notation.check.problem import CheckProblem, ProblemList, Severity
from notation.check.runner import MAX_LINE_BYTES, NOTHING_FOUND, Summary, check_stream, counter, without_excluded
from notation.check.sources import FileKind, Found, Skipped, Source, Unreadable, classify
from notation.check.sources import discover as discover_local
from notation.cluster import ClusterError, files
from notation.cluster.plan import Input, Partition, plan
from notation.inputs import InputError, InputFile
from notation.pgn import ranges

# Codes of the reading layer (notation.check.lines), which depend on the whole file.
READING_CODES = frozenset({"encoding", "binary-file", "decompress", "line-too-long"})


@dataclass
class PartProblems:
    """What a worker sends back for one partition (or a whole file)."""

    problems: list[CheckProblem] = field(default_factory=list)
    games: int = 0
    unreadable: str | None = None  # why the file could not be opened

    @property
    def reading_damage(self) -> bool:
        return any(problem.code in READING_CODES for problem in self.problems)


def discover(paths: list[str]) -> list[Found]:
    """The sources ``paths`` lead to, in order; see the module doc."""
    found: list[Found] = []
    for path in paths:
        if not files.is_url(path):
            if glob.has_magic(path):
                matches = sorted(glob.glob(path))
                found.extend(discover_local(matches) if matches else [Unreadable(path, "no file matches")])
            else:
                found.extend(discover_local([path]))
            continue
        try:
            found.extend(_discover_url(path))
        except OSError as exc:
            found.append(Unreadable(path, files.reason(exc)))
    return found


def _discover_url(path: str) -> list[Found]:
    fs, inner = files.filesystem(path)
    if glob.has_magic(inner):
        names = sorted(fs.glob(inner))
        if not names:
            return [Unreadable(path, "no file matches")]
    elif fs.isdir(inner):
        names = sorted(name for name in fs.find(inner) if classify(name.rsplit("/", 1)[-1]))
    elif fs.exists(inner):
        names = [inner]
    else:
        return [Unreadable(path, "no such file or directory")]
    found: list[Found] = []
    for name in names:
        url = path if name == inner else files.as_named(path, inner, name, fs)
        kind = classify(name.rsplit("/", 1)[-1])
        found.append(Source(url, kind) if kind else Skipped(url))
    return found


def check_part(partition: Partition, kind: FileKind | None, options: CheckOptions) -> PartProblems:
    """On a worker: the problems of one partition; a ``whole`` one (or the only one of its
    file) exactly as ``run_check`` checks a file, an empty-file warning included."""
    outcome = PartProblems()
    judge = PositionJudge(options.registry, profile=options.profile)
    problems = ProblemList(partition.name, outcome.problems.append)
    try:
        with files.open_binary(partition.path) as file:
            if partition.whole:
                with InputFile(partition.name, raw=file) as source:
                    check_stream(source.binary, kind, judge, options.variant, problems)
            else:
                blocks = read_blocks(ranges.reader(file, partition.start, partition.end), problems.add,
                                     max_bytes=MAX_LINE_BYTES[FileKind.PGN])
                outcome.games = check_pgn_text(blocks, judge, options.variant, problems,
                                               first_line=partition.first_line).games
    except (ClusterError, InputError) as exc:
        return PartProblems(unreadable=exc.reason)
    except OSError as exc:
        return PartProblems(unreadable=files.reason(exc))
    problems.finish()
    return outcome


def check_on(client: Any, found: list[Found], options: CheckOptions, emit: Callable[[CheckProblem], None],
             partition_bytes: int) -> Summary:
    """Check every source in ``found`` on ``client``'s cluster; as ``run_check`` (the same
    ``accept``, ``excluded`` and ``profile``)."""
    summary = Summary()
    count = counter(options, summary, emit)
    found = list(without_excluded(found, options, summary))
    pending = {}  # all partitions are submitted before the first file's problems are awaited
    for number, item in enumerate(found):
        if isinstance(item, Source):
            parts = _partitions(client, item, partition_bytes)
            futures = client.map(check_part, parts, [item.kind] * len(parts), [options] * len(parts), pure=False)
            pending[number] = (parts, futures)
    for number, item in enumerate(found):
        if isinstance(item, Unreadable):
            summary.unreadable.append(item)
            continue
        if isinstance(item, Skipped):
            summary.skipped.append(item)
            continue
        parts, futures = pending.pop(number)
        outcomes: list[PartProblems] = client.gather(futures)
        if len(outcomes) > 1 and any(outcome.reading_damage for outcome in outcomes):
            whole = Partition(item.path, files.absolute(item.path), 0, 0, parts[-1].end, 1, True)
            outcomes = [client.submit(check_part, whole, item.kind, options, pure=False).result()]
        unreadable = next((outcome.unreadable for outcome in outcomes if outcome.unreadable), None)
        if unreadable is not None:
            summary.unreadable.append(Unreadable(item.path, unreadable))
            continue
        for outcome in outcomes:
            for problem in outcome.problems:
                count(problem)
        if len(outcomes) > 1 and not any(outcome.problems or outcome.games for outcome in outcomes):
            kind = item.kind or FileKind.PGN
            count(CheckProblem(item.path, 1, 1, Severity.WARNING, "empty-file", NOTHING_FOUND[kind]))
        summary.files += 1
    return summary


_WHOLE = 1 << 62  # a partition size no file reaches: one partition per file


def _partitions(client: Any, item: Source, partition_bytes: int) -> list[Partition]:
    """A PGN file's partitions (see ``plan``); one ``whole`` partition for any other file,
    and for a file that cannot be read (the worker opening it says why)."""
    size = partition_bytes if item.kind is FileKind.PGN else _WHOLE
    try:
        parts = plan(client, [Input(item.path, files.absolute(item.path))], size)
    except ClusterError:
        parts = []
    if len(parts) > 1:
        return parts
    return [Partition(item.path, files.absolute(item.path), 0, 0, parts[0].end if parts else 0, 1, True)]
