"""Where Xiangqi's pieces may stand, and how many: one validator per rule, every problem.

- ``missing-king`` / ``too-many-kings``: each side has exactly one general.
- ``misplaced-general``: a general outside its palace (files d-f, ranks 1-3 for red,
  8-10 for black).
- ``misplaced-advisor``: an advisor off the five diagonal points of its palace (d1 f1 e2
  d3 f3 for red; d10 f10 e9 d8 f8 for black).
- ``misplaced-elephant``: an elephant off its seven points on its own side of the river
  (c1 g1 a3 e3 i3 c5 g5 for red; c10 g10 a8 e8 i8 c6 g6 for black).
- ``misplaced-soldier``: a soldier behind its starting rank (red below rank 4, black above
  rank 7), or on its own side of the river on a file other than a, c, e, g, i.
- ``too-many-pieces``: more than ``Army.max_by_kind`` allows of one kind (two chariots,
  horses, elephants, advisors, cannons); ``too-many-pawns``: more than ``max_pawns``
  soldiers (five).
- ``bad-castling-rights`` / ``invalid-ep-square``: Xiangqi has neither.

Squares are named by the board's geometry. Nothing raises; check is
``notation.validation.xiangqi_checks``'s.
"""

from __future__ import annotations

from collections import Counter

from notation.errors import Problem
from notation.rules.xiangqi_moves import in_palace, is_red, own_side
from notation.setup import Setup
from notation.variants import Movement, Variant

_SIDES = ("red", "black")


def side_name(red: bool) -> str:
    return _SIDES[0] if red else _SIDES[1]


def describe(setup: Setup, variant: Variant, sq: int) -> str:
    """``red horse on b1``."""
    letter = setup.cells[sq]
    try:
        name = variant.piece_kind(letter).name
    except KeyError:
        name = repr(letter)
    return f"{side_name(is_red(letter))} {name} on {setup.geometry.square_name(sq)}"


def _movement(variant: Variant, letter: str) -> Movement | None:
    try:
        return variant.piece_kind(letter).movement
    except KeyError:
        return None


def _advisor_point(setup: Setup, file: int, rank: int, red: bool) -> bool:
    geometry = setup.geometry
    if not in_palace(geometry, file, rank, red):
        return False
    centre_file = geometry.files // 2
    centre_rank = 1 if red else geometry.ranks - 2
    return (file - centre_file + rank - centre_rank) % 2 == 0  # corners and the centre


def _elephant_point(setup: Setup, file: int, rank: int, red: bool) -> bool:
    geometry = setup.geometry
    if not own_side(geometry, rank, red):
        return False
    own_rank = rank if red else geometry.ranks - 1 - rank
    # Points two diagonal steps apart from c1 and g1: even ranks (0, 2, 4 from the back)
    # with files c, g on ranks 0 and 4, and a, e, i on rank 2.
    if own_rank in (0, 4):
        return file in (2, 6)
    if own_rank == 2:
        return file in (0, 4, 8)
    return False


def _soldier_problem(setup: Setup, file: int, rank: int, red: bool) -> str | None:
    geometry = setup.geometry
    own_rank = rank if red else geometry.ranks - 1 - rank
    if own_rank < 3:
        return "behind its starting rank"
    if own_side(geometry, rank, red) and file % 2 == 1:
        return "on its own side of the river off files a, c, e, g and i"
    return None


def find_problems(setup: Setup, variant: Variant) -> list[Problem]:
    """Every placement, count and field problem of a Xiangqi setup."""
    problems: list[Problem] = []
    geometry = setup.geometry
    royal_name = variant.piece_kind(variant.royal[0]).name if variant.royal else "general"
    for sq, letter in enumerate(setup.cells):
        if letter == ".":
            continue
        red = is_red(letter)
        file, rank = geometry.file_of(sq), geometry.rank_of(sq)
        movement = _movement(variant, letter)
        reason = None
        if movement is Movement.GENERAL and not in_palace(geometry, file, rank, red):
            ranks = "1-3" if red else f"{geometry.ranks - 2}-{geometry.ranks}"
            reason = f"outside its palace (files d-f, ranks {ranks})"
        elif movement is Movement.ADVISOR and not _advisor_point(setup, file, rank, red):
            reason = "off the five diagonal points of its palace"
        elif movement is Movement.ELEPHANT and not _elephant_point(setup, file, rank, red):
            reason = "off its seven points on its own side of the river"
        elif movement is Movement.SOLDIER:
            reason = _soldier_problem(setup, file, rank, red)
        if reason is not None and movement is not None:
            code = f"misplaced-{movement.value}"
            problems.append(
                Problem(code, f"{describe(setup, variant, sq)} stands {reason}", field="placement",
                        extra={"square": geometry.square_name(sq)})
            )
    problems[:0] = _counts(setup, variant, royal_name)
    if setup.castling:
        names = ", ".join(geometry.square_name(sq) for sq in sorted(setup.castling))
        problems.append(
            Problem("bad-castling-rights", f"{variant.name} has no castling; rights given for {names}",
                    field="castling")
        )
    if setup.ep_square is not None:
        problems.append(
            Problem("invalid-ep-square",
                    f"{variant.name} has no en passant; {geometry.square_name(setup.ep_square)} given",
                    field="en-passant")
        )
    return problems


def _counts(setup: Setup, variant: Variant, royal_name: str) -> list[Problem]:
    problems: list[Problem] = []
    counts = Counter(setup.cells)
    for colour, army in enumerate(variant.armies):
        red = colour == 0
        side = side_name(red)
        generals = sum(counts[letter.upper() if red else letter] for letter in variant.royal)
        if generals < army.royal_count:
            problems.append(Problem("missing-king", f"{side} has no {royal_name}", field="placement"))
        elif generals > army.royal_count:
            problems.append(
                Problem("too-many-kings", f"{side} has {generals} {royal_name}s; a side has exactly {army.royal_count}",
                        field="placement")
            )
        for letter, cap in army.max_by_kind:
            count = counts[letter.upper() if red else letter]
            if count <= cap:
                continue
            name = variant.piece_kind(letter).name
            code = "too-many-pawns" if variant.piece_kind(letter).movement is Movement.SOLDIER else "too-many-pieces"
            problems.append(
                Problem(code, f"{side} has {count} {name}s; at most {cap}", field="placement")
            )
    return problems
