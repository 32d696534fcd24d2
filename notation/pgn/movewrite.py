"""Writing the moves of a game again, in one notation: ``MoveWriter``.

``notation normalize --moves san|lan|uci|iccs|wxf|opentafl`` rewrites each move with the
move layer's ``write_move`` (``notation.moves``), in the notation asked for, whatever it was
read in. A profile may say how it writes pawn drops in SAN and LAN (lichess: ``P@e4``;
python-chess and the others: ``@e4``; ``PAWN_DROPS``).

One shortcut, for speed: a chess move read as SAN with no lenient reading (no warning) is
already what the writer writes, so its text is kept without writing it again, except for
what the SAN reader takes without a warning and the writer spells otherwise: drops (``P@e4``
and ``@e4`` are both standard) and null moves (``Z0``, ``--``); a pawn move lettered ``P``
(``Pe4``) is read with a warning, so it is written again. tests/pgn/test_movetext_rewrite.py
holds the writer to this on every reading of the move layer's table. A second, for any
notation: a chess move the caller has played (``after``, the position it leads to, as the
movetext walk passes it) is written without asking again whether it is legal, and its check
mark is ``after``'s (``moves.chess.write_played``), which the reader has mostly found already.

A novelty mark or an evaluation sign glued to a move (``Bb5N``, ``Nf3⩲``: the move layer's
``novelty-mark`` and ``glued-evaluation``) is kept: the move written anew is followed, after
a space, by the NAG the sign stands for (``Nf3 $14``, ``Bb5 $146``; the PGN standard's NAG
table, section 10), or by the sign as written where its NAG depends on the side it favours
(``Qh5 →``).

Nothing here raises on a legal move; a notation the variant's family does not write is
``available`` False (the caller keeps that game's moves as read).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final, cast

from notation.game.chess.position import ChessPosition
from notation.game.family import GamePosition
from notation.game.move import Move, MoveKind
from notation.move_options import MoveNotation
from notation.moves import ReadMove, notations_of, write_move
from notation.moves.chess import PawnDrop, write_played
from notation.moves.chess import write_move as write_chess_move
from notation.variants import Variant

# How each profile writes a pawn drop in SAN and LAN; profiles not listed write "@e4".
PAWN_DROPS: Final[Mapping[str, PawnDrop]] = MappingProxyType({"lichess": PawnDrop.LETTERED})

# Enum members bound once, compared with ``is`` (compiled, a C static each).
_NORMAL: Final = MoveKind.NORMAL
_EN_PASSANT: Final = MoveKind.EN_PASSANT
_CASTLE: Final = MoveKind.CASTLE
_SAN: Final = MoveNotation.SAN
_UCI: Final = MoveNotation.UCI
_BARE: Final = PawnDrop.BARE


class MoveWriter:
    """Writes moves in ``notation``; ``pawn_drop`` says how SAN and LAN write pawn drops."""

    __slots__ = ("notation", "pawn_drop", "_clean_is_written", "_families")

    notation: MoveNotation
    pawn_drop: PawnDrop

    def __init__(self, notation: MoveNotation, pawn_drop: PawnDrop = _BARE) -> None:
        self.notation = notation
        self.pawn_drop = pawn_drop
        self._clean_is_written = notation is _SAN
        # ``available``'s answers by the id of a rule family (its members are singletons):
        # asked once a game, where ``notations_of`` is Python code.
        self._families: dict[int, bool] = {}

    def available(self, variant: Variant) -> bool:
        """Whether the variant's family writes this notation."""
        family = id(variant.family)
        known = self._families.get(family)
        if known is None:
            known = self._families[family] = self.notation in notations_of(variant)
        return known

    def write(self, position: GamePosition, read: ReadMove, written: str, read_as_san: bool,
              after: GamePosition | None = None) -> str:
        """The text of ``read.move`` (legal in ``position``) in this notation, with the
        annotations glued to it when read (``Nf3⩲``) written apart after it (``Nf3 $14``).
        ``written`` is the move's text as read (check marks included), ``read_as_san``
        whether it was read as SAN (the reader's warnings then say where it differs from SAN);
        ``after``, where the caller has played the move, the position it leads to."""
        text = self.move_text(position, read, written, read_as_san, after)
        if not read.noted:  # a repair flagged (``read.repairs``) has no annotation
            return text
        annotations: list[str] = []
        for warning in read.noted:  # a lenient reading: it may have had annotations glued on
            annotation = warning.extra.get("annotation")
            if isinstance(annotation, str) and annotation not in annotations:
                annotations.append(annotation)
        for annotation in annotations:
            text = f"{text} {annotation}"
        return text

    def move_text(self, position: GamePosition, read: ReadMove, written: str, read_as_san: bool,
                  after: GamePosition | None = None) -> str:
        """The move alone, as ``write`` writes it but without the annotations read with it."""
        return self.clean_text(position, read.move, written, read_as_san and not read.any_warning(), after)

    def clean_text(self, position: GamePosition, move: Move, written: str, read_as_san: bool,
                   after: GamePosition | None = None) -> str:
        """``write`` for a move read with no warning (so with no annotation glued to it),
        given as the bare ``Move``: the walk's plain SAN reading makes no ``ReadMove``."""
        if self._clean_is_written and read_as_san and not written.startswith("P"):
            kind = move.kind
            if kind is _NORMAL or kind is _EN_PASSANT or kind is _CASTLE:
                return written
        if isinstance(position, ChessPosition):  # the chess family (a type test: the variant's family is a look-up)
            if after is not None:  # played: neither its legality nor its check is looked for again
                return write_played(position, move, cast(ChessPosition, after), self.notation, self.pawn_drop)
            if self.notation is not _UCI:
                return write_chess_move(position, move, self.notation, pawn_drop=self.pawn_drop)
        return write_move(position, move, self.notation)


def writer_for(notation: MoveNotation, profile: str) -> MoveWriter:
    """The writer of ``notation`` as ``profile`` writes it."""
    return MoveWriter(notation, PAWN_DROPS.get(profile, _BARE))
