"""``Dialect``: what the reader saw in one FEN (the writer's choices are ``notation.options``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from notation.options import CheckStyle, PocketStyle, PositionNotation

CastlingSeen = Literal["standard", "xfen", "shredder"]
PromotedSeen = Literal["tilde", "squares"]


@dataclass(frozen=True)
class Dialect:
    """What the reader saw in one FEN. ``None`` means the FEN had no such part."""

    pockets: PocketStyle | None = None
    checks: CheckStyle | None = None
    castling: CastlingSeen | None = None
    counters: bool = True  # halfmove and fullmove present (False: EPD-style)
    promoted: PromotedSeen | None = None
    chess960: bool = False  # castling rights only Chess960 can have
    notation: PositionNotation = PositionNotation.FEN  # OPENTAFL: an OpenTafl position record

    def to_dict(self) -> dict[str, Any]:
        return {
            "pockets": self.pockets.value if self.pockets else None,
            "checks": self.checks.value if self.checks else None,
            "castling": self.castling,
            "counters": "present" if self.counters else "missing",
            "promoted": self.promoted,
            "chess960": self.chess960,
            "notation": self.notation.value,
        }
