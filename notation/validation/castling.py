"""Castling rights: ``bad-castling-rights`` (``repair`` drops the rights ``judge_rights`` names).

Rights are read one of two ways (``Reading``). A right (the square of the rook it names)
is good when: the variant castles at all; the square is on its side's back rank and holds
that side's ``castling_rook``, not promoted; and that side's ``castling_piece`` stands
unpromoted on the back rank. Then, in the classical reading, the king and the rook stand
on their start squares (read from ``Variant.start_fen``); in the Chess960 reading the rook
may stand anywhere on the back rank, the castling piece must be alone there, and at most
one right is kept on each side of it (the outermost).

The Chess960 reading applies in ``random_start`` variants (Chess960 itself) and in every
other castling variant whenever the setup counts as Chess960
(``notation.rules.chess960.is_chess960``: a right Chess960 rules keep names a rook off the
start-array rook squares, or its side's castling piece is off its start square). Back
ranks are the first and last ranks of the board (``Setup.geometry``).
"""

from __future__ import annotations

import enum
from typing import Final

from notation.errors import Problem
from notation.rules.bitboard import ByColour, square_count, squares
from notation.rules.chess960 import is_chess960, start_array
from notation.validation.context import Context, side


class Reading(enum.Enum):
    """How a setup's castling rights are judged."""

    CLASSICAL = "classical"  # king and rooks on their start-array squares
    CHESS960 = "chess960"  # any back-rank rook, at most one right on each side of the king


# Members bound once: compiled code reading one off its class goes through EnumType's hook.
_CLASSICAL: Final = Reading.CLASSICAL
_CHESS960: Final = Reading.CHESS960


def reading_of(ctx: Context) -> Reading:
    """The reading for this setup's rights: Chess960 in ``random_start`` variants and for
    setups that count as Chess960 (see the module doc), classical otherwise. Promotion
    marks count as the rest of validation counts them (``AttackView.promoted``: a ``~`` on a
    piece no pawn can become, such as a Standard king, is ignored)."""
    setup = ctx.setup
    if ctx.rules.random_start:  # the variant's rules object: compiled, a struct field, not a dataclass look-up
        return _CHESS960
    promoted = ctx.position.promoted
    if is_chess960(setup.cells, setup.castling, tuple(squares(promoted)) if promoted else (), ctx.variant):
        return _CHESS960
    return _CLASSICAL


def judge_rights(ctx: Context) -> dict[int, str]:
    """Every bad right mapped to the reason it is bad: each right on its own in the
    setup's ``Reading``, then (Chess960 reading) one per side of the castling piece."""
    setup, variant, position, rules = ctx.setup, ctx.variant, ctx.position, ctx.rules
    bad: dict[int, str] = {}
    if not setup.castling:
        return bad
    if not rules.castles:  # the variant has no castling, or no castling piece
        for sq in setup.castling:
            bad[sq] = f"{variant.name} has no castling"
        return bad
    chess960 = reading_of(ctx) is _CHESS960
    start = start_array(variant)
    start_kings = start.squares[0]
    # Each right is on its own side's back rank when this is asked: a set of both sides' rook
    # squares answers for it, where a bitboard holding h8 is long arithmetic.
    start_rooks = start.rooks
    tables = position.tables
    files = tables.files
    black_back = tables.size - files
    cells, promoted = setup.cells, position.promoted
    letters = rules.castling_letters  # per side, its (castling piece, rook) letters
    # Each side's unpromoted castling pieces on its back rank (the letter read from the cells).
    kings: ByColour = (
        _unpromoted(cells, letters[0][0], 0, files, promoted),
        _unpromoted(cells, letters[1][0], black_back, files, promoted),
    )
    good_by_colour: list[list[int]] = [[], []]
    for sq in sorted(setup.castling):
        if not 0 <= sq < tables.size:
            bad[sq] = f"it is not on the {setup.geometry} board"
            continue
        colour = 0 if sq < files else 1 if sq >= black_back else -1
        if colour < 0:
            bad[sq] = f"{ctx.square_name(sq)} is not on a back rank"
            continue
        royal_letter, letter = letters[colour]
        king = kings[colour]
        if cells[sq] != letter:
            bad[sq] = f"no {side(colour)} {ctx.piece_name(letter)} on {ctx.square_name(sq)}"
        elif promoted >> sq & 1:
            bad[sq] = f"the {side(colour)} {ctx.piece_name(letter)} on {ctx.square_name(sq)} is a promoted piece"
        elif not king:
            bad[sq] = f"the {side(colour)} {ctx.piece_name(royal_letter)} is not on its back rank"
        elif not chess960 and not king & start_kings[colour]:
            bad[sq] = f"the {side(colour)} {ctx.piece_name(royal_letter)} is not on its start square"
        elif not chess960 and sq not in start_rooks:
            bad[sq] = f"{ctx.square_name(sq)} is not a start square of a {side(colour)} {ctx.piece_name(letter)}"
        elif chess960 and square_count(king) > 1:
            bad[sq] = f"{side(colour)} has more than one {ctx.piece_name(royal_letter)} on its back rank"
        else:
            good_by_colour[colour].append(sq)
    for colour in (0, 1):  # not ``enumerate``: no iterator and pair made per setup
        good = good_by_colour[colour]
        if len(good) < 2:
            continue  # one right a side at most: none to drop
        # ``good`` is in square order: those west of the castling piece, then those east;
        # the outermost of each keeps its right (indexes, not lists: this runs for every
        # setup with rights on both sides, the start position's among them)
        king_sq = kings[colour].bit_length() - 1
        east = 0
        while east < len(good) and good[east] < king_sq:
            east += 1
        for index in range(1, east):
            bad[good[index]] = f"{side(colour)} already has a right on that side ({ctx.square_name(good[0])})"
        for index in range(east, len(good) - 1):
            bad[good[index]] = f"{side(colour)} already has a right on that side ({ctx.square_name(good[-1])})"
    return bad


def _unpromoted(cells: str, letter: str, back: int, files: int, promoted: int) -> int:
    """The squares holding ``letter`` on the rank of ``files`` squares from ``back``, promoted
    ones left out, as a bitboard."""
    found = 0
    end = back + files
    at = cells.find(letter, back, end) if letter else -1
    while at >= 0:
        if not promoted >> at & 1:
            found |= 1 << at
        at = cells.find(letter, at + 1, end)
    return found


def find_problems(ctx: Context) -> list[Problem]:
    if not ctx.setup.castling:
        return []
    bad = judge_rights(ctx)
    if not bad:  # the usual answer: nothing to sort
        return []
    return [
        Problem(
            "bad-castling-rights",
            f"castling right on {ctx.square_name(sq)}: {reason}",
            field="castling",
            extra={"square": ctx.square_name(sq)},
        )
        for sq, reason in sorted(bad.items())
    ]
