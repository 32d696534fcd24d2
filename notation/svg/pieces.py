"""The piece artwork: every piece as a few SVG shapes on a 45 x 45 cell, as data.

The drawings are this project's own (simple geometric figures, see ``PIECES-LICENSE.txt``
beside this file). A shape is painted by its role (``Paint``), so one drawing serves both
sides: the renderer picks the colours. ``glyph_for`` never raises: a letter without a
drawing gets a disc with the letter on it.
"""

from __future__ import annotations

from dataclasses import dataclass

from notation.lean_enum import LeanEnum
from notation.svg.styles import BoardStyle
from notation.variants import Movement, Variant

CELL = 45  # the artwork's cell, in SVG user units


class Paint(LeanEnum):
    """What colours a shape takes."""

    BODY = "body"  # filled with the side's colour, outlined
    DETAIL = "detail"  # a line in the colour that stands out on the side's body
    OUTLINE = "outline"  # a line in the outline colour, not filled
    DISC = "disc"  # the background disc of a token piece (Xiangqi), outlined in the side's colour
    MARK = "mark"  # a line or fill in the side's colour on a disc


@dataclass(frozen=True)
class Shape:
    """One SVG element: its tag, its geometry attributes, how it is painted, and (for a
    ``g`` group) the shapes inside it."""

    tag: str
    attributes: tuple[tuple[str, str], ...]
    paint: Paint
    children: tuple[Shape, ...] = ()


@dataclass(frozen=True)
class Glyph:
    """A drawing of one piece; ``letter`` is set for the lettered-disc fallback."""

    name: str
    shapes: tuple[Shape, ...]
    letter: str = ""


def _path(d: str, paint: Paint = Paint.BODY) -> Shape:
    return Shape("path", (("d", d),), paint)


def _circle(cx: float, cy: float, r: float, paint: Paint = Paint.BODY) -> Shape:
    return Shape("circle", (("cx", f"{cx:g}"), ("cy", f"{cy:g}"), ("r", f"{r:g}")), paint)


def _group(transform: str, shapes: tuple[Shape, ...], paint: Paint = Paint.BODY) -> Shape:
    return Shape("g", (("transform", transform),), paint, shapes)


_BASE = _path("M 11 39 L 34 39 L 32.5 34.5 L 12.5 34.5 Z")

PAWN = (
    _path("M 12 39 L 33 39 L 31 33 L 14 33 Z"),
    _path("M 16.5 33 C 16.5 26 19.5 21.5 22.5 21.5 C 25.5 21.5 28.5 26 28.5 33 Z"),
    _circle(22.5, 15, 5.5),
)
ROOK = (
    _BASE,
    _path("M 15 34.5 L 16 18 L 29 18 L 30 34.5 Z"),
    _path("M 13 18 L 13 10 L 17 10 L 17 13 L 20.5 13 L 20.5 10 L 24.5 10 L 24.5 13 L 28 13 L 28 10 L 32 10 L 32 18 Z"),
    _path("M 16 22 L 29 22", Paint.DETAIL),
)
KNIGHT = (
    _path(
        "M 14 39 L 33 39 L 33 35 C 33 27 31 19 27 14 L 28 7.5 L 24 10.5 C 19.5 10 15.5 13 13.5 18 "
        "L 9.5 25 L 11.5 28.5 L 16 26.5 L 20.5 24 C 19.5 29 15 32 14 35 Z"
    ),
    _circle(19, 16.5, 1.3, Paint.DETAIL),
    _path("M 27 15 C 29.5 20 30.5 27 30 34", Paint.DETAIL),
)
BISHOP = (
    _BASE,
    _path("M 15 34.5 C 12 28 14.5 19 22.5 11.5 C 30.5 19 33 28 30 34.5 Z"),
    _circle(22.5, 8.5, 2.8),
    _path("M 21 18 L 26 24", Paint.DETAIL),
    _path("M 16.5 30 L 28.5 30", Paint.DETAIL),
)
QUEEN = (
    _BASE,
    _path("M 13 34.5 L 9 14 L 15.5 25 L 16 11 L 20 24 L 22.5 9 L 25 24 L 29 11 L 29.5 25 L 36 14 L 32 34.5 Z"),
    _circle(9, 13, 2.2),
    _circle(16, 10, 2.2),
    _circle(22.5, 8, 2.2),
    _circle(29, 10, 2.2),
    _circle(36, 13, 2.2),
    _path("M 14.5 30 L 30.5 30", Paint.DETAIL),
)
KING = (
    _BASE,
    _path("M 13 34.5 C 9.5 26 14 19 22.5 22.5 C 31 19 35.5 26 32 34.5 Z"),
    _path("M 22.5 22 L 22.5 7 M 18 11.5 L 27 11.5", Paint.OUTLINE),
    _path("M 14.5 30 L 30.5 30", Paint.DETAIL),
)
# The grasshopper is drawn as an upside-down queen, as problemists print it.
GRASSHOPPER = (_group("rotate(180 22.5 22.5)", QUEEN),)
MANN = (
    _BASE,
    _path("M 13.5 34.5 C 13.5 26 17 21.5 22.5 21.5 C 28 21.5 31.5 26 31.5 34.5 Z"),
    _circle(22.5, 14, 6.5),
    _path("M 16 12.5 C 19 10.5 26 10.5 29 12.5", Paint.DETAIL),
    _path("M 15.5 29.5 L 29.5 29.5", Paint.DETAIL),
)
# A small crown in the corner of a royal piece that does not look like a king.
CROWN = (_path("M 31 10 L 30.5 4 L 33.5 7 L 35.5 3 L 37.5 7 L 40.5 4 L 40 10 Z"),)

# Xiangqi: a disc with a ring and a symbol in the side's colour.
_DISC = (_circle(22.5, 22.5, 20, Paint.DISC), _circle(22.5, 22.5, 16.5, Paint.OUTLINE))
ADVISOR = (_path("M 14 14 L 31 31 M 31 14 L 14 31", Paint.OUTLINE), _circle(22.5, 22.5, 3.5))
CANNON = (
    _path("M 11 30 L 30 14 L 33 17.5 L 14 33.5 Z"),
    _circle(15, 31, 5),
    _path("M 10 38 L 20 38", Paint.OUTLINE),
)
ELEPHANT = (
    _path("M 12 33 C 10 24 15 14 24 13 C 31 12.5 35 18 34 25 L 34 33 L 29.5 33 L 29.5 27 L 18 27 L 17 33 Z"),
    _path("M 34 22 C 38 26 38 31 35 34", Paint.OUTLINE),
    _circle(28, 18.5, 1.3, Paint.DETAIL),
)


def _token(symbol: tuple[Shape, ...], scale: float = 0.62) -> tuple[Shape, ...]:
    """A Xiangqi piece: the disc, and ``symbol`` shrunk about the centre in the side's colour."""
    shift = CELL / 2 * (1 - scale)
    return (*_DISC, _group(f"translate({shift:g} {shift:g}) scale({scale:g})", symbol, Paint.MARK))


TAFL_PIECE = (_circle(22.5, 22.5, 15),)
TAFL_KING = (_circle(22.5, 22.5, 17), _path("M 22.5 12 L 22.5 33 M 12 22.5 L 33 22.5", Paint.DETAIL))

CHESS_BY_MOVEMENT: dict[Movement, Glyph] = {
    Movement.PAWN: Glyph("pawn", PAWN),
    Movement.KNIGHT: Glyph("knight", KNIGHT),
    Movement.BISHOP: Glyph("bishop", BISHOP),
    Movement.ROOK: Glyph("rook", ROOK),
    Movement.QUEEN: Glyph("queen", QUEEN),
    Movement.GRASSHOPPER: Glyph("grasshopper", GRASSHOPPER),
}
KING_GLYPH = Glyph("king", KING)
MANN_GLYPH = Glyph("mann", MANN)

XIANGQI_BY_LETTER: dict[str, Glyph] = {
    "k": Glyph("general", _token(KING)),
    "a": Glyph("advisor", _token(ADVISOR)),
    "b": Glyph("elephant", _token(ELEPHANT)),
    "e": Glyph("elephant", _token(ELEPHANT)),  # WXF letter
    "n": Glyph("horse", _token(KNIGHT)),
    "h": Glyph("horse", _token(KNIGHT)),  # WXF letter
    "r": Glyph("chariot", _token(ROOK)),
    "c": Glyph("cannon", _token(CANNON)),
    "p": Glyph("soldier", _token(PAWN)),
}
TAFL_BY_LETTER: dict[str, Glyph] = {
    "t": Glyph("tafl piece", TAFL_PIECE),
    "p": Glyph("tafl piece", TAFL_PIECE),
    "k": Glyph("tafl king", TAFL_KING),
}


def _lettered(letter: str) -> Glyph:
    return Glyph("piece " + letter.lower(), (_circle(22.5, 22.5, 17),), letter=letter.upper())


def glyph_for(style: BoardStyle, variant: Variant, letter: str) -> Glyph:
    """The drawing of FEN ``letter`` (either case) of ``variant`` on a board of ``style``."""
    lower = letter.lower()
    if style is BoardStyle.POINTS_PALACE_RIVER:
        return XIANGQI_BY_LETTER.get(lower) or _lettered(lower)
    if style is BoardStyle.THRONE_CORNERS:
        return TAFL_BY_LETTER.get(lower) or _lettered(lower)
    try:
        kind = variant.piece_kind(lower)
    except KeyError:
        return _lettered(lower)
    if kind.movement is Movement.KING:
        glyph = KING_GLYPH if lower == "k" else MANN_GLYPH
    else:
        glyph = CHESS_BY_MOVEMENT.get(kind.movement) or _lettered(lower)
    if lower in variant.royal and kind.movement is not Movement.KING and not glyph.letter:
        glyph = Glyph("royal " + glyph.name, glyph.shapes + CROWN)
    return glyph
