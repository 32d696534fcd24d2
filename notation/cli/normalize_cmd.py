"""``notation normalize``: one consistent PGN database from many producers' dialects."""

from __future__ import annotations

import contextlib
import enum
import os
import stat
import sys
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from notation.cli import cluster_options, duplicates_options
from notation.cli.limits import jobs_from
from notation.cli.options import (
    accepted_codes,
    add_accept_option,
    add_alias_option,
    add_piece_letters_option,
    add_repair_option,
    add_source_option,
    add_writer_options,
    build_registry,
)
from notation.cli.strictness import add_strict_option, exit_status
from notation.cli.usage import SUMMARIES, UsageError
from notation.errors import NotationError
from notation.fen.profiles import WRITER_OPTION_NAMES
from notation.inputs import Compression, InputError, InputFile
from notation.lean_enum import LeanStrEnum
from notation.outputs import Delivery, Output, OutputError
from notation.pgn.encodings import TextEncoding
from notation.pgn.export import ExportFormat
from notation.pgn.normalize import (
    BadGamePolicy,
    GameResult,
    MovesOption,
    NormalizeOptions,
    Summary,
    normalize_games,
)
from notation.pgn.repairs import BrokenGames, Repair
from notation.pgn.report_lines import entry_line
from notation.pgn.severity import ERROR, severity_of
from notation.pgn.splitter import iter_games

if TYPE_CHECKING:
    import argparse

    from notation.pgn.batch import Batch, ReportEntries

DESCRIPTION = """\
Normalise the Variant, FEN and SetUp tags of every game in a PGN database for one program
(--profile) and copy everything else byte for byte. With --moves, every move is read and
checked too (from the game's start or FEN, each variation from its branch point) and, with
a notation, rewritten in it: comments, NAGs, variations and move numbers stay in place, and
a game whose moves need no change comes out byte for byte. --profile opentafl and --profile
wxf imply their notation for their family's games (tafl, Xiangqi) when --moves is not
given. A game holding bytes that are not UTF-8 is read as Windows-1252 (Latin-1) with a
pgn-windows-1252 warning, and written as it was, or as UTF-8 with --encoding utf-8.
INPUT and OUTPUT may be '-' (standard
streams) and .gz, .bz2 or .zst files (input compression is recognised by content).
A file output appears only when the run succeeds (written beside it, then renamed; a
symbolic link keeps pointing at the rewritten target). Standard output, a FIFO or a
device is written as the run goes: on an error it keeps what was written before.
Games whose set-up is unreadable or illegal, whose variant is unknown, or (with --moves) with
an illegal, ambiguous or unreadable move, are kept unchanged (or moved to --reject-to) and
listed in --report, one JSON line per problem; --broken truncate cuts such a game before its
first bad move (a bad variation alone, where the move is in one) and --broken drop leaves it
out, each with a warning. --fix-results,
--fix-tags and --fix-move-numbers repair results, tag values and names, and move numbers
(each change a warning; all off by default).
The whole story: `notation docs pgn`.
Exit status: 0 no errors (warnings alone pass unless --strict), 1 errors reported (output
still written), 2 usage or I/O error,
130/143/129 stopped by SIGINT/SIGTERM/SIGHUP (temporary files removed)."""


class Progress(LeanStrEnum):
    """When to draw the progress bar (on standard error)."""

    AUTO = "auto"  # only when standard error is a terminal
    ALWAYS = "always"
    NEVER = "never"


class SummaryFormat(LeanStrEnum):
    TEXT = "text"
    JSON = "json"
    NONE = "none"


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "normalize",
        help=SUMMARIES["normalize"],
        description=DESCRIPTION,
    )
    parser.add_argument("input", metavar="INPUT", help="PGN file (.pgn, .gz, .bz2, .zst) or '-' for standard input")
    parser.add_argument("more_inputs", nargs="*", metavar="INPUT",
                        help="more PGN files, read one after another into the one OUTPUT (with several, report "
                        "entries name their input; --duplicates looks across them all); with --dask globs and URLs too")
    parser.add_argument("-o", "--output", metavar="OUTPUT", help="where to write (default: standard output)")
    add_writer_options(parser)
    add_repair_option(parser, what="refusing the game")
    add_accept_option(parser)
    add_alias_option(parser)
    add_source_option(parser)
    parser.add_argument(
        "--moves", choices=[m.value for m in MovesOption], default=None,
        help="keep: movetext copied unread (the default, but for --profile opentafl and --profile wxf, which "
        "rewrite their family's games in their notation); check: every move checked and its problems reported, "
        "nothing rewritten; san, lan, uci (chess), iccs, wxf (Xiangqi; san, lan and uci too), opentafl (tafl): "
        "every move checked and rewritten in that notation (SAN as the profile writes it: lichess P@e4, "
        "others @e4); a game whose variant has no such notation keeps its moves (notation-unavailable)",
    )
    _add_choice(
        parser, "--encoding", TextEncoding.KEEP,
        "how a game holding bytes that are not UTF-8 (read as Windows-1252, a pgn-windows-1252 warning) is "
        "written: keep (default) its bytes as they were, utf-8 transcoded, so that all the output is UTF-8",
    )
    _add_choice(
        parser, "--export", ExportFormat.KEEP,
        "keep: each game's own layout (default); full: the PGN standard's export format (the Seven Tag Roster "
        "first, then the other tags in ASCII order; movetext in lines under 80 characters, move numbers written "
        "anew, glyphs as NAGs; comments, NAGs and variations kept); reduced: its reduced export format (the "
        "roster, and FEN, SetUp and Variant where present; the moves alone). Every move is read and written in "
        "--moves' notation, else in its family's own: SAN for chess and Xiangqi, OpenTafl for tafl. A game with "
        "a bad move or set-up is kept as read",
    )
    add_piece_letters_option(parser)
    duplicates_options.add_normalize_options(parser)
    duplicates_options.add_identity_options(parser)
    _add_repair_options(parser)
    parser.add_argument("--report", metavar="REPORT.jsonl", help="write one JSON line per problem found")
    parser.add_argument("--reject-to", metavar="FILE",
                        help="move games with unreadable or illegal set-ups, unknown variants or (with --moves) "
                        "bad moves here")
    parser.add_argument("--in-place", action="store_true",
                        help="replace INPUT (a symbolic link's target; a backup is kept)")
    parser.add_argument("--backup-suffix", default=".bak", metavar="SUFFIX",
                        help="with --in-place: the backup is INPUT+SUFFIX (default: .bak)")
    parser.add_argument("--jobs", "-j", type=int, default=1, metavar="N", help="processes working at once (default: 1)")
    parser.add_argument("--progress", choices=[p.value for p in Progress], default=Progress.AUTO.value,
                        help="progress bar on standard error (default: auto, only on a terminal)")
    parser.add_argument("--summary", choices=[s.value for s in SummaryFormat], default=SummaryFormat.TEXT.value,
                        help="summary on standard error at the end (default: text)")
    add_strict_option(parser, "the run")
    cluster_options.add_options(parser, "normalize")
    parser.set_defaults(run=run)


def _add_choice(parser: argparse.ArgumentParser, flag: str, default: enum.Enum, text: str) -> None:
    """An option whose values are those of ``default``'s enum (``default`` when not given)."""
    parser.add_argument(flag, choices=[member.value for member in type(default)], default=default.value, help=text)


def _add_repair_options(parser: argparse.ArgumentParser) -> None:
    """``--broken`` and the ``--fix-*`` repairs (docs/pgn.md, "Broken games and repairs")."""
    _add_choice(
        parser, "--broken", BrokenGames.KEEP,
        "a game whose moves hold an error: keep (default) as read, the errors reported (the moves are "
        "read only as --moves says); truncate and drop read every game's moves, as --moves check does; "
        "truncate: cut before its first bad move, with a comment saying why and the result * (tag and token) "
        "(a bad move in a variation cuts only that variation, the rest of the game kept), "
        "game-truncated; drop: left out (to --reject-to if given), game-dropped. Both are warnings with the "
        "error as their cause, so a run whose output is clean exits 0",
    )
    for repair, text in _FIX_HELP:
        parser.add_argument(f"--fix-{repair.value}", dest="repairs", action="append_const", const=repair, help=text)


_FIX_HELP = (
    (Repair.RESULTS, "make the Result tag and the result token agree: the decided end the moves reach (mate, "
     "stalemate as the variant scores it, a variant's win) first, else the token's decided result, else the "
     "tag's; each change a result-fixed warning"),
    (Repair.TAGS, "dates as YYYY.MM.DD (2024.1.5, 2024-01-05, a JavaScript date string; unknown parts ??), Elo "
     "values without a rating (-, unrated, empty) as ?, Round forms (R3, 3.) as the number, standard tag names "
     "in their case (white -> White, fen -> FEN); each change a tag-fixed warning"),
    (Repair.MOVE_NUMBERS, "number the moves from the start position's fullmove (FEN tag), in the main line and "
     "variations (12... before a Black move after a comment or variation); only numbers change; one "
     "move-numbers-fixed warning a game"),
)


def _options(args: argparse.Namespace) -> NormalizeOptions:
    registry = build_registry(args)
    writer: dict[str, Any] = {name: getattr(args, name) for name in WRITER_OPTION_NAMES}
    try:
        return NormalizeOptions.create(
            args.profile,
            on_bad=BadGamePolicy.REJECT if args.reject_to else BadGamePolicy.KEEP,
            on_illegal=args.on_illegal,
            registry=registry,
            accept=accepted_codes(args.accept),
            moves=args.moves,
            encoding=args.encoding,
            move_letters=args.piece_letters,
            broken=args.broken,
            repairs=args.repairs or (),
            export=args.export,
            duplicates=duplicates_options.settings_from(args, "standard input" if args.input == "-" else args.input),
            **writer,
        )
    except (ValueError, NotationError) as exc:
        raise UsageError(str(exc)) from None


def _same_file(a: str, b: str) -> bool:
    if a == "-" or b == "-":
        return False
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


def _check_paths(args: argparse.Namespace, names: list[str]) -> tuple[str, str | None]:
    """The output path and the backup path for the INPUTs ``names``; raises ``UsageError``
    for impossible requests."""
    jobs_from(args)
    if names.count("-") > 1:
        raise UsageError("standard input ('-') can be named only once")
    if args.in_place:
        if len(names) > 1:
            raise UsageError("--in-place rewrites one INPUT; several were given (write them to -o OUTPUT)")
        if args.output:
            raise UsageError("--in-place and --output exclude each other")
        if args.input == "-":
            raise UsageError("--in-place needs a file, not standard input")
        if not args.backup_suffix:
            raise UsageError("--backup-suffix cannot be empty: in-place rewriting always keeps a backup")
        try:
            mode = os.stat(args.input).st_mode
        except OSError:
            mode = stat.S_IFREG  # opening it says why it cannot be read
        if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
            raise UsageError(f"--in-place needs a regular file (or a link to one); {args.input!r} is not")
        backup = args.input + args.backup_suffix
        if os.path.lexists(backup):
            raise UsageError(f"backup {backup!r} already exists; remove it or choose another --backup-suffix")
        return args.input, backup
    output = args.output or "-"
    for name, path in (("OUTPUT", output), ("--report", args.report), ("--reject-to", args.reject_to)):
        for given in names:
            if path and _same_file(given, path):
                what = "the input file" if len(names) == 1 else f"the input file {given!r}"
                raise UsageError(f"{name} is {what}; use --in-place to rewrite it (a backup is kept)")
    return output, None


def run(args: argparse.Namespace) -> int:
    cluster_options.refuse_without_dask(args)
    options = _options(args)
    if args.dask is not None:
        from notation.cli import cluster_cmd  # here: a cluster run's alone (start-up)

        summary = cluster_cmd.normalize(args, options)
        _print_summary(args, summary)
        return _status(args, options, summary)
    names = [args.input, *args.more_inputs]
    output_path, backup = _check_paths(args, names)
    sinks: list[Output] = []
    try:
        _openable(names)
        with contextlib.ExitStack() as stack:
            compression = None
            if args.in_place:
                with InputFile(args.input) as first:
                    compression = first.compression
            output = stack.enter_context(Output(output_path, compression=compression, backup=backup))
            sinks.append(output)
            rejects = stack.enter_context(Output(args.reject_to)) if args.reject_to else None
            report = stack.enter_context(Output(args.report)) if args.report else None
            sinks += [sink for sink in (rejects, report) if sink is not None]
            summary = _run_inputs(args, options, names, (output, rejects, report))
            # commit in reverse so that the output appears last, after report and rejects
            for sink in (report, rejects, output):
                if sink is not None:
                    sink.commit()
    except (InputError, OutputError) as exc:
        raise UsageError(str(exc) + _streamed_note(sinks)) from None
    _print_summary(args, summary)
    return _status(args, options, summary)


def _status(args: argparse.Namespace, options: NormalizeOptions, summary: Summary) -> int:
    """The exit status every command shares (``strictness``): each code found counted as an
    error or a warning by the one table of severities, as the report files it."""
    errors = warnings = 0
    for code, count in summary.problems.items():
        if severity_of(code, options.accept) == ERROR:
            errors += count
        else:
            warnings += count
    return exit_status(errors, warnings, args.fail_on)


def _streamed_note(sinks: list[Output]) -> str:
    """What an error leaves behind in outputs that cannot be taken back."""
    streamed = [sink.name for sink in sinks if sink.delivery is Delivery.STREAM]
    if not streamed:
        return ""
    return f"; what was already written to {', '.join(streamed)} is incomplete"


Sinks = tuple[Output, Output | None, Output | None]  # output, rejects, report


def _openable(names: list[str]) -> None:
    """Raises ``InputError`` for an INPUT that cannot be opened, before anything is written
    (with several, a later one would fail after the earlier ones were streamed out). A FIFO
    or device is not opened here: it can be read only once."""
    for name in names[1:] if len(names) > 1 else ():
        if name == "-":
            continue
        try:
            regular = stat.S_ISREG(os.stat(name).st_mode)
        except OSError:
            regular = True  # opening it says why it cannot be read
        if regular:
            with InputFile(name):
                pass


def _display_name(name: str) -> str:
    return "standard input" if name == "-" else name


def _run_inputs(args: argparse.Namespace, options: NormalizeOptions, names: list[str], sinks: Sinks) -> Summary:
    """Every INPUT of ``names`` normalised in turn into the one set of ``sinks`` (with
    several, each report entry names its ``input``; games and lines are numbered within
    each). With ``--duplicates`` and several inputs, ``--jobs`` or prefixes and merged
    tags, the copies are found over all the inputs first (``duplicate_jobs``)."""
    several = len(names) > 1
    duplicates = options.duplicates
    if duplicates.active and (several or args.jobs > 1 or duplicates.whole_input_first):
        duplicates_options.refuse_repeated(names)
        return _run_finding_copies_first(args, options, names, sinks)
    total = Summary()
    for name in names:
        with InputFile(name) as source:
            named = options.with_changes(duplicates=duplicates._replace(source=_display_name(name)))
            total.add_counts(_run(args, named, name, source, sinks, name if several else None))
    return total


def _run(args: argparse.Namespace, options: NormalizeOptions, name: str, source: InputFile, sinks: Sinks,
         input_name: str | None) -> Summary:
    """One INPUT (``name``, open as ``source``) normalised into ``sinks``; ``input_name``:
    the name report entries give, or None (one INPUT: none)."""
    # The --jobs machinery (the worker pool, temporary files) is imported only when there
    # are jobs: one process starts up without it.
    output, rejects, report = sinks
    with contextlib.ExitStack() as stack:
        fd = _shared_descriptor(args, name, source)
        if fd is not None:
            from notation.pgn.file_jobs import normalize_file_parallel

            stack.callback(os.close, fd)
            batches = normalize_file_parallel(fd, options, args.jobs, _entries(report))
            return _write_batches(args, source, batches, sinks, input_name)
        if args.jobs > 1:
            from notation.pgn.stream_jobs import normalize_blocks_parallel

            batches = normalize_blocks_parallel(source.blocks(), options, args.jobs, _entries(report))
            return _write_batches(args, source, batches, sinks, input_name, lambda: source.position)
        results = normalize_games(iter_games(source.blocks(), options.limits), options)
        return _write_results(args, source, results, sinks, input_name)


def _run_finding_copies_first(args: argparse.Namespace, options: NormalizeOptions, names: list[str],
                              sinks: Sinks) -> Summary:
    """``--duplicates`` over all the inputs before any game is written (several inputs,
    ``--jobs``, prefixes, merged tags): the copies found first (``duplicate_jobs``; each
    input a descriptor both passes read, standard input and compressed files copied to a
    temporary file), then each input's games normalised and written to ``sinks``."""
    from notation.pgn import ranges
    from notation.pgn.duplicate_jobs import readable, with_copies_in
    from notation.pgn.file_jobs import normalize_file_parallel

    several = len(names) > 1
    with contextlib.ExitStack() as stack:
        opened: list[tuple[str, InputFile, int]] = []
        for name in names:
            source = stack.enter_context(InputFile(name))
            fd = stack.enter_context(readable(name, source.blocks(), source.compression is not Compression.NONE))
            opened.append((name, source, fd))
        each = with_copies_in(options, [(_display_name(name), fd) for name, _source, fd in opened], args.jobs)
        total = Summary()
        for (name, source, fd), own in zip(opened, each, strict=True):
            input_name = name if several else None
            if args.jobs > 1:
                batches = normalize_file_parallel(fd, own, args.jobs, _entries(sinks[2]))
                total.add_counts(_write_batches(args, source, batches, sinks, input_name))
                continue
            text = ranges.read_text(ranges.PositionalFile(fd), 0, os.fstat(fd).st_size)  # type: ignore[arg-type]
            results = normalize_games(iter_games(text, own.limits), own)
            total.add_counts(_write_results(args, source, results, sinks, input_name))
        return total


def _shared_descriptor(args: argparse.Namespace, name: str, source: InputFile) -> int | None:
    """With --jobs, a descriptor of INPUT ``name`` for the workers to read their pieces from, when
    it can be entered in the middle (a regular, uncompressed file: the forked workers
    inherit the descriptor); None otherwise: the parent reads and hands out the text."""
    if args.jobs < 2 or name == "-" or source.compression is not Compression.NONE:
        return None
    try:
        if not stat.S_ISREG(os.stat(name).st_mode):
            return None  # a FIFO or device is read once, by the parent
        fd = os.open(name, os.O_RDONLY)
    except OSError:
        return None  # the stream path reads what was opened already
    try:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            return fd
    except OSError:
        pass
    os.close(fd)
    return None


def _entries(report: Output | None) -> ReportEntries:
    """Whether ``--jobs`` workers keep their games' report entries: only for a report."""
    from notation.pgn.batch import ReportEntries

    return ReportEntries.DROP if report is None else ReportEntries.KEEP


def _write_entries(report: Output, entries: list[dict[str, Any]], input_name: str | None) -> None:
    """Report entries as JSON lines, each first naming ``input_name`` when it is given."""
    for entry in entries:
        report.write(entry_line(entry, input_name))


def _write_results(
    args: argparse.Namespace,
    source: InputFile,
    results: Iterator[GameResult],
    sinks: Sinks,
    input_name: str | None,
) -> Summary:
    output, rejects, report = sinks
    summary = Summary()
    chars = 0

    def position() -> int:
        return source.position

    with _progress_bar(args, source.size) as tick:
        for result in results:
            summary.add(result)
            chars += len(result.text)
            # Games are rejected only with on_bad REJECT, which only --reject-to sets.
            sink = rejects if result.rejected and rejects is not None else output
            sink.write(result.text)
            if report is not None:
                _write_entries(report, result.report, input_name)
            tick(summary.games, chars, position)
    return summary


def _write_batches(
    args: argparse.Namespace,
    source: InputFile,
    batches: Iterator[Batch],
    sinks: Sinks,
    input_name: str | None,
    read_up_to: Callable[[], int] | None = None,
) -> Summary:
    """Write ``batches``; ``read_up_to()`` gives the bytes of INPUT (as stored) read so far
    where batches do not say it (``Batch.end`` is 0 for a stream), asked only when the
    progress bar moves."""
    output, rejects, report = sinks
    summary = Summary()
    chars = 0
    end = 0

    def position() -> int:
        return end

    with _progress_bar(args, source.size) as tick:
        for batch in batches:
            end = batch.end
            summary.add_counts(batch.summary)
            chars += batch.chars
            batch.write_text(output.write_bytes)
            # Games are rejected only with on_bad REJECT, which only --reject-to sets.
            batch.write_rejected((rejects if rejects is not None else output).write_bytes)
            if report is not None:
                batch.write_report(report.write, input_name)
            tick(summary.games, chars, read_up_to or position)
    return summary


@contextlib.contextmanager
def _progress_bar(
    args: argparse.Namespace, size: int | None
) -> Iterator[Callable[[int, int, Callable[[], int]], None]]:
    """``tick(games, chars, position)``: games and characters of PGN written so far, and how
    to ask for the bytes of INPUT (as stored) read up to (asked only when the bar moves)."""
    show = args.progress == Progress.ALWAYS.value or (args.progress == Progress.AUTO.value and sys.stderr.isatty())
    if not show:
        yield lambda games, chars, position: None
        return
    from tqdm import tqdm

    # The bar counts bytes of the file as stored (so its ETA holds for compressed files);
    # the postfix gives games and the rate of PGN text, which is what users compare.
    bar = tqdm(total=size, unit="B", unit_scale=True, unit_divisor=1024, desc="normalize",
               file=sys.stderr, dynamic_ncols=True, smoothing=0.1, mininterval=0.25)
    state: dict[str, Any] = {"position": 0, "games": 0, "where": lambda: 0}
    started = time.monotonic()

    def tick(games: int, chars: int, where: Callable[[], int]) -> None:
        state["where"] = where
        if games - state["games"] < 256:
            return
        state["games"] = games
        position = where()
        bar.update(position - state["position"])
        state["position"] = position
        rate = chars / max(time.monotonic() - started, 1e-6) / 1e6
        bar.set_postfix_str(f"{games} games, {rate:.1f} MB/s of PGN", refresh=False)

    try:
        yield tick
        bar.update(max(0, state["where"]() - state["position"]))
    finally:
        bar.close()


def _print_summary(args: argparse.Namespace, summary: Summary) -> None:
    if args.summary == SummaryFormat.TEXT.value:
        sys.stderr.write(f"notation normalize: {summary.describe()}\n")
    elif args.summary == SummaryFormat.JSON.value:
        import json  # only a JSON summary pays for it

        sys.stderr.write(json.dumps(summary.to_dict()) + "\n")
