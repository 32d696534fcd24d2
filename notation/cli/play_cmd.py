"""``notation play``: play moves from a position and print the FEN reached."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from notation.cli import position_args
from notation.cli.help_format import RawDescriptionHelpFormatter
from notation.cli.options import add_writer_options, build_registry, writer_options_from
from notation.cli.usage import SUMMARIES
from notation.playing import play_moves

DESCRIPTION = """\
Play MOVEs from a position and print the FEN reached, in the chosen profile. The first
argument is the position when it holds a space (a quoted FEN), starts with '/' (an
OpenTafl record) or holds four '/' or more (a board alone); no move does. Without one,
play starts from the variant's start. Moves may be written in any notation the variant reads (SAN, LAN,
UCI; Xiangqi's WXF and ICCS; OpenTafl's), mixed; --notation insists on one. Lenient
readings (0-0, e8Q, N*f3, ...) are warnings on standard error.
With --json, read {"fen", "variant", "chess960", "moves": [...]} objects from standard
input, one a line, and print {"ok", "fen", "played", "outcome", "warnings"} for each.
Exit status: 0 played, 1 a move could not be played (its ply and the position before it
are named) or the FEN was refused, 2 usage error."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "play", help=SUMMARIES["play"], description=DESCRIPTION, formatter_class=RawDescriptionHelpFormatter
    )
    parser.add_argument("words", nargs="*", metavar="FEN|MOVE", help="the position (optional), then the moves")
    position_args.add_position_options(parser, notation_help="read the moves only in this notation")
    add_writer_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    registry = build_registry(args)
    options = writer_options_from(args)
    if args.json:

        def answer(obj: dict[str, Any]) -> dict[str, Any]:
            moves = obj.get("moves", [])
            if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
                raise TypeError('"moves" must be a list of strings')
            fen = position_args.text_field(obj, "fen", None)
            name = position_args.text_field(obj, "variant", args.variant) or args.variant
            variant, guessed = position_args.resolve_variant(fen, name, registry)
            reply = play_moves(
                fen, variant, moves, options=options,
                notation=position_args.text_field(obj, "notation", args.notation),
                chess960=position_args.flag_field(obj, "chess960", args.chess960), registry=registry,
            ).to_dict()
            return position_args.with_guess(reply, guessed)

        return position_args.run_json_lines(answer)
    words: list[str] = list(args.words)
    fen = words.pop(0) if words and position_args.is_position(words[0]) else None
    variant, guessed = position_args.resolve_variant(fen, args.variant, registry)
    position_args.print_problems([guessed] if guessed else [], "warning")
    result = play_moves(
        fen, variant, words, options=options, notation=args.notation, chess960=args.chess960, registry=registry
    )
    position_args.print_problems(result.warnings, "warning")
    if not result.ok:
        position_args.print_problems(result.errors, "error")
        return 1
    sys.stdout.write(f"{result.fen}\n")
    if result.outcome is not None:
        sys.stderr.write(f"game over: {result.outcome['reason']} ({result.outcome['result']})\n")
    return 0
