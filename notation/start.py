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

Raises ``ValueError`` for a number outside 0..959 and ``NoChess960Error`` for a variant
without Chess960 arrays (one that does not castle, or whose start array has no classical
back rank). Nothing here validates: the arrays are legal by construction.
"""

from __future__ import annotations

import random

from notation.errors import NotationError, Problem
from notation.fen.reader import read_fen
from notation.setup import Setup
from notation.variants import DEFAULT_REGISTRY, Registry, Variant

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
