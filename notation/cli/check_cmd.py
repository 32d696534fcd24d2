"""``notation check PATH...``: a CI gate for FEN, EPD and PGN files.

Exit codes: 0 no errors (warnings alone pass unless ``--strict``), 1 problems that fail the
check, 2 a usage error, a path that cannot be read (the other paths are still checked), or
nothing to check at all (no file found: a gate that checks nothing must not pass quietly).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

from notation.check import CheckOptions, FileKind, run_check
from notation.check.formats import FORMAT_NAMES, format_class
from notation.check.problem import CHECK_CODES, CheckProblem
from notation.check.settings import CheckSettings, SettingsError, find_settings, load_settings
from notation.cli import cluster_options, duplicates_options
from notation.cli.limits import jobs_from
from notation.cli.options import add_accept_option, add_piece_letters_option, add_variant_options, check_variant_option
from notation.cli.strictness import add_strict_option, exit_status
from notation.cli.usage import SUMMARIES, UsageError
from notation.errors import NotationError, UnknownVariantError
from notation.fen.profiles import PROFILES
from notation.lean_enum import LeanStrEnum
from notation.move_options import MoveLanguage
from notation.name_sets import Source, registry_for
from notation.variants import parse_aliases

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing here
if TYPE_CHECKING:
    import argparse


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "check",
        help=SUMMARIES["check"],
        description=(
            "Check every position in FEN and EPD files, and every PGN game's Variant, FEN and "
            "SetUp tags and every one of its moves (from its start or FEN, each variation from its "
            "branch point). Directories are searched recursively for .pgn, .fen and .epd files "
            "(also .gz, .bz2 and .zst; FIFOs, sockets and devices found there are skipped); "
            "'-' reads standard input. Exit status: 0 no errors, 1 problems that fail the "
            "check, 2 usage error, a path that cannot be read, or nothing to check. "
            "Settings, suppressions and codes: `notation docs check`."
        ),
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="file, directory, or - for standard input")
    add_variant_options(parser)
    parser.set_defaults(variant=None)  # None: [tool.notation] variant, else standard
    add_accept_option(parser)
    add_piece_letters_option(parser)
    duplicates_options.add_check_options(parser)
    parser.add_argument(
        "--profile", choices=list(PROFILES), default=None,
        help="warn (profile-mismatch) about valid positions not written as this program writes them",
    )
    parser.add_argument(
        "--exclude", action="append", default=[], metavar="PATTERN",
        help="do not check paths matching this pattern (fnmatch, relative to the settings file's directory; "
        "repeatable)",
    )
    parser.add_argument(
        "--config", metavar="PYPROJECT", default=None,
        help="read [tool.notation] from this file (default: the pyproject.toml of the working directory "
        "or its parents, up to the repository's root)",
    )
    parser.add_argument(
        "--progress", choices=[p.value for p in Progress], default=Progress.AUTO.value,
        help="progress bar on standard error (default: auto, only on a terminal)",
    )
    parser.add_argument(
        "--format",
        choices=FORMAT_NAMES,
        default="text",
        help="output: text (path:line:column: code: message), json, github (workflow annotations) or sarif",
    )
    add_strict_option(parser, "the check")
    parser.add_argument(
        "--stdin-format",
        choices=[kind.value for kind in FileKind],
        default=None,
        help="what standard input holds (default: guessed from its first line)",
    )
    parser.add_argument(
        "--jobs", "-j", type=int, default=1, metavar="N",
        help="processes working at once (default: 1); the problems and their order are those of one process",
    )
    cluster_options.add_options(parser, "check")
    parser.set_defaults(run=run)


class Progress(LeanStrEnum):
    """When to draw the progress bar (on standard error)."""

    AUTO = "auto"  # only when standard error is a terminal
    ALWAYS = "always"
    NEVER = "never"


def _settings(args: argparse.Namespace) -> CheckSettings:
    try:
        if args.config:
            return load_settings(args.config)
        return load_settings(find_settings(os.getcwd()))
    except SettingsError as exc:
        raise UsageError(str(exc)) from None


def _options(args: argparse.Namespace, settings: CheckSettings) -> CheckOptions:
    """The check's options: the command line's, over and added to ``[tool.notation]``'s."""
    where = f"{settings.path} [tool.notation]" if settings.path else ""
    base = registry_for(getattr(args, "source", None) or Source.DEFAULT)  # --from's names
    try:
        given = parse_aliases(args.variant_alias)
        base.with_aliases(given)
    except (NotationError, ValueError) as exc:
        raise UsageError(f"--variant-alias: {exc}") from None
    try:
        aliases = {**settings.aliases, **given}
        registry = base.with_aliases(aliases) if aliases else base
    except (NotationError, ValueError) as exc:
        raise UsageError(f"{where} aliases: {exc}") from None
    if args.variant:
        check_variant_option(args.variant, registry)  # --variant help lists them
    try:
        variant = registry.find(args.variant or settings.variant or "standard")
    except UnknownVariantError as exc:
        raise UsageError(f"--variant: {exc}" if args.variant else f"{where} variant: {exc}") from None
    accept = _accepted(args.accept, "--accept") | _accepted(list(settings.accept), f"{where} accept")
    profile_name = args.profile or settings.profile
    if profile_name is not None and profile_name not in PROFILES:
        raise UsageError(f"{where} profile: unknown profile {profile_name!r}; choose one of {', '.join(PROFILES)}")
    patterns = (*settings.exclude, *args.exclude)
    excludes = settings._replace(exclude=patterns).excludes if patterns else None
    return CheckOptions(
        variant=variant,
        registry=registry,
        stdin_kind=FileKind(args.stdin_format) if args.stdin_format else None,
        accept=accept,
        excluded=excludes,
        profile=(profile_name, PROFILES[profile_name]) if profile_name else None,
        letters=MoveLanguage(args.piece_letters),
        duplicates=duplicates_options.check_settings_from(args),
    )


def _accepted(values: list[str], what: str) -> frozenset[str]:
    codes = frozenset(code.strip() for value in values for code in value.split(",") if code.strip())
    unknown = sorted(codes - set(CHECK_CODES))
    if unknown:
        raise UsageError(f"{what}: unknown code(s) {', '.join(unknown)}; known codes: {', '.join(CHECK_CODES)}")
    return codes


class _Bar:
    """A tqdm bar of bytes read, on standard error."""

    def __init__(self) -> None:
        from tqdm import tqdm

        self._bar = tqdm(total=None, unit="B", unit_scale=True, unit_divisor=1024, desc="check",
                         file=sys.stderr, dynamic_ncols=True, mininterval=0.25, leave=False)

    def total(self, size: int | None) -> None:
        self._bar.total = size
        self._bar.refresh()

    def advance(self, size: int) -> None:
        self._bar.update(size)

    def around(self, emit: Callable[[CheckProblem], None]) -> Callable[[CheckProblem], None]:
        """``emit`` with the bar cleared while it writes (both may share one terminal)."""
        from tqdm import tqdm

        def emit_clear(problem: CheckProblem) -> None:
            with tqdm.external_write_mode(file=sys.stderr):
                emit(problem)
                sys.stdout.flush()

        return emit_clear

    def close(self) -> None:
        self._bar.close()


def run(args: argparse.Namespace) -> int:
    cluster_options.refuse_without_dask(args)
    options = _options(args, _settings(args))
    if args.paths.count("-") > 1:
        raise UsageError("standard input ('-') can be named only once")
    jobs_from(args)
    if args.dask is not None and args.jobs != 1:
        raise UsageError("--jobs and --dask exclude each other: the cluster's workers do the work")
    output = format_class(args.format)(sys.stdout)
    if args.dask is not None:
        from notation.cli import cluster_cmd  # here: a cluster run's alone (start-up)

        summary = cluster_cmd.check(args, options, output.problem)
    else:
        show = args.progress == Progress.ALWAYS.value or (args.progress == Progress.AUTO.value and sys.stderr.isatty())
        bar = _Bar() if show else None
        try:
            emit = output.problem if bar is None else bar.around(output.problem)
            summary = run_check(args.paths, options, emit, progress=bar, jobs=args.jobs)
        except ValueError as exc:
            from notation.check.prefix_copies import PrefixesUnavailable  # here: --duplicates-by prefix's alone

            if not isinstance(exc, PrefixesUnavailable):
                raise
            raise UsageError(str(exc)) from None
        finally:
            if bar is not None:
                bar.close()
    output.finish(summary)
    for skipped in summary.skipped:
        sys.stderr.write(f"notation check: skipped {skipped.path}: {skipped.reason}\n")
    for unreadable in summary.unreadable:
        sys.stderr.write(f"notation check: cannot read {unreadable.path}: {unreadable.reason}\n")
    if args.format == "text":
        sys.stderr.write(f"notation check: {summary.describe()}\n")
    if summary.unreadable:
        return 2
    if summary.files == 0:
        sys.stderr.write("notation check: nothing to check: no .pgn, .fen or .epd file among the paths given\n")
        return 2
    return exit_status(summary.errors, summary.warnings, args.fail_on)
