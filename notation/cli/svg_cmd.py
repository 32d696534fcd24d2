"""``notation svg``: draw one position as an SVG picture."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TypeVar

from notation.cli import common
from notation.cli.help_format import RawDescriptionHelpFormatter
from notation.cli.usage import SUMMARIES, UsageError
from notation.errors import NotationError
from notation.fen.reader import read_fen
from notation.geometry import Geometry
from notation.guess import resolve_variant
from notation.outputs import STDOUT, OutputError, write_text
from notation.svg import (
    MAX_SIZE,
    MIN_SIZE,
    CheckMark,
    Coordinates,
    Orientation,
    SvgOptions,
    board_svg,
    parse_arrows,
    parse_move_squares,
    parse_squares,
)

DESCRIPTION = f"""\
Draw the position of a FEN as an SVG picture: the variant's board, its pieces, pockets with
counts, promoted pieces, the checks each side has given (Three-check) and the side to move;
a king in check is marked when the position is legal, and --last-move and --arrows mark a
move and arrows. The position is drawn whether or not it is legal (`notation validate`
judges it). --variant auto guesses the variant from the FEN's shape, with a warning.
Exit status: 0 drawn, 1 the FEN cannot be read (or no variant guessed; the problem is
printed on standard error), 2 usage error (an unknown --variant, a bad --size
({MIN_SIZE}-{MAX_SIZE}), a --highlight, --last-move or --arrows that is not on the board,
an output that cannot be written)."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "svg",
        help=SUMMARIES["svg"],
        description=DESCRIPTION,
        formatter_class=RawDescriptionHelpFormatter,
    )
    parser.add_argument("fen", metavar="FEN", help="the position to draw")
    common.add_variant_options(parser, auto=True)
    parser.add_argument(
        "-o", "--output", default=STDOUT, metavar="FILE", help="where to write (default: -, standard output)"
    )
    parser.add_argument("--size", type=int, default=None, metavar="PIXELS", help="width of the picture in pixels")
    parser.add_argument(
        "--orientation",
        choices=[o.value for o in Orientation],
        default=Orientation.WHITE.value,
        help="which side is at the bottom (default: white); --flip is the same as --orientation black",
    )
    parser.add_argument("--flip", dest="orientation", action="store_const", const=Orientation.BLACK.value)
    parser.add_argument(
        "--coordinates",
        choices=[c.value for c in Coordinates],
        default=Coordinates.SHOW.value,
        help="file letters and rank numbers beside the board (default: show)",
    )
    parser.add_argument(
        "--highlight",
        action="append",
        default=[],
        metavar="SQUARES",
        help="squares to mark, e.g. e4,d5 (repeatable)",
    )
    parser.add_argument(
        "--last-move",
        default="",
        metavar="MOVE",
        help="mark the move that led to the position: its two squares (e2e4, e7e8q, a10a9) or a drop (P@e4)",
    )
    parser.add_argument(
        "--check",
        choices=[c.value for c in CheckMark],
        default=CheckMark.AUTO.value,
        help="auto: mark a king in check when the position is legal (default); none: never",
    )
    parser.add_argument(
        "--arrows",
        action="append",
        default=[],
        metavar="MOVES",
        help="arrows to draw, each as a move's two squares, e.g. e2e4,g1f3 (repeatable)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    registry = common.build_registry(args)
    resolved = resolve_variant(args.fen, args.variant, registry)
    if resolved.problem is not None:
        sys.stderr.write(resolved.problem.describe(prefix="notation svg") + "\n")
        return 1
    try:
        read = read_fen(args.fen, resolved.variant, registry=registry)
    except NotationError as exc:
        for problem in exc.problems:
            sys.stderr.write(problem.describe(prefix="notation svg") + "\n")
        return 1
    guessed = resolved.warning(registry)
    if guessed is not None:
        sys.stderr.write("warning: " + guessed.describe(prefix="notation svg") + "\n")
    geometry = read.setup.geometry
    try:
        options = SvgOptions(
            size=args.size,
            orientation=Orientation(args.orientation),
            coordinates=Coordinates(args.coordinates),
            highlight=parse_squares(",".join(args.highlight), geometry),
            last_move=_option("--last-move", parse_move_squares, args.last_move, geometry),
            check=CheckMark(args.check),
            arrows=_option("--arrows", parse_arrows, ",".join(args.arrows), geometry),
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    try:
        write_text(args.output, board_svg(read.setup, read.variant, options))
    except OutputError as exc:
        raise UsageError(str(exc)) from None
    return 0


T = TypeVar("T")


def _option(flag: str, parse: Callable[[str, Geometry], T], text: str, geometry: Geometry) -> T:
    """``parse(text, geometry)``; its ``ValueError`` becomes a ``UsageError`` naming ``flag``."""
    try:
        return parse(text, geometry)
    except ValueError as exc:
        raise UsageError(f"{flag}: {exc}") from None
