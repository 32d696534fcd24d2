"""``notation normalize`` on a cluster: parts written by the workers, one report by the client.

Each partition (``plan``: a byte range of a plain file, or a chunk of a compressed one that
the command read) is normalised on a worker, which writes its games to
``OUT/part-NNNNN.pgn`` (``.gz``, ``.bz2`` or ``.zst`` added when compressed) and sends back
what the client needs: its report entries, its rejected games, its counts. The client
takes the partitions in input order, at most a few per worker in flight
(``window.InOrder``), numbers the games after those of the partitions before (lines are
already right), and writes the one report and rejects file. So the parts, concatenated in
order, are byte for byte what one process writes for the inputs one after another, and
each input's report entries are those one process writes for it (with several inputs,
each entry also names its ``input``). A stretch of a compressed input with no game start
for longer than a chunk may be is normalised by the command itself, in its turn, into its
own part.

Faults: a task whose worker dies is run again elsewhere; a local part is written under a
private temporary name and renamed into place, and a task run again removes what its
dead try left, so a part is whole whoever wrote it and no temporary file stays. A task
finding the run cancelled or its worker closing before it renames its part drops it.
When the run fails, the error says which parts had been written; they are removed, and
the directory has no ``_SUCCESS`` marker (the caller writes it last, after a run that
succeeded: ``files.write_marker``).

Raises ``ClusterError`` (one line) for an input that cannot be read, an output that cannot
be written, or a cluster that fails (then the written parts are named, see above);
nothing is raised for bad PGN (see ``notation.pgn.normalize``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from notation.cluster import ClusterError, failures, files
from notation.cluster.chunks import Chunk, Failure, Stretch
from notation.cluster.connect import threads
from notation.cluster.plan import Input, Numbering, Partition, Reading, byte_ranges, given, layout
from notation.cluster.window import InOrder, in_flight_limit
from notation.inputs import Compression, InputError
from notation.lean_enum import LeanStrEnum
from notation.pgn import ranges
from notation.pgn.batch import ReportEntries
from notation.pgn.normalize import NormalizeOptions, Normalizer, Summary
from notation.pgn.splitter import iter_games

PART_GLOB = "part-*"


class InputNames(LeanStrEnum):
    """Whether report entries name the input they come from."""

    OMITTED = "omitted"  # one input: the entries are exactly one process's
    INCLUDED = "included"  # several inputs: each entry starts with "input", the input's name


def part_name(index: int, compression: Compression) -> str:
    """``part-00000.pgn``, with ``.gz``, ``.bz2`` or ``.zst`` when compressed."""
    suffix = "" if compression is Compression.NONE else "." + compression.value
    return f"part-{index:05d}.pgn{suffix}"


@dataclass
class PartOutcome:
    """What a worker sends back for one partition. ``last_game``: the number of its last
    game (games are numbered from 1 in each partition)."""

    last_game: int = 0
    summary: Summary = field(default_factory=Summary)
    report: list[dict[str, Any]] = field(default_factory=list)
    rejected: list[str] = field(default_factory=list)


def normalize_part(partition: Partition, options: NormalizeOptions, target: str, compression: Compression,
                   text: str | Iterable[str] | None = None,
                   entries: ReportEntries = ReportEntries.KEEP) -> PartOutcome:
    """On a worker (or here, for a stretch): normalise one partition into ``target``; ``text``
    is a ``Reading.GIVEN`` partition's; ``entries`` DROP: the outcome holds no report (the
    run writes none). Raises ``ClusterError``."""
    files.remove_temporaries(target)  # a dead try's, when this task runs again
    outcome = PartOutcome()
    normalizer = Normalizer(options)
    sink = files.TextSink(target, compression)
    try:
        if partition.reading is Reading.GIVEN:
            _normalize(normalizer, [text] if isinstance(text, str) else text or [], partition, options, sink, outcome,
                       entries)
        else:
            with files.open_binary(partition.path) as file:
                blocks = ranges.read_text(file, partition.start, partition.end)
                _normalize(normalizer, blocks, partition, options, sink, outcome, entries)
        if not _still_wanted():
            sink.discard()
            raise ClusterError(f"the run writing {target!r} was cancelled")
        sink.commit()
    except InputError as exc:
        sink.discard()
        raise ClusterError(str(exc)) from None
    except OSError as exc:
        sink.discard()
        raise ClusterError(f"cannot read {partition.name!r}: {files.reason(exc)}") from None
    except BaseException:
        sink.discard()
        raise
    return outcome


def _normalize(normalizer: Normalizer, blocks: Iterable[str], partition: Partition, options: NormalizeOptions,
               sink: files.TextSink, outcome: PartOutcome, entries: ReportEntries) -> None:
    keep_report = entries is ReportEntries.KEEP
    for game in iter_games(blocks, options.limits, first_line=partition.first_line):
        result = normalizer.normalize_game(game)
        outcome.summary.add(result)
        outcome.last_game = result.number
        if result.rejected:  # only with BadGamePolicy.REJECT, which a rejects file goes with
            outcome.rejected.append(result.text)
        else:
            sink.write(result.text)
        if keep_report:
            outcome.report.extend(result.report)


def _still_wanted() -> bool:
    """False when this task runs on a worker that is closing (its scheduler gone) or whose
    task was cancelled (the run failed); True elsewhere, and when that cannot be told."""
    try:
        from distributed import get_worker

        worker = get_worker()
    except (ImportError, ValueError):
        return True  # not in a task: the command's own stretch
    try:
        if worker.status.name != "running":
            return False
        task = worker.state.tasks.get(worker.get_current_task())
        return task is None or task.state not in ("cancelled", "released", "forgotten")
    except Exception:  # noqa: BLE001 - Dask's internals changed: assume the run goes on
        return True


class Assembler:
    """The client's side: partitions' outcomes, taken in input order, into one summary, one
    report and one rejects file (``report`` and ``rejects`` may be None: not wanted)."""

    def __init__(self, report: files.TextSink | None, rejects: files.TextSink | None, input_names: InputNames):
        self.summary = Summary()
        self._report = report
        self._rejects = rejects
        self._input_names = input_names
        self._games_before: dict[int, int] = {}  # per input: games in its partitions taken so far

    def add(self, partition: Partition, outcome: PartOutcome) -> None:
        offset = self._games_before.get(partition.file_index, 0)
        self._games_before[partition.file_index] = offset + outcome.last_game
        self.summary.add_counts(outcome.summary)
        if self._rejects is not None:
            for text in outcome.rejected:
                self._rejects.write(text)
        if self._report is not None:
            for entry in outcome.report:
                entry["game"] += offset
                if self._input_names is InputNames.INCLUDED:
                    entry = {"input": partition.name, **entry}
                self._report.write(json.dumps(entry, ensure_ascii=False) + "\n")


Work = Partition | tuple[Partition, Chunk | Stretch]


def partitions(client: Any, inputs: list[Input], partition_bytes: int, ahead: int = 8,
               chunk_bytes: int | None = None) -> Iterator[Work]:
    """The partitions of ``inputs`` in order (see ``plan``), with the text of those the
    command reads (chunks of ``chunk_bytes``, by default the partition size); raises
    ``ClusterError``."""
    for index, item in enumerate(inputs):
        shape = layout(item, partition_bytes)
        if shape.compression is Compression.NONE:
            yield from byte_ranges(client, index, item, shape, partition_bytes, Numbering.COUNTED, ahead)
            continue
        yield from given(index, item, chunk_bytes or partition_bytes, Failure.RAISE)


def normalize_on(
    client: Any,
    inputs: list[Input],
    options: NormalizeOptions,
    out_dir: str,
    partition_bytes: int,
    compression: Compression = Compression.NONE,
    report: files.TextSink | None = None,
    rejects: files.TextSink | None = None,
    input_names: InputNames = InputNames.OMITTED,
    chunk_bytes: int | None = None,
) -> Summary:
    """Normalise ``inputs`` on ``client``'s cluster into ``out_dir``, compressed inputs in
    chunks of ``chunk_bytes`` (by default the partition size); see the module doc and
    ``Assembler``. The sinks are written here; committing them, and the ``_SUCCESS``
    marker after them, is the caller's."""
    files.prepare_directory(out_dir, PART_GLOB)
    targets: list[str] = []
    assembler = Assembler(report, rejects, input_names)
    limit = in_flight_limit(threads(client))
    copies = merged = None
    window = InOrder(client, limit)
    entries = ReportEntries.DROP if report is None else ReportEntries.KEEP
    try:
        if options.duplicates.active:  # one more pass first: the copies, found in input order
            from notation.cluster.duplicates import find_copies_on, for_partition, gather_tags_on
            from notation.pgn.duplicates import MergeTags

            found = find_copies_on(client, partitions(client, inputs, partition_bytes, limit, chunk_bytes),
                                   options, limit)
            copies = found.copies
            if options.duplicates.merge is not MergeTags.NONE:  # and one more: the tags the kept games get
                merged = gather_tags_on(client, partitions(client, inputs, partition_bytes, limit, chunk_bytes),
                                        options, found, limit)
        for work in partitions(client, inputs, partition_bytes, limit, chunk_bytes):
            target = files.join(out_dir, part_name(len(targets), compression))
            targets.append(target)
            partition, text = (work, None) if isinstance(work, Partition) else work
            if copies is not None:
                options = for_partition(options, copies, partition, merged)
            if isinstance(text, Stretch):
                window.drain()  # the stretch is read here, now: everything before it is done
                outcome = normalize_part(partition, options, target, compression, text.pieces(), entries)
                assembler.add(partition, outcome)
                continue
            window.add(_starter(client, partition, options, target, compression, text, entries),
                       lambda outcome, partition=partition: assembler.add(partition, outcome))  # type: ignore[misc]
        window.drain()
    except BaseException as exc:
        window.cancel()
        note = _remove_parts(out_dir, targets)
        message = failures.describe(exc)
        if message is None:
            raise
        raise ClusterError(f"{message} ({note})") from None
    finally:
        files.sweep_temporaries(out_dir, PART_GLOB)
    return assembler.summary


def _starter(client: Any, partition: Partition, options: NormalizeOptions, target: str, compression: Compression,
             chunk: Chunk | None, entries: ReportEntries):
    """What starts one partition's task. A chunk's text goes with its task, through the
    scheduler, which holds it until the task is done and gives it again to the worker
    that runs the task again if the first one dies (sent ahead to a worker with
    ``client.scatter``, it would wait on that worker, and be lost with it). The options go
    with each task too (some kilobytes): sent once to every worker, they would wait for
    every worker, a stopped one too."""
    text = None if chunk is None else chunk.text
    return lambda: (client.submit(normalize_part, partition, options, target, compression, text, entries,
                                  pure=False),)


def _remove_parts(out_dir: str, targets: list[str]) -> str:
    """Remove the parts of a failed run; what to tell the user about them."""
    written = [index for index, target in enumerate(targets) if files.exists(target)]
    files.remove(targets)
    if not written:
        return f"no part was written to {out_dir!r}"
    return (f"{len(written)} part(s) had been written to {out_dir!r} ({_runs(targets, written)}) and were "
            f"removed; it has no {files.SUCCESS_MARKER} marker")


def _runs(targets: list[str], indices: list[int]) -> str:
    """``part-00000.pgn to part-00003.pgn, part-00006.pgn``: the named parts, runs joined."""
    def name(index: int) -> str:
        return targets[index].replace("\\", "/").rsplit("/", 1)[-1]

    runs: list[list[int]] = []
    for index in indices:
        if runs and index == runs[-1][1] + 1:
            runs[-1][1] = index
        else:
            runs.append([index, index])
    return ", ".join(name(a) if a == b else f"{name(a)} to {name(b)}" for a, b in runs)
