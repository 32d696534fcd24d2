"""``Dialect``: what the reader saw in one FEN (the writer's choices are ``notation.options``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

from notation.identity_cache import IdentityCache
from notation.options import CheckStyle, FieldLayout, PieceLetters, PocketStyle, PositionNotation, SideLetters

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

    def __reduce__(self) -> tuple[type[Dialect], tuple[Any, ...]]:
        """Pickled and copied as its fields, in order: compiled (mypyc), the default would
        set the frozen fields one by one and fail."""
        return (
            Dialect,
            (self.pockets, self.checks, self.castling, self.counters, self.promoted, self.chess960, self.letters,
             self.sides, self.layout, self.notation),
        )

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (a new dict each time). Dialects are few and shared (the reader
        keeps one per combination), so each one's form is built once."""
        return dict(_FORMS.get(self))


def _form_of(dialect: Dialect) -> dict[str, Any]:
    out: dict[str, Any] = {
        "pockets": dialect.pockets.value if dialect.pockets else None,
        "checks": dialect.checks.value if dialect.checks else None,
        "castling": dialect.castling,
        "counters": "present" if dialect.counters else "missing",
        "promoted": dialect.promoted,
        "chess960": dialect.chess960,
        "notation": dialect.notation.value,
    }
    for name, style in (("letters", dialect.letters), ("sides", dialect.sides), ("layout", dialect.layout)):
        if style is not None:
            out[name] = style.value
    return out


_FORMS: Final = IdentityCache(_form_of)  # dialect -> its JSON form (copied out by to_dict)
