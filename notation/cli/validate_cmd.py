"""``notation validate``: judge FENs against their variant's rules, every problem at once."""

from __future__ import annotations

import argparse
import sys

from notation.cli import common
from notation.cli.usage import SUMMARIES, UsageError
from notation.inputs import InputError
from notation.operations import ValidateResult, validate_fen

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
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("fens", nargs="*", metavar="FEN", help="FENs to check (default: read standard input)")
    common.add_input_option(parser)
    common.add_variant_options(parser, auto=True)
    common.add_accept_option(parser)
    parser.add_argument("--json", action="store_true", help="JSON lines in and out")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    registry = common.build_registry(args)
    accept = common.accepted_codes(args.accept)

    def judge(fen: str, variant: str) -> ValidateResult:
        return validate_fen(fen, variant, accept=accept, registry=registry)

    guessed = common.guessing(judge, ValidateResult.failure, registry)
    failed = internal = False
    out = sys.stdout
    try:
        for item in common.iter_fen_inputs(args.fens, args.variant, json_lines=args.json, inputs=args.inputs):
            result, how = common.answer(item, guessed, ValidateResult.failure)
            internal = internal or how is common.Answer.INTERNAL
            failed = failed or not result.valid
            if args.json:
                common.write_json_line(item.located(result.to_dict()))
                continue
            prefix = common.text_prefix(item)
            if result.valid:
                out.write(prefix + "valid\n")
            else:
                out.write(prefix + "invalid: " + common.problem_text(item, how, result.errors) + "\n")
                common.file_hint(item, how, result.errors)
            for warning in result.warnings:
                sys.stderr.write("warning: " + warning.describe(prefix=item.where) + "\n")
    except InputError as exc:
        out.flush()
        raise UsageError(str(exc)) from None
    out.flush()
    return 3 if internal else 1 if failed else 0
