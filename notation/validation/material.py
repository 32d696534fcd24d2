"""Material: ``empty``, ``too-many-pieces``, ``too-many-pawns``, ``race-material``,
``pawns-on-backrank``.

Limits come from each side's ``Army``. With the ``POCKETS`` twist pieces change sides and
wait in pockets, so counts are of both sides together, board and pockets: pieces against
both armies' ``max_pieces``, and pawns plus promoted pieces on the board against both
armies' ``max_pawns`` (a promoted piece was a pawn). Under the ``RACE`` twist any pawn, or
more of a kind than ``Army.max_by_kind`` allows, is ``race-material``; elsewhere a kind over
its cap is ``too-many-pieces``. Pawns may stand on their own first rank only where the
army says so (Horde's White); the first and last ranks are the board's (``Setup.geometry``).
An empty board in a placement phase (pieces in hand) is not ``empty``: the Screen variants
start that way.
"""

from __future__ import annotations

from notation.errors import Problem
from notation.rules.bitboard import square_count
from notation.validation.context import Context, side

PAWN = "p"


def find_problems(ctx: Context) -> list[Problem]:
    """Each check below adds what it finds to one list (compiled, a list made and freed is
    a few hundred instructions, and every FEN is checked)."""
    position = ctx.position
    problems: list[Problem] = []
    # A placement phase may start from an empty board, every piece in hand.
    if position.board_is_empty() and not position.placing:
        problems.append(Problem("empty", "the board is empty", field="placement"))
    if position.rules.drops:
        _pooled_counts(ctx, problems)
    else:
        _side_counts(ctx, problems)
    if ctx.rules.kind_caps:
        _kind_caps(ctx, problems)
    _back_ranks(ctx, problems)
    return problems


def _side_counts(ctx: Context, problems: list[Problem]) -> None:
    position, rules = ctx.position, ctx.rules
    for colour in range(2):
        pieces = position.piece_count(colour)
        max_pieces = rules.max_pieces[colour]
        if pieces > max_pieces:
            problems.append(
                Problem(
                    "too-many-pieces",
                    f"{side(colour)} has {pieces} pieces; {ctx.variant.name} allows at most {max_pieces}",
                    field="placement",
                )
            )
        pawns = position.pawn_count(colour)
        max_pawns = rules.max_pawns[colour]
        if pawns > max_pawns:
            code = rules.kings.material_code or "too-many-pawns"
            limit = "no pawns" if max_pawns == 0 else f"at most {max_pawns}"
            problems.append(
                Problem(code, f"{side(colour)} has {pawns} pawns; {ctx.variant.name} allows {limit}", field="placement")
            )


def _pooled_counts(ctx: Context, problems: list[Problem]) -> None:
    setup, variant, position = ctx.setup, ctx.variant, ctx.position
    pockets = setup.pockets
    in_hand = (len(pockets.white) + len(pockets.black)) if pockets is not None else 0
    pawns_in_hand = (pockets.white.count(PAWN) + pockets.black.count(PAWN)) if pockets is not None else 0
    white_army, black_army = variant.armies
    max_pieces = white_army.max_pieces + black_army.max_pieces
    max_pawns = white_army.max_pawns + black_army.max_pawns
    pieces = position.piece_count(0) + position.piece_count(1) + in_hand  # counted off the words: no pair made
    if pieces > max_pieces:
        problems.append(
            Problem(
                "too-many-pieces",
                f"{pieces} pieces on the board and in the pockets; {variant.name} has at most {max_pieces}",
                field="pockets" if in_hand else "placement",
            )
        )
    board_pawns = position.pawn_count(0) + position.pawn_count(1)
    promoted = position.promoted  # only pieces a pawn can become
    total = board_pawns + square_count(promoted) + pawns_in_hand
    if total > max_pawns:
        parts = [f"{board_pawns} on the board"]
        if promoted:
            parts.append(f"{square_count(promoted)} promoted")
        if pawns_in_hand:
            parts.append(f"{pawns_in_hand} in the pockets")
        problems.append(
            Problem(
                "too-many-pawns",
                f"{total} pawns ({', '.join(parts)}); {variant.name} has at most {max_pawns}",
                field="placement",
            )
        )


def _kind_caps(ctx: Context, problems: list[Problem]) -> None:
    code = ctx.rules.kings.material_code or "too-many-pieces"
    cells = ctx.setup.cells  # counting a letter in the cells: no bitboard made for it
    for colour, letter, cap in ctx.rules.kind_caps:
        count = cells.count(letter)
        if count > cap:
            name = ctx.piece_name(letter)
            problems.append(
                Problem(
                    code,
                    f"{side(colour)} has {count} {name}s; {ctx.variant.name} allows at most {cap}",
                    field="placement",
                )
            )


def _back_ranks(ctx: Context, problems: list[Problem]) -> None:
    wrong = ctx.position.forbidden_pawns()  # the rules' no_pawns: the variant's board, the setup's once validated
    if wrong:
        problems.append(
            Problem(
                "pawns-on-backrank",
                f"{ctx.pieces_on(wrong)}: pawns cannot stand on the first or last rank",
                field="placement",
            )
        )
