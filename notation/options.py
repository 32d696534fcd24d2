"""The option enums: how each part of a FEN is spelled, and what convert does with an
illegal setup.

They sit below every other module (they import nothing of the package), so the FEN
reader and writer, the rules (``EnPassantMode``), the operations (``IllegalPolicy``) and
the front ends all take them from here. ``fen/dialect.py`` uses ``PocketStyle`` and
``CheckStyle`` to say what the reader saw; ``fen/profiles.py`` bundles the writer's
choices into ``WriteOptions``. How moves are written (``MoveNotation``, ``MoveLanguage``,
``CastlingMode``) is ``notation.move_options``'s: a command on FENs defines none of them
(an enum's class is among the dearest things its start-up makes). They are still found
here, imported when first asked for.
"""

from __future__ import annotations

import enum

from notation.lean_enum import LeanStrEnum

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from notation.move_options import CastlingMode, MoveLanguage, MoveNotation  # noqa: F401 - found here too
else:
    def __getattr__(name: str) -> type[enum.Enum]:
        """The move options, from ``notation.move_options``, when first asked for here."""
        if name in ("CastlingMode", "MoveLanguage", "MoveNotation"):
            from notation import move_options

            return getattr(move_options, name)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class PocketStyle(LeanStrEnum):
    """How Crazyhouse pockets are written."""

    BRACKETED = "bracketed"  # ``.../RNBQKBNR[Qp] w ...``; promoted pieces marked ``~``
    RANK_ZERO = "rank-zero"  # ``.../RNBQKBNR/Qp w ...``; promoted pieces marked ``~``
    APPENDED = "appended"  # ``... 0 26 Qp h1``: pocket and promoted squares after fullmove


class CheckStyle(LeanStrEnum):
    """How Three-check counters are written."""

    REMAINING = "remaining"  # ``W+B`` checks still to give, between en passant and halfmove
    GIVEN = "given"  # ``+W+B`` checks given, after the fullmove number


class CastlingStyle(LeanStrEnum):
    """How castling rights are written."""

    XFEN = "xfen"  # K/Q for the outermost rook, the file letter otherwise (KQkq when classical)
    SHREDDER = "shredder"  # always the rook's file letter (HAha)


class EnPassantMode(LeanStrEnum):
    """When the writer keeps the en passant square."""

    LEGAL = "legal"  # only if a legal en passant capture exists (lichess, python-chess)
    PSEUDO_LEGAL = "pseudo-legal"  # if an enemy pawn attacks the square (X-FEN)
    ALWAYS = "always"  # whenever the setup has one (PGN standard 16.1.3.4)


class EmptyPocket(LeanStrEnum):
    """How a bracketed empty pocket is written."""

    BRACKETS = "[]"
    DASH = "[-]"


class PositionNotation(LeanStrEnum):
    """Which notation a position is written in."""

    FEN = "fen"  # FEN, or the FEN-style form of a non-chess variant (placement, side, ...)
    OPENTAFL = "opentafl"  # OpenTafl's position record, ``/3ttt3/.../`` (tafl variants only)


class IllegalPolicy(LeanStrEnum):
    """What ``convert`` does with a setup that breaks its variant's rules."""

    REFUSE = "refuse"  # report the problems, write nothing
    REPAIR = "repair"  # drop bad castling rights and implausible en passant squares, warn


class PieceLetters(LeanStrEnum):
    """Which letters name a variant's pieces (``Variant.spellings``); a variant without the
    chosen spelling is written with its own letters."""

    STANDARD = "standard"  # the variant's own letters (FEN; for Xiangqi: UCCI, Fairy-Stockfish)
    WXF = "wxf"  # the WXF file-format notes' Xiangqi letters: h horse, e elephant


class SideLetters(LeanStrEnum):
    """Which letters say whose move it is; a variant without the chosen pair writes ``w``/``b``."""

    WB = "wb"  # ``w`` for the side that starts (Xiangqi's red), ``b`` for the other
    RB = "rb"  # CXBoard's Xiangqi: ``r`` red, ``b`` black


class FieldLayout(LeanStrEnum):
    """Which fields a FEN has; a variant without the chosen layout is written in six fields."""

    FULL = "full"  # placement, side, castling, en passant, halfmove, fullmove
    CFEN = "cfen"  # CXBoard's CFEN: placement, side to move, move number
