"""Writer options and the named profiles of the producers (lichess, chess.com, XBoard, ...).

A profile is a complete ``WriteOptions``; any single option given by the user overrides
the profile's value (``resolve_options``). The default profile is ``python-chess``:
bracketed pockets, checks remaining, X-FEN castling and legal-only en passant, which is
the dialect the most readers accept (python-chess, shakmaty, chessops, Fairy-Stockfish,
XBoard, CQLi and lichess's reader all take it).
"""


import enum
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar, Final

from notation.options import (
    CastlingStyle,
    CheckStyle,
    EmptyPocket,
    EnPassantMode,
    FieldLayout,
    PieceLetters,
    PocketStyle,
    PositionNotation,
    SideLetters,
)
from notation.records import Record


class WriteOptions(Record):
    """Everything the writer can be told. ``castling_960`` applies to Chess960 setups
    (castling rights that only Chess960 can have), ``castling`` to all others.

    A record (``notation.records``), not a NamedTuple or a frozen dataclass: every command
    defines it at start-up (docs/architecture.md, "Start-up"). ``but`` (or ``_replace``)
    makes a changed copy."""

    _NAMES: ClassVar = ("pockets", "checks", "castling", "castling_960", "en_passant", "empty_pocket", "letters",
                        "sides", "layout", "notation")

    def __init__(
        self,
        pockets: PocketStyle = PocketStyle.BRACKETED,
        checks: CheckStyle = CheckStyle.REMAINING,
        castling: CastlingStyle = CastlingStyle.XFEN,
        castling_960: CastlingStyle = CastlingStyle.XFEN,
        en_passant: EnPassantMode = EnPassantMode.LEGAL,
        empty_pocket: EmptyPocket = EmptyPocket.BRACKETS,
        letters: PieceLetters = PieceLetters.STANDARD,
        sides: SideLetters = SideLetters.WB,
        layout: FieldLayout = FieldLayout.FULL,
        notation: PositionNotation = PositionNotation.FEN,
    ) -> None:
        self.pockets: Final = pockets
        self.checks: Final = checks
        self.castling: Final = castling
        self.castling_960: Final = castling_960
        self.en_passant: Final = en_passant
        self.empty_pocket: Final = empty_pocket
        # Only for variants with other spellings (Xiangqi); ignored by the others.
        self.letters: Final = letters
        self.sides: Final = sides
        self.layout: Final = layout
        self.notation: Final = notation

    def but(self, **changes: Any) -> "WriteOptions":
        """A copy with some options replaced; raises ``ValueError`` for a name that is no option."""
        return self._replace(**changes)


PROFILES: Mapping[str, WriteOptions] = MappingProxyType(
    {
        # scalachess FenWriter: rank-zero pockets ("/" alone when empty), checks given
        # "+W+B" after the fullmove number, X-FEN, en passant only when legal.
        "lichess": WriteOptions(
            pockets=PocketStyle.RANK_ZERO,
            checks=CheckStyle.GIVEN,
            en_passant=EnPassantMode.LEGAL,
        ),
        # chess.com: appended pocket and promoted-squares fields; standard castling.
        # How it writes checks and en passant is not documented: we follow the PGN
        # standard (square after every double step) and checks remaining.
        "chesscom": WriteOptions(
            pockets=PocketStyle.APPENDED,
            checks=CheckStyle.REMAINING,
            en_passant=EnPassantMode.ALWAYS,
        ),
        # XBoard/WinBoard: bracketed, "[-]" when empty, checks remaining, X-FEN,
        # Shredder-FEN for FRC, en passant when an enemy pawn could capture.
        "xboard": WriteOptions(
            pockets=PocketStyle.BRACKETED,
            empty_pocket=EmptyPocket.DASH,
            checks=CheckStyle.REMAINING,
            castling_960=CastlingStyle.SHREDDER,
            en_passant=EnPassantMode.PSEUDO_LEGAL,
        ),
        # Fairy-Stockfish: bracketed "[]", checks remaining, KQkq, rook files (HAha) in 960
        # mode in every variant. En passant: pyffish's get_fen keeps the square after a
        # double step (and on set_fen) whenever an enemy pawn attacks it, even a pinned one.
        "fairy-stockfish": WriteOptions(
            pockets=PocketStyle.BRACKETED,
            checks=CheckStyle.REMAINING,
            castling_960=CastlingStyle.SHREDDER,
            en_passant=EnPassantMode.PSEUDO_LEGAL,
        ),
        # The WXF file-format notes' Xiangqi FEN: h horse, e elephant, six fields, "w"/"b".
        "wxf": WriteOptions(letters=PieceLetters.WXF),
        # CXBoard's CFEN: WXF letters, "r" (red) or "b" to move, then only the move number.
        "cxboard": WriteOptions(letters=PieceLetters.WXF, sides=SideLetters.RB, layout=FieldLayout.CFEN),
        # python-chess, shakmaty, chessops: bracketed "[]", remaining, X-FEN, legal ep.
        "python-chess": WriteOptions(),
        # Scid: rank-zero pockets, checks given. En passant as the PGN standard has it.
        # In Chess960 Scid writes X-FEN (K/Q unless the rook is not the outermost one:
        # Position::PrintFEN in Scid's src/position.cpp), so castling_960 stays X-FEN.
        "scid": WriteOptions(
            pockets=PocketStyle.RANK_ZERO,
            checks=CheckStyle.GIVEN,
            en_passant=EnPassantMode.ALWAYS,
        ),
        # CQLi reads every form; it writes rank zero and checks given like Scid.
        "cqli": WriteOptions(
            pockets=PocketStyle.RANK_ZERO,
            checks=CheckStyle.GIVEN,
            en_passant=EnPassantMode.ALWAYS,
        ),
        # OpenTafl: tafl games as its position record (the OpenTafl notation specification,
        # section 1), rank 1 first, attackers lower case. OpenTafl writes no chess: chess
        # variants get python-chess's FEN, as every profile writes every variant.
        "opentafl": WriteOptions(notation=PositionNotation.OPENTAFL),
    }
)

DEFAULT_PROFILE = "python-chess"
DEFAULT_OPTIONS = PROFILES[DEFAULT_PROFILE]

class WriterOption:
    """One option a user may give the writer, over the profile's value.

    ``name`` is the ``WriteOptions`` field, the ``resolve_options`` keyword and the JSON
    field of the service; ``flag`` is the command-line spelling. ``also_sets`` names the
    ``WriteOptions`` fields that take the same value (``castling`` sets ``castling_960``).
    Read-only; a plain class, not a NamedTuple: every command defines it at start-up
    (docs/architecture.md, "Start-up").
    """

    __slots__ = ("name", "choices", "help", "also_sets")

    def __init__(self, name: str, choices: type[enum.Enum], help: str, also_sets: tuple[str, ...] = ()) -> None:
        self.name: Final = name
        self.choices: Final = choices
        self.help: Final = help
        self.also_sets: Final = also_sets

    def __reduce__(self) -> "tuple[type[WriterOption], tuple[Any, ...]]":
        """Pickled through ``__init__``: its fields are read-only (and compiled, it keeps
        no dictionary)."""
        return (WriterOption, (self.name, self.choices, self.help, self.also_sets))

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    @property
    def values(self) -> list[str]:
        """The allowed values, as the user spells them."""
        return [str(member.value) for member in self.choices]

    def parse(self, value: str | enum.Enum) -> enum.Enum:
        """``value`` as this option's enum; raises ``ValueError`` naming the allowed values."""
        try:
            return self.choices(value)
        except ValueError:
            allowed = ", ".join(self.values)
            raise ValueError(f"unknown {self.flag[2:]} style {value!r}; choose one of {allowed}") from None


# The one list of the writer's options: the CLI flags (``--pockets`` ...), the service's
# JSON fields and query parameters and ``resolve_options``'s keywords are all made from it.
WRITER_OPTIONS: tuple[WriterOption, ...] = (
    WriterOption("pockets", PocketStyle, "Crazyhouse pocket form"),
    WriterOption("checks", CheckStyle, "Three-check counter form"),
    WriterOption("castling", CastlingStyle, "castling rights form", also_sets=("castling_960",)),
    WriterOption("en_passant", EnPassantMode, "when to write the en passant square"),
    WriterOption("letters", PieceLetters, "piece letters (Xiangqi: standard as UCCI and Fairy-Stockfish, or wxf)"),
    WriterOption("sides", SideLetters, "side-to-move letters (Xiangqi: wb, or rb as CXBoard)"),
    WriterOption("layout", FieldLayout, "field layout (Xiangqi: full six fields, or cfen as CXBoard)"),
)
WRITER_OPTION_NAMES: tuple[str, ...] = tuple(option.name for option in WRITER_OPTIONS)
_BY_NAME: Mapping[str, WriterOption] = MappingProxyType({option.name: option for option in WRITER_OPTIONS})


def resolve_options(profile: str | None = None, **overrides: str | enum.Enum | None) -> WriteOptions:
    """The profile's options (default profile when ``None``) with the given ones overriding.

    The keywords are the names in ``WRITER_OPTIONS``; ``None`` leaves the profile's value.
    ``castling`` sets both ``castling`` and ``castling_960``. Raises ``ValueError`` naming
    the allowed values for an unknown profile or option value, ``TypeError`` for a keyword
    that is no writer option.
    """
    name = profile or DEFAULT_PROFILE
    try:
        options = PROFILES[name]
    except KeyError:
        raise ValueError(f"unknown profile {name!r}; choose one of {', '.join(PROFILES)}") from None
    unknown = sorted(set(overrides) - set(_BY_NAME))
    if unknown:
        raise TypeError(f"resolve_options() got unknown writer option(s) {', '.join(unknown)}")
    changes: dict[str, object] = {}
    for option in WRITER_OPTIONS:
        value = overrides.get(option.name)
        if value is None:
            continue
        parsed = option.parse(value)
        for field_name in (option.name, *option.also_sets):
            changes[field_name] = parsed
    return options.but(**changes) if changes else options


def options_from(values: Mapping[str, Any]) -> WriteOptions:
    """``resolve_options`` over a mapping that may hold ``profile`` and any writer option
    (parsed command-line arguments, a loaded request); other keys are ignored. Raises as
    ``resolve_options`` does."""
    return resolve_options(values.get("profile"), **{name: values.get(name) for name in WRITER_OPTION_NAMES})

