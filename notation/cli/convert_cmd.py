"""``notation convert``: rewrite FENs in another dialect, one output line per input line."""

from __future__ import annotations

from notation.cli import options
from notation.cli.line_command import add_line_parser, responding
from notation.cli.line_jobs import Responder, run_lines
from notation.operations import ConvertResult, convert_fen
from notation.variants import Variant

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing here
if TYPE_CHECKING:
    import argparse

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
    add_line_parser(subparsers, "convert", DESCRIPTION, verb="convert",
                    json_help="JSON lines in and out (see `notation docs readme`)", run=run, own_options=_own_options)


def _own_options(parser: argparse.ArgumentParser) -> None:
    options.add_writer_options(parser)
    options.add_repair_option(parser)


def run(args: argparse.Namespace) -> int:
    return run_lines(args, responder)


def responder(args: argparse.Namespace) -> Responder:
    """The answer to one input under ``args`` (run once per process; ``UsageError`` for a
    bad --variant-alias or --accept)."""
    registry = options.build_registry(args)
    writer = options.writer_options_from(args)
    accept = options.accepted_codes(args.accept)

    on_illegal = args.on_illegal

    def convert(fen: str, variant: str | Variant) -> ConvertResult:
        return convert_fen(fen, variant, options=writer, on_illegal=on_illegal, accept=accept, registry=registry)

    return responding(args, registry, convert, ConvertResult.failure, _verdict)


def _verdict(result: ConvertResult) -> tuple[bool, str, str]:
    return result.ok, result.fen or "", "error"
