"""``notation convert``: rewrite FENs in another dialect, one output line per input line."""

from __future__ import annotations

import argparse

from notation.cli import common
from notation.cli.help_format import RawDescriptionHelpFormatter
from notation.cli.line_jobs import Answered, Responder, answered, run_lines
from notation.cli.usage import SUMMARIES
from notation.operations import ConvertResult, convert_fen
from notation.variants import Variant

DESCRIPTION = """\
Rewrite FENs in the dialect another program expects. FENs come from the arguments or,
without arguments, from standard input, one per line; exactly one output line is written
per non-blank input line, in order. Illegal setups are refused with their codes unless
--repair fixes them or --accept lets a code pass.
Every non-blank line is answered, whatever it holds: a line longer than 64 KiB (skipped
unread), not UTF-8, or bad JSON gets its own error line, and later lines go on.
Exit status: 0 every line converted, 1 some line did not, 2 usage error or unreadable
standard input, 3 an internal error on some line (the others were still answered)."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "convert",
        help=SUMMARIES["convert"],
        description=DESCRIPTION,
        formatter_class=RawDescriptionHelpFormatter,
    )
    parser.add_argument("fens", nargs="*", metavar="FEN", help="FENs to convert (default: read standard input)")
    common.add_input_option(parser)
    common.add_variant_options(parser, auto=True)
    common.add_writer_options(parser)
    common.add_repair_option(parser)
    common.add_accept_option(parser)
    common.add_jobs_option(parser)
    parser.add_argument("--json", action="store_true", help="JSON lines in and out (see `notation docs readme`)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    return run_lines(args, responder)


def responder(args: argparse.Namespace) -> Responder:
    """The answer to one input under ``args`` (run once per process; ``UsageError`` for a
    bad --variant-alias or --accept)."""
    registry = common.build_registry(args)
    options = common.writer_options_from(args)
    accept = common.accepted_codes(args.accept)

    on_illegal = args.on_illegal

    def convert(fen: str, variant: str | Variant) -> ConvertResult:
        return convert_fen(fen, variant, options=options, on_illegal=on_illegal, accept=accept, registry=registry)

    guessed = common.guessing(convert, ConvertResult.failure, registry)

    failure = ConvertResult.failure
    json_lines = args.json

    def respond(item: common.FenInput) -> Answered:
        result, how = common.answer(item, guessed, failure)
        return answered(item, how, result, result.ok, result.fen or "", "error", json_lines=json_lines)

    return respond
