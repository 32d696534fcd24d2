"""Each twist that changes kings answers for them in one rule object per layer: the rules
layer's ``KingRule`` (``VariantRules.kings``) for setups, the game's ``TwistRule`` with
``changes_king_safety`` (``ChessRules.king_twist``) for moves; standard chess has none of
the latter, so its moves pay no call for it."""

from __future__ import annotations

import pytest

from notation import find_variant, validate_fen
from notation.game.chess.rules import ChessRules
from notation.game.chess.twists.atomic import Explosions
from notation.rules.king_rules import AtomicKings, KingRule, NoCheckKings, RaceKings, RoyalLoss
from notation.rules.variant_rules import VariantRules
from notation.variants import Twist

KINGS = [
    ("standard", KingRule),
    ("crazyhouse", KingRule),
    ("atomic", AtomicKings),
    ("racingkings", RaceKings),
    ("dark", NoCheckKings),
    ("darkcrazyscreen", NoCheckKings),
    ("itsyourturnatomic", KingRule),  # bombs: judged by the bombs validator, not a king rule
]


@pytest.mark.parametrize("key,kind", KINGS)
def test_each_variant_has_the_king_rule_of_its_twists(key, kind):
    assert type(VariantRules(find_variant(key)).kings) is kind


@pytest.mark.parametrize("key,twist", [("standard", None), ("horde", None), ("atomic", Explosions)])
def test_only_a_twist_that_changes_check_is_the_king_twist(key, twist):
    king_twist = ChessRules(find_variant(key)).king_twist
    assert (None if king_twist is None else type(king_twist)) is twist


def test_a_variant_with_several_king_twists_is_judged_by_the_first_of_no_check_atomic_race():
    atomic = find_variant("atomic")
    both = atomic.replace(key="atomicrace", twists=frozenset({Twist.ATOMIC, Twist.RACE}))
    assert type(VariantRules(both).kings) is AtomicKings
    blind = atomic.replace(key="blindatomic", twists=frozenset({Twist.ATOMIC, Twist.NO_CHECK}))
    assert VariantRules(blind).kings.mover_royal_loss is RoyalLoss.CAPTURED


# (variant, FEN, codes): what each king rule lets a setup hold.
SETUPS = [
    # Touching kings never check in Atomic; in standard chess a king beside a king is impossible.
    ("atomic", "8/8/8/8/8/3k4/3K4/7r w - - 0 1", []),
    # Two checkers on one line with the king: explosions clear lines in Atomic.
    ("atomic", "8/8/8/8/4k3/8/r3K2q/8 w - - 0 1", []),
    ("standard", "8/8/8/8/4k3/8/r3K2q/8 w - - 0 1", ["impossible-check"]),
    # The side to move without its king: exploded (Atomic), captured (Dark Chess), missing.
    ("atomic", "8/8/8/8/8/3k4/8/7r w - - 0 1", []),
    ("dark", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1", ["king-captured"]),
    ("standard", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1", ["missing-king"]),
    # A check in Racing Kings is refused whatever its shape.
    ("racingkings", "8/8/8/8/8/8/krbnNBRK/qrbnNBRq w - - 0 1", ["too-many-pieces", "race-material", "race-check"]),
]


@pytest.mark.parametrize("key,fen,codes", SETUPS)
def test_what_a_king_rule_lets_a_setup_hold(key, fen, codes):
    result = validate_fen(fen, key)
    assert [problem.code for problem in result.errors + result.warnings] == codes
