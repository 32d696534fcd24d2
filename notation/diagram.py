"""A ``Setup`` as text for people: its FEN (``repr``) and a board diagram (``str``).

``fen_text`` writes the FEN a setup holds without any variant or writer option: pockets in
brackets when the setup has pockets, Three-check counters (checks remaining) between en
passant and halfmove when it has them, promoted pieces marked ``~``, castling rights as
``K``/``Q`` for a rook in its corner beside its king and its file letter otherwise (a right whose rook is
off both back ranks is written as its square in parentheses: the setup is illegal, and the
text still says what it holds). Read back as its variant it gives the same setup. It is for
reading, not for other programs: those get
``notation.write_fen``, which knows the variant.

``diagram`` draws the board rank by rank from the top, ``.`` for an empty square and ``~``
after a promoted piece, with rank numbers and file letters, then the pockets, the check
counters and the other fields. Any geometry the setup has is drawn (a 9x10 board has ten
rows of nine). Nothing here imports the rest of the package's setup or rules: it reads the
fields ``Position`` names, so ``notation.setup`` can use it without a cycle.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import Protocol

from notation.geometry import Geometry


class _Pockets(Protocol):
    @property
    def white(self) -> str: ...

    @property
    def black(self) -> str: ...


class Position(Protocol):
    """The fields of a ``notation.setup.Setup`` this module reads."""

    @property
    def cells(self) -> str: ...

    @property
    def geometry(self) -> Geometry: ...

    @property
    def turn(self) -> str: ...

    @property
    def castling(self) -> AbstractSet[int]: ...

    @property
    def ep_square(self) -> int | None: ...

    @property
    def halfmove(self) -> int: ...

    @property
    def fullmove(self) -> int: ...

    @property
    def promoted(self) -> AbstractSet[int]: ...

    @property
    def pockets(self) -> _Pockets | None: ...

    @property
    def bombs(self) -> tuple[int | None, int | None] | None: ...

    @property
    def remaining_checks(self) -> tuple[int, int] | None: ...


def placement(position: Position) -> str:
    """The board field of the FEN, top rank first, ``~`` after promoted pieces."""
    geometry = position.geometry
    ranks = []
    for rank in range(geometry.ranks - 1, -1, -1):
        row, empty = [], 0
        for file in range(geometry.files):
            sq = geometry.square(file, rank)
            piece = position.cells[sq]
            if piece == ".":
                empty += 1
                continue
            if empty:
                row.append(str(empty))
                empty = 0
            row.append(piece + ("~" if sq in position.promoted else ""))
        if empty:
            row.append(str(empty))
        ranks.append("".join(row))
    return "/".join(ranks)


def castling_text(position: Position) -> str:
    """The castling field: ``K``/``Q`` (``k``/``q``) for a rook in its corner with its king on
    that rank (where every reader takes them for that rook), else the rook's file letter."""
    geometry = position.geometry
    white, black = [], []
    for sq in sorted(position.castling, reverse=True):
        file, rank = geometry.file_of(sq), geometry.rank_of(sq)
        letter = geometry.file_names[file].upper()
        if _corner_rook(position, file, rank):
            letter = "K" if file == geometry.files - 1 else "Q"
        if rank == 0:
            white.append(letter)
        elif rank == geometry.ranks - 1:
            black.append(letter.lower())
        else:
            white.append(f"({geometry.square_name(sq)})")
    return "".join(white + black) or "-"


def _corner_rook(position: Position, file: int, rank: int) -> bool:
    geometry = position.geometry
    if file not in (0, geometry.files - 1) or rank not in (0, geometry.ranks - 1):
        return False
    rook, king = ("R", "K") if rank == 0 else ("r", "k")
    row = geometry.rank_cells(position.cells, rank)
    return row[file] == rook and king in row


def fen_text(position: Position) -> str:
    """The FEN the setup holds (see the module doc)."""
    board = placement(position)
    if position.pockets is not None:
        board += f"[{position.pockets.white.upper()}{position.pockets.black}]"
    ep = "-" if position.ep_square is None else position.geometry.square_name(position.ep_square)
    fields = [board, position.turn, castling_text(position), ep]
    if position.remaining_checks is not None:
        fields.append(f"{position.remaining_checks[0]}+{position.remaining_checks[1]}")
    fields += [str(position.halfmove), str(position.fullmove)]
    if position.bombs is not None:  # itsyourturn Atomic's bomb field: White's, Black's square
        white, black = (
            "-" if square is None else position.geometry.square_name(square) for square in position.bombs
        )
        fields.append("-" if white == black == "-" else white + black)
    return " ".join(fields)


def diagram(position: Position) -> str:
    """The board as rows of letters with coordinates, then what else the setup holds."""
    geometry = position.geometry
    width = len(str(geometry.ranks))
    lines = []
    for rank in range(geometry.ranks - 1, -1, -1):
        cells = []
        for file in range(geometry.files):
            sq = geometry.square(file, rank)
            cells.append(position.cells[sq] + ("~" if sq in position.promoted else " "))
        lines.append(f"{rank + 1:>{width}} " + "".join(cells).rstrip())
    lines.append(" " * (width + 1) + " ".join(geometry.file_names))
    if position.pockets is not None:
        lines.append(f"pockets: white [{position.pockets.white.upper()}] black [{position.pockets.black}]")
    if position.remaining_checks is not None:
        white, black = position.remaining_checks
        lines.append(f"checks remaining: white {white}, black {black}")
    side = "white" if position.turn == "w" else "black"
    ep = "-" if position.ep_square is None else geometry.square_name(position.ep_square)
    lines.append(
        f"{side} to move, castling {castling_text(position)}, en passant {ep}, "
        f"halfmove {position.halfmove}, fullmove {position.fullmove}"
    )
    return "\n".join(lines)
