"""FEN in every dialect: grammar, reader, writer and producer profiles."""
