"""Square numbering shared by every module: a1 = 0, b1 = 1, ..., h8 = 63.

Nothing here validates anything; the helpers raise ``ValueError`` only on text that is
not a square name.
"""

from __future__ import annotations

FILE_NAMES = "abcdefgh"
RANK_NAMES = "12345678"
SQUARE_NAMES: tuple[str, ...] = tuple(f + r for r in RANK_NAMES for f in FILE_NAMES)
_SQUARE_INDEX = {name: index for index, name in enumerate(SQUARE_NAMES)}


def square_name(sq: int) -> str:
    return SQUARE_NAMES[sq]


def parse_square(name: str) -> int:
    """Index of a square name like ``e4``; raises ``ValueError`` for anything else."""
    try:
        return _SQUARE_INDEX[name]
    except KeyError:
        raise ValueError(f"not a square: {name!r}") from None
