"""The move option enums: how one move is written (``MoveNotation``), in which language's
piece letters (``MoveLanguage``), and how castling is written in UCI (``CastlingMode``).

Kept apart from ``notation.options`` (how a FEN is spelled): a command that reads and
writes only FENs defines none of these classes at start-up. They import nothing of the
package, so the move readers and writers, the PGN modules and the front ends all take them
from here.
"""

from __future__ import annotations

from notation.lean_enum import LeanStrEnum


class MoveLanguage(LeanStrEnum):
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


class MoveNotation(LeanStrEnum):
    """How one move is written (``notation.moves``); each rule family reads and writes its own."""

    SAN = "san"  # Standard Algebraic Notation (PGN standard 8.2.3): ``Nf3``, ``O-O``, ``exd8=Q+``, ``N@f3``
    LAN = "lan"  # long algebraic: ``Ng1-f3``, ``e7xd8=Q+``, ``O-O``
    UCI = "uci"  # the UCI protocol: ``g1f3``, ``e7d8q``, ``N@f3``; Xiangqi ranks 1-10 (Fairy-Stockfish)
    ICCS = "iccs"  # Xiangqi's ICCS/UCCI: files a-i, ranks 0-9 (``h2e2``)
    WXF = "wxf"  # Xiangqi's WXF notation: ``C2.5``, ``H8+7``
    OPENTAFL = "opentafl"  # the OpenTafl notation specification: ``e5-e8xe9``


class CastlingMode(LeanStrEnum):
    """How castling is written in UCI, and whether a position is played as Chess960."""

    STANDARD = "standard"  # ``e1g1``: the king's own two-square step (the UCI protocol's default)
    CHESS960 = "chess960"  # ``e1h1``: the king takes its own rook (the UCI protocol's UCI_Chess960)
