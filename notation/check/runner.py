"""Checking one source: read as a stream, judged, problems handed on (``check_found``,
``check_stream``), with the options, summary and problem counter every way of running the
check shares (``run``, ``jobs``, ``--dask``).

It never raises on bad input: files that cannot be opened are listed in the summary as
unreadable; everything wrong inside a file is a problem. Errors writing the output (a
closed pipe) propagate.
"""


import io
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, ClassVar, Final, Protocol

from notation.check.judge import PositionJudge
from notation.check.lines import read_blocks, read_lines
from notation.check.positions import COMMENT, check_epd_lines, check_fen_lines
from notation.check.problem import CheckProblem, ProblemList, ReadCounts, Severity
from notation.check.sources import STDIN, FileKind, Found, Skipped, Source, Unreadable
from notation.fen.profiles import WriteOptions
from notation.inputs import InputError, InputFile
from notation.move_options import MoveLanguage
from notation.pgn.severity import severity_of
from notation.records import Record
from notation.variants import Registry, Variant

if TYPE_CHECKING:  # loaded where duplicates are looked for (``--duplicates``); quoted below
    from notation.pgn.duplicates import DuplicateSettings, Verdict

# Longest line read, in bytes. No FEN or EPD record comes near 8 KiB; PGN movetext may be
# one line per game (lichess exports), so it gets far more room.
MAX_LINE_BYTES: dict[FileKind, int] = {
    FileKind.FEN: 8 * 1024,
    FileKind.EPD: 8 * 1024,
    FileKind.PGN: 1024 * 1024,
}

NOTHING_FOUND: dict[FileKind, str] = {
    FileKind.FEN: "no position in this file",
    FileKind.EPD: "no EPD record in this file",
    FileKind.PGN: "no game in this file",
}


# A record (``notation.records``), not a NamedTuple or a frozen dataclass: every check
# defines it at start-up. A changed copy is ``options._replace(...)``.
class CheckOptions(Record):
    """What to check against: the default variant (``--variant``) and the registry; codes
    reported as warnings instead of errors (``accept``); paths not checked (``excluded``,
    a test on the path); the profile positions must be written in (``profile``: its name
    and writer options); the language of chess moves' piece letters (``letters``)."""

    _NAMES: ClassVar = ("variant", "registry", "stdin_kind", "accept", "excluded", "profile", "letters", "duplicates",
                        "copies")

    def __init__(
        self,
        variant: Variant,
        registry: Registry,
        stdin_kind: FileKind | None = None,
        accept: frozenset[str] = frozenset(),
        excluded: Callable[[str], bool] | None = None,
        profile: tuple[str, WriteOptions] | None = None,
        letters: MoveLanguage = MoveLanguage.EN,
        duplicates: "DuplicateSettings | None" = None,
        copies: "Mapping[str, Mapping[tuple[int, int], Verdict]] | None" = None,
    ) -> None:
        self.variant: Final = variant
        self.registry: Final = registry
        self.stdin_kind: Final = stdin_kind  # None: tell PGN from FEN/EPD by the first line
        self.accept: Final = accept
        self.excluded: Final = excluded
        self.profile: Final = profile
        self.letters: Final = letters  # chess moves' piece letters (``--piece-letters``)
        # ``--duplicates``: later copies of games reported; None, not looked for
        # (``notation.pgn.duplicates`` is then not loaded: a check without the option
        # starts up without it)
        self.duplicates: Final = duplicates
        # ``--duplicates-by prefix``: per file, the copies found first (``prefix_copies``)
        self.copies: Final = copies


class ProgressSink(Protocol):
    """Where ``run_check`` reports how far it is: bytes of the files as stored."""

    def total(self, size: int | None) -> None:
        """The bytes to read in all (None: not known, e.g. standard input)."""

    def advance(self, size: int) -> None:
        """``size`` more bytes were read."""


# Summary's fields, in order (its slots and its repr's names).
_SUMMARY_FIELDS: Final = ("files", "errors", "warnings", "unreadable", "skipped", "excluded", "suppressed", "read")


# A plain class, not a dataclass: importing dataclasses (it imports inspect and ast) and
# compiling its generated methods from source at import would cost every check's start-up.
class Summary:
    """Counts of one run, and the paths that could not be read or were skipped. Equal when
    every field is (a cluster's summary is held to one process's)."""

    __slots__ = _SUMMARY_FIELDS

    def __init__(self, files: int = 0, errors: int = 0, warnings: int = 0, unreadable: list[Unreadable] | None = None,
                 skipped: list[Skipped] | None = None, excluded: int = 0, suppressed: int = 0,
                 read: ReadCounts | None = None) -> None:
        self.files = files
        self.errors = errors
        self.warnings = warnings
        self.unreadable: list[Unreadable] = [] if unreadable is None else unreadable
        self.skipped: list[Skipped] = [] if skipped is None else skipped
        self.excluded = excluded  # files left out by ``CheckOptions.excluded``
        self.suppressed = suppressed  # problems silenced by inline ``notation: ignore`` comments
        self.read = ReadCounts() if read is None else read  # games, plies and positions read

    def _fields(self) -> tuple[int, int, int, list[Unreadable], list[Skipped], int, int, ReadCounts]:
        return (self.files, self.errors, self.warnings, self.unreadable, self.skipped, self.excluded,
                self.suppressed, self.read)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Summary):
            return NotImplemented
        return self._fields() == other._fields()

    def __reduce__(self) -> "tuple[type[Summary], tuple[Any, ...]]":
        """Pickled through ``__init__``, which takes the fields in order (compiled, it keeps no
        dictionary)."""
        return (Summary, self._fields())

    def __repr__(self) -> str:
        pairs = zip(_SUMMARY_FIELDS, self._fields(), strict=True)
        return "Summary(" + ", ".join(f"{name}={value!r}" for name, value in pairs) + ")"

    def file_checked(self, problems: ProblemList) -> None:
        """Count one file checked: its suppressed problems and what was read of it."""
        self.files += 1
        self.suppressed += problems.suppressed
        self.read.add(problems.read)

    def to_dict(self) -> dict[str, int]:
        """The counts of ``check --format json`` and SARIF's run properties."""
        return {
            "files": self.files, "games": self.read.games, "plies": self.read.plies,
            "positions": self.read.positions, "errors": self.errors, "warnings": self.warnings,
            "suppressed": self.suppressed, "excluded": self.excluded, "unreadable": len(self.unreadable),
        }

    def describe(self) -> str:
        """``1 file(s), 3 game(s), 120 plies, 0 error(s), 2 warning(s)``: the text summary's
        counts (games and plies where games were read, positions where positions were)."""
        read = self.read
        parts = [f"{self.files} file(s)"]
        if read.games:
            parts += [f"{read.games} game(s)", f"{read.plies} {'ply' if read.plies == 1 else 'plies'}"]
        if read.positions:
            parts.append(f"{read.positions} position(s)")
        if not read.games and not read.positions:
            parts += ["0 game(s)", "0 position(s)"]
        parts += [f"{self.errors} error(s)", f"{self.warnings} warning(s)"]
        parts += [f"{count} {what}" for count, what in ((self.suppressed, "suppressed"), (self.excluded, "excluded"))
                  if count]
        return ", ".join(parts)


def check_found(found: Found, options: CheckOptions, judge: PositionJudge, count: Callable[[CheckProblem], None],
                summary: Summary, progress: ProgressSink | None = None) -> None:
    """Check one thing ``discover`` found, here: its problems to ``count``, its outcome
    (checked, unreadable, skipped) into ``summary``."""
    if isinstance(found, Unreadable):
        summary.unreadable.append(found)
        return
    if isinstance(found, Skipped):
        summary.skipped.append(found)
        return
    try:
        source = InputFile(STDIN if found.is_stdin else found.path)
    except InputError as exc:
        summary.unreadable.append(Unreadable(found.path, exc.reason))
        return
    problems = ProblemList(found.path, count)
    with source:
        if progress is None:
            check_stream(source.binary, found.kind, judge, options.variant, problems)
        else:
            from notation.check.raw_readers import ReportingReader  # here: a check without a bar starts without it

            reporting = ReportingReader(source, progress)
            stream = io.BufferedReader(reporting, buffer_size=1 << 16)
            check_stream(stream, found.kind, judge, options.variant, problems)
            progress.advance(max(0, source.position - reporting.reported))
    problems.finish()
    summary.file_checked(problems)


def new_judge(options: CheckOptions) -> PositionJudge:
    """The judge of one process's run, with the run's duplicate finder when ``--duplicates``."""
    judge = PositionJudge(options.registry, profile=options.profile, letters=options.letters)
    if options.duplicates is not None and options.duplicates.active:
        from notation.check.duplicates import CheckDuplicates

        judge.duplicates = CheckDuplicates(options.duplicates, options.copies)
    return judge


def counter(
    options: CheckOptions, summary: Summary, emit: Callable[[CheckProblem], None]
) -> Callable[[CheckProblem], None]:
    """What takes each problem found, wherever it was found (here, in ``--jobs`` workers or
    on a cluster): its severity is its code's in the one table every front end reads
    (``notation.pgn.severity``; an ``accept``ed code is a warning), ``summary`` counts it,
    ``emit`` reports it."""
    accept = options.accept

    def count(problem: CheckProblem) -> None:
        rated = severity_of(problem.code, accept, problem.severity)
        if rated != problem.severity:  # a str enum: equal to its value
            problem = problem._replace(severity=Severity(rated))
        if problem.severity is Severity.ERROR:
            summary.errors += 1
        else:
            summary.warnings += 1
        emit(problem)

    return count


def without_excluded(found: Iterable[Found], options: CheckOptions, summary: Summary) -> Iterable[Found]:
    """``found`` without the paths ``options.excluded`` leaves out (counted in ``summary``)."""
    excluded = options.excluded
    if excluded is None:
        return found
    return _without(found, excluded, summary)


def _without(found: Iterable[Found], excluded: Callable[[str], bool], summary: Summary) -> Iterator[Found]:
    for item in found:
        if not (isinstance(item, Source) and item.is_stdin) and excluded(item.path):
            summary.excluded += 1
            continue
        yield item


def check_stream(
    stream: BinaryIO, kind: FileKind | None, judge: PositionJudge, variant: Variant, problems: ProblemList
) -> None:
    """Read and judge one source into ``problems``; ``kind`` None: sniff it. Never raises on
    bad input (errors writing the output do propagate)."""
    if kind is None:
        kind, stream = sniff(stream)
    max_bytes = MAX_LINE_BYTES[kind]
    if kind is FileKind.PGN:
        from notation.check.games import check_pgn_text  # here: a gate on FEN files starts without PGN's reader

        blocks = read_blocks(stream, problems.add, max_bytes=max_bytes)
        seen = check_pgn_text(blocks, judge, variant, problems).games
    else:
        lines = read_lines(stream, problems.add, max_bytes=max_bytes, report_count=problems.add_last)
        seen = _LINE_CHECKERS[kind](lines, judge, variant, problems)
        problems.read.positions += seen
    if seen == 0 and not len(problems):
        problems.add(1, 1, Severity.WARNING, "empty-file", NOTHING_FOUND[kind])


SNIFF_BYTES = 1 << 16


def sniff(stream: BinaryIO) -> tuple[FileKind, BinaryIO]:
    """Tell what a stream holds from its first meaningful line; the bytes read are kept.

    PGN if that line starts with ``[`` or a move number, EPD if a ``;`` follows the
    position fields, FEN otherwise.
    """
    head = stream.read(SNIFF_BYTES)
    kind = FileKind.FEN
    for text in head.decode("utf-8", "replace").lstrip("\ufeff").splitlines():
        text = text.strip()
        if not text or text.startswith(COMMENT):
            continue
        if text.startswith("[") or text[0].isdigit() and "." in text.split()[0]:
            kind = FileKind.PGN
        elif ";" in text:
            kind = FileKind.EPD
        break
    from notation.check.raw_readers import PrefixedReader  # here: a source of a known kind starts without it

    return kind, io.BufferedReader(PrefixedReader(head, stream))


_LINE_CHECKERS = {
    FileKind.FEN: check_fen_lines,
    FileKind.EPD: check_epd_lines,
}
