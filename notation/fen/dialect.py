"""The vocabulary of FEN dialects: what the reader saw and what the writer is asked for."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Literal


class PocketStyle(str, enum.Enum):
    """How Crazyhouse pockets are written."""

    BRACKETED = "bracketed"  # ``.../RNBQKBNR[Qp] w ...``; promoted pieces marked ``~``
    RANK_ZERO = "rank-zero"  # ``.../RNBQKBNR/Qp w ...``; promoted pieces marked ``~``
    APPENDED = "appended"  # ``... 0 26 Qp h1``: pocket and promoted squares after fullmove


class CheckStyle(str, enum.Enum):
    """How Three-check counters are written."""

    REMAINING = "remaining"  # ``W+B`` checks still to give, between en passant and halfmove
    GIVEN = "given"  # ``+W+B`` checks given, after the fullmove number


class CastlingStyle(str, enum.Enum):
    """How castling rights are written."""

    XFEN = "xfen"  # K/Q for the outermost rook, the file letter otherwise (KQkq when classical)
    SHREDDER = "shredder"  # always the rook's file letter (HAha)


class EnPassantMode(str, enum.Enum):
    """When the writer keeps the en passant square."""

    LEGAL = "legal"  # only if a legal en passant capture exists (lichess, python-chess)
    PSEUDO_LEGAL = "pseudo-legal"  # if an enemy pawn attacks the square (X-FEN)
    ALWAYS = "always"  # whenever the setup has one (PGN standard 16.1.3.4)


class EmptyPocket(str, enum.Enum):
    """How a bracketed empty pocket is written."""

    BRACKETS = "[]"
    DASH = "[-]"


class IllegalPolicy(str, enum.Enum):
    """What ``convert`` does with a setup that breaks its variant's rules."""

    REFUSE = "refuse"  # report the problems, write nothing
    REPAIR = "repair"  # drop bad castling rights and implausible en passant squares, warn


CastlingSeen = Literal["standard", "xfen", "shredder"]


@dataclass(frozen=True)
class Dialect:
    """What the reader saw in one FEN. ``None`` means the FEN had no such part."""

    pockets: PocketStyle | None = None
    checks: CheckStyle | None = None
    castling: CastlingSeen | None = None
    counters: bool = True  # halfmove and fullmove present (False: EPD-style)
    promoted: Literal["tilde", "squares"] | None = None
    chess960: bool = False  # castling rights only Chess960 can have

    def to_dict(self) -> dict[str, Any]:
        return {
            "pockets": self.pockets.value if self.pockets else None,
            "checks": self.checks.value if self.checks else None,
            "castling": self.castling,
            "counters": "present" if self.counters else "missing",
            "promoted": self.promoted,
            "chess960": self.chess960,
        }
