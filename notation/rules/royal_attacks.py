"""Attacks on royal pieces: checkers (who gives check), pins.

A side is checked only through its royal pieces (``Variant.royal``); a variant or side
without any is never in check. Who attacks a king is the variant's king rule's answer
(``notation.rules.king_rules``: in Atomic, kings that touch cannot check each other).
Functions return bitboards and never raise; a side with several royal pieces counts
checks against each of them. Tables are the attack view's board's (``AttackView.tables``).
"""

from __future__ import annotations

from notation.rules.attack_view import AttackView
from notation.rules.bitboard import squares


def checkers(view: AttackView, colour: int, occupied: int | None = None) -> int:
    """Enemy pieces attacking any royal piece of ``colour`` (0 when the side has none), as
    the variant's king rule counts them (``KingRule.checkers``)."""
    return view.rules.kings.checkers(view, colour, occupied)


def pins(view: AttackView, colour: int) -> dict[int, int]:
    """Pieces of ``colour`` pinned to a royal piece by an enemy bishop, rook or queen.

    Maps each pinned square to the squares it may still move to without leaving the pin
    (between the royal piece and the pinner, the pinner included). Grasshopper "pins" (a
    piece whose departure moves a hurdle) are not listed: legality tests such as en passant
    re-test the royal piece's safety after the move instead, which covers them.
    """
    ours = view.colours[colour]
    enemy = colour ^ 1
    occ = view.occupied
    tables = view.tables
    rook_pseudo, bishop_pseudo, between_of = tables.rook_pseudo, tables.bishop_pseudo, tables.between
    found: dict[int, int] = {}
    for king in squares(view.royal[colour]):
        snipers = (rook_pseudo[king] & view.orthogonal[enemy]) | (bishop_pseudo[king] & view.diagonal[enemy])
        for sniper in squares(snipers):
            between = between_of[king][sniper] & occ
            if between and not between & (between - 1) and between & ours:
                sq = between.bit_length() - 1
                found[sq] = found.get(sq, tables.all) & (between_of[king][sniper] | (1 << sniper))
    return found


def pinned(view: AttackView, colour: int) -> int:
    """The bitboard of the squares ``pins`` lists."""
    bb = 0
    for sq in pins(view, colour):
        bb |= 1 << sq
    return bb
