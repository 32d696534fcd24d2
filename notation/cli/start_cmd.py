"""``notation start``: print a variant's start FEN (a numbered or drawn one where the start
is drawn: Chess960, King's Corner, King's Fortress), or a Chess960 start FEN of any variant
that castles, in any output profile."""

from __future__ import annotations

import sys

from notation.cli.jsonl import write_json_line
from notation.cli.options import add_variant_options, add_writer_options, build_registry, writer_options_from
from notation.cli.usage import SUMMARIES, UsageError, bad_value
from notation.errors import NotationError
from notation.fen.writer import write_fen
from notation.start import CHESS960_COUNT, draw_of, start_position
from notation.variants import Registry, Variant

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing here
if TYPE_CHECKING:
    import argparse

DESCRIPTION = """\
Print the start FEN of a variant (VARIANT or --variant, default standard) in the dialect
a program expects. With --chess960, a Chess960 start position of any variant that castles:
number --number N (0..959, Scharnagl numbering: 518 is the classical array), or drawn at
random (--seed S to repeat a draw).
Variants whose start is drawn at random always get a numbered (--number N) or drawn
(--seed S, or none) one: Chess960 (0..959), King's Corner and King's Fortress (0..359: king
in the corner, one bishop on each colour, Black's row the same pieces in the same order
from Black's side).
Exit status: 0 printed, 2 usage error (unknown variant, bad number, no Chess960 arrays)."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "start",
        help=SUMMARIES["start"],
        description=DESCRIPTION,
    )
    parser.add_argument(
        "variant_name", nargs="?", metavar="VARIANT", help="the variant (as --variant; give one or the other)"
    )
    add_variant_options(parser)
    parser.set_defaults(variant=None)  # to tell "--variant standard" from no --variant
    parser.add_argument(
        "--chess960", action="store_true", help="a Chess960 start position (random unless --number is given)"
    )
    parser.add_argument(
        "--number",
        type=_position_number,
        metavar="N",
        help="start position N of the variant's own draw (King's Corner: 0..359), else Chess960 position N, "
        "0..959 (then implies --chess960)",
    )
    parser.add_argument("--seed", type=int, metavar="S", help="seed of the random draw, to repeat it")
    add_writer_options(parser)
    parser.add_argument(
        "--json", action="store_true", help='print {"fen", "variant", "chess960_number"} as one JSON line'
    )
    parser.set_defaults(run=run)


def _position_number(text: str) -> int:
    """A whole number 0..959 (every draw's numbers are below 960; the variant's draw checks
    its own range)."""
    try:
        number = int(text, 10)
    except ValueError:
        raise bad_value(f"expected a whole number 0..{CHESS960_COUNT - 1}, got {text!r}") from None
    if not 0 <= number < CHESS960_COUNT:
        raise bad_value(f"Chess960 start positions are numbered 0..{CHESS960_COUNT - 1}, not {number}")
    return number


def _variant(args: argparse.Namespace, registry: Registry) -> Variant:
    """The variant named by VARIANT or ``--variant`` (standard when neither); raises
    ``UsageError`` for an unknown name or two names of different variants."""
    named = [(where, name) for where, name in (("VARIANT", args.variant_name), ("--variant", args.variant)) if name]
    found: list[Variant] = []
    for where, name in named or [("--variant", "standard")]:
        try:
            found.append(registry.find(name))
        except NotationError as exc:
            raise UsageError(f"{where}: {exc}") from None
    if len({variant.key for variant in found}) > 1:
        raise UsageError(
            f"VARIANT {args.variant_name!r} and --variant {args.variant!r} name different variants; give one"
        )
    return found[0]


def run(args: argparse.Namespace) -> int:
    registry = build_registry(args)
    variant = _variant(args, registry)
    if args.number is not None and args.seed is not None:
        raise UsageError("--seed draws a random position; it cannot be combined with --number")
    own_draw = draw_of(variant) is not None
    if args.seed is not None and not (args.chess960 or own_draw):
        raise UsageError("--seed only applies to a Chess960 start (--chess960) or a variant whose start is drawn")
    try:
        start = start_position(
            variant,
            number=args.number,
            seed=args.seed,
            array="chess960" if args.chess960 else "own",
            registry=registry,
        )
    except ValueError as exc:
        raise UsageError(f"--number: {exc}") from None
    except NotationError as exc:
        raise UsageError(str(exc)) from None
    options = writer_options_from(args)
    if start.chess960:
        # A Chess960 game is played in the program's 960 mode, classical array included
        # (Fairy-Stockfish writes HAha for position 518).
        options = options.but(castling=options.castling_960)
    fen = write_fen(start.setup, variant, options).fen
    if args.json:
        write_json_line(
            {
                "fen": fen,
                "variant": variant.key,
                "chess960_number": start.chess960_number,
                "draw": start.draw,
                "number": start.number,
            }
        )
    else:
        sys.stdout.write(fen + "\n")
    return 0
