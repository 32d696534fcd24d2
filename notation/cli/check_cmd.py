"""``notation check PATH...``: a CI gate for FEN, EPD and PGN files.

Exit codes: 0 no errors (warnings alone pass unless ``--strict``), 1 problems that fail the
check, 2 a usage error, a path that cannot be read (the other paths are still checked), or
nothing to check at all (no file found: a gate that checks nothing must not pass quietly).
"""

from __future__ import annotations

import argparse
import sys

from notation.check import CheckOptions, FileKind, run_check
from notation.check.formats import FORMATS
from notation.cli import cluster_cmd
from notation.cli.common import add_variant_options, build_registry
from notation.cli.usage import UsageError
from notation.errors import UnknownVariantError


class Strictness:
    """What fails the check."""

    ERRORS = "errors"  # the default: warnings are printed but pass
    WARNINGS = "warnings"  # --strict: warnings fail too


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "check",
        help="check FEN, EPD and PGN files (a CI gate)",
        description=(
            "Check every position in FEN and EPD files and every PGN game's Variant, FEN and "
            "SetUp tags. Directories are searched recursively for .pgn, .fen and .epd files "
            "(also .gz, .bz2 and .zst; FIFOs, sockets and devices found there are skipped); "
            "'-' reads standard input. Exit status: 0 no errors, 1 problems that fail the "
            "check, 2 usage error, a path that cannot be read, or nothing to check."
        ),
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="file, directory, or - for standard input")
    add_variant_options(parser)
    parser.add_argument(
        "--format",
        choices=sorted(FORMATS),
        default="text",
        help="output: text (path:line:column: code: message), json, github (workflow annotations) or sarif",
    )
    parser.add_argument(
        "--strict",
        dest="fail_on",
        action="store_const",
        const=Strictness.WARNINGS,
        default=Strictness.ERRORS,
        help="warnings fail the check too (exit 1)",
    )
    parser.add_argument(
        "--stdin-format",
        choices=[kind.value for kind in FileKind],
        default=None,
        help="what standard input holds (default: guessed from its first line)",
    )
    cluster_cmd.add_options(parser, "check")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    registry = build_registry(args)
    try:
        variant = registry.find(args.variant)
    except UnknownVariantError as exc:
        raise UsageError(f"--variant: {exc}") from None
    if args.paths.count("-") > 1:
        raise UsageError("standard input ('-') can be named only once")
    options = CheckOptions(
        variant=variant,
        registry=registry,
        stdin_kind=FileKind(args.stdin_format) if args.stdin_format else None,
    )
    output = FORMATS[args.format](sys.stdout)
    if args.dask is not None:
        summary = cluster_cmd.check(args, options, output.problem)
    else:
        summary = run_check(args.paths, options, output.problem)
    output.finish()
    for skipped in summary.skipped:
        sys.stderr.write(f"notation check: skipped {skipped.path}: {skipped.reason}\n")
    for unreadable in summary.unreadable:
        sys.stderr.write(f"notation check: cannot read {unreadable.path}: {unreadable.reason}\n")
    if args.format == "text":
        sys.stderr.write(
            f"notation check: {summary.files} file(s), {summary.errors} error(s), {summary.warnings} warning(s)\n"
        )
    if summary.unreadable:
        return 2
    if summary.files == 0:
        sys.stderr.write("notation check: nothing to check: no .pgn, .fen or .epd file among the paths given\n")
        return 2
    if summary.errors or (args.fail_on == Strictness.WARNINGS and summary.warnings):
        return 1
    return 0
