"""A placement phase under way: ``placement-army``, ``placement-region``,
``placement-pawn-files``, ``placement-bishops``.

Applies to variants with the ``PLACEMENT`` twist while a piece is left in either pocket
(``AttackView.placing``); the rules come from ``Variant.placement``. Nobody has moved yet, so
each side's pieces on the board and in hand are exactly the army it places
(``placement-army``), and every placed piece stands where it was put: on its side's own
first ``Placement.ranks`` ranks (``placement-region``), pawns on different files where
``PawnFiles.ONE_PER_FILE`` (``placement-pawn-files``), two bishops on different colours where
``BishopColours.DIFFERENT`` (``placement-bishops``). Pawns on the first rank are judged by
``material`` (``Army.pawns_on_first_rank``), castling rights by ``castling`` (the Screen
variants do not castle), an en passant square by ``en_passant`` (none while placing).
Not checked: the order of placement (Fairy-Stockfish alternates piece by piece; the
itsyourturn variants page has each player place a whole army in one turn), move counters.
"""

from __future__ import annotations

from collections import Counter

from notation.errors import Problem
from notation.rules.bitboard import squares
from notation.squares import square_name
from notation.validation.context import COLOURS, Context, join_and, side
from notation.variants import BishopColours, PawnFiles

_LIGHT = 0x55AA55AA55AA55AA  # b1, d1, ..., a2, c2, ...: the light squares


def find_problems(ctx: Context) -> list[Problem]:
    placement = ctx.variant.placement
    if placement is None or not ctx.position.placing:
        return []
    problems: list[Problem] = []
    for colour in range(2):
        problems += _army(ctx, colour, placement.army)
        problems += _region(ctx, colour, placement.ranks)
        if placement.pawn_files is PawnFiles.ONE_PER_FILE:
            problems += _pawn_files(ctx, colour)
        if placement.bishop_colours is BishopColours.DIFFERENT:
            problems += _bishops(ctx, colour)
    return problems


def _army(ctx: Context, colour: int, army: str) -> list[Problem]:
    """Board plus hand of ``colour`` against the army it places, letter by letter."""
    setup = ctx.setup
    pocket = setup.pockets.of(COLOURS[colour]) if setup.pockets is not None else ""
    on_board = Counter(
        letter.lower() for letter in setup.cells if letter != "." and letter.isupper() == (colour == 0)
    )
    have = on_board + Counter(pocket)
    wanted = Counter(army)
    if have == wanted:
        return []
    wrong = []
    for letter in sorted(set(have) | set(wanted)):
        if have[letter] != wanted[letter]:
            wrong.append(f"{have[letter]} {_plural(ctx.piece_name(letter), have[letter])} instead of {wanted[letter]}")
    message = (
        f"{side(colour)} has {join_and(wrong)} on the board and in hand; while the pieces are placed "
        f"nothing has been captured, so a side holds exactly its army"
    )
    return [Problem("placement-army", message, field="pockets")]


def _plural(name: str, count: int) -> str:
    return name if count == 1 else name + "s"


def _region(ctx: Context, colour: int, ranks: int) -> list[Problem]:
    """Placed pieces of ``colour`` off its own first ``ranks`` ranks."""
    own = (1 << (8 * ranks)) - 1
    if colour == 1:
        own <<= 8 * (8 - ranks)
    outside = ctx.position.colours[colour] & ~own
    if not outside:
        return []
    first, last = (1, ranks) if colour == 0 else (9 - ranks, 8)
    return [
        Problem(
            "placement-region",
            f"{ctx.pieces_on(outside)}: while the pieces are placed, {side(colour)}'s stand on ranks {first} to {last}",
            field="placement",
        )
    ]


def _pawn_files(ctx: Context, colour: int) -> list[Problem]:
    by_file: dict[int, list[int]] = {}
    for sq in squares(ctx.position.pawns[colour]):
        by_file.setdefault(sq & 7, []).append(sq)
    problems = []
    for file, placed in sorted(by_file.items()):
        if len(placed) > 1:
            names = join_and([square_name(sq) for sq in placed])
            problems.append(
                Problem(
                    "placement-pawn-files",
                    f"{side(colour)} pawns on {names}: each pawn is placed on a different file "
                    f"({'abcdefgh'[file]}-file twice)",
                    field="placement",
                )
            )
    return problems


def _bishops(ctx: Context, colour: int) -> list[Problem]:
    bishops = ctx.position.pair_bb("b")[colour]
    light = (bishops & _LIGHT).bit_count()
    dark = (bishops & ~_LIGHT).bit_count()
    if light < 2 and dark < 2:
        return []
    names = join_and([square_name(sq) for sq in squares(bishops)])
    shade = "light" if light >= 2 else "dark"
    return [
        Problem(
            "placement-bishops",
            f"{side(colour)} bishops on {names} all on {shade} squares: the bishops are placed on different colours",
            field="placement",
        )
    ]
