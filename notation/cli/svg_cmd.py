"""``notation svg``: draw one position as an SVG picture: a FEN's, or a PGN game's at a ply
(``notation.svg.game_ply``)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, TypeVar

from notation.cli.options import accepted_codes, add_variant_options, build_registry, variant_hint
from notation.cli.usage import SUMMARIES, UsageError, bad_value
from notation.errors import NotationError
from notation.fen.reader import read_fen
from notation.geometry import Geometry
from notation.guess import resolve_variant
from notation.inputs import InputError
from notation.outputs import STDOUT, OutputError, write_text
from notation.svg import (
    MAX_SIZE,
    MIN_SIZE,
    CheckMark,
    Coordinates,
    Orientation,
    PlyError,
    SvgOptions,
    board_svg,
    game_ply,
    parse_arrows,
    parse_move_squares,
    parse_squares,
)
from notation.variants import Registry

if TYPE_CHECKING:
    import argparse

DESCRIPTION = f"""\
Draw the position of a FEN as an SVG picture: the variant's board, its pieces, pockets with
counts, promoted pieces, the checks each side has given (Three-check) and the side to move;
a king in check is marked when the position is legal, and --last-move and --arrows mark a
move and arrows. The position is drawn whether or not it is legal (`notation validate`
judges it). --variant auto guesses the variant from the FEN's shape, with a warning.
With --pgn FILE instead of a FEN it draws a game's position: game --game K of the file
(default 1) after --ply N moves of its main line (0: its start; default: its last move),
that move and a king it leaves in check marked. The game's variant and start are its
Variant and FEN tags' (--variant names the variant of a game without a Variant tag), its
moves checked as `notation check` checks them.
Exit status: 0 drawn, 1 the FEN cannot be read (or no variant guessed), or the game cannot
be drawn at that ply (no such game, no start to play from, a ply past its end, a move before
it that cannot be played: the problem is printed on standard error, with its line and
column), 2 usage error (an unknown --variant, a bad --size ({MIN_SIZE}-{MAX_SIZE}), a --highlight,
--last-move or --arrows that is not on the board, a FEN and --pgn both or neither, a --pgn
file that cannot be read, an output that cannot be written)."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "svg",
        help=SUMMARIES["svg"],
        description=DESCRIPTION,
    )
    parser.add_argument("fen", metavar="FEN", nargs="?", help="the position to draw (or --pgn)")
    add_variant_options(parser, auto=True)
    game = parser.add_argument_group("a game's position (instead of a FEN)")
    game.add_argument("--pgn", metavar="FILE", help="a PGN file (plain, .gz, .bz2, .zst; - for standard input)")
    game.add_argument("--game", type=_counting(1), default=None, metavar="K",
                      help="which game of the file: 1 (the default) is the first")
    game.add_argument("--ply", type=_counting(0), default=None, metavar="N",
                      help="the position after N moves of the main line: 0 is the start (default: after its last move)")
    game.add_argument("--accept", action="append", default=[], metavar="CODE",
                      help="play a game from a FEN tag with this validation code (repeatable, or comma-separated), "
                      "as notation check --accept does")
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
    registry = build_registry(args)
    if args.pgn is not None:
        return _run_game(args, registry)
    if args.fen is None:
        raise UsageError("give the FEN of the position to draw, or --pgn FILE for a game's")
    if args.game is not None or args.ply is not None:
        raise UsageError("--game and --ply choose a position of a game: give --pgn FILE")
    resolved = resolve_variant(args.fen, args.variant, registry)
    if resolved.problem is not None:
        sys.stderr.write(variant_hint(resolved.problem).describe(prefix="notation svg") + "\n")
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
    options = _options(args, read.setup.geometry, last_move=True)
    _write(args.output, board_svg(read.setup, read.variant, options))
    return 0


def _run_game(args: argparse.Namespace, registry: Registry) -> int:
    """``--pgn``: draw game ``--game`` of the file at ``--ply``."""
    if args.fen is not None:
        raise UsageError(f"give a FEN or --pgn, not both (the FEN {args.fen!r} and --pgn {args.pgn})")
    if args.variant.strip().lower() == "auto":
        raise UsageError("--variant auto guesses a FEN's variant; a game's is its Variant tag "
                         "(--variant NAME names the variant of games without one)")
    if args.last_move:
        raise UsageError("--last-move: with --pgn the game's own move is marked")
    from notation.pgn.gameread import open_games  # only a game needs the PGN layer

    accept = accepted_codes(args.accept)
    number = args.game or 1
    where = "<stdin>" if args.pgn == "-" else args.pgn
    try:
        with contextlib.closing(open_games(args.pgn, variant=args.variant, registry=registry, accept=accept)) as games:
            game, last = None, 0
            for game in games:
                if game.number >= number:
                    break
                last = game.number
            if game is None or game.number != number:
                held = "no game" if last == 0 else f"{last} game{'s' if last > 1 else ''}"
                sys.stderr.write(f"notation svg: {where}: no game {number}: the file holds {held}\n")
                return 1
            try:
                found = game_ply(game, args.ply)
            except PlyError as exc:
                sys.stderr.write(f"notation svg: {where}: {exc}\n")
                return 1
    except InputError as exc:
        raise UsageError(str(exc)) from None
    geometry = found.setup.geometry
    options = replace(_options(args, geometry, last_move=False), last_move=found.last_move)
    _write(args.output, board_svg(found.setup, found.position.variant, options, checked=found.checked))
    return 0


def _options(args: argparse.Namespace, geometry: Geometry, *, last_move: bool) -> SvgOptions:
    """The picture's options from the command line; ``UsageError`` for a bad one."""
    try:
        return SvgOptions(
            size=args.size,
            orientation=Orientation(args.orientation),
            coordinates=Coordinates(args.coordinates),
            highlight=_option("--highlight", parse_squares, ",".join(args.highlight), geometry),
            last_move=_option("--last-move", parse_move_squares, args.last_move, geometry) if last_move else (),
            check=CheckMark(args.check),
            arrows=_option("--arrows", parse_arrows, ",".join(args.arrows), geometry),
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _write(output: str, text: str) -> None:
    try:
        write_text(output, text)
    except OutputError as exc:
        raise UsageError(str(exc)) from None


def _counting(least: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``least`` up (argparse names the option)."""

    def whole(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise bad_value(f"{text!r} is not a whole number") from None
        if value < least:
            raise bad_value(f"{value} is less than {least}")
        return value

    return whole


T = TypeVar("T")


def _option(flag: str, parse: Callable[[str, Geometry], T], text: str, geometry: Geometry) -> T:
    """``parse(text, geometry)``; its ``ValueError`` becomes a ``UsageError`` naming ``flag``."""
    try:
        return parse(text, geometry)
    except ValueError as exc:
        raise UsageError(f"{flag}: {exc}") from None
