"""``notation perft``: count the move paths of a given depth from a position."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from notation.cli import position_args
from notation.cli.help_format import RawDescriptionHelpFormatter
from notation.cli.options import build_registry
from notation.cli.usage import SUMMARIES
from notation.game import MAX_DEPTH
from notation.playing import MAX_NODES, count_perft

DESCRIPTION = f"""\
Count the legal move paths of --depth plies from a position (FEN; none: the variant's
start), as every published perft suite counts them: a finished game has no moves. With
--divide, each legal move (UCI unless --notation) and its count at depth - 1, then the
total. Depths above {MAX_DEPTH} are refused, and so is a depth whose count, estimated from
the first two plies, passes {MAX_NODES:.0e} paths (hours of work on one core).
With --json, read {{"fen", "variant", "chess960", "depth", "divide"}} objects from standard
input, one a line, and print {{"ok", "nodes", "divide"}} for each.
Exit status: 0 counted, 1 the FEN or variant was refused, 2 usage error."""


def _depth(text: str) -> int:
    try:
        value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if not 0 <= value <= MAX_DEPTH:
        raise argparse.ArgumentTypeError(f"depth must be 0 to {MAX_DEPTH}, not {value}")
    return value


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "perft", help=SUMMARIES["perft"], description=DESCRIPTION, formatter_class=RawDescriptionHelpFormatter
    )
    parser.add_argument("fen", nargs="?", metavar="FEN", help="the position (default: the variant's start)")
    parser.add_argument("--depth", "-d", type=_depth, default=1, metavar="N", help="plies to count (default: 1)")
    parser.add_argument("--divide", action="store_true", help="print each move's count too")
    position_args.add_position_options(parser, notation_help="write the --divide moves in this notation (default: UCI)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    registry = build_registry(args)
    if args.json:

        def answer(obj: dict[str, Any]) -> dict[str, Any]:
            depth = obj.get("depth", args.depth)
            if not isinstance(depth, int) or isinstance(depth, bool):
                raise TypeError('"depth" must be a whole number')
            fen = position_args.text_field(obj, "fen", None)
            name = position_args.text_field(obj, "variant", args.variant) or args.variant
            variant, guessed = position_args.resolve_variant(fen, name, registry)
            reply = count_perft(
                fen,
                variant,
                depth,
                by_move=position_args.flag_field(obj, "divide", args.divide),
                notation=position_args.text_field(obj, "notation", args.notation),
                chess960=position_args.flag_field(obj, "chess960", args.chess960),
                registry=registry,
            ).to_dict()
            return position_args.with_guess(reply, guessed)

        return position_args.run_json_lines(answer)
    variant, guessed = position_args.resolve_variant(args.fen, args.variant, registry)
    position_args.print_problems([guessed] if guessed else [], "warning")
    result = count_perft(
        args.fen, variant, args.depth, by_move=args.divide, notation=args.notation, chess960=args.chess960,
        registry=registry,
    )
    if not result.ok:
        position_args.print_problems(result.errors, "error")
        return 1
    for move, nodes in result.divide or []:
        sys.stdout.write(f"{move}: {nodes}\n")
    if result.divide is not None:
        sys.stdout.write("\n")
    sys.stdout.write(f"{result.nodes}\n")
    return 0
