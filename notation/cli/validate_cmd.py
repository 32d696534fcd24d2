"""``notation validate``: judge FENs against their variant's rules, every problem at once."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from notation.cli import options
from notation.cli.line_command import add_line_parser, responding
from notation.cli.line_jobs import Responder, run_lines
from notation.operations import ValidateResult, validate_fen
from notation.variants import Variant

if TYPE_CHECKING:
    import argparse

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
    add_line_parser(subparsers, "validate", DESCRIPTION, verb="check", json_help="JSON lines in and out", run=run)


def run(args: argparse.Namespace) -> int:
    return run_lines(args, responder)


def responder(args: argparse.Namespace) -> Responder:
    """The answer to one input under ``args`` (run once per process; ``UsageError`` for a
    bad --variant-alias or --accept)."""
    registry = options.build_registry(args)
    accept = options.accepted_codes(args.accept)

    def judge(fen: str, variant: str | Variant) -> ValidateResult:
        return validate_fen(fen, variant, accept=accept, registry=registry)

    return responding(args, registry, judge, ValidateResult.failure, _verdict)


_VALID: Final = (True, "valid", "invalid")  # each line's verdict one of two tuples made once
_INVALID: Final = (False, "valid", "invalid")


def _verdict(result: ValidateResult) -> tuple[bool, str, str]:
    return _VALID if result.valid else _INVALID
