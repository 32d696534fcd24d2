"""``notation svg``: draw one position as an SVG picture."""

from __future__ import annotations

import argparse
import sys

from notation.cli import common
from notation.cli.help_format import RawDescriptionHelpFormatter
from notation.cli.usage import SUMMARIES, UsageError
from notation.errors import NotationError
from notation.fen.reader import read_fen
from notation.outputs import STDOUT, OutputError, write_text
from notation.svg import MAX_SIZE, MIN_SIZE, Coordinates, Orientation, SvgOptions, board_svg, parse_squares

DESCRIPTION = f"""\
Draw the position of a FEN as an SVG picture: the variant's board, its pieces, pockets with
counts, promoted pieces, check counters and the side to move. The position is drawn whether
or not it is legal (`notation validate` judges it).
Exit status: 0 drawn, 1 the FEN cannot be read or the variant is unknown (the problem is
printed on standard error), 2 usage error (a bad --size ({MIN_SIZE}-{MAX_SIZE}), a
--highlight that is not a square, an output that cannot be written)."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "svg",
        help=SUMMARIES["svg"],
        description=DESCRIPTION,
        formatter_class=RawDescriptionHelpFormatter,
    )
    parser.add_argument("fen", metavar="FEN", help="the position to draw")
    common.add_variant_options(parser)
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
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    registry = common.build_registry(args)
    try:
        read = read_fen(args.fen, args.variant, registry=registry)
    except NotationError as exc:
        for problem in exc.problems:
            sys.stderr.write(problem.describe(prefix="notation svg") + "\n")
        return 1
    try:
        highlight = parse_squares(",".join(args.highlight), read.setup.geometry)
        options = SvgOptions(
            size=args.size,
            orientation=Orientation(args.orientation),
            coordinates=Coordinates(args.coordinates),
            highlight=highlight,
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    try:
        write_text(args.output, board_svg(read.setup, read.variant, options))
    except OutputError as exc:
        raise UsageError(str(exc)) from None
    return 0
