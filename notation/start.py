"""Start positions: a variant's own start, or one of the 960 Chess960 arrays in any variant
that castles.

``chess960_array(n)`` is the back rank of Chess960 start position ``n`` (0..959) in
Scharnagl's numbering, the one the standard tables and python-chess's
``Board.from_chess960_pos`` use: 518 is the classical ``RNBQKBNR``. ``start_setup(variant,
chess960_number=...)`` puts that array on every back rank of the variant's start array
that has the classical shape (castling rook in both corners, castling piece on the e-file,
matching pairs on b/g and c/f), mapping each role to the variant's own letter (Knightmate's
manns stand where knights would), and gives the sides that could castle at the start the
rights of their two rooks. Everything else in the start FEN (pockets, check counters,
Horde's pawns) is kept.

Variants whose start is drawn (``Variant.start_draw``) have their own numbered arrays,
one table entry per kind of draw (``DRAWS``): ``drawn_start(variant, number=...)`` or
``seed=...`` (uniform: a seed draws a number uniformly, and numbers and arrays are in one
to one correspondence). King's Corner arrays (``corner_array(n)``, 0..359): the king on
h1, the other seven pieces on a1..g1 with one bishop on a light and one on a dark square,
and Black's back rank the same pieces in the same left-to-right order seen from Black's
side (a8 holds Black's king); everything else in the start FEN (King's Fortress's extra
pawns) is kept.

Raises ``ValueError`` for a number outside 0..959 and ``NoChess960Error`` for a variant
without Chess960 arrays (one that does not castle, or whose start array has no classical
back rank); ``drawn_start`` raises ``ValueError`` for a number outside its draw's range and
``NoDrawError`` for a variant whose start is fixed. Nothing here validates: the arrays are
legal by construction.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

from notation.errors import NotationError, Problem
from notation.fen.reader import read_fen
from notation.setup import Setup
from notation.variants import DEFAULT_REGISTRY, Registry, StartDraw, Variant

CHESS960_COUNT = 960
CLASSICAL_NUMBER = 518

# Scharnagl's knight table: the two knights' places among the five squares left after the
# bishops and the queen, for the number's last digit 0..9.
_KNIGHT_PLACES = ((0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4))
_CLASSICAL_ROLES = "RNBQKBNR"


class NoChess960Error(NotationError):
    """The variant has no Chess960 start arrays (code ``no-chess960``)."""

    def __init__(self, variant: Variant, why: str):
        super().__init__([Problem("no-chess960", f"{variant.name} has no Chess960 start positions: {why}")])


def chess960_array(number: int) -> str:
    """The back rank (files a..h, roles ``RNBQK``) of Chess960 start position ``number``.

    Raises ``ValueError`` unless ``0 <= number <= 959``.
    """
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < CHESS960_COUNT:
        raise ValueError(f"Chess960 start positions are numbered 0 to 959, not {number!r}")
    rank: list[str | None] = [None] * 8
    n, light = divmod(number, 4)
    rank[2 * light + 1] = "B"  # b, d, f or h: a light square
    n, dark = divmod(n, 4)
    rank[2 * dark] = "B"  # a, c, e or g: a dark square
    n, queen = divmod(n, 6)
    _place(rank, queen, "Q")
    first, second = _KNIGHT_PLACES[n]
    _place(rank, second, "N")  # the later one first, so the earlier index still holds
    _place(rank, first, "N")
    for role in "RKR":
        _place(rank, 0, role)
    return "".join(rank)  # type: ignore[arg-type]


def _place(rank: list[str | None], index: int, role: str) -> None:
    """Put ``role`` on the ``index``-th (0-based) empty square of ``rank``."""
    empty = [file for file, held in enumerate(rank) if held is None]
    rank[empty[index]] = role


def random_chess960_number(rng: random.Random | None = None) -> int:
    """A start position number drawn uniformly from 0..959 (``rng`` for reproducibility)."""
    return (rng or random.Random()).randrange(CHESS960_COUNT)


def has_chess960(variant: Variant) -> bool:
    """Whether ``start_setup`` can give ``variant`` Chess960 arrays."""
    return _chess960_support(variant) is None


def _chess960_support(variant: Variant) -> str | None:
    """None when the variant has Chess960 arrays, else why not."""
    if not variant.castling or not variant.castling_piece:
        return "it does not castle"
    if variant.geometry.files != len(_CLASSICAL_ROLES):
        return f"its board has {variant.geometry.files} files; the arrays fill eight"
    if not any(_roles(variant, colour) for colour in (0, 1)):
        return "its start array has no back rank of the classical shape"
    return None


def _back_rank(variant: Variant, colour: int) -> str:
    """The variant's start back rank of ``colour`` (0 white, 1 black) one letter per file, "." empty."""
    cells = read_fen(variant.start_fen, variant).setup.cells
    files = variant.geometry.files
    back = 0 if colour == 0 else len(cells) - files
    return cells[back : back + files]


def _roles(variant: Variant, colour: int) -> dict[str, str] | None:
    """Role (``RNBQK``) -> the variant's letter on that colour's back rank, when the rank has
    the classical shape; None otherwise."""
    rank = _back_rank(variant, colour)
    rook, piece = variant.castling_rook, variant.castling_piece
    if colour == 0:
        rook, piece = rook.upper(), piece.upper()
    if rank[0] != rook or rank[7] != rook or rank[4] != piece:
        return None
    if rank[1] != rank[6] or rank[2] != rank[5] or "." in rank:
        return None
    if len({rank[0], rank[1], rank[2], rank[3], rank[4]}) != 5:
        return None
    return dict(zip(_CLASSICAL_ROLES, rank, strict=True))


def start_setup(
    variant: Variant | str, chess960_number: int | None = None, *, registry: Registry = DEFAULT_REGISTRY
) -> Setup:
    """The start setup of ``variant``; with ``chess960_number``, Chess960 array that number.

    Without a number this is ``Variant.start_fen`` as read (for ``random_start`` variants
    that is their one example array). Raises ``ValueError`` (number out of range),
    ``NoChess960Error`` and ``UnknownVariantError``.
    """
    found = registry.find(variant)
    setup = read_fen(found.start_fen, found).setup
    if chess960_number is None:
        return setup
    array = chess960_array(chess960_number)
    why = _chess960_support(found)
    if why is not None:
        raise NoChess960Error(found, why)
    cells = list(setup.cells)
    castling: set[int] = set()
    files = found.geometry.files  # eight: _chess960_support said so
    for colour, back in ((0, 0), (1, len(cells) - files)):
        roles = _roles(found, colour)
        if roles is None:
            continue
        for file, role in enumerate(array):
            cells[back + file] = roles[role]
        if any(back <= sq < back + files for sq in setup.castling):
            castling.update(back + file for file, role in enumerate(array) if role == "R")
    return setup.with_changes(cells="".join(cells), castling=frozenset(castling))


# -- King's Corner arrays ------------------------------------------------------------------

CORNER_COUNT = 360  # 3 light-square bishops x 4 dark-square x 5 queen squares x 6 knight pairs
_LIGHT_FILES = (1, 3, 5)  # b1, d1, f1
_DARK_FILES = (0, 2, 4, 6)  # a1, c1, e1, g1 (h1 holds the king)
# The knights' places among the four squares left after the bishops and the queen.
_KNIGHT_PAIRS_OF_FOUR = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))


def corner_array(number: int) -> str:
    """White's back rank (files a..h, roles ``RNBQK``) of King's Corner array ``number``.

    Digits, least significant first: the light-square bishop (b, d, f), the dark-square
    bishop (a, c, e, g), the queen among the five squares left, the knights' pair among the
    four left; the rooks take the last two squares and the king h1. Raises ``ValueError``
    unless ``0 <= number < CORNER_COUNT``.
    """
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < CORNER_COUNT:
        raise ValueError(f"King's Corner start arrays are numbered 0 to {CORNER_COUNT - 1}, not {number!r}")
    rank: list[str | None] = [None] * 7 + ["K"]
    n, light = divmod(number, 3)
    rank[_LIGHT_FILES[light]] = "B"
    n, dark = divmod(n, 4)
    rank[_DARK_FILES[dark]] = "B"
    n, queen = divmod(n, 5)
    _place(rank, queen, "Q")
    first, second = _KNIGHT_PAIRS_OF_FOUR[n]
    _place(rank, second, "N")
    _place(rank, first, "N")
    _place(rank, 0, "R")
    _place(rank, 0, "R")
    return "".join(rank)  # type: ignore[arg-type]


def _corner_setup(variant: Variant, setup: Setup, number: int) -> Setup:
    """``setup`` with White's back rank array ``number`` and Black's the same from its side."""
    array = corner_array(number)
    cells = list(setup.cells)
    for file, role in enumerate(array):
        cells[file] = role
        cells[63 - file] = role.lower()  # a1..h1 seen from Black's side is h8..a8
    return setup.with_changes(cells="".join(cells))


def _chess960_setup(variant: Variant, setup: Setup, number: int) -> Setup:
    return start_setup(variant, number)


@dataclass(frozen=True)
class Draw:
    """One kind of drawn start: how many arrays it has and the start setup of array ``n``
    (given the variant and its ``start_fen`` setup)."""

    name: str
    count: int
    build: Callable[[Variant, Setup, int], Setup]


# One entry per kind of drawn start (``Variant.start_draw``).
DRAWS: Mapping[StartDraw, Draw] = {
    StartDraw.CHESS960: Draw("chess960", CHESS960_COUNT, _chess960_setup),
    StartDraw.CORNER: Draw("corner", CORNER_COUNT, _corner_setup),
}


class NoDrawError(NotationError):
    """The variant's start is fixed: it has no drawn arrays (code ``no-drawn-start``)."""

    def __init__(self, variant: Variant):
        super().__init__([Problem("no-drawn-start", f"{variant.name} has one fixed start position")])


def draw_of(variant: Variant) -> Draw | None:
    """The draw of ``variant``'s start, or None for a fixed start."""
    return DRAWS.get(variant.start_draw)


def draw_number(draw: Draw, seed: int | None = None) -> int:
    """A number of ``draw`` drawn uniformly (``seed`` repeats a draw)."""
    return random.Random(seed).randrange(draw.count)


def drawn_start(
    variant: Variant | str, *, number: int | None = None, seed: int | None = None, registry: Registry = DEFAULT_REGISTRY
) -> tuple[Setup, int]:
    """The start setup of ``variant``'s array ``number`` (or one drawn with ``seed``), and its number.

    Raises ``NoDrawError`` for a fixed start, ``ValueError`` for a number outside the
    draw's range or both a number and a seed, ``UnknownVariantError``.
    """
    found = registry.find(variant)
    draw = draw_of(found)
    if draw is None:
        raise NoDrawError(found)
    if number is not None and seed is not None:
        raise ValueError("give a number or a seed, not both")
    if number is None:
        number = draw_number(draw, seed)
    elif isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < draw.count:
        raise ValueError(f"{found.name} start positions are numbered 0 to {draw.count - 1}, not {number!r}")
    setup = read_fen(found.start_fen, found).setup
    return draw.build(found, setup, number), number


ArrayChoice = Literal["own", "chess960"]


class StartUsageError(NotationError):
    """A start request that asks for something contradictory (code ``bad-start-request``)."""

    def __init__(self, message: str):
        super().__init__([Problem("bad-start-request", message)])


@dataclass(frozen=True)
class StartPosition:
    """A start setup and how it was chosen: ``draw`` names the kind of array (``fixed``,
    ``chess960``, ``corner``), ``number`` the array's number within it (None when fixed)."""

    setup: Setup
    variant: Variant
    draw: str
    number: int | None

    @property
    def chess960(self) -> bool:
        """Whether this is a Chess960 array (written in the profile's Chess960 castling style)."""
        return self.draw == "chess960"

    @property
    def chess960_number(self) -> int | None:
        return self.number if self.chess960 else None


def start_position(
    variant: Variant | str,
    *,
    number: int | None = None,
    seed: int | None = None,
    array: ArrayChoice = "own",
    registry: Registry = DEFAULT_REGISTRY,
) -> StartPosition:
    """The start of ``variant`` as ``notation start`` and ``GET /v1/start`` give it.

    A variant with a drawn start (``Variant.start_draw``) gets its own array ``number``, or
    one drawn with ``seed`` (or at random). ``array="chess960"`` asks for a Chess960 array
    of a variant that castles, as does a ``number`` for a variant with a fixed start.
    Otherwise the fixed start. Raises ``StartUsageError`` (number and seed together, a seed
    for a fixed start), ``ValueError`` (number out of range), ``NoChess960Error``,
    ``UnknownVariantError``.
    """
    found = registry.find(variant)
    if number is not None and seed is not None:
        raise StartUsageError("a seed draws a random position; it cannot be combined with a number")
    own = draw_of(found)
    if own is not None and array == "own":
        setup, drawn = drawn_start(found, number=number, seed=seed, registry=registry)
        return StartPosition(setup, found, own.name, drawn)
    if array == "chess960" or number is not None:
        if number is None:
            number = random_chess960_number(random.Random(seed))
        return StartPosition(start_setup(found, number, registry=registry), found, "chess960", number)
    if seed is not None:
        raise StartUsageError(f"{found.name} has one fixed start; a seed only applies to a Chess960 start")
    return StartPosition(start_setup(found, registry=registry), found, "fixed", None)
