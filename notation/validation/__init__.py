"""Validation: is a parsed ``Setup`` a position of its variant? Every problem, at once.

``validate(setup, variant)`` runs every validator below and returns all their problems (an
empty list means legal), each with a stable code, a message naming squares and the FEN
field concerned. ``repair(setup, variant)`` drops bad castling rights and implausible en
passant squares and reports each drop as a warning. Neither raises on any Setup; the
variant may be a registry name (``UnknownVariantError`` if unknown).

Validators, one module each, each with ``find_problems(ctx)``: ``material`` (empty,
too-many-pieces, too-many-pawns, race-material, pawns-on-backrank), ``kings``
(missing-king, too-many-kings, king-in-pocket), ``castling`` (bad-castling-rights),
``en_passant`` (invalid-ep-square), ``checkers`` (who gives check: opposite-check,
too-many-checkers, impossible-check, race-check), ``race`` (race-over),
``check_counters`` (Three-check's counters: bad-check-counters), ``bombs`` (itsyourturn
Atomic's bombs: bad-bomb), ``placement`` (a placement phase under way: placement-army,
placement-region, placement-pawn-files, placement-bishops). A setup whose board is not its
variant's (``Setup.geometry``) is ``wrong-board-size`` and nothing else. Xiangqi's family
has its own judge: ``xiangqi_placement`` (generals, advisors, elephants, soldiers, counts)
and ``xiangqi_checks`` (flying-general, opposite-check, impossible-check); the tafl family
(Tablut) ``tafl``. Codes in ``FINISHED_GAME_CODES`` (king-captured, king-escaped: a
finished game) are findings, not faults: the front ends report them as warnings and the
setup stays valid. Codes and choices: docs/validation.md.
Not checked: whether the position can be reached from the start array (beyond what the
codes above say), move counters.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any, Final

from notation.errors import Problem
from notation.rules.attack_view import attack_view_of
from notation.rules.variant_rules import VariantRules, rules_for
from notation.setup import Setup
from notation.validation import (
    bombs,
    castling,
    check_counters,
    checkers,
    en_passant,
    kings,
    material,
    placement,
    race,
)
from notation.validation.context import Context
from notation.variants import DEFAULT_REGISTRY, RuleFamily, Variant

# Enum members bound once: reading a member off its class goes through EnumType's
# attribute hook, dearer than the test it serves when compiled code does it per FEN.
_CHESS_FAMILY: Final = RuleFamily.CHESS
_TAFL_FAMILY: Final = RuleFamily.TAFL
_VARIANT: Final = Variant  # compiled, a C static: an imported class is a dictionary look-up

# Codes that report a finished game, not an illegal setup (a Dark Chess king captured, a
# Tablut king on a corner): convert and validate list them as warnings, never as errors.
FINISHED_GAME_CODES: Final[frozenset[str]] = frozenset({"king-captured", "king-escaped"})

CODES: tuple[str, ...] = (
    "empty",
    "missing-king",
    "too-many-kings",
    "too-many-pawns",
    "too-many-pieces",
    "pawns-on-backrank",
    "bad-castling-rights",
    "invalid-ep-square",
    "opposite-check",
    "too-many-checkers",
    "impossible-check",
    "race-check",
    "race-over",
    "race-material",
    "king-in-pocket",
    "bad-check-counters",
    "wrong-board-size",
    # Xiangqi (xiangqi_placement, xiangqi_checks)
    "misplaced-general",
    "misplaced-advisor",
    "misplaced-elephant",
    "misplaced-soldier",
    "flying-general",
    # Tafl (``tafl``): a king of the wrong side, a taflman on the throne or a corner, and
    # the finished games (king on a corner, king gone: also Dark Chess's captured king).
    "king-wrong-side",
    "restricted-square",
    "king-escaped",
    "king-captured",
    "bad-bomb",
    # A placement phase (``placement``): the Screen variants.
    "placement-army",
    "placement-region",
    "placement-pawn-files",
    "placement-bishops",
)


def _judge_chess(setup: Setup, variant: Variant) -> list[Problem]:
    """Every problem the chess family's validators find, in this order. Each is called by
    name: compiled, that is a direct C call, where a call through a tuple of function
    objects parses its arguments again each time. A setup built in code with bombs where
    the variant has none is judged for them too (``bad-bomb``)."""
    ctx = Context(setup, variant, attack_view_of(setup, variant))
    judged = ctx.rules  # the optional validators run where their twist can find anything
    problems = material.find_problems(ctx)  # a new list, its own; the others may answer an empty tuple
    problems += kings.find_problems(ctx)
    if setup.castling:  # the fields some setups leave empty: nothing to judge without them
        problems += castling.find_problems(ctx)
    if setup.ep_square is not None:
        problems += en_passant.find_problems(ctx)
    problems += checkers.find_problems(ctx)
    if judged.kings.race_to_last_rank:
        problems += race.find_problems(ctx)
    if setup.remaining_checks is not None:
        problems += check_counters.find_problems(ctx)
    if judged.bombs:
        problems += bombs.find_problems(ctx)
    if judged.placement:
        problems += placement.find_problems(ctx)
    if setup.bombs is not None and not judged.bombs:
        problems += bombs.find_problems(ctx)  # bombs where the variant has none: bad-bomb
    return problems


def _wrong_board_size(setup: Setup, variant: Variant) -> Problem:
    """A setup built for another board (only code can make one: the reader takes the
    variant's geometry); nothing else about it is judged."""
    return Problem(
        "wrong-board-size",
        f"the setup's board is {setup.geometry}; {variant.name} is played on {variant.geometry}",
        field="placement",
    )


# Xiangqi's and Tafl's judges are imported when a setup of theirs is first judged: a
# command on chess FENs starts without them (tests/project/test_startup_imports.py).
def _judge_xiangqi(setup: Setup, variant: Variant) -> list[Problem]:
    from notation.validation import xiangqi_checks, xiangqi_placement

    return xiangqi_placement.find_problems(setup, variant) + xiangqi_checks.find_problems(setup, variant)


def _judge_tafl(setup: Setup, variant: Variant) -> list[Problem]:
    from notation.validation import tafl

    return tafl.find_problems(setup, variant)


# The judge of each rule family: every problem of a setup of one of its variants.
JUDGES: dict[RuleFamily, Callable[[Setup, Variant], list[Problem]]] = {
    _CHESS_FAMILY: _judge_chess,
    RuleFamily.XIANGQI: _judge_xiangqi,
    _TAFL_FAMILY: _judge_tafl,
}


def validate(setup: Setup, variant: Variant | str, *, accept: Collection[str] = ()) -> list[Problem]:
    """Every problem of ``setup`` under ``variant``'s rules, minus the ``accept``ed codes."""
    # A Variant passes through without a call into the registry: per FEN.
    found = variant if isinstance(variant, _VARIANT) else DEFAULT_REGISTRY.find(variant)
    problems = problems_of(setup, found, rules_for(found))
    if accept:
        problems = [p for p in problems if p.code not in accept]
    return problems


def problems_of(setup: Setup, variant: Variant, rules: VariantRules) -> list[Problem]:
    """``validate`` of ``setup`` under ``variant``, whose rules (``rules_for(variant)``)
    the caller holds already (``notation.operations.validate_fen``), accepting none."""
    # Compiled, the rules' fields are read as a struct's, a Variant's from a dictionary.
    if setup.geometry is not rules.geometry and setup.geometry != rules.geometry:
        return [_wrong_board_size(setup, variant)]
    family = rules.family  # chess asked first: a look-up in JUDGES runs Enum.__hash__, Python code
    return _judge_chess(setup, variant) if family is _CHESS_FAMILY else JUDGES[family](setup, variant)


def repair(setup: Setup, variant: Variant | str) -> tuple[Setup, list[Problem]]:
    """``setup`` without bad castling rights and implausible en passant squares.

    Returns the repaired setup and one warning per repair (codes ``repaired-castling`` and
    ``repaired-en-passant``). Other problems are left for ``validate`` to report.
    """
    found = DEFAULT_REGISTRY.find(variant)
    if found.family is _TAFL_FAMILY:
        from notation.validation import tafl

        return tafl.repair(setup, found)
    if found.family is not _CHESS_FAMILY:
        return setup, []  # castling rights and en passant squares are chess's
    if setup.geometry is not found.geometry and setup.geometry != found.geometry:
        return setup, []  # validate reports wrong-board-size
    ctx = Context.of(setup, found)
    square_name = ctx.square_name
    warnings: list[Problem] = []
    changes: dict[str, Any] = {}
    bad_rights = castling.judge_rights(ctx)
    if bad_rights:
        changes["castling"] = frozenset(sq for sq in setup.castling if sq not in bad_rights)
        for sq, why in sorted(bad_rights.items()):
            warnings.append(
                Problem(
                    "repaired-castling",
                    f"dropped the castling right on {square_name(sq)}: {why}",
                    field="castling",
                    extra={"square": square_name(sq)},
                )
            )
    ep = setup.ep_square
    if ep is not None:
        ep_why = en_passant.reason(ctx, ep)
        if ep_why is not None:
            changes["ep_square"] = None
            warnings.append(
                Problem(
                    "repaired-en-passant",
                    f"dropped the en passant square {square_name(ep)}: {ep_why}",
                    field="en-passant",
                    extra={"square": square_name(ep)},
                )
            )
    return (setup.with_changes(**changes) if changes else setup), warnings


__all__ = ["CODES", "FINISHED_GAME_CODES", "problems_of", "repair", "validate"]
