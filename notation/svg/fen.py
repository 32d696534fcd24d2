"""From text to picture: read a FEN and draw it; read a list of square names to highlight.

``fen_svg`` raises what ``read_fen`` raises (``FenSyntaxError``, ``UnknownVariantError``);
the setup is drawn whether or not it is legal (nothing here validates it).
``parse_squares`` raises ``ValueError`` naming the first name that is not a square.
"""

from __future__ import annotations

import re

from notation.fen.reader import read_fen
from notation.geometry import Geometry
from notation.svg.render import DEFAULT_SVG_OPTIONS, SvgOptions, board_svg
from notation.variants import DEFAULT_REGISTRY, Registry, Variant

_SEPARATORS = re.compile(r"[\s,]+")


def fen_svg(
    text: str,
    variant: str | Variant = "standard",
    options: SvgOptions = DEFAULT_SVG_OPTIONS,
    *,
    registry: Registry = DEFAULT_REGISTRY,
) -> str:
    """The SVG document of the position ``text`` (a FEN of ``variant``)."""
    read = read_fen(text, variant, registry=registry)
    return board_svg(read.setup, read.variant, options)


def parse_squares(text: str, geometry: Geometry) -> frozenset[int]:
    """Square numbers of ``text``: names like ``e4`` separated by commas or spaces (empty
    text: none). Raises ``ValueError`` for a name that is not a square of ``geometry``."""
    squares = set()
    for name in _SEPARATORS.split(text.strip()):
        if name:
            squares.add(geometry.parse_square(name.lower()))
    return frozenset(squares)
