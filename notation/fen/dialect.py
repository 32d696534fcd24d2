"""``Dialect``: what the reader saw in one FEN (the writer's choices are ``notation.options``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

from notation.options import CheckStyle, FieldLayout, PieceLetters, PocketStyle, PositionNotation, SideLetters

# Enum members bound once: reading a member off its class goes through EnumType's
# attribute hook, dearer than the test it serves when compiled code does it per FEN.
_FEN_NOTATION: Final = PositionNotation.FEN

CastlingSeen = Literal["standard", "xfen", "shredder"]
PromotedSeen = Literal["tilde", "squares"]


@dataclass(frozen=True)
class Dialect:
    """What the reader saw in one FEN. ``None`` means the FEN had no such part.

    ``letters``, ``sides`` and ``layout`` are set only for variants with other spellings
    (``Variant.spellings``, Xiangqi): which piece letters, side-to-move letters and field
    layout the FEN used. Where a part fits two spellings (a placement of letters both sets
    share, a ``b`` to move), the one that agrees with the rest of the FEN is reported:
    CXBoard's for a CFEN, the variant's own otherwise.
    """

    pockets: PocketStyle | None = None
    checks: CheckStyle | None = None
    castling: CastlingSeen | None = None
    counters: bool = True  # halfmove and fullmove present (False: EPD-style)
    promoted: PromotedSeen | None = None
    chess960: bool = False  # castling rights only Chess960 can have
    letters: PieceLetters | None = None
    sides: SideLetters | None = None
    layout: FieldLayout | None = None
    notation: PositionNotation = PositionNotation.FEN  # OPENTAFL: an OpenTafl position record

    def to_dict(self) -> dict[str, Any]:
        # The FEN notation, the usual case, is spelled out: ``.value`` runs Python code.
        notation = self.notation
        out: dict[str, Any] = {
            "pockets": self.pockets.value if self.pockets else None,
            "checks": self.checks.value if self.checks else None,
            "castling": self.castling,
            "counters": "present" if self.counters else "missing",
            "promoted": self.promoted,
            "chess960": self.chess960,
            "notation": "fen" if notation is _FEN_NOTATION else notation.value,
        }
        for name, style in (("letters", self.letters), ("sides", self.sides), ("layout", self.layout)):
            if style is not None:
                out[name] = style.value
        return out
