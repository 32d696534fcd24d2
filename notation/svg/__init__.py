"""Board pictures: any position of any registry variant as an SVG document.

``board_svg`` draws a ``Setup``; ``fen_svg`` reads a FEN first. The board style follows the
variant's rule family (``notation.svg.styles``), the pieces are this package's own artwork
(``notation.svg.pieces``, licence in ``PIECES-LICENSE.txt``).
"""

from notation.svg.fen import fen_svg, parse_squares
from notation.svg.marks import checked_squares, parse_arrows, parse_move_squares
from notation.svg.render import (
    DEFAULT_SVG_OPTIONS,
    MAX_SIZE,
    MIN_SIZE,
    CheckMark,
    Coordinates,
    Orientation,
    SvgOptions,
    board_svg,
)
from notation.svg.styles import STYLE_BY_FAMILY, BoardStyle, style_of

__all__ = [
    "DEFAULT_SVG_OPTIONS", "MAX_SIZE", "MIN_SIZE", "STYLE_BY_FAMILY", "BoardStyle", "CheckMark", "Coordinates",
    "Orientation", "SvgOptions", "board_svg", "checked_squares", "fen_svg", "parse_arrows", "parse_move_squares",
    "parse_squares", "style_of",
]
