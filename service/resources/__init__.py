"""One blueprint per resource: meta (health, contract), variants, fen, pgn."""
