"""What a picture marks beyond the position: the king in check (found by the rules of
``notation.game``), and the squares of a last move or of arrows read from text.

``checked_squares`` raises nothing: an illegal setup (or one the rules cannot judge) has no
check to mark. ``parse_move_squares`` and ``parse_arrows`` raise ``ValueError`` saying which
text is not a move of the board; they do not check that a move is legal.
"""

from __future__ import annotations

import re

from notation.errors import NotationError
from notation.game import legal_position
from notation.geometry import Geometry
from notation.setup import Setup
from notation.variants import Variant

_SQUARE = r"[a-lA-L](?:1[0-2]|[1-9])"
# A move as two squares (UCI ``e2e4``, ``e7e8q``; ``e2-e4``; ``e2,e4``; Xiangqi ``a10a9``), or
# a drop as its target (``@e4``, ``P@e4``, as UCI writes a drop).
_MOVE = re.compile(rf"^\s*(?:[A-Za-z]?@({_SQUARE})|({_SQUARE})[-x:,]?({_SQUARE})[a-zA-Z]?)\s*$")
_LIST_SEPARATORS = re.compile(r"[\s,;]+")


def checked_squares(setup: Setup, variant: Variant) -> frozenset[int]:
    """The squares of the side to move's royal pieces when it is in check, by the rules of
    ``notation.game``; none when the setup is not legal (nothing is judged there)."""
    if setup.geometry != variant.geometry:
        return frozenset()
    try:
        position = legal_position(setup, variant)
        in_check = position.is_check()
    except (NotationError, ValueError):
        return frozenset()
    if not in_check:
        return frozenset()
    royal = {letter.upper() if setup.turn == "w" else letter.lower() for letter in variant.royal}
    return frozenset(sq for sq, letter in enumerate(setup.cells) if letter in royal)


def parse_move_squares(text: str, geometry: Geometry) -> tuple[int, ...]:
    """The squares of one move written as ``e2e4``, ``e2-e4``, ``e7e8q`` or a drop ``P@e4``:
    (from, to), or (to,) for a drop; () for empty text. Raises ``ValueError``."""
    if not text.strip():
        return ()
    found = _MOVE.match(text)
    if found is None:
        raise ValueError(f"{text.strip()!r} is not a move of two squares (e2e4) or a drop (P@e4)")
    names = [name for name in found.groups() if name]
    return tuple(_square(name, geometry, text) for name in names)


def parse_arrows(text: str, geometry: Geometry) -> tuple[tuple[int, int], ...]:
    """Arrows written as moves (``e2e4,g1f3``), separated by commas or spaces; each has two
    squares. Raises ``ValueError`` naming the first that is not an arrow of the board."""
    arrows = []
    for part in _LIST_SEPARATORS.split(text.strip()):
        if not part:
            continue
        squares = parse_move_squares(part, geometry)
        if len(squares) != 2:
            raise ValueError(f"{part!r} is not an arrow: give its two squares, as in e2e4")
        arrows.append((squares[0], squares[1]))
    return tuple(arrows)


def _square(name: str, geometry: Geometry, text: str) -> int:
    try:
        return geometry.parse_square(name.lower())
    except ValueError:
        raise ValueError(f"{text.strip()!r}: {name} is not a square of a {geometry} board") from None
