"""notation: read, validate and rewrite the FEN and PGN notation of chess variants.

    >>> import notation
    >>> read = notation.read_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1", "zh")
    >>> read.dialect.pockets.value
    'rank-zero'
    >>> notation.write_fen(read.setup, read.variant, notation.profile("xboard")).fen
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[-] w KQkq - 0 1'
"""

from notation.errors import FenSyntaxError, IllegalSetupError, NotationError, Problem, UnknownVariantError
from notation.fen.dialect import Dialect
from notation.fen.profiles import DEFAULT_PROFILE, PROFILES, WriteOptions, resolve_options
from notation.fen.reader import ReadResult, read_fen
from notation.fen.writer import WriteResult, write_fen
from notation.operations import ConvertResult, ValidateResult, convert_fen, read_legal, validate_fen
from notation.options import CastlingStyle, CheckStyle, EmptyPocket, EnPassantMode, IllegalPolicy, PocketStyle
from notation.setup import Pockets, Setup
from notation.validation import repair, validate
from notation.variants import DEFAULT_REGISTRY, Registry, Variant, find_variant

__version__ = "0.1.0"


def profile(name: str) -> WriteOptions:
    """The writer options of a named profile (``lichess``, ``xboard``, ...); raises ``ValueError``."""
    return resolve_options(name)


__all__ = [
    "CastlingStyle", "CheckStyle", "ConvertResult", "DEFAULT_PROFILE", "DEFAULT_REGISTRY", "Dialect",
    "EmptyPocket", "EnPassantMode", "FenSyntaxError", "IllegalPolicy", "IllegalSetupError",
    "NotationError", "PROFILES", "PocketStyle", "Pockets", "Problem", "ReadResult", "Registry",
    "Setup", "UnknownVariantError", "ValidateResult", "Variant", "WriteOptions", "WriteResult",
    "convert_fen", "find_variant", "profile", "read_fen", "read_legal", "repair", "resolve_options", "validate",
    "validate_fen", "write_fen",
]
