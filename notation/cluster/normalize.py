"""``notation normalize`` on a cluster: parts written by the workers, one report by the client.

Each partition (``plan``) is normalised on a worker, which writes its games to
``OUT/part-NNNNN.pgn`` (``.gz``, ``.bz2`` or ``.zst`` added when compressed) and sends back
what the client needs: its report entries, its rejected games, its counts. The client
takes the partitions in input order, numbers the games after those of the partitions
before (lines are already right), and writes the one report and rejects file. So the
parts, concatenated in order, are byte for byte what one process writes for the inputs
one after another, and each input's report entries are those one process writes for it
(with several inputs, each entry also names its ``input``).

A task whose worker dies is run again elsewhere by Dask; a part is written to a temporary
name first (local files) or appears only when complete (object stores), so a part is
whole whoever wrote it. When the run fails, the parts written so far are removed (a task
already running on a worker then may still write its part afterwards).

Raises ``ClusterError`` (one line) for an input that cannot be read or an output that cannot
be written; nothing is raised for bad PGN (see ``notation.pgn.normalize``).
"""

from __future__ import annotations

import enum
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from notation.cluster import ClusterError, files
from notation.cluster.plan import Partition
from notation.inputs import Compression, InputError, InputFile
from notation.pgn import ranges
from notation.pgn.normalize import NormalizeOptions, Normalizer, Summary
from notation.pgn.splitter import iter_games

PART_GLOB = "part-*"


class InputNames(str, enum.Enum):
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


def partition_text(partition: Partition, file: BinaryIO) -> Iterator[str]:
    """The decoded text of a partition of ``file`` (open for reading bytes), in blocks;
    raises ``InputError`` (``CorruptInput`` for bad compressed data)."""
    if partition.whole:
        return InputFile(partition.name, raw=file).blocks()
    return ranges.read_text(file, partition.start, partition.end)


def normalize_part(partition: Partition, options: NormalizeOptions, target: str,
                   compression: Compression) -> PartOutcome:
    """On a worker: normalise one partition into ``target``; raises ``ClusterError``."""
    outcome = PartOutcome()
    normalizer = Normalizer(options)
    sink = files.TextSink(target, compression)
    try:
        with files.open_binary(partition.path) as file:
            games = iter_games(partition_text(partition, file), options.limits, first_line=partition.first_line)
            for game in games:
                result = normalizer.normalize_game(game)
                outcome.summary.add(result)
                outcome.last_game = result.number
                if result.rejected:  # only with BadGamePolicy.REJECT, which a rejects file goes with
                    outcome.rejected.append(result.text)
                else:
                    sink.write(result.text)
                outcome.report.extend(result.report)
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


def normalize_on(
    client: Any,
    partitions: list[Partition],
    options: NormalizeOptions,
    out_dir: str,
    compression: Compression = Compression.NONE,
    report: files.TextSink | None = None,
    rejects: files.TextSink | None = None,
    input_names: InputNames = InputNames.OMITTED,
) -> Summary:
    """Normalise ``partitions`` on ``client``'s cluster into ``out_dir``; see the module doc
    and ``Assembler``. The sinks are written here; committing them is the caller's."""
    files.prepare_directory(out_dir, PART_GLOB)
    targets = [files.join(out_dir, part_name(index, compression)) for index in range(len(partitions))]
    shared = client.scatter(options, broadcast=True)
    futures = client.map(normalize_part, partitions, [shared] * len(partitions), targets,
                         [compression] * len(partitions), pure=False)
    assembler = Assembler(report, rejects, input_names)
    try:
        for index, partition in enumerate(partitions):
            outcome: PartOutcome = futures[index].result()
            futures[index].release()
            assembler.add(partition, outcome)
    except BaseException:
        client.cancel(futures)
        files.remove(targets)
        raise
    return assembler.summary
