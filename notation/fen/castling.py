"""Castling rights as rook squares <-> X-FEN / Shredder-FEN letters.

The reader and the writer both use these, so what one writes the other reads back. When a
setup counts as Chess960 is a rule of the game, in ``notation.rules.chess960``. Nothing
here reports a right as illegal (that is ``notation.validation``), and nothing raises.
"""

from __future__ import annotations

from collections.abc import Sequence

Board = Sequence["str | None"]  # Setup.cells (or Setup.board): indexed a1 = 0 .. h8 = 63


def king_file(board: Board, back: int, king: str) -> int | None:
    """File of the first ``king`` letter on the back rank starting at ``back``, or None."""
    for f in range(8):
        if board[back + f] == king:
            return f
    return None


def outer_rook(board: Board, back: int, rook: str, king: str, kingside: bool) -> int:
    """The square X-FEN's ``K``/``Q`` names: the outermost rook on that side of the king,
    or the corner when there is none (or no king on the back rank)."""
    kf = king_file(board, back, king)
    if kf is not None:
        files = range(7, kf, -1) if kingside else range(0, kf)
        for f in files:
            if board[back + f] == rook:
                return back + f
    return back + (7 if kingside else 0)


def xfen_letter(board: Board, back: int, rook: str, king: str, square: int) -> str | None:
    """``k``/``q`` if X-FEN can name this right by side, else None (use the file letter)."""
    file = square - back
    kf = king_file(board, back, king)
    if kf is None or file == kf:
        return "k" if file == 7 else "q" if file == 0 else None
    kingside = file > kf
    if outer_rook(board, back, rook, king, kingside) == square:
        return "k" if kingside else "q"
    return None
