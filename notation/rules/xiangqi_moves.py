"""Xiangqi's moves and attacks on a board of cells (``Setup.cells``), as the pieces' ``Movement`` says.

Squares are numbered as ``notation.geometry`` numbers them (``rank * files + file``, a1 = 0);
the side written in upper case (red) starts on the first ranks and moves up the board.
The palaces are files d-f of the three ranks at each end; the river lies between the
middle two ranks. Horses are blocked by a piece on their leg (the point next to them in
the direction of the move), elephants by a piece on their eye (the point between), and
never cross the river; cannons capture by jumping exactly one piece (their screen).
The flying-general rule (generals facing on an open file) is not an attack here:
``generals_facing`` answers it. Nothing here raises on any board: squares off the board
are skipped, a piece that stands where its movement cannot start (an advisor outside its
palace) attacks nothing.
"""

from __future__ import annotations

from collections.abc import Iterator

from notation.geometry import Geometry
from notation.variants import Movement, Variant

_ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
_DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def is_red(letter: str) -> bool:
    """Whether a piece letter belongs to red (upper case, the side written ``w``)."""
    return letter.isupper()


def palace_files(geometry: Geometry) -> range:
    """The palace's files (d-f on nine files: the three in the middle)."""
    middle = geometry.files // 2
    return range(middle - 1, middle + 2)


def in_palace(geometry: Geometry, file: int, rank: int, red: bool) -> bool:
    """Whether (``file``, ``rank``) lies in red's (ranks 1-3) or black's (last three) palace."""
    ranks = range(0, 3) if red else range(geometry.ranks - 3, geometry.ranks)
    return file in palace_files(geometry) and rank in ranks


def own_side(geometry: Geometry, rank: int, red: bool) -> bool:
    """Whether ``rank`` (0-based) is on the side's own half of the river."""
    half = geometry.ranks // 2
    return rank < half if red else rank >= half


def _step(geometry: Geometry, sq: int, df: int, dr: int) -> int | None:
    file, rank = geometry.file_of(sq) + df, geometry.rank_of(sq) + dr
    return geometry.square(file, rank) if geometry.on_board(file, rank) else None


def _line(geometry: Geometry, sq: int, df: int, dr: int) -> Iterator[int]:
    file, rank = geometry.file_of(sq) + df, geometry.rank_of(sq) + dr
    while geometry.on_board(file, rank):
        yield geometry.square(file, rank)
        file += df
        rank += dr


def targets(cells: str, geometry: Geometry, variant: Variant, sq: int, *, capture: bool) -> list[int]:
    """The points the piece on ``sq`` could move to: captures (``capture``: the points it
    attacks, whatever stands there) or quiet moves (the points it could reach when empty).

    For every piece but the cannon the two are the same points; a cannon slides to quiet
    points and jumps one screen to capture. Own pieces are not excluded (callers look at
    what stands on a target). An empty ``sq`` or a letter of no piece has no targets.
    """
    letter = cells[sq]
    if letter == ".":
        return []
    try:
        movement = variant.piece_kind(letter).movement
    except KeyError:
        return []
    red = is_red(letter)
    if movement is Movement.ROOK:
        return _rook_targets(cells, geometry, sq)
    if movement is Movement.CANNON:
        return _cannon_targets(cells, geometry, sq, capture)
    if movement is Movement.HORSE:
        return _horse_targets(cells, geometry, sq)
    if movement is Movement.ELEPHANT:
        return _elephant_targets(cells, geometry, sq, red)
    if movement in (Movement.ADVISOR, Movement.GENERAL):
        return _palace_targets(geometry, sq, red, _DIAGONAL if movement is Movement.ADVISOR else _ORTHOGONAL)
    if movement is Movement.SOLDIER:
        return _soldier_targets(geometry, sq, red)
    return []


def _rook_targets(cells: str, geometry: Geometry, sq: int) -> list[int]:
    """Along each line up to and including the first piece."""
    out: list[int] = []
    for df, dr in _ORTHOGONAL:
        for to in _line(geometry, sq, df, dr):
            out.append(to)
            if cells[to] != ".":
                break
    return out


def _cannon_targets(cells: str, geometry: Geometry, sq: int, capture: bool) -> list[int]:
    """Quiet: along each line up to the first piece. Capture: the first piece beyond the
    first one (the screen)."""
    out: list[int] = []
    for df, dr in _ORTHOGONAL:
        screened = False
        for to in _line(geometry, sq, df, dr):
            if not screened:
                if cells[to] == ".":
                    if not capture:
                        out.append(to)
                else:
                    screened = True
            elif cells[to] != ".":
                if capture:
                    out.append(to)
                break
    return out


def _horse_targets(cells: str, geometry: Geometry, sq: int) -> list[int]:
    """One step straight, then one diagonally outwards, unless the leg point is occupied."""
    out: list[int] = []
    for df, dr in _ORTHOGONAL:
        leg = _step(geometry, sq, df, dr)
        if leg is None or cells[leg] != ".":
            continue
        for side in (-1, 1):
            jump = _step(geometry, sq, 2 * df + side * dr, 2 * dr + side * df)
            if jump is not None:
                out.append(jump)
    return out


def _elephant_targets(cells: str, geometry: Geometry, sq: int, red: bool) -> list[int]:
    """Two points diagonally on its own side of the river, unless the eye is occupied."""
    out: list[int] = []
    if not own_side(geometry, geometry.rank_of(sq), red):
        return out
    for df, dr in _DIAGONAL:
        eye = _step(geometry, sq, df, dr)
        landing = _step(geometry, sq, 2 * df, 2 * dr)
        if eye is None or landing is None or cells[eye] != ".":
            continue
        if own_side(geometry, geometry.rank_of(landing), red):
            out.append(landing)
    return out


def _palace_targets(geometry: Geometry, sq: int, red: bool, steps: tuple[tuple[int, int], ...]) -> list[int]:
    """One of ``steps`` (the advisor's diagonal ones, the general's straight ones) within
    the palace; none from outside it."""
    out: list[int] = []
    if not in_palace(geometry, geometry.file_of(sq), geometry.rank_of(sq), red):
        return out
    for df, dr in steps:
        near = _step(geometry, sq, df, dr)
        if near is not None and in_palace(geometry, geometry.file_of(near), geometry.rank_of(near), red):
            out.append(near)
    return out


def _soldier_targets(geometry: Geometry, sq: int, red: bool) -> list[int]:
    """One point forward; across the river, one sideways too."""
    out: list[int] = []
    ahead = _step(geometry, sq, 0, 1 if red else -1)
    if ahead is not None:
        out.append(ahead)
    if not own_side(geometry, geometry.rank_of(sq), red):
        for df in (-1, 1):
            beside = _step(geometry, sq, df, 0)
            if beside is not None:
                out.append(beside)
    return out


def attackers(cells: str, geometry: Geometry, variant: Variant, target: int, red: bool) -> list[int]:
    """Squares of ``red``'s (or black's) pieces that attack ``target``, in square order.

    Looks outwards from ``target`` (lines for chariots and cannons, the points a horse,
    elephant, advisor, general or soldier could strike from) and confirms each candidate
    with ``targets``, so the answer is exactly the pieces whose ``targets`` hold ``target``.
    """
    found: set[int] = set()
    for df, dr in _ORTHOGONAL:
        seen = 0
        for sq in _line(geometry, target, df, dr):
            if cells[sq] != ".":
                seen += 1
                if seen == 2:
                    _confirm(cells, geometry, variant, sq, target, red, found)
                    break
                _confirm(cells, geometry, variant, sq, target, red, found)
    for df in range(-2, 3):
        for dr in range(-2, 3):
            near = _step(geometry, target, df, dr)
            if near is not None and near != target and cells[near] != ".":
                _confirm(cells, geometry, variant, near, target, red, found)
    return sorted(found)


def _confirm(cells: str, geometry: Geometry, variant: Variant, sq: int, target: int, red: bool,
             found: set[int]) -> None:
    letter = cells[sq]
    if is_red(letter) == red and sq not in found and target in targets(cells, geometry, variant, sq, capture=True):
        found.add(sq)


def generals(cells: str, variant: Variant, red: bool) -> list[int]:
    """Squares of the side's royal pieces (its generals)."""
    royal = {letter.upper() if red else letter for letter in variant.royal}
    return [sq for sq, letter in enumerate(cells) if letter in royal]


def generals_facing(cells: str, geometry: Geometry, red_general: int, black_general: int) -> bool:
    """Whether the two generals stand on one file with nothing between them."""
    if geometry.file_of(red_general) != geometry.file_of(black_general):
        return False
    low, high = sorted((red_general, black_general))
    return all(cells[sq] == "." for sq in range(low + geometry.files, high, geometry.files))
