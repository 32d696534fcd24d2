"""``Dialect``: what the reader saw in one FEN (the writer's choices are ``notation.options``)."""

from __future__ import annotations

from typing import Any, Final, Literal

from notation.options import CheckStyle, FieldLayout, PieceLetters, PocketStyle, PositionNotation, SideLetters

CastlingSeen = Literal["standard", "xfen", "shredder"]
PromotedSeen = Literal["tilde", "squares"]


class Dialect:
    """What the reader saw in one FEN. ``None`` means the FEN had no such part.

    ``letters``, ``sides`` and ``layout`` are set only for variants with other spellings
    (``Variant.spellings``, Xiangqi): which piece letters, side-to-move letters and field
    layout the FEN used. Where a part fits two spellings (a placement of letters both sets
    share, a ``b`` to move), the one that agrees with the rest of the FEN is reported:
    CXBoard's for a CFEN, the variant's own otherwise.

    A value, equal to another of the same fields and read-only: its fields are ``Final`` (a
    write is a type error, and in the compiled build an ``AttributeError``). A plain class
    rather than a frozen dataclass: every command defines it at start-up, where
    ``dataclasses`` and the methods it compiles from source are dear (docs/architecture.md,
    "Start-up"), and compiled, making one is a native call.
    """

    def __init__(
        self,
        pockets: PocketStyle | None = None,
        checks: CheckStyle | None = None,
        castling: CastlingSeen | None = None,
        counters: bool = True,
        promoted: PromotedSeen | None = None,
        chess960: bool = False,
        letters: PieceLetters | None = None,
        sides: SideLetters | None = None,
        layout: FieldLayout | None = None,
        notation: PositionNotation = PositionNotation.FEN,
    ) -> None:
        self.pockets: Final = pockets
        self.checks: Final = checks
        self.castling: Final = castling
        self.counters: Final = counters  # halfmove and fullmove present (False: EPD-style)
        self.promoted: Final = promoted
        self.chess960: Final = chess960  # castling rights only Chess960 can have
        self.letters: Final = letters
        self.sides: Final = sides
        self.layout: Final = layout
        self.notation: Final = notation  # OPENTAFL: an OpenTafl position record
        self._form: dict[str, Any] | None = None  # the JSON form, made when first asked for

    def with_spellings(self, letters: PieceLetters, sides: SideLetters, layout: FieldLayout) -> Dialect:
        """This dialect with the spellings of a variant that has others (Xiangqi's)."""
        return Dialect(self.pockets, self.checks, self.castling, self.counters, self.promoted, self.chess960,
                       letters, sides, layout, self.notation)

    def _fields(self) -> tuple[Any, ...]:
        return (self.pockets, self.checks, self.castling, self.counters, self.promoted, self.chess960, self.letters,
                self.sides, self.layout, self.notation)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Dialect):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __reduce__(self) -> tuple[type[Dialect], tuple[Any, ...]]:
        """Pickled and copied as its fields, in order."""
        return (Dialect, self._fields())

    def __repr__(self) -> str:
        shown = (f"{name}={value!r}" for name, value in zip(_FIELD_NAMES, self._fields(), strict=True))
        return "Dialect(" + ", ".join(shown) + ")"

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (a new dict each time). Dialects are few and shared (the reader
        keeps one per combination), so each one's form is built once and kept on it."""
        form = self._form
        if form is None:
            form = self._form = _form_of(self)
        return dict(form)


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


_FIELD_NAMES: Final = ("pockets", "checks", "castling", "counters", "promoted", "chess960", "letters", "sides",
                        "layout", "notation")
