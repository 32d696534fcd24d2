"""Legal positions and moves of every variant: the layer between the validated ``Setup``
and the notations (``notation.moves``).

``legal_position(setup, variant)`` validates the setup once and returns its rule family's
``GamePosition`` (``legal_moves()``, ``play()``, ``outcome()``); ``start_position(variant)``
is the variant's start. Raises ``IllegalSetupError`` (every problem of the setup) and
``UnknownVariantError``.
"""

from __future__ import annotations

from notation.errors import IllegalSetupError
from notation.game.family import GamePosition
from notation.game.move import Move, MoveKind
from notation.game.outcome import EndReason, Outcome
from notation.game.perft import MAX_DEPTH, divide, perft
from notation.move_options import CastlingMode
from notation.setup import Setup
from notation.validation import FINISHED_GAME_CODES, validate
from notation.variants import RuleFamily, Variant, find_variant

__all__ = [
    "MAX_DEPTH", "EndReason", "GamePosition", "Move", "MoveKind", "Outcome", "divide", "legal_position", "perft",
    "start_position",
]


def legal_position(
    setup: Setup,
    variant: Variant | str,
    *,
    castling: CastlingMode = CastlingMode.STANDARD,
    accept: frozenset[str] = frozenset(),
) -> GamePosition:
    """The legal position of ``setup`` in ``variant``, validated here and only here.

    ``castling`` says whether the game is played as Chess960 (it changes how castling is
    written in UCI; the moves are the same). A setup that says the game is already over
    (a captured king) is legal and has no moves. Codes in ``accept`` are let through
    (the position is then built as it stands). Raises ``IllegalSetupError`` with every
    problem, ``UnknownVariantError`` for an unknown name, ``ValueError`` for a chess-family
    variant the generator does not play (a custom registry's: a board other than 8x8, or
    more than seven piece kinds; every built-in chess-family variant is played).
    """
    found = find_variant(variant)
    errors = [p for p in validate(setup, found) if p.code not in FINISHED_GAME_CODES and p.code not in accept]
    if errors:
        raise IllegalSetupError(errors)
    if found.family is RuleFamily.XIANGQI:
        from notation.game.xiangqi import XiangqiPosition

        return XiangqiPosition(setup, found)
    if found.family is RuleFamily.TAFL:
        from notation.game.tafl import TaflPosition

        return TaflPosition(setup, found)
    from notation.game.chess.position import ChessPosition

    return ChessPosition.from_setup(setup, found, castling)


def start_position(variant: Variant | str, *, castling: CastlingMode = CastlingMode.STANDARD) -> GamePosition:
    """The variant's start position (``Variant.start_fen``)."""
    from notation.fen.reader import read_fen

    found = find_variant(variant)
    return legal_position(read_fen(found.start_fen, found).setup, found, castling=castling)
