"""``notation moves``: the legal moves of a position, one a line."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from notation.cli import position_args
from notation.cli.options import build_registry
from notation.cli.usage import SUMMARIES
from notation.playing import list_moves

if TYPE_CHECKING:
    import argparse

DESCRIPTION = """\
Print the legal moves of a position (FEN; none: the variant's start), one a line, in one
stable order whatever the notation: by the moving piece's square (a1 first), then its
target, drops after. A finished game has no moves (its end is printed to standard error).
With --json, read {"fen", "variant", "chess960", "notation"} objects from standard input,
one a line (any other key is refused as unknown-field), and print {"ok", "variant",
"notation", "moves", "outcome"} for each.
Exit status: 0 listed, 1 the FEN or variant was refused, 2 usage error."""


JSON_FIELDS = frozenset({"fen", "variant", "chess960", "notation"})


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "moves", help=SUMMARIES["moves"], description=DESCRIPTION
    )
    parser.add_argument("fen", nargs="?", metavar="FEN", help="the position (default: the variant's start)")
    position_args.add_position_options(parser, notation_help="write the moves in this notation (default: SAN)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    registry = build_registry(args)
    if args.json:

        def answer(obj: dict[str, Any]) -> dict[str, Any]:
            fen = position_args.text_field(obj, "fen", None)
            name = position_args.text_field(obj, "variant", args.variant) or args.variant
            chosen = position_args.resolve_variant(fen, name, registry)
            if chosen.error is not None:
                return position_args.refused(chosen)
            reply = list_moves(
                fen, chosen.variant, notation=position_args.text_field(obj, "notation", args.notation),
                chess960=position_args.flag_field(obj, "chess960", args.chess960), registry=registry,
            ).to_dict()
            return position_args.with_guess(reply, chosen.warning)

        return position_args.run_json_lines(answer, JSON_FIELDS)
    chosen = position_args.reported_variant(args.fen, args.variant, registry)
    if chosen is None:
        return 1
    result = list_moves(args.fen, chosen.variant, notation=args.notation, chess960=args.chess960, registry=registry)
    if not result.ok:
        position_args.print_problems(result.errors, "error")
        return 1
    for move in result.moves:
        sys.stdout.write(move + "\n")
    if result.outcome is not None:
        sys.stderr.write(f"game over: {result.outcome['reason']} ({result.outcome['result']})\n")
    return 0
