"""Board pictures: any position of any registry variant as an SVG document.

``board_svg`` draws a ``Setup``; ``fen_svg`` reads a FEN first; ``game_svg`` draws a PGN
game's position at any ply (``notation.read_games``), its last move marked. The board style follows the
variant's rule family (``notation.svg.styles``), the pieces are this package's own artwork
(``notation.svg.pieces``, licence in ``PIECES-LICENSE.txt``).
"""

from notation.svg.fen import fen_svg, parse_squares
from notation.svg.game import GameLike, GamePly, PlyError, PlyFailure, game_ply, game_svg
from notation.svg.marks import (
    checked_squares,
    parse_arrows,
    parse_move_squares,
    played_squares,
    position_checked_squares,
)
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
    "GameLike", "GamePly", "Orientation", "PlyError", "PlyFailure", "SvgOptions", "board_svg", "checked_squares",
    "fen_svg", "game_ply", "game_svg", "parse_arrows", "parse_move_squares", "parse_squares", "played_squares",
    "position_checked_squares", "style_of",
]
