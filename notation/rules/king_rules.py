"""``KingRule``: how a variant's twist changes the attacks on its kings and what a setup of
it may hold. One object per variant (``VariantRules.kings``, chosen by ``king_rule_for``
from its twists), asked by the royal attacks (``royal_attacks.checkers``), the en passant
rules (``en_passant``) and the validators (``validation.kings``, ``validation.checkers``)
instead of a flag per twist:

- ``KingRule``: standard chess. A king is attacked by every enemy piece that reaches it;
  a side to move without its royal piece is missing one; checks follow the lines they
  come along.
- ``AtomicKings`` (``Twist.ATOMIC``): kings that touch cannot check each other (a king
  cannot capture, and a capture beside one's own king explodes it); an en passant capture
  explodes too; the side to move may have lost its king (it exploded: the game is over);
  explosions clear lines, so checks follow no line rule.
- ``NoCheckKings`` (``Twist.NO_CHECK``): check does not exist; a side to move without its
  royal piece had it captured (the warning ``king-captured``).
- ``RaceKings`` (``Twist.RACE``): no move gives check, an en passant capture neither;
  the game is over once both kings stand on the last rank (``race-over`` with Black to
  move), and material over its caps is ``race-material``.

A variant with more than one of these twists (none in the default registry) is judged by
the first of ``NO_CHECK``, ``ATOMIC``, ``RACE``. The move generator's side of the same
twists is ``notation.game.chess.twists`` (the game layer sits above this one, so a rule
object there cannot be asked from here). Functions return bitboards and never raise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from notation.lean_enum import LeanEnum
from notation.rules.bitboard import squares
from notation.variants import Twist

if TYPE_CHECKING:
    from notation.rules.attack_view import AttackView


class RoyalLoss(LeanEnum):
    """What a side to move without its royal piece (where its army has one) means."""

    MISSING = "missing"  # an illegal setup: ``missing-king``
    EXPLODED = "exploded"  # Atomic: it exploded on the last move, the game is over (no problem)
    CAPTURED = "captured"  # no check: it was captured, the game is over (warning ``king-captured``)


def kings_touch(view: AttackView) -> bool:
    """True when a white and a black royal piece stand on neighbouring squares."""
    king_attacks = view.tables.king
    white_square, black_square = view.royal_square(0), view.royal_square(1)
    if white_square >= 0 and black_square >= 0:  # one each, the usual: read off the words, no pair made
        return bool(king_attacks[white_square] >> black_square & 1)
    white, black = view.royal
    for sq in squares(white):
        if king_attacks[sq] & black:
            return True
    return False


class KingRule:
    """Standard chess's kings (see the module doc); each twist's class overrides what its
    rule changes."""

    # Whether a king can be in check at all (no: validation has no check problems).
    checks_exist = True
    # Whether every check is refused (no move gives one): ``race-check``.
    checks_refused = False
    # Whether two or more checkers must follow the lines one move can open
    # (``too-many-checkers``, ``impossible-check``).
    checks_follow_lines = True
    # What the side to move without its royal piece means.
    mover_royal_loss = RoyalLoss.MISSING
    # Whether the game ends once both sides' royal pieces stand on the last rank, so that
    # Black to move with both there is an impossible setup (``race-over``).
    race_to_last_rank = False
    # The code of material over an army's caps, where the rule names it; None for the
    # usual ``too-many-pieces`` and ``too-many-pawns``.
    material_code: str | None = None

    def checkers(self, view: AttackView, colour: int, occupied: int | None = None) -> int:
        """Enemy pieces attacking any royal piece of ``colour`` (0 when the side has none)."""
        enemy = colour ^ 1
        single = view.royal_square(colour)
        if single >= 0:  # the usual single royal piece
            return view.attackers(single, enemy, occupied)
        if not view.royal_count(colour):  # none (Horde's White): no pair made
            return 0
        royal = view.royal[colour]
        found = 0
        for sq in squares(royal):
            found |= view.attackers(sq, enemy, occupied)
        return found

    def attacked(self, view: AttackView, royal: int, by: int, occupied: int, enemy_royal: int) -> bool:
        """Whether a piece of ``by`` attacks any square of ``royal`` with the board ``occupied``."""
        for sq in squares(royal):
            if view.attackers(sq, by, occupied):
                return True
        return False

    def en_passant_legal(self, view: AttackView, origin: int, ep: int) -> bool:
        """Whether the pawn on ``origin`` may take en passant on ``ep`` (``ep`` plausible):
        no royal piece of its side stands attacked afterwards."""
        us = view.turn
        after = _after_en_passant(view, origin, ep)
        return not self.attacked(view, view.royal[us], us ^ 1, after, view.royal[us ^ 1])

    def en_passant_captures(self, view: AttackView, origins: int, ep: int) -> list[int]:
        """Of the pawns on ``origins`` (attacking the plausible ``ep``), those whose capture is legal."""
        return [origin for origin in squares(origins) if self.en_passant_legal(view, origin, ep)]


class AtomicKings(KingRule):
    """Atomic: touching kings never check; captures explode (see the module doc)."""

    checks_follow_lines = False
    mover_royal_loss = RoyalLoss.EXPLODED

    def checkers(self, view: AttackView, colour: int, occupied: int | None = None) -> int:
        if view.royal_count(colour) and kings_touch(view):
            return 0
        return KingRule.checkers(self, view, colour, occupied)

    def attacked(self, view: AttackView, royal: int, by: int, occupied: int, enemy_royal: int) -> bool:
        for sq in squares(royal):
            if view.tables.king[sq] & enemy_royal & occupied:
                continue  # beside the enemy king: never attacked
            if view.attackers(sq, by, occupied):
                return True
        return False

    def en_passant_legal(self, view: AttackView, origin: int, ep: int) -> bool:
        """The explosion played out: the own king must survive it; blowing up the enemy king
        is always legal."""
        us = view.turn
        occupied = view.occupied
        all_pawns = view.pawns[0] | view.pawns[1]
        blast = (view.tables.king[ep] & occupied & ~all_pawns) | (1 << origin) | (1 << _pushed(view, ep))
        our_royal, their_royal = view.royal[us], view.royal[us ^ 1]
        if our_royal & blast:
            return False
        if their_royal & blast:
            return True
        return not self.attacked(view, our_royal, us ^ 1, occupied & ~blast, their_royal)

    def en_passant_captures(self, view: AttackView, origins: int, ep: int) -> list[int]:
        if view.variant.armies[view.turn].royal_count and not view.royal[view.turn]:
            return []  # the side to move has lost its king: the game is over
        return KingRule.en_passant_captures(self, view, origins, ep)


class NoCheckKings(KingRule):
    """No check: kings may stand attacked and are captured (see the module doc)."""

    checks_exist = False
    mover_royal_loss = RoyalLoss.CAPTURED

    def en_passant_captures(self, view: AttackView, origins: int, ep: int) -> list[int]:
        return list(squares(origins))  # a king may be left attacked


class RaceKings(KingRule):
    """Racing Kings: no move gives check (see the module doc)."""

    checks_refused = True
    race_to_last_rank = True
    material_code: str | None = "race-material"

    def en_passant_legal(self, view: AttackView, origin: int, ep: int) -> bool:
        if not KingRule.en_passant_legal(self, view, origin, ep):
            return False
        us = view.turn
        their_royal = view.royal[us ^ 1]
        if not their_royal:
            return True
        # The capturing pawn now attacks from ``ep``; every other piece is where it was.
        if view.tables.pawn[us][ep] & their_royal:
            return False
        return not self.attacked(view, their_royal, us, _after_en_passant(view, origin, ep), view.royal[us])


def _pushed(view: AttackView, ep: int) -> int:
    """The square of the pawn an en passant capture on ``ep`` takes."""
    return ep - view.tables.files if view.turn == 0 else ep + view.tables.files


def _after_en_passant(view: AttackView, origin: int, ep: int) -> int:
    """The occupied squares after the pawn on ``origin`` takes en passant on ``ep``."""
    return (view.occupied & ~((1 << origin) | (1 << _pushed(view, ep)))) | (1 << ep)


STANDARD_KINGS: Final = KingRule()
_ATOMIC_KINGS: Final = AtomicKings()
_NO_CHECK_KINGS: Final = NoCheckKings()
_RACE_KINGS: Final = RaceKings()


def king_rule_for(twists: frozenset[Twist]) -> KingRule:
    """The king rule of a variant with ``twists`` (see the module doc)."""
    if Twist.NO_CHECK in twists:
        return _NO_CHECK_KINGS
    if Twist.ATOMIC in twists:
        return _ATOMIC_KINGS
    if Twist.RACE in twists:
        return _RACE_KINGS
    return STANDARD_KINGS
