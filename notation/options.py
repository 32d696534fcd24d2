"""The option enums: how each part of a FEN is spelled, and what convert does with an
illegal setup.

They sit below every other module (they import nothing of the package), so the FEN
reader and writer, the rules (``EnPassantMode``), the operations (``IllegalPolicy``) and
the front ends all take them from here. ``fen/dialect.py`` uses ``PocketStyle`` and
``CheckStyle`` to say what the reader saw; ``fen/profiles.py`` bundles the writer's
choices into ``WriteOptions``.
"""

from __future__ import annotations

import enum


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


class PositionNotation(str, enum.Enum):
    """Which notation a position is written in."""

    FEN = "fen"  # FEN, or the FEN-style form of a non-chess variant (placement, side, ...)
    OPENTAFL = "opentafl"  # OpenTafl's position record, ``/3ttt3/.../`` (tafl variants only)


class IllegalPolicy(str, enum.Enum):
    """What ``convert`` does with a setup that breaks its variant's rules."""

    REFUSE = "refuse"  # report the problems, write nothing
    REPAIR = "repair"  # drop bad castling rights and implausible en passant squares, warn


class PieceLetters(str, enum.Enum):
    """Which letters name a variant's pieces (``Variant.spellings``); a variant without the
    chosen spelling is written with its own letters."""

    STANDARD = "standard"  # the variant's own letters (FEN; for Xiangqi: UCCI, Fairy-Stockfish)
    WXF = "wxf"  # the WXF file-format notes' Xiangqi letters: h horse, e elephant


class MoveLanguage(str, enum.Enum):
    """Which language's letters name the pieces in chess-family moves (``--piece-letters``):
    English, the PGN standard's, unless asked (``notation.moves.chess.PIECE_LETTERS``)."""

    EN = "en"  # K Q R B N (P): king, queen, rook, bishop, knight (pawn)
    DE = "de"  # K D T L S B: König, Dame, Turm, Läufer, Springer, Bauer
    FR = "fr"  # R D T F C P: roi, dame, tour, fou, cavalier, pion
    ES = "es"  # R D T A C P: rey, dama, torre, alfil, caballo, peón
    IT = "it"  # R D T A C P: re, donna, torre, alfiere, cavallo, pedone
    NL = "nl"  # K D T L P: koning, dame, toren, loper, paard (a pawn has no letter)
    PT = "pt"  # R D T B C P: rei, dama, torre, bispo, cavalo, peão
    SV = "sv"  # K D T L S B: kung, dam, torn, löpare, springare, bonde
    PL = "pl"  # K H W G S P: król, hetman, wieża, goniec, skoczek, pion
    CS = "cs"  # K D V S J P: král, dáma, věž, střelec, jezdec, pěšec


class SideLetters(str, enum.Enum):
    """Which letters say whose move it is; a variant without the chosen pair writes ``w``/``b``."""

    WB = "wb"  # ``w`` for the side that starts (Xiangqi's red), ``b`` for the other
    RB = "rb"  # CXBoard's Xiangqi: ``r`` red, ``b`` black


class FieldLayout(str, enum.Enum):
    """Which fields a FEN has; a variant without the chosen layout is written in six fields."""

    FULL = "full"  # placement, side, castling, en passant, halfmove, fullmove
    CFEN = "cfen"  # CXBoard's CFEN: placement, side to move, move number


class MoveNotation(str, enum.Enum):
    """How one move is written (``notation.moves``); each rule family reads and writes its own."""

    SAN = "san"  # Standard Algebraic Notation (PGN standard 8.2.3): ``Nf3``, ``O-O``, ``exd8=Q+``, ``N@f3``
    LAN = "lan"  # long algebraic: ``Ng1-f3``, ``e7xd8=Q+``, ``O-O``
    UCI = "uci"  # the UCI protocol: ``g1f3``, ``e7d8q``, ``N@f3``; Xiangqi ranks 1-10 (Fairy-Stockfish)
    ICCS = "iccs"  # Xiangqi's ICCS/UCCI: files a-i, ranks 0-9 (``h2e2``)
    WXF = "wxf"  # Xiangqi's WXF notation: ``C2.5``, ``H8+7``
    OPENTAFL = "opentafl"  # the OpenTafl notation specification: ``e5-e8xe9``


class CastlingMode(str, enum.Enum):
    """How castling is written in UCI, and whether a position is played as Chess960."""

    STANDARD = "standard"  # ``e1g1``: the king's own two-square step (the UCI protocol's default)
    CHESS960 = "chess960"  # ``e1h1``: the king takes its own rook (the UCI protocol's UCI_Chess960)
