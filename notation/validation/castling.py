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

from collections.abc import Sequence
from typing import Final

from notation.errors import Problem
from notation.lean_enum import LeanEnum
from notation.rules.bitboard import ByColour, square_count, squares
from notation.rules.chess960 import is_chess960, start_array
from notation.validation.context import Context, side


class Reading(LeanEnum):
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
    # Each side's good rights as bits of its back rank (bit n: the rank's n-th square): no
    # list made or sorted, where every setup with rights on both sides has two here.
    good_white = good_black = 0
    for sq in setup.castling:
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
        elif colour == 0:
            good_white |= 1 << sq
        else:
            good_black |= 1 << (sq - black_back)
    # One right a side of the castling piece: the outermost keeps it.
    _outermost_only(ctx, good_white, 0, kings[0], 0, bad)
    _outermost_only(ctx, good_black, 1, kings[1], black_back, bad)
    return bad


def _outermost_only(ctx: Context, good: int, colour: int, king: int, back: int, bad: dict[int, str]) -> None:
    """Mark bad each of ``colour``'s ``good`` rights (bits of its back rank, which starts at
    square ``back``) but the outermost on each side of its castling piece (the last square
    of ``king``, its castling pieces on that rank)."""
    if good & (good - 1) == 0:
        return  # one right at most: none to drop
    west = good & ((1 << (king.bit_length() - 1 - back)) - 1)
    east = good ^ west
    if west & (west - 1):
        outermost = west & -west  # the westmost
        _drop_all(ctx, west ^ outermost, colour, back, outermost, bad)
    if east & (east - 1):
        outermost = 1 << (east.bit_length() - 1)  # the eastmost
        _drop_all(ctx, east ^ outermost, colour, back, outermost, bad)


def _drop_all(ctx: Context, rights: int, colour: int, back: int, kept: int, bad: dict[int, str]) -> None:
    """Mark bad each right of ``rights`` (bits of the back rank at ``back``), naming the one
    ``kept`` on that side."""
    kept_name = ctx.square_name(back + kept.bit_length() - 1)
    while rights:
        bit = rights & -rights
        rights ^= bit
        bad[back + bit.bit_length() - 1] = f"{side(colour)} already has a right on that side ({kept_name})"


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


def find_problems(ctx: Context) -> Sequence[Problem]:
    """One problem a bad right, in square order (none: an empty tuple, no list made)."""
    if not ctx.setup.castling:
        return ()
    bad = judge_rights(ctx)
    if not bad:  # the usual answer: nothing to sort
        return ()
    return [
        Problem(
            "bad-castling-rights",
            f"castling right on {ctx.square_name(sq)}: {reason}",
            field="castling",
            extra={"square": ctx.square_name(sq)},
        )
        for sq, reason in sorted(bad.items())
    ]
