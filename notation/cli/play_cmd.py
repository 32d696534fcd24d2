"""``notation play``: play moves from a position and print the FEN reached."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from notation.cli import position_args
from notation.cli.options import add_writer_options, build_registry, writer_options_from
from notation.cli.strictness import Strictness, add_strict_option, exit_status
from notation.cli.usage import SUMMARIES, UsageError
from notation.playing import CheckMarks, play_moves

if TYPE_CHECKING:
    import argparse

DESCRIPTION = """\
Play MOVEs from a position and print the FEN reached, in the chosen profile. The first
argument is the position when it is a quoted FEN (its first field a board of ranks), starts
with '/' (an OpenTafl record) or holds four '/' or more (a board alone); no move does.
Without one, play starts from the variant's start. The moves are arguments, or one quoted
list, written as SAN movetext may be: move numbers (1. 1... 12.) are dropped, comments
and annotation glyphs too, and a result (1-0, 0-1, 1/2-1/2, *) may end them:
  notation play 'e4 e5 Nf3'      notation play 1. e4 e5 2. Nf3 Nc6 '*'
Moves may be written in any notation the variant reads (SAN, LAN, UCI; Xiangqi's WXF and
ICCS; OpenTafl's), mixed; --notation insists on one. Xiangqi coordinates are UCI (ranks
1-10) or ICCS (ranks 0-9): a move that reads both ways is read as the list's moves with a
rank of only one of them say. A FEN must be quoted (one argument): one given unquoted is
refused with a hint. Lenient readings (0-0, e8Q, N*f3, ...) are warnings on standard
error; a missing or wrong check mark (+, #) is one only with --strict, with which any
warning fails the command (exit 1), as in check and normalize.
With --json, read {"fen", "variant", "chess960", "notation", "moves": [...], "strict"}
objects from standard input, one a line ("moves" a list or one movetext string; any other
key is refused as unknown-field), and print {"ok", "fen", "played", "outcome", "warnings"}
for each.
Exit status: 0 played (warnings alone pass), 1 a move could not be played (its ply and
the position before it are named), the FEN was refused, or with --strict a warning was
said, 2 usage error."""

JSON_FIELDS = frozenset({"fen", "variant", "chess960", "notation", "moves", "strict"})


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "play", help=SUMMARIES["play"], description=DESCRIPTION
    )
    parser.add_argument(
        "words", nargs="*", metavar="FEN|MOVE",
        help="the position (optional, quoted), then the moves (or one quoted list)",
    )
    position_args.add_position_options(parser, notation_help="read the moves only in this notation")
    add_strict_option(parser, "play (and a + or # the move does not give, or one it gives missing, is one)")
    add_writer_options(parser)
    parser.set_defaults(run=run)


def _check_marks(strict: bool) -> CheckMarks:
    return CheckMarks.CHECKED if strict else CheckMarks.IGNORED


def _strict(args: argparse.Namespace) -> bool:
    return bool(args.fail_on is Strictness.WARNINGS)


def run(args: argparse.Namespace) -> int:
    registry = build_registry(args)
    options = writer_options_from(args)
    if args.json:

        def answer(obj: dict[str, Any]) -> dict[str, Any]:
            moves = obj.get("moves", [])
            if isinstance(moves, str):
                moves, problem = position_args.movetext_moves([moves])
                if problem is not None:
                    return {"ok": False, "variant": None, "played": [], "errors": [problem.to_dict()], "warnings": []}
            elif not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
                raise TypeError('"moves" must be a list of strings, or one string of movetext')
            fen = position_args.text_field(obj, "fen", None)
            name = position_args.text_field(obj, "variant", args.variant) or args.variant
            chosen = position_args.resolve_variant(fen, name, registry)
            if chosen.error is not None:
                return position_args.refused(chosen, played=[], warnings=[])
            reply = play_moves(
                fen, chosen.variant, moves, options=options,
                notation=position_args.text_field(obj, "notation", args.notation),
                chess960=position_args.flag_field(obj, "chess960", args.chess960), registry=registry,
                check_marks=_check_marks(position_args.flag_field(obj, "strict", _strict(args))),
            ).to_dict()
            return position_args.with_guess(reply, chosen.warning)

        return position_args.run_json_lines(answer, JSON_FIELDS)
    words: list[str] = list(args.words)
    fen = words.pop(0) if words and position_args.is_position(words[0]) else None
    if fen is not None and " " not in fen.strip():
        unquoted = position_args.unquoted_fen(fen, words)
        if unquoted is not None:
            raise UsageError(unquoted)
    moves, problem = position_args.movetext_moves(words)
    if problem is not None:
        position_args.print_problems([problem], "error")
        return 1
    chosen = position_args.reported_variant(fen, args.variant, registry)
    if chosen is None:
        return 1
    result = play_moves(
        fen, chosen.variant, moves, options=options, notation=args.notation, chess960=args.chess960,
        registry=registry, check_marks=_check_marks(_strict(args)),
    )
    position_args.print_problems(result.warnings, "warning")
    if not result.ok:
        position_args.print_problems(result.errors, "error")
        return 1
    sys.stdout.write(f"{result.fen}\n")
    if result.outcome is not None:
        sys.stderr.write(f"game over: {result.outcome['reason']} ({result.outcome['result']})\n")
    return exit_status(0, len(result.warnings), args.fail_on)


