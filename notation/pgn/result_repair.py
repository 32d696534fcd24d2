"""``--fix-results``: the result a game states, made to agree with itself and with its moves.

A game states its result twice, in its ``Result`` tag and in the result token ending its
movetext (the PGN standard, sections 8.1.1.7 and 8.2.6), and its moves may reach a decided
end. ``stated_result`` says what both should say:

1. the decided end, when the main line reaches one (``GamePosition.outcome()``: a mate, a
   stalemate as the variant scores it, a variant's own win: an exploded king, the third
   check, the hill, the race, a side with no pieces, a Xiangqi general or a tafl king
   taken or escaped);
2. else the token, when it gives a decided result (``1-0``, ``0-1``, ``1/2-1/2``): the
   movetext's own end, as pgn-extract's ``--fixresulttags`` prefers the terminating result;
3. else the tag, when it gives a decided result and the token says ``*`` or is missing
   (``*`` says only that the result is unknown, so a decided result wins over it: here
   pgn-extract keeps the token's ``*``, which would lose what the tag says);
4. else ``*`` where either says ``*``, and nothing where neither says anything.

A tag value that is no result (``white wins``) counts as none. Nothing here raises.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from notation.game.outcome import Outcome
from notation.pgn.movetext import DEFAULT_BUDGET, T_CLOSE, T_END, T_OPEN, T_RESULT, Budget, Scanner, canonical_result

DECIDED: Final = ("1-0", "0-1", "1/2-1/2")
RESULTS: Final = DECIDED + ("*",)


class Stated(NamedTuple):
    """The result a game should state, and why (for the report)."""

    result: str
    why: str


class ResultToken(NamedTuple):
    """The result token ending a game's main line: its span and its value as the standard
    spells it."""

    start: int
    end: int
    value: str


def main_result(text: str, begin: int, budget: Budget = DEFAULT_BUDGET) -> ResultToken | None:
    """The last result token outside any variation in ``text[begin:]``, or None."""
    scanner = Scanner(text, begin, budget)
    depth = 0
    found: ResultToken | None = None
    kind = scanner.next()
    while kind != T_END:
        if kind == T_OPEN:
            depth += 1
        elif kind == T_CLOSE:
            depth = max(0, depth - 1)
        elif kind == T_RESULT and depth == 0:
            found = ResultToken(scanner.start, scanner.end, canonical_result(text[scanner.start:scanner.end]))
        kind = scanner.next()
    return found


def stated_result(tag: str | None, token: str | None, outcome: Outcome | None) -> Stated | None:
    """What the game's tag and token should both say (the module doc's rules), or None
    when nothing says anything."""
    if outcome is not None:
        return Stated(outcome.result, f"the moves end in {outcome.reason.value}")
    tag = tag.strip() if tag is not None else None
    if token in DECIDED:
        return Stated(token, "the result token says so")
    if tag in DECIDED:
        return Stated(tag, "the Result tag says so")
    if token == "*" or tag == "*" or (tag is not None and token is None):
        return Stated("*", "the result is unknown")
    return None
