"""En passant: is the written square plausible, can a pawn take there, is the capture legal.

Plausible (the ``invalid-ep-square`` test): the square is where a double step from a side's
second rank to its fourth passes (the board's third rank from the top for White to move,
the sixth on 8x8; the third for Black), it is empty, the square behind it (where the pawn
came from) is empty, and an enemy pawn stands just in front of it. Boards of fewer than
four ranks have no double step. Variants with the ``NO_PAWN_DOUBLE_STEP`` or
``NO_EN_PASSANT`` twist have no plausible square, nor has a side to move whose opponent's
army has ``pawn_double_step`` False, nor a setup in its placement phase (nobody has
moved). Under the ``NO_CHECK`` twist every pseudo-legal capture is legal (a king may be
left attacked). Legal: a pawn of the side to move
takes there and afterwards no royal piece of its side is attacked (pins, check, discovered
checks along the rank all follow from re-testing attacks); in Atomic the explosion is
played out (the own king must survive; blowing up the enemy king is always legal; touching
kings cannot check); under the Race twist the capture must not give check either. Sides
without royal pieces (Antichess, Horde's White) only need the pseudo-legal capture.
Nothing here raises; an illegal setup simply yields fewer captures.
"""

from __future__ import annotations

from typing import Final

from notation.options import EnPassantMode
from notation.rules.bitboard import squares
from notation.rules.position import Position, position_of
from notation.setup import Setup
from notation.variants import Variant

# Enum members bound once: reading a member off its class goes through EnumType's
# attribute hook, dearer than the test it serves when compiled code does it per FEN.
_ALWAYS: Final = EnPassantMode.ALWAYS
_PSEUDO_LEGAL: Final = EnPassantMode.PSEUDO_LEGAL


def plausible(position: Position, ep: int) -> bool:
    """True when ``ep`` could follow an enemy double step (see the module doc)."""
    tables = position.tables
    if position.no_double_step[position.turn ^ 1] or position.no_en_passant or position.placing:
        return False
    if not 0 <= ep < tables.size or tables.ranks < 4:
        return False  # a double step needs four ranks
    files = tables.files
    if position.turn == 0:
        rank, pushed, origin = tables.ranks - 3, ep - files, ep + files
    else:
        rank, pushed, origin = 2, ep + files, ep - files
    if ep // files != rank:
        return False
    occ = position.occupied
    if (occ >> ep & 1) or (occ >> origin & 1):
        return False
    return bool(position.pawns[position.turn ^ 1] >> pushed & 1)


def capturers(position: Position, ep: int) -> int:
    """Pawns of the side to move that attack ``ep`` (no plausibility test)."""
    us = position.turn
    return position.tables.pawn[us ^ 1][ep] & position.pawns[us]


def is_legal_capture(position: Position, origin: int, ep: int) -> bool:
    """Whether the pawn on ``origin`` may take en passant on ``ep`` (``ep`` plausible)."""
    us = position.turn
    them = us ^ 1
    tables = position.tables
    pushed = ep - tables.files if us == 0 else ep + tables.files
    occ = position.occupied
    our_royal = position.royal[us]
    their_royal = position.royal[them]
    if position.atomic:
        all_pawns = position.pawns[0] | position.pawns[1]
        blast = (tables.king[ep] & occ & ~all_pawns) | (1 << origin) | (1 << pushed)
        if our_royal & blast:
            return False
        if their_royal & blast:
            return True
        after = occ & ~blast
        return not _attacked(position, our_royal, them, after, their_royal)
    after = (occ & ~((1 << origin) | (1 << pushed))) | (1 << ep)
    if _attacked(position, our_royal, them, after, their_royal):
        return False
    if position.race and their_royal:
        # The capturing pawn now attacks from ``ep``; every other piece is where it was.
        if tables.pawn[us][ep] & their_royal or _attacked(position, their_royal, us, after, our_royal):
            return False
    return True


def _attacked(position: Position, royal: int, by: int, occupied: int, enemy_royal: int) -> bool:
    """Is any square of ``royal`` attacked by ``by`` with the board ``occupied``?

    In Atomic, a royal piece next to an enemy royal piece is never attacked.
    """
    for sq in squares(royal):
        if position.atomic and position.tables.king[sq] & enemy_royal & occupied:
            continue
        if position.attackers(sq, by, occupied):
            return True
    return False


def legal_captures(position: Position, ep: int) -> list[int]:
    """Origins of the legal en passant captures onto ``ep`` (empty if it is not plausible)."""
    if not plausible(position, ep):
        return []
    if position.atomic and position.variant.armies[position.turn].royal_count and not position.royal[position.turn]:
        return []  # the side to move has lost its king: the game is over
    if position.no_check:
        return list(squares(capturers(position, ep)))
    return [origin for origin in squares(capturers(position, ep)) if is_legal_capture(position, origin, ep)]


def en_passant_square(setup: Setup, variant: Variant, mode: EnPassantMode) -> int | None:
    """The en passant square to write for ``setup`` under ``mode``.

    ``ALWAYS``: the square as written. ``PSEUDO_LEGAL``: the square if it is plausible and a
    pawn of the side to move attacks it. ``LEGAL``: the square if a legal en passant capture
    exists. ``None`` otherwise.
    """
    ep = setup.ep_square
    if ep is None or mode is _ALWAYS:
        return ep
    position = position_of(setup, variant)
    if not plausible(position, ep) or not capturers(position, ep):
        return None
    if mode is _PSEUDO_LEGAL:
        return ep
    return ep if legal_captures(position, ep) else None
