"""The judge of tafl setups (``RuleFamily.TAFL``: Tablut): every problem at once.

Read from the registry entry, never from the variant's name:

- royal pieces (``Variant.royal``, the king) belong to the side whose ``Army.royal_count``
  is not zero (Black in Tablut): a king of the other side is ``king-wrong-side``; more
  kings on the board than the armies' ``royal_count`` together is ``too-many-kings``; no
  king at all is ``king-captured``, a finished game (a warning: ``FINISHED_GAME_CODES``);
- each side has at most ``Army.max_by_kind`` pieces of each kind (16 attackers, 8
  defenders): ``too-many-pieces``;
- only a royal piece may stand on ``Variant.special_squares`` (the throne and the corners):
  anything else there is ``restricted-square``; the king on a special square in a corner
  of the board has escaped, a finished game, ``king-escaped`` (a warning);
- a variant without castling has no castling rights (``bad-castling-rights``) and none
  has an en passant square (``invalid-ep-square``).

Not checked: whether the position can be reached from the start (a taflman standing
between two enemies is legal: only the side that moves captures), whose turn it is,
move counters. Raises nothing on any Setup. ``repair`` drops castling rights and en
passant squares, which no tafl game has.
"""

from __future__ import annotations

from notation.errors import Problem
from notation.setup import Setup
from notation.variants import Variant

_SIDES = ("White", "Black")


def find_problems(setup: Setup, variant: Variant) -> list[Problem]:
    """Every problem of ``setup`` under the tafl ``variant``'s rules (a setup of another
    board size is ``wrong-board-size`` and nothing else, as for chess)."""
    if setup.geometry != variant.geometry:
        return [Problem(
            "wrong-board-size",
            f"the setup's board is {setup.geometry}; {variant.name} is played on {variant.geometry}",
            field="placement",
        )]
    return [
        *_king_problems(setup, variant),
        *_piece_count_problems(setup, variant),
        *_special_square_problems(setup, variant),
        *_castling_and_en_passant_problems(setup, variant),
    ]


def _king_problems(setup: Setup, variant: Variant) -> list[Problem]:
    """Kings of the side without royal pieces, and too many kings or none."""
    names = setup.geometry.square_names
    problems: list[Problem] = []
    cells = setup.cells
    royal = variant.royal
    kings = [sq for sq, cell in enumerate(cells) if cell != "." and cell.lower() in royal]
    allowed_kings = sum(army.royal_count for army in variant.armies)
    for colour, army in enumerate(variant.armies):
        if army.royal_count:
            continue
        for sq in kings:
            if _colour(cells[sq]) == colour:
                problems.append(Problem(
                    "king-wrong-side",
                    f"{_SIDES[colour].lower()} king on {names[sq]}: in {variant.name} the king is "
                    f"{_owner_of_king(variant)}'s",
                    field="placement",
                    extra={"square": names[sq]},
                ))
    if not kings and allowed_kings:
        problems.append(Problem(
            "king-captured",
            f"no king on the board: it was captured and {variant.name} is over",
            field="placement",
        ))
    elif len(kings) > allowed_kings:
        where = ", ".join(names[sq] for sq in kings)
        problems.append(Problem(
            "too-many-kings",
            f"{len(kings)} kings ({where}); {variant.name} has {allowed_kings}",
            field="placement",
        ))
    return problems


def _piece_count_problems(setup: Setup, variant: Variant) -> list[Problem]:
    """More pieces of a kind (the king aside) than a side's army has."""
    problems: list[Problem] = []
    for colour, army in enumerate(variant.armies):
        for letter, cap in army.max_by_kind:
            if letter in variant.royal:
                continue
            piece = letter.upper() if colour == 0 else letter
            count = setup.cells.count(piece)
            if count > cap:
                problems.append(Problem(
                    "too-many-pieces",
                    f"{_SIDES[colour]} has {count} {_plural(variant.piece_kind(letter).name)}; at most {cap}",
                    field="placement",
                    extra={"side": _SIDES[colour].lower(), "piece": piece},
                ))
    return problems


def _special_square_problems(setup: Setup, variant: Variant) -> list[Problem]:
    """Pieces other than the king on the throne or a corner; the king escaped to a corner."""
    problems: list[Problem] = []
    cells = setup.cells
    corners = _corners(setup)
    for name in variant.special_squares:
        special = setup.geometry.square_index.get(name)
        if special is None or cells[special] == ".":
            continue
        piece = cells[special]
        if piece.lower() not in variant.royal:
            what = "corner" if special in corners else "throne"
            problems.append(Problem(
                "restricted-square",
                f"{_SIDES[_colour(piece)].lower()} {variant.piece_kind(piece).name} on {name}: "
                f"only the king may stand on the {what}",
                field="placement",
                extra={"square": name},
            ))
        elif special in corners:
            problems.append(Problem(
                "king-escaped",
                f"king on the corner {name}: it escaped and {variant.name} is over",
                field="placement",
                extra={"square": name},
            ))
    return problems


def _castling_and_en_passant_problems(setup: Setup, variant: Variant) -> list[Problem]:
    """Castling rights and an en passant square, which no tafl game has."""
    names = setup.geometry.square_names
    problems: list[Problem] = []
    for sq in sorted(setup.castling):
        problems.append(Problem(
            "bad-castling-rights",
            f"castling right on {names[sq]}: {variant.name} has no castling",
            field="castling",
            extra={"square": names[sq]},
        ))
    if setup.ep_square is not None:
        problems.append(Problem(
            "invalid-ep-square",
            f"en passant square {names[setup.ep_square]}: {variant.name} has no en passant",
            field="en-passant",
            extra={"square": names[setup.ep_square]},
        ))
    return problems


def repair(setup: Setup, variant: Variant) -> tuple[Setup, list[Problem]]:
    """``setup`` without castling rights or en passant square (a tafl game has neither),
    and one warning per drop (``repaired-castling``, ``repaired-en-passant``), as
    ``notation.validation.repair`` reports them for chess. Raises nothing."""
    if setup.geometry != variant.geometry:
        return setup, []  # validate reports wrong-board-size
    names = setup.geometry.square_names
    warnings = [
        Problem(
            "repaired-castling",
            f"dropped the castling right on {names[sq]}: {variant.name} has no castling",
            field="castling",
            extra={"square": names[sq]},
        )
        for sq in sorted(setup.castling)
    ]
    if setup.ep_square is not None:
        warnings.append(Problem(
            "repaired-en-passant",
            f"dropped the en passant square {names[setup.ep_square]}: {variant.name} has no en passant",
            field="en-passant",
            extra={"square": names[setup.ep_square]},
        ))
    if not warnings:
        return setup, []
    return setup.with_changes(castling=frozenset(), ep_square=None), warnings


def _plural(name: str) -> str:
    return name[:-3] + "men" if name.endswith("man") else name + "s"


def _colour(piece: str) -> int:
    return 0 if piece.isupper() else 1


def _owner_of_king(variant: Variant) -> str:
    owners = [_SIDES[colour] for colour, army in enumerate(variant.armies) if army.royal_count]
    return " and ".join(owners) or "nobody"


def _corners(setup: Setup) -> frozenset[int]:
    geometry = setup.geometry
    last_file, last_rank = geometry.files - 1, geometry.ranks - 1
    return frozenset(geometry.square(f, r) for f in (0, last_file) for r in (0, last_rank))
