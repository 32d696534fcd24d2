"""notation: read, validate and rewrite the FEN and PGN notation of chess variants.

    >>> import notation
    >>> read = notation.read_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1", "zh")
    >>> read.dialect.pockets.value
    'rank-zero'
    >>> notation.write_fen(read.setup, read.variant, notation.profile("xboard")).fen
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[-] w KQkq - 0 1'
"""

from __future__ import annotations

import importlib

# typing.TYPE_CHECKING without importing typing: `notation --version` and `--help` need none of it.
TYPE_CHECKING = False

__version__ = "0.1.0"

# Each public name -> the module that defines it, imported when the name is first used
# (PEP 562): ``notation --version`` and a command needing a few modules load only those.
_EXPORTS = {
    "FenSyntaxError": "notation.errors",
    "IllegalSetupError": "notation.errors",
    "NotationError": "notation.errors",
    "Problem": "notation.errors",
    "UnknownVariantError": "notation.errors",
    "Dialect": "notation.fen.dialect",
    "DEFAULT_PROFILE": "notation.fen.profiles",
    "PROFILES": "notation.fen.profiles",
    "WriteOptions": "notation.fen.profiles",
    "resolve_options": "notation.fen.profiles",
    "ReadResult": "notation.fen.reader",
    "read_fen": "notation.fen.reader",
    "WriteResult": "notation.fen.writer",
    "write_fen": "notation.fen.writer",
    "ConvertResult": "notation.operations",
    "ValidateResult": "notation.operations",
    "convert_fen": "notation.operations",
    "read_legal": "notation.operations",
    "validate_fen": "notation.operations",
    "CastlingStyle": "notation.options",
    "CheckStyle": "notation.options",
    "EmptyPocket": "notation.options",
    "EnPassantMode": "notation.options",
    "IllegalPolicy": "notation.options",
    "PocketStyle": "notation.options",
    "Pockets": "notation.setup",
    "Setup": "notation.setup",
    "repair": "notation.validation",
    "validate": "notation.validation",
    "DEFAULT_REGISTRY": "notation.variants",
    "MoveError": "notation.errors",
    "EndReason": "notation.game",
    "GamePosition": "notation.game",
    "Move": "notation.game",
    "MoveKind": "notation.game",
    "Outcome": "notation.game",
    "legal_position": "notation.game",
    "ReadMove": "notation.moves",
    "read_move": "notation.moves",
    "write_move": "notation.moves",
    "CastlingMode": "notation.move_options",
    "MoveNotation": "notation.move_options",
    "count_perft": "notation.playing",
    "list_moves": "notation.playing",
    "open_position": "notation.playing",
    "play_moves": "notation.playing",
    "GameProblem": "notation.pgn.gameread",
    "PgnGame": "notation.pgn.gameread",
    "PlayedMove": "notation.pgn.gameread",
    "open_games": "notation.pgn.gameread",
    "read_games": "notation.pgn.gameread",
    "write_game": "notation.pgn.gamewrite",
    "Registry": "notation.variants",
    "Variant": "notation.variants",
    "find_variant": "notation.variants",
}

if TYPE_CHECKING:  # the same names, for type checkers and readers
    from typing import Any

    from notation.errors import (
        FenSyntaxError,
        IllegalSetupError,
        MoveError,
        NotationError,
        Problem,
        UnknownVariantError,
    )
    from notation.fen.dialect import Dialect
    from notation.fen.profiles import DEFAULT_PROFILE, PROFILES, WriteOptions, resolve_options
    from notation.fen.reader import ReadResult, read_fen
    from notation.fen.writer import WriteResult, write_fen
    from notation.game import EndReason, GamePosition, Move, MoveKind, Outcome, legal_position
    from notation.move_options import CastlingMode, MoveNotation
    from notation.moves import ReadMove, read_move, write_move
    from notation.operations import ConvertResult, ValidateResult, convert_fen, read_legal, validate_fen
    from notation.options import CastlingStyle, CheckStyle, EmptyPocket, EnPassantMode, IllegalPolicy, PocketStyle
    from notation.pgn.gameread import GameProblem, PgnGame, PlayedMove, open_games, read_games
    from notation.pgn.gamewrite import write_game
    from notation.playing import count_perft, list_moves, open_position, play_moves
    from notation.setup import Pockets, Setup
    from notation.validation import repair, validate
    from notation.variants import DEFAULT_REGISTRY, Registry, Variant, find_variant


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use and kept; ``AttributeError``
    for any other."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))


def profile(name: str) -> WriteOptions:
    """The writer options of a named profile (``lichess``, ``xboard``, ...); raises ``ValueError``."""
    from notation.fen.profiles import resolve_options

    return resolve_options(name)


__all__ = [
    "CastlingMode", "CastlingStyle", "CheckStyle", "ConvertResult", "DEFAULT_PROFILE", "DEFAULT_REGISTRY",
    "Dialect", "EmptyPocket", "EndReason", "EnPassantMode", "FenSyntaxError", "GamePosition", "GameProblem",
    "IllegalPolicy", "IllegalSetupError", "Move", "MoveError", "MoveKind", "MoveNotation", "NotationError",
    "Outcome", "PROFILES", "PgnGame", "PlayedMove", "PocketStyle", "Pockets", "Problem", "ReadMove", "ReadResult",
    "Registry", "Setup", "UnknownVariantError", "ValidateResult", "Variant", "WriteOptions", "WriteResult",
    "convert_fen", "count_perft", "find_variant", "legal_position", "list_moves", "open_games", "open_position",
    "play_moves", "profile", "read_fen", "read_games", "read_legal", "read_move", "repair", "resolve_options",
    "validate", "validate_fen", "write_fen", "write_game", "write_move",
]
