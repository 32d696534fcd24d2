"""The lines through two squares of the 8x8 board, as square-set words
(``notation.rules.square_set``): what the move generator (``notation.game.chess``) needs
for pins, check evasions and castling paths.

Apart from ``notation.rules.chess_attacks`` because only the generator reads them: two
tables of 64 x 64 words are built when it is first imported, not by every command that
reads a FEN. Nothing here raises for squares on the board.
"""

from __future__ import annotations

from typing import Final

from notation.rules.attacks import CHESS_TABLES
from notation.rules.square_set import words

# [a][b]: the whole line through a and b (0 if none); the squares strictly between them.
LINE: Final = tuple(words(row) for row in CHESS_TABLES.line)
BETWEEN: Final = tuple(words(row) for row in CHESS_TABLES.between)
