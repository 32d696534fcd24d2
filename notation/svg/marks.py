"""What a picture marks beyond the position: the king in check (found by the rules of
``notation.game``), and the squares of a last move (a played ``Move``, or text) or of arrows
read from text.

``checked_squares`` and ``position_checked_squares`` raise nothing: an illegal setup (or one
the rules cannot judge) has no check to mark. ``played_squares`` raises nothing and trusts
that the move led from one position to the other. ``parse_move_squares`` and
``parse_arrows`` raise ``ValueError`` saying which text is not a move of the board; they do
not check that a move is legal.
"""

from __future__ import annotations

import re

from notation.errors import NotationError
from notation.game import GamePosition, Move, MoveKind, legal_position
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
    return _royal_squares(setup, variant)


def position_checked_squares(position: GamePosition, setup: Setup) -> frozenset[int]:
    """The squares of the side to move's royal pieces when ``position`` (a legal position
    of ``notation.game``, such as a game's after a move; ``setup`` is its ``to_setup()``)
    is in check; none otherwise."""
    if not position.is_check():
        return frozenset()
    return _royal_squares(setup, position.variant)


def played_squares(move: Move, before: Setup, after: Setup) -> tuple[int, ...]:
    """The squares a played ``move`` marks as the last move, as ``SvgOptions.last_move``
    takes them: (from, to); a drop's (to,); a detonation's (its square,); none for a null
    move. A castling move marks the castling piece's own squares (``e1g1``, as lichess shows
    it), found by comparing ``before`` and ``after``; where the piece stays put (some
    Chess960 castlings) it marks the piece and the rook it castles with."""
    kind = move.kind
    if kind is MoveKind.NULL:
        return ()
    if kind is MoveKind.DROP or kind is MoveKind.DETONATE:
        return (move.target,)
    if kind is MoveKind.CASTLE:
        piece = before.cells[move.origin]
        landed = [sq for sq, letter in enumerate(after.cells) if letter == piece and before.cells[sq] != piece]
        return (move.origin, landed[0]) if landed else (move.origin, move.target)
    return (move.origin, move.target)


def _royal_squares(setup: Setup, variant: Variant) -> frozenset[int]:
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
