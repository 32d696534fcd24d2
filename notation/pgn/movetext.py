"""The tokens of PGN movetext, each with its exact span in the game's text.

``scan(text, start, budget)`` cuts the movetext of one game (from ``start``, where
``movetext_start`` says the tags end) into ``Token(kind, start, end)``: offsets into
``text``, so that a rewrite replaces the spans of the moves it changes and copies every
other character as it was. Whitespace between tokens is not a token; nothing is dropped.

What it reads, as the PGN standard writes it and as real files bend it:

- ``MOVE``: any other run of characters up to a space, ``{ } ( ) ; $ ! ?``: SAN, LAN, UCI,
  Xiangqi's WXF and ICCS, OpenTafl records, null moves (``--``, ``Z0``), and anything
  unreadable (the move reader decides; it is a move here). Check marks stay on the move;
  annotation glyphs after it are tokens of their own (``e4!?`` is ``e4`` then ``!?``).
- ``NUMBER``: move numbers ``12.``, ``12...``, ``12`` (no period: the standard's import
  format), ``12…``, also glued to their move (``1.e4``), and periods standing alone
  (``12. ... Nf6``). Digits with periods that end in one digit (``12.5``) are a move:
  Xiangqi's WXF numbers pieces from the front and some files write its ``=`` as ``.``.
  A number never starts with ``0`` (``0000`` is UCI's null move).
- ``COMMENT`` (``{...}``, verbatim, ``[%clk ...]`` and ``[%eval ...]`` included; one never
  closed runs to the end), ``LINE_COMMENT`` (``;`` to the end of its line), ``ESCAPE``
  (a line whose first character after spaces is ``%``; elsewhere ``%`` is part of a move).
- ``NAG`` (``$1``), ``GLYPH`` (``!``, ``?``, ``!!``, ``??``, ``!?``, ``?!``, and the
  evaluation signs some editors write: ``+-``, ``=``, ``+/=`` ...: ``GLYPHS``).
- ``OPEN`` and ``CLOSE``: ``(`` and ``)`` of a variation; ``RESULT``: ``1-0``, ``0-1``,
  ``1/2-1/2``, ``*``.

The budget (``Budget``) bounds the work on hostile input: at most ``max_tokens`` tokens and
variations nested at most ``max_depth`` deep; the scan stops at the first token past either
and says where (``Scan.overflow``). Nothing here raises on bad input, nor judges whether
parentheses pair up (``movewalk`` does).

Why a scanner and not a grammar: a database holds millions of games, and most of their
characters are movetext. One compiled regular expression matched at each token (its
alternatives tried in C) costs 0.9 microseconds a token on bench/bench_pgn.py's games; a
pyparsing grammar of the same tokens (as the FEN reader's slow path is built) took 8.2 in
the same run, before building any tree, and a tree is not needed: a rewrite splices spans.
The cases that need judgement (escape lines, glyph words) are a few lines of Python after
the match.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import NamedTuple

from notation.pgn.lines import line_breaks


class TokenKind(str, enum.Enum):
    """What a token is; the value is its name in fixtures and reports."""

    MOVE = "move"
    NUMBER = "number"
    COMMENT = "comment"
    LINE_COMMENT = "line-comment"
    ESCAPE = "escape"
    NAG = "nag"
    GLYPH = "glyph"
    OPEN = "open"
    CLOSE = "close"
    RESULT = "result"


MOVE, NUMBER, COMMENT, LINE_COMMENT, ESCAPE = (
    TokenKind.MOVE, TokenKind.NUMBER, TokenKind.COMMENT, TokenKind.LINE_COMMENT, TokenKind.ESCAPE,
)
NAG, GLYPH, OPEN, CLOSE, RESULT = TokenKind.NAG, TokenKind.GLYPH, TokenKind.OPEN, TokenKind.CLOSE, TokenKind.RESULT


class Token(NamedTuple):
    """One token: its kind and its span ``text[start:end]`` in the game's text."""

    kind: TokenKind
    start: int
    end: int


# Evaluation signs written as words (the NAG table's symbols, as editors print them); the
# suffix glyphs !, ?, !!, ??, !?, ?! are matched by the scanner itself.
GLYPHS = frozenset({
    "+-", "-+", "+/-", "-/+", "+/=", "=/+", "+=", "=+", "=", "=/∞", "∞", "±", "∓", "⩲", "⩱", "□", "N",
})

TOO_LONG = "pgn-movetext-too-long"
TOO_DEEP = "pgn-movetext-too-deep"


@dataclass(frozen=True)
class Budget:
    """How much one game's movetext may hold: tokens, and variations nested in variations."""

    max_tokens: int = 100_000
    max_depth: int = 100


DEFAULT_BUDGET = Budget()


class Overflow(NamedTuple):
    """Where a scan stopped for its budget: ``code`` (``TOO_LONG`` or ``TOO_DEEP``), the
    offset of the first token not read, and a message."""

    code: str
    offset: int
    message: str


class Scan(NamedTuple):
    """The tokens read, in order, and the overflow that stopped the scan (None: all read)."""

    tokens: list[Token]
    overflow: Overflow | None


_END = r"(?=[\s(){};$!?]|\Z)"  # where a word ends
_SCAN = re.compile(
    r"\s*+(?:"
    r"(?P<comment>\{[^}]*+\}?)"
    r"|(?P<line>;[^\r\n]*+)"
    r"|(?P<escape>%[^\r\n]*+)"
    r"|(?P<open>\()"
    r"|(?P<close>\))"
    r"|(?P<nag>\$\d++)"
    r"|(?P<glyph>[!?]++)"
    r"|(?P<result>(?:1-0|0-1|1/2-1/2|\*)" + _END + r")"
    r"|(?P<number>[1-9]\d*+(?:[.\u2026]++(?![1-9]" + _END + r")|" + _END + r")|[.\u2026]++)"
    r"|(?P<word>[^\s(){};$!?]++)"
    r"|(?P<other>.)"
    r")",
    re.S,
)
_WORD = re.compile(r"[^\s(){};$!?]++")
_KINDS = {
    "comment": COMMENT, "line": LINE_COMMENT, "escape": ESCAPE, "open": OPEN, "close": CLOSE, "nag": NAG,
    "glyph": GLYPH, "result": RESULT, "number": NUMBER, "word": MOVE, "other": MOVE,
}
# The tag section of a game: leading lines that are blank or start with "[" (a byte order
# mark may come first).
_HEADER = re.compile(r"(?:[ \t\ufeff]*+(?:\[[^\r\n]*+)?(?:\r\n|\r|\n))*+")


def movetext_start(text: str) -> int:
    """Where a game's movetext starts: after its leading tag lines and blank lines."""
    end = _HEADER.match(text).end()  # type: ignore[union-attr]  # it matches the empty string
    if text[end:].lstrip(" \t\ufeff").startswith("["):
        return len(text)  # a last tag line without a line end: no movetext
    return end


def _at_line_start(text: str, offset: int, floor: int) -> bool:
    """Whether only spaces or tabs stand between ``offset`` and the line's start."""
    index = offset - 1
    while index >= floor:
        char = text[index]
        if char == "\n" or char == "\r":
            return True
        if char != " " and char != "\t":
            return False
        index -= 1
    return floor == 0 or text[floor - 1] in "\r\n"


def scan(text: str, start: int = 0, budget: Budget = DEFAULT_BUDGET) -> Scan:
    """The tokens of ``text[start:]`` (see the module doc); never raises."""
    tokens: list[Token] = []
    append = tokens.append
    match = _SCAN.match
    kinds = _KINDS
    max_tokens = budget.max_tokens
    max_depth = budget.max_depth
    depth = 0
    pos = start
    while True:
        found = match(text, pos)
        if found is None:
            return Scan(tokens, None)
        group = found.lastgroup
        begin = found.start(group)  # type: ignore[arg-type]
        end = found.end()
        kind = kinds[group]  # type: ignore[index]
        if kind is ESCAPE and not _at_line_start(text, begin, start):
            kind = MOVE  # "%" inside a line: a word like any other
            word = _WORD.match(text, begin + 1)
            end = begin + 1 if word is None else word.end()
        elif kind is MOVE and text[begin:end] in GLYPHS:
            kind = GLYPH
        elif kind is OPEN:
            depth += 1
            if depth > max_depth:
                return Scan(tokens, Overflow(TOO_DEEP, begin, f"variations nested more than {max_depth} deep"))
        elif kind is CLOSE and depth:
            depth -= 1
        if len(tokens) >= max_tokens:
            return Scan(tokens, Overflow(TOO_LONG, begin, f"movetext of more than {max_tokens} tokens"))
        append(Token(kind, begin, end))
        pos = end


class Locator:
    """Line and column (1-based, in characters) of offsets in one game's text, lines
    counted as the splitter counts them (``\\r\\n``, ``\\n`` or a lone ``\\r``). Offsets
    asked in increasing order are counted on from the last one."""

    __slots__ = ("text", "first_line", "_offset", "_line")

    def __init__(self, text: str, first_line: int):
        self.text = text
        self.first_line = first_line
        self._offset = 0
        self._line = first_line

    def place(self, offset: int) -> tuple[int, int]:
        """``(line, column)`` of ``offset`` (a token's start: never inside a ``\\r\\n``)."""
        text = self.text
        if offset < self._offset:
            self._offset, self._line = 0, self.first_line
        self._line += line_breaks(text[self._offset:offset])
        self._offset = offset
        line_start = max(text.rfind("\n", 0, offset), text.rfind("\r", 0, offset)) + 1
        return self._line, offset - line_start + 1
