"""Castling rights as rook squares <-> X-FEN / Shredder-FEN letters.

The reader and the writer both use these, so what one writes the other reads back. When a
setup counts as Chess960 is a rule of the game, in ``notation.rules.chess960``. Nothing
here reports a right as illegal (that is ``notation.validation``), and nothing raises.
"""

from __future__ import annotations

from collections.abc import Sequence

Board = Sequence["str | None"]  # Setup.cells (or Setup.board): a1 = 0, rank by rank
# ``files`` below is the board's width (``Geometry.files``): 8 unless a variant says otherwise.


def king_file(board: Board, back: int, king: str, files: int = 8) -> int | None:
    """File of the first ``king`` letter on the back rank starting at ``back``, or None."""
    if isinstance(board, str) and len(king) == 1:  # a setup's cells: str.find, not a loop of look-ups
        found = board.find(king, back, back + files)
        return found - back if found >= 0 else None
    for f in range(files):
        if board[back + f] == king:
            return f
    return None


def outer_rook(board: Board, back: int, rook: str, king: str, kingside: bool, files: int = 8) -> int:
    """The square X-FEN's ``K``/``Q`` names: the outermost rook on that side of the king,
    or the corner when there is none (or no king on the back rank)."""
    last = files - 1
    kf = king_file(board, back, king, files)
    if kf is not None and isinstance(board, str) and len(rook) == 1:
        found = board.rfind(rook, back + kf + 1, back + files) if kingside else board.find(rook, back, back + kf)
        if found >= 0:
            return found
    elif kf is not None:
        for f in range(last, kf, -1) if kingside else range(0, kf):
            if board[back + f] == rook:
                return back + f
    return back + (last if kingside else 0)


def xfen_letter(board: Board, back: int, rook: str, king: str, square: int, files: int = 8) -> str | None:
    """``k``/``q`` if X-FEN can name this right by side, else None (use the file letter)."""
    file = square - back
    kf = king_file(board, back, king, files)
    if kf is None or file == kf:
        return "k" if file == files - 1 else "q" if file == 0 else None
    kingside = file > kf
    if outer_rook(board, back, rook, king, kingside, files) == square:
        return "k" if kingside else "q"
    return None
