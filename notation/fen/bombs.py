"""The bomb field of itsyourturn Atomic FENs (variants with the ``BOMBS`` twist).

Each side designates one of its pieces as its "atomic bomb"; the bomb stays on that piece
and is gone once the piece is captured or detonated. The FEN carries the bombs in a
seventh field after the move counters, as chess.com appends its promoted squares: White's
bomb square then Black's, each a square or ``-`` for a side without a bomb, and ``-`` alone
when neither has one::

    rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 d1e8   both bombs
    ... 0 1 d1-      White's bomb on d1, Black's gone
    ... 0 1 -e8      Black's only
    ... 0 1 -        none (also what a FEN without the field is read as)

``split_bomb_field`` takes the field off a FEN's text (raises ``FenSyntaxError``, field
``bombs``, for one that is not of that shape); ``bomb_field`` writes it. Whether a bomb
stands on a piece of its side is ``notation.validation.bombs``'s question, not asked here.
"""

from __future__ import annotations

import functools
import re

from notation.errors import FenSyntaxError
from notation.squares import SQUARE_NAMES
from notation.variants import Twist, Variant

Bombs = tuple[int | None, int | None]
NO_BOMBS: Bombs = (None, None)
BOMB_FIELD_INDEX = 6  # the seventh whitespace-separated field
_ONE = r"(?:[a-h][1-8]|-)"
# Compiled on first use (re's own cache): only a bombs FEN reads them, and every command
# that reads a FEN imports this module.
_FIELD = rf"-|(?P<white>{_ONE})(?P<black>{_ONE})"
_TOKEN = r"\S+"
_SQUARE_INDEX = {name: index for index, name in enumerate(SQUARE_NAMES)}
EXPECTED = "bomb squares: White's then Black's, each a square or -, or - for none (d1e8, d1-, -e8, -)"


def split_bomb_field(text: str) -> tuple[str, Bombs]:
    """``text`` without its bomb field, and the bombs it names (``NO_BOMBS`` when the FEN
    has fewer than seven fields). Raises ``FenSyntaxError`` for a seventh field of the wrong
    shape or anything after it."""
    tokens = list(re.finditer(_TOKEN, text))
    if len(tokens) <= BOMB_FIELD_INDEX:
        return text, NO_BOMBS
    if len(tokens) > BOMB_FIELD_INDEX + 1:
        extra = tokens[BOMB_FIELD_INDEX + 1]
        raise FenSyntaxError(
            f"unexpected {extra.group()!r} after the bomb field", field="end", column=extra.start() + 1
        )
    token = tokens[BOMB_FIELD_INDEX]
    match = re.fullmatch(_FIELD, token.group())
    if match is None:
        raise FenSyntaxError(
            f"expected {EXPECTED}; found {token.group()!r}", field="bombs", column=token.start() + 1, expected=EXPECTED
        )
    rest = text[: token.start()].rstrip()
    if match.group() == "-":
        return rest, NO_BOMBS
    white, black = match.group("white"), match.group("black")
    return rest, (_SQUARE_INDEX.get(white), _SQUARE_INDEX.get(black))


@functools.lru_cache(maxsize=16)
def without_bombs(variant: Variant) -> Variant:
    """``variant`` without the ``BOMBS`` twist: how the rest of its FEN is read."""
    return variant.replace(twists=variant.twists - {Twist.BOMBS})


def bomb_field(bombs: Bombs | None) -> str:
    """The bomb field for ``bombs`` (``-`` for none)."""
    white, black = bombs or NO_BOMBS
    if white is None and black is None:
        return "-"
    return (SQUARE_NAMES[white] if white is not None else "-") + (SQUARE_NAMES[black] if black is not None else "-")
