"""``notation view``: the FEN one side sees of a Dark Chess position, or a view FEN judged
and written back, one output line per input line."""

from __future__ import annotations

import sys

from notation.cli.answer_stream import AnswerStream
from notation.cli.answers import Answer, answer, guessing, located, problem_text
from notation.cli.input_lines import iter_fen_inputs
from notation.cli.jsonl import json_line
from notation.cli.options import (
    accepted_codes,
    add_accept_option,
    add_variant_options,
    add_writer_options,
    build_registry,
    writer_options_from,
)
from notation.cli.usage import SUMMARIES, UsageError
from notation.errors import Problem
from notation.inputs import InputError
from notation.operations import ViewResult, view_fen
from notation.variants import Variant
from notation.views import Viewer

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing here
if TYPE_CHECKING:
    import argparse

DESCRIPTION = """\
Write what one side (--side white or black) sees of positions of a variant with hidden
squares (Dark Chess, Dark Crazy Screen Chess): a FEN whose unseen squares are '?', one per
square. A full position is validated first and refused with its problems when illegal.
A FEN with '?' is read as a view: it is checked as far as a view can tell (the shown
squares are exactly what the side's pieces see; its army and castling rights are legal)
and written back. FENs come from the arguments or, without arguments, from standard
input, one per line; exactly one output line is written per non-blank input line, in
order. With --json each output line is {"ok", "fen", "variant", "side", "errors",
"warnings"} and input lines may be JSON objects {"fen": ..., "variant": ...}.
Codes: see docs/validation.md ("Views").
Exit status: 0 every line viewed, 1 some line was not, 2 usage error or unreadable
standard input, 3 an internal error on some line (the others were still answered)."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "view",
        help=SUMMARIES["view"],
        description=DESCRIPTION,
    )
    parser.add_argument("fens", nargs="*", metavar="FEN", help="FENs to view (default: read standard input)")
    add_variant_options(parser, default="dark", auto=True)
    parser.add_argument(
        "--side", required=True, choices=[viewer.value for viewer in Viewer], help="whose view to write"
    )
    add_writer_options(parser)
    add_accept_option(parser)
    parser.add_argument("--json", action="store_true", help="JSON lines in and out")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    registry = build_registry(args)
    options = writer_options_from(args)
    accept = accepted_codes(args.accept)
    viewer = Viewer(args.side)

    def judge(fen: str, variant: str | Variant) -> ViewResult:
        return view_fen(fen, variant, viewer, options=options, accept=accept, registry=registry)

    def failure(problem: Problem) -> ViewResult:
        return ViewResult.failure(problem, viewer.value)

    view = guessing(judge, failure, registry)  # --variant auto, as convert guesses

    failed = internal = False
    out = AnswerStream(sys.stdout)  # each view out before the command waits for more input
    try:
        for item in iter_fen_inputs(args.fens, args.variant, json_lines=args.json, before_read=out.flush):
            result, how = answer(item, view, failure)
            internal = internal or how is Answer.INTERNAL
            failed = failed or not result.ok
            if args.json:
                out.write(json_line(located(item, result.to_dict())))
                continue
            if result.fen is not None:
                out.write(result.fen + "\n")
            else:  # the error is said once, on its output line (as convert says it)
                out.write("error: " + problem_text(item, how, result.errors) + "\n")
            if result.warnings:
                out.flush()  # the views before a warning are out before it
            for warning in result.warnings:
                sys.stderr.write("warning: " + warning.describe(prefix=item.where) + "\n")
    except InputError as exc:
        raise UsageError(str(exc)) from None
    finally:
        out.flush()
    return 3 if internal else 1 if failed else 0
