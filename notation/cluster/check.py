"""``notation check`` on a cluster: files checked in pieces on the workers, problems in order.

Files are found as ``notation.check.sources.discover`` finds them (local paths and
directories), or through fsspec (URLs, globs). A PGN file is cut at game starts
(``plan``): an uncompressed one into byte ranges the workers read themselves, a compressed
one into chunks of the text the command reads once (``chunks``). Every other file (FEN,
EPD, a file whose kind is sniffed) is checked whole on one worker.

Each piece numbers its lines from 1; the client replays the pieces' problems in order into
the file's list, moving their lines on as each comes back (``damage.FileMerge``), so no
pass counts lines ahead. Damage the reading layer counts over the whole file (bytes that
are not UTF-8, a NUL byte, an overlong line, corrupt compressed data) is found piece by
piece and merged there too, so every file is read once, in parallel, and the problems,
their order and the summary are those of one process.

Problems go to ``emit`` as the pieces come back, in order; at most a few pieces per worker
are in flight (``window.InOrder``), so the client holds the problems of those pieces and
no more, however many a file has.

Never raises on bad input (``Unreadable`` files are listed in the summary); raises
``ClusterError`` for a URL whose file system is not installed or a file that fails while
its pieces are read, and Dask's errors when the cluster fails.
"""

from __future__ import annotations

import glob
import io
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from notation.check import CheckOptions
from notation.check.games import check_pgn_text
from notation.check.judge import PositionJudge
from notation.check.lines import LineEnds, read_blocks
from notation.check.problem import CheckProblem, GameKey, ProblemList, ReadCounts
from notation.check.runner import MAX_LINE_BYTES, Summary, check_stream, counter, new_judge, without_excluded
from notation.check.sources import FileKind, Found, Skipped, Source, Unreadable, classify
from notation.check.sources import discover as discover_local
from notation.cluster import ClusterError, files
from notation.cluster.chunks import Chunk, Failure, Stretch
from notation.cluster.connect import threads
from notation.cluster.damage import FileMerge, PieceLog, PieceOutcome
from notation.cluster.plan import Input, Numbering, Partition, Reading, byte_ranges, given, layout
from notation.cluster.window import InOrder, in_flight_limit
from notation.inputs import ENCODING, ERRORS, Compression, CorruptInput, InputError, InputFile
from notation.pgn import ranges
from notation.pgn.duplicates import Verdict


@dataclass
class PartProblems:
    """What a worker sends back for a file checked whole."""

    problems: list[CheckProblem] = field(default_factory=list)
    suppressed: int = 0  # problems silenced by inline ``notation: ignore`` comments
    unreadable: str | None = None  # why the file could not be opened
    read: ReadCounts = field(default_factory=ReadCounts)  # games, plies and positions read


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


def check_whole(path: str, name: str, kind: FileKind | None, options: CheckOptions) -> PartProblems:
    """On a worker: one whole file, exactly as ``run_check`` checks it, an empty-file
    warning included."""
    outcome = PartProblems()
    judge = PositionJudge(options.registry, profile=options.profile, letters=options.letters)
    problems = ProblemList(name, outcome.problems.append)
    try:
        with files.open_binary(path) as file, InputFile(name, raw=file) as source:
            check_stream(source.binary, kind, judge, options.variant, problems)
    except (ClusterError, InputError) as exc:
        return PartProblems(unreadable=exc.reason)
    except OSError as exc:
        return PartProblems(unreadable=files.reason(exc))
    problems.finish()
    outcome.suppressed = problems.suppressed
    outcome.read = problems.read
    return outcome


Why = str | Callable[[], str | None] | None  # why the reading broke at the text's end (asked there)


def check_piece(partition: Partition, options: CheckOptions, text: str | Iterable[str] | None = None,
                failure: Why = None) -> PieceOutcome:
    """On a worker (or here, for a stretch): the problems of one piece of a PGN file, its
    lines numbered from 1 (``damage``). ``text``: a ``Reading.GIVEN`` piece's, whose
    reading then breaks with ``failure`` if there is one. Raises ``ClusterError`` when the
    file cannot be read."""
    judge = new_judge(options)  # with --duplicates, it records each game's key for the client
    log = PieceLog(partition.name)
    try:
        with _PieceBytes(partition, text, failure) as stream:
            blocks = read_blocks(stream, log.add, max_bytes=MAX_LINE_BYTES[FileKind.PGN])
            checked = check_pgn_text(blocks, judge, options.variant, log)
            return log.outcome(checked.games, checked.line_breaks, stream.raw.line_feeds)  # type: ignore[attr-defined]
    except OSError as exc:
        raise ClusterError(f"cannot read {partition.name!r}: {files.reason(exc)}") from None


class _Counted(io.RawIOBase):
    """Bytes from ``read`` with the lines they end counted (``line_feeds``: a ``\\n`` or a
    lone ``\\r`` ends one, as the reading layer counts them); then, if ``failure`` says why
    the reading broke, ``CorruptInput`` naming ``name``."""

    def __init__(self, read: Callable[[int], bytes], name: str, failure: Why = None):
        super().__init__()
        self._read = read
        self._name = name
        self._failure = failure
        self._ends = LineEnds()

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        data = self._read(len(buffer))
        if not data and self._failure is not None:
            why, self._failure = self._failure, None
            reason = why() if callable(why) else why
            if reason is not None:
                raise CorruptInput(self._name, reason)
        self._ends.feed(data)
        buffer[: len(data)] = data
        return len(data)

    @property
    def line_feeds(self) -> int:
        return self._ends.count


class _PieceBytes:
    """The bytes of a piece as a buffered stream whose ``raw`` counts the lines they end."""

    def __init__(self, partition: Partition, text: str | Iterable[str] | None, failure: Why):
        self._partition = partition
        self._text = text
        self._failure = failure
        self._opened: Any = None

    def __enter__(self) -> BinaryIO:
        partition = self._partition
        if partition.reading is Reading.GIVEN:
            pieces = [self._text] if isinstance(self._text, str) else (self._text or [])
            read = _pieces_reader(pieces)
        else:
            self._opened = files.open_binary(partition.path)
            file = self._opened.__enter__()
            read = ranges.reader(file, partition.start, partition.end).read
        return io.BufferedReader(_Counted(read, partition.name, self._failure), buffer_size=1 << 16)

    def __exit__(self, *exc: Any) -> None:
        if self._opened is not None:
            self._opened.__exit__(None, None, None)


def _pieces_reader(pieces: Iterable[str]) -> Callable[[int], bytes]:
    """``read(size)`` over the UTF-8 (``surrogateescape``) bytes of ``pieces`` of text."""
    source: Iterator[str] = iter(pieces)
    held = memoryview(b"")

    def read(size: int) -> bytes:
        nonlocal held
        while not held:
            piece = next(source, None)
            if piece is None:
                return b""
            held = memoryview(piece.encode(ENCODING, ERRORS))
        data, held = held[:size], held[size:]
        return bytes(data)

    return read


def check_on(client: Any, found: list[Found], options: CheckOptions, emit: Callable[[CheckProblem], None],
             partition_bytes: int, chunk_bytes: int | None = None) -> Summary:
    """Check every source in ``found`` on ``client``'s cluster, compressed PGN files in
    chunks of ``chunk_bytes`` (by default the partition size); as ``run_check`` (the same
    ``accept``, ``excluded`` and ``profile``)."""
    summary = Summary()
    duplicates = new_judge(options).duplicates
    run = _Run(client, options, counter(options, summary, emit), summary, partition_bytes,
               chunk_bytes or partition_bytes, InOrder(client, in_flight_limit(threads(client))),
               None if duplicates is None else duplicates.replayed)
    try:
        for item in without_excluded(found, options, summary):
            if isinstance(item, Unreadable):
                run.window.then(lambda item=item: summary.unreadable.append(item))  # type: ignore[misc]
            elif isinstance(item, Skipped):
                run.window.then(lambda item=item: summary.skipped.append(item))  # type: ignore[misc]
            else:
                run.plan(item)
        run.window.drain()
    except BaseException:
        run.window.cancel()
        raise
    return summary


@dataclass
class _Run:
    client: Any
    options: CheckOptions
    count: Callable[[CheckProblem], None]
    summary: Summary
    partition_bytes: int
    chunk_bytes: int
    window: InOrder
    on_key: Callable[[ProblemList, GameKey], None] | None = None  # ``--duplicates``: the one finder's

    def plan(self, item: Source) -> None:
        """Queue the steps that check ``item``: its pieces, or the whole file."""
        if item.kind is not FileKind.PGN:
            self._whole(item)
            return
        target = Input(item.path, files.absolute(item.path))
        try:
            shape = layout(target, self.partition_bytes)
        except ClusterError as exc:
            self._unreadable(item.path, exc.reason)
            return
        merge = FileMerge(ProblemList(item.path, self.count), on_key=self.on_key)
        if shape.compression is Compression.NONE:
            for partition in byte_ranges(self.client, 0, target, shape, self.partition_bytes, Numbering.LOCAL,
                                         self.window.limit):
                self.window.add(
                    lambda partition=partition: (  # type: ignore[misc]
                        self.client.submit(check_piece, partition, self.options, pure=False),),
                    merge.add)
        elif not self._chunks(target, merge):
            return
        self.window.then(lambda: self._file_done(merge))

    def _whole(self, item: Source) -> None:
        def done(outcome: PartProblems) -> None:
            if outcome.unreadable is not None:
                self.summary.unreadable.append(Unreadable(item.path, outcome.unreadable))
                return
            for problem in outcome.problems:
                self.count(problem)
            self.summary.files += 1
            self.summary.suppressed += outcome.suppressed
            self.summary.read.add(outcome.read)

        self.window.add(lambda: (self.client.submit(check_whole, files.absolute(item.path), item.path, item.kind,
                                                    self.options, pure=False),), done)

    def _chunks(self, target: Input, merge: FileMerge) -> bool:
        """Queue the chunks of a compressed file; False when it cannot be opened."""
        queued = False
        try:
            for partition, chunk in given(0, target, self.chunk_bytes, Failure.KEEP):
                queued = True
                if isinstance(chunk, Stretch):
                    self.window.drain()  # the stretch is read here, now: everything before it is done
                    outcome = check_piece(partition, self.options, chunk.pieces(),
                                          lambda stretch=chunk: stretch.failure)  # type: ignore[misc]
                    merge.add(outcome)
                    continue
                self.window.add(self._chunk_starter(partition, chunk), merge.add)
        except ClusterError as exc:
            if queued:
                raise
            self._unreadable(target.name, exc.reason)
            return False
        return True

    def _unreadable(self, path: str, reason: str) -> None:
        self.window.then(lambda: self.summary.unreadable.append(Unreadable(path, reason)))

    def _chunk_starter(self, partition: Partition, chunk: Chunk):
        """A chunk's task, its text with it (see ``notation.cluster.normalize._starter``)."""
        return lambda: (self.client.submit(check_piece, partition, self.options, chunk.text, chunk.failure,
                                           pure=False),)

    def _file_done(self, merge: FileMerge) -> None:
        merge.finish()
        self.summary.files += 1
        self.summary.suppressed += merge.suppressed
        self.summary.read.add(merge.problems.read)


def prefix_copies_on(client: Any, found: list[Found], options: CheckOptions, partition_bytes: int,
                     chunk_bytes: int | None = None) -> dict[str, dict[tuple[int, int], Verdict]]:
    """``check --duplicates --duplicates-by prefix --dask``: the copies among the PGN files
    of ``found``, per file (by its path as the check names it), found first on the workers
    as ``normalize --dask`` finds them (``notation.cluster.duplicates``: the partitions cut
    as ``normalize`` cuts them, lines counted ahead); a file that cannot be read is left to
    the check, which reports it. Raises ``PrefixesUnavailable`` (see ``prefix_copies``)."""
    from notation.check.prefix_copies import finding_options
    from notation.cluster.duplicates import find_copies_on
    from notation.cluster.normalize import partitions

    finding = finding_options(options)
    inputs = []
    for item in without_excluded(found, options, Summary()):
        if not isinstance(item, Source) or item.kind is not FileKind.PGN:
            continue
        target = Input(item.path, files.absolute(item.path))
        try:
            layout(target, partition_bytes)
        except ClusterError:
            continue
        inputs.append(target)
    limit = in_flight_limit(threads(client))
    copies = find_copies_on(client, partitions(client, inputs, partition_bytes, limit, chunk_bytes), finding,
                            limit).copies
    out: dict[str, dict[tuple[int, int], Verdict]] = {}
    for (file_index, _line, _start), mine in copies.items():
        out.setdefault(inputs[file_index].name, {}).update(mine)
    return out
