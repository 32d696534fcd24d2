"""Check in Xiangqi: ``flying-general``, ``opposite-check``, ``impossible-check``.

- ``flying-general``: the two generals face each other on a file with nothing between.
- ``opposite-check``: the side not to move has a general attacked (horse legs can be
  blocked, cannons need exactly one screen: ``notation.rules.xiangqi_moves``).
- ``impossible-check``: the side to move is in a check no single move could have given.
  The test goes back one move: some piece of the side that just moved is put back on an
  empty point from which it could have come (a quiet move onto an empty point, or a
  capture of a piece of the side to move, which then stood where the piece now stands)
  such that, before that move, the side to move's general was not attacked and the
  generals did not face each other. This covers discovered checks (a line opened, a
  cannon's screen moved in or out) and double checks. What was captured is not checked
  against piece counts or placement, so a check a capture alone could explain passes.

Check is judged against every general of a side (a side with two is also
``too-many-kings``). Nothing raises.
"""

from __future__ import annotations

from notation.errors import Problem
from notation.geometry import Geometry
from notation.rules.xiangqi_moves import attackers, generals, generals_facing, is_red, targets
from notation.setup import WHITE, Setup
from notation.validation.xiangqi_placement import describe, side_name
from notation.variants import Movement, Variant


def find_problems(setup: Setup, variant: Variant) -> list[Problem]:
    problems: list[Problem] = []
    cells, geometry = setup.cells, setup.geometry
    red_generals, black_generals = generals(cells, variant, True), generals(cells, variant, False)
    if len(red_generals) == 1 and len(black_generals) == 1 and generals_facing(
        cells, geometry, red_generals[0], black_generals[0]
    ):
        problems.append(
            Problem(
                "flying-general",
                f"the generals on {geometry.square_name(red_generals[0])} and "
                f"{geometry.square_name(black_generals[0])} face each other with nothing between",
                field="placement",
            )
        )
    red_to_move = setup.turn == WHITE
    mover_generals = red_generals if red_to_move else black_generals
    waiting_generals = black_generals if red_to_move else red_generals
    for general in waiting_generals:
        by = attackers(cells, geometry, variant, general, red_to_move)
        if by:
            problems.append(
                Problem(
                    "opposite-check",
                    f"{_attacked(setup, variant, general, by)} with {side_name(red_to_move)} to move",
                    field="turn",
                )
            )
    checked = [(g, attackers(cells, geometry, variant, g, not red_to_move)) for g in mover_generals]
    checked = [(g, by) for g, by in checked if by]
    if checked and not _some_move_gave_it(setup, variant, [g for g, _ in checked]):
        general, by = checked[0]
        problems.append(
            Problem(
                "impossible-check",
                f"{_attacked(setup, variant, general, by)}: no single move of "
                f"{side_name(not red_to_move)} could have given this check",
                field="placement",
            )
        )
    return problems


def _attacked(setup: Setup, variant: Variant, general: int, by: list[int]) -> str:
    names = ", ".join(describe(setup, variant, sq) for sq in by)
    return f"{describe(setup, variant, general)} attacked by {names}"


def _captured_letter(variant: Variant, red: bool) -> str:
    """A piece of the side to move that may stand anywhere (a chariot), for a captured one."""
    letter = next(
        (kind.letter for kind in variant.pieces if kind.movement is Movement.ROOK),
        variant.pieces[0].letter,
    )
    return letter.upper() if red else letter


def _some_move_gave_it(setup: Setup, variant: Variant, checked_generals: list[int]) -> bool:
    """Whether one move of the side that just moved leads from a position without this
    check (and without facing generals) to this one."""
    cells, geometry = setup.cells, setup.geometry
    mover_red = setup.turn != WHITE
    captured = _captured_letter(variant, not mover_red)
    empties = [sq for sq, letter in enumerate(cells) if letter == "."]
    for to, letter in enumerate(cells):
        if letter == "." or is_red(letter) != mover_red:
            continue
        sliding = variant.piece_kind(letter).movement in (Movement.ROOK, Movement.CANNON)
        for origin in empties:
            if not _near_enough(geometry, origin, to, sliding):
                continue
            for victim in (".", captured):
                before = _with(_with(cells, origin, letter), to, victim)
                if to not in targets(before, geometry, variant, origin, capture=victim != "."):
                    continue
                if _quiet_before(before, setup, variant, checked_generals, mover_red):
                    return True
    return False


def _near_enough(geometry: Geometry, origin: int, to: int, sliding: bool) -> bool:
    """A cheap filter before the exact test: sliding pieces move along a file or a rank,
    every other Xiangqi piece at most two points in each direction."""
    files = abs(geometry.file_of(origin) - geometry.file_of(to))
    ranks = abs(geometry.rank_of(origin) - geometry.rank_of(to))
    if sliding:
        return files == 0 or ranks == 0
    return files <= 2 and ranks <= 2


def _quiet_before(before: str, setup: Setup, variant: Variant, checked: list[int], mover_red: bool) -> bool:
    geometry = setup.geometry
    if any(attackers(before, geometry, variant, g, mover_red) for g in checked):
        return False
    reds, blacks = generals(before, variant, True), generals(before, variant, False)
    return not (len(reds) == 1 and len(blacks) == 1 and generals_facing(before, geometry, reds[0], blacks[0]))


def _with(cells: str, sq: int, letter: str) -> str:
    return cells[:sq] + letter + cells[sq + 1:]
