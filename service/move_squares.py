"""Where a move's piece goes, by square name: what a board needs to show a move without
knowing any rule (``POST /v1/moves`` with ``squares``, the plies of ``POST /v1/pgn/game``).

``move_entry`` names a legal move's squares from the positions before and after it, as the
game layer (``notation.game``) played it; ``last_move_text`` writes them as
``GET /v1/board.svg``'s ``last_move`` reads them. Nothing here checks that a move is legal
(the caller has it from ``legal_moves`` or ``read_move``); nothing raises on a legal move.
"""

from __future__ import annotations

from notation.game import Move, MoveKind
from notation.geometry import Geometry


def move_entry(move: Move, geometry: Geometry, before: str, after: str) -> dict[str, str | None]:
    """``move``'s squares: ``from`` (None for a drop or a null move), ``to`` (None for a
    null move), ``kind``, ``drop`` and ``promotion`` letters ("" when none); a castling
    move's ``to`` is where the castling piece lands and ``rook`` the square of the rook it
    castles with. ``before`` and ``after`` are the cells (``Setup.cells``) of the positions
    before and after the move."""
    name = geometry.square_name
    if move.kind is MoveKind.NULL:
        return {"from": None, "to": None, "kind": move.kind.value, "drop": "", "promotion": ""}
    entry: dict[str, str | None] = {
        "from": None if move.kind is MoveKind.DROP else name(move.origin),
        "to": name(move.target),
        "kind": move.kind.value,
        "drop": move.drop,
        "promotion": move.promotion,
    }
    if move.kind is MoveKind.CASTLE:
        entry["rook"] = name(move.target)
        entry["to"] = name(castled_to(before, after, move.origin))
    return entry


def castled_to(before: str, after: str, origin: int) -> int:
    """Where the piece that stood on ``origin`` stands after castling (its own square when
    a Chess960 castling leaves it there)."""
    piece = before[origin]
    moved = [sq for sq, letter in enumerate(after) if letter == piece and before[sq] != piece]
    return moved[0] if moved else origin


def last_move_text(entry: dict[str, str | None]) -> str:
    """The move as ``GET /v1/board.svg?last_move=`` reads it: ``e2e4``, a drop ``@e4``, a
    castling as the king's own squares (``e1g1``); "" for a null move."""
    origin, target = entry["from"], entry["to"]
    if target is None:
        return ""
    return f"@{target}" if origin is None else f"{origin}{target}"
