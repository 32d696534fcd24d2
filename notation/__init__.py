"""notation: read, validate and rewrite the FEN and PGN notation of chess variants."""

__version__ = "0.1.0"
