"""``notation validate``: judge FENs against their variant's rules, every problem at once."""

from __future__ import annotations

import argparse

from notation.cli import common
from notation.cli.help_format import RawDescriptionHelpFormatter
from notation.cli.line_jobs import Answered, Responder, answered, run_lines
from notation.cli.usage import SUMMARIES
from notation.operations import ValidateResult, validate_fen
from notation.variants import Variant

DESCRIPTION = """\
Check that FENs are legal setups of their variant. FENs come from the arguments or,
without arguments, from standard input, one per line; exactly one output line is written
per non-blank input line, in order: "valid", or "invalid: " and every problem found
(code: message (field)). With --json each output line is
{"valid", "variant", "errors", "warnings", "detected"} and input lines may be JSON objects
{"fen": ..., "variant": ...}. Codes: `notation docs validation` (docs/validation.md).
Every non-blank line is answered, whatever it holds: a line longer than 64 KiB (skipped
unread), not UTF-8, or bad JSON gets its own "invalid" line with a code, and later lines
go on.
Exit status: 0 every setup is legal, 1 some line is not (or could not be read), 2 usage
error or unreadable standard input, 3 an internal error on some line (the others were
still answered)."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "validate",
        help=SUMMARIES["validate"],
        description=DESCRIPTION,
        formatter_class=RawDescriptionHelpFormatter,
    )
    parser.add_argument("fens", nargs="*", metavar="FEN", help="FENs to check (default: read standard input)")
    common.add_input_option(parser)
    common.add_variant_options(parser, auto=True)
    common.add_accept_option(parser)
    common.add_jobs_option(parser)
    parser.add_argument("--json", action="store_true", help="JSON lines in and out")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    return run_lines(args, responder)


def responder(args: argparse.Namespace) -> Responder:
    """The answer to one input under ``args`` (run once per process; ``UsageError`` for a
    bad --variant-alias or --accept)."""
    registry = common.build_registry(args)
    accept = common.accepted_codes(args.accept)

    def judge(fen: str, variant: str | Variant) -> ValidateResult:
        return validate_fen(fen, variant, accept=accept, registry=registry)

    guessed = common.guessing(judge, ValidateResult.failure, registry)

    failure = ValidateResult.failure
    json_lines = args.json

    def respond(item: common.FenInput) -> Answered:
        result, how = common.answer(item, guessed, failure)
        return answered(item, how, result, result.valid, "valid", "invalid", json_lines=json_lines)

    return respond
