"""En passant: is the written square plausible, can a pawn take there, is the capture legal.

Plausible (the ``invalid-ep-square`` test): the square is where a double step from a side's
second rank to its fourth passes (the board's third rank from the top for White to move,
the sixth on 8x8; the third for Black), it is empty, the square behind it (where the pawn
came from) is empty, and an enemy pawn stands just in front of it. Boards of fewer than
four ranks have no double step. Variants with the ``NO_PAWN_DOUBLE_STEP`` or
``NO_EN_PASSANT`` twist have no plausible square, nor has a side to move whose opponent's
army has ``pawn_double_step`` False, nor a setup in its placement phase (nobody has
moved). Legal: a pawn of the side to move takes there and afterwards no royal piece of its
side is attacked (pins, check, discovered checks along the rank all follow from re-testing
attacks), as the variant's king rule says (``notation.rules.king_rules``: under the
``NO_CHECK`` twist every pseudo-legal capture is legal; in Atomic the explosion is played
out; under the Race twist the capture must not give check either). Sides without royal
pieces (Antichess, Horde's White) only need the pseudo-legal capture.
Nothing here raises; an illegal setup simply yields fewer captures.
"""

from __future__ import annotations

from notation.options import EnPassantMode
from notation.rules.attack_view import AttackView, attack_view_of
from notation.setup import Setup
from notation.variants import Variant


def plausible(view: AttackView, ep: int) -> bool:
    """True when ``ep`` could follow an enemy double step (see the module doc)."""
    tables = view.tables
    if view.rules.no_double_step[view.turn ^ 1] or view.rules.no_en_passant or view.placing:
        return False
    if not 0 <= ep < tables.size or tables.ranks < 4:
        return False  # a double step needs four ranks
    files = tables.files
    if view.turn == 0:
        rank, pushed, origin = tables.ranks - 3, ep - files, ep + files
    else:
        rank, pushed, origin = 2, ep + files, ep - files
    if ep // files != rank:
        return False
    occ = view.occupied
    if (occ >> ep & 1) or (occ >> origin & 1):
        return False
    return bool(view.pawns[view.turn ^ 1] >> pushed & 1)


def capturers(view: AttackView, ep: int) -> int:
    """Pawns of the side to move that attack ``ep`` (no plausibility test)."""
    us = view.turn
    return view.tables.pawn[us ^ 1][ep] & view.pawns[us]


def is_legal_capture(view: AttackView, origin: int, ep: int) -> bool:
    """Whether the pawn on ``origin`` may take en passant on ``ep`` (``ep`` plausible), as
    the variant's king rule judges it (``KingRule.en_passant_legal``)."""
    return view.rules.kings.en_passant_legal(view, origin, ep)


def legal_captures(view: AttackView, ep: int) -> list[int]:
    """Origins of the legal en passant captures onto ``ep`` (empty if it is not plausible)."""
    if not plausible(view, ep):
        return []
    return view.rules.kings.en_passant_captures(view, capturers(view, ep), ep)


def en_passant_square(setup: Setup, variant: Variant, mode: EnPassantMode) -> int | None:
    """The en passant square to write for ``setup`` under ``mode``.

    ``ALWAYS``: the square as written. ``PSEUDO_LEGAL``: the square if it is plausible and a
    pawn of the side to move attacks it. ``LEGAL``: the square if a legal en passant capture
    exists. ``None`` otherwise.
    """
    ep = setup.ep_square
    if ep is None or mode is EnPassantMode.ALWAYS:
        return ep
    view = attack_view_of(setup, variant)
    if not plausible(view, ep) or not capturers(view, ep):
        return None
    if mode is EnPassantMode.PSEUDO_LEGAL:
        return ep
    return ep if legal_captures(view, ep) else None
