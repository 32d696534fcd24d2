"""``Move``: one move of any variant, as squares and letters, independent of any notation.

Squares are numbered as ``notation.geometry`` numbers them (a1 = 0, rank by rank). A move is
a value: equal moves compare and hash equal. Nothing here checks that a move is legal (the
position that generated it knows); nothing raises.

- ``NORMAL``: a piece goes from ``origin`` to ``target``, capturing what stands there;
  ``promotion`` is the lower-case letter a pawn becomes, or ``""``.
- ``CASTLE``: ``origin`` is the castling piece's square, ``target`` the square of the rook
  it castles with (king takes rook, as the UCI protocol's Chess960 mode writes it; the
  notations write the king's own target where the reader expects it).
- ``EN_PASSANT``: a pawn takes the pawn that just stepped past ``target``.
- ``DROP``: a piece from the pocket (Crazyhouse) or the hand (a placement phase) is put on
  ``target``; ``drop`` is its lower-case letter and ``origin`` equals ``target``.
- ``DETONATE``: the mover's bomb on ``origin`` (= ``target``) explodes (itsyourturn Atomic).
- ``NULL``: the side to move passes (``--`` in a PGN); ``origin`` and ``target`` are -1.
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import mypyc_attr

from notation.lean_enum import LeanEnum


class MoveKind(LeanEnum):
    """What a move does beyond carrying a piece from one square to another."""

    NORMAL = "normal"
    CASTLE = "castle"
    EN_PASSANT = "en-passant"
    DROP = "drop"
    DETONATE = "detonate"
    NULL = "null"


_NORMAL: Final = MoveKind.NORMAL


# Compiled: a move refers to numbers, letters and its kind only, so the cycle collector
# never tracks it, and the one freed last is made again in place (a walk frees one a ply).
@mypyc_attr(acyclic=True, free_list_len=1)
class Move:
    """One move: ``kind``, ``origin`` and ``target`` squares, ``promotion`` and ``drop``
    letters (lower case, ``""`` when none). Immutable, hashable, ordered by its fields."""

    __slots__ = ("origin", "target", "promotion", "drop", "kind")

    origin: int
    target: int
    promotion: str
    drop: str
    kind: MoveKind

    def __init__(self, origin: int, target: int, promotion: str = "", drop: str = "", kind: MoveKind = _NORMAL):
        self.origin = origin
        self.target = target
        self.promotion = promotion
        self.drop = drop
        self.kind = kind

    @classmethod
    def null(cls) -> Move:
        """The null move (a pass)."""
        return cls(-1, -1, "", "", MoveKind.NULL)

    @classmethod
    def dropped(cls, letter: str, target: int) -> Move:
        """A drop (or placement) of ``letter`` (lower case) on ``target``."""
        return cls(target, target, "", letter, MoveKind.DROP)

    def key(self) -> tuple[int, int, str, str, str]:
        return (self.origin, self.target, self.promotion, self.drop, self.kind.value)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return (
            self.origin == other.origin
            and self.target == other.target
            and self.promotion == other.promotion
            and self.drop == other.drop
            and self.kind is other.kind
        )

    def __hash__(self) -> int:
        return hash((self.origin, self.target, self.promotion, self.drop, self.kind))

    def __lt__(self, other: Move) -> bool:
        return self.key() < other.key()

    def __repr__(self) -> str:
        parts = [f"{self.origin}->{self.target}"]
        if self.promotion:
            parts.append(f"={self.promotion}")
        if self.drop:
            parts.append(f"@{self.drop}")
        if self.kind is not _NORMAL:
            parts.append(self.kind.value)
        return f"<Move {' '.join(parts)}>"

    def __reduce__(self) -> tuple[type[Move], tuple[int, int, str, str, MoveKind]]:
        return (Move, (self.origin, self.target, self.promotion, self.drop, self.kind))
