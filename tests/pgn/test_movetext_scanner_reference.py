"""The movetext scanner (a loop over characters, compiled with mypyc) against its grammar
written as one regular expression: the scanner this project first had, kept here as the
reference. On any text, from any start, within any budget, both cut the same tokens and stop
at the same place."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from notation.pgn.movetext import GLYPHS, KINDS, T_END, TOO_DEEP, TOO_LONG, Budget, Scanner, TokenKind, scan

_END = r"(?=[\s(){};$!?]|\Z)"
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
    "comment": TokenKind.COMMENT, "line": TokenKind.LINE_COMMENT, "escape": TokenKind.ESCAPE,
    "open": TokenKind.OPEN, "close": TokenKind.CLOSE, "nag": TokenKind.NAG, "glyph": TokenKind.GLYPH,
    "result": TokenKind.RESULT, "number": TokenKind.NUMBER, "word": TokenKind.MOVE, "other": TokenKind.MOVE,
}


def _at_line_start(text: str, offset: int, floor: int) -> bool:
    index = offset - 1
    while index >= floor:
        if text[index] in "\r\n":
            return True
        if text[index] not in " \t":
            return False
        index -= 1
    return floor == 0 or text[floor - 1] in "\r\n"


def reference(text: str, start: int, budget: Budget) -> tuple[list[tuple[str, int, int]], tuple[str, int] | None]:
    """The tokens of ``text[start:]`` as (kind, start, end), and where a budget stopped it."""
    tokens: list[tuple[str, int, int]] = []
    depth = 0
    pos = start
    while True:
        found = _SCAN.match(text, pos)
        if found is None:
            return tokens, None
        group = found.lastgroup
        begin, end = found.start(group), found.end()
        kind = _KINDS[group]
        if kind is TokenKind.ESCAPE and not _at_line_start(text, begin, start):
            kind = TokenKind.MOVE
            word = _WORD.match(text, begin + 1)
            end = begin + 1 if word is None else word.end()
        elif kind is TokenKind.MOVE and text[begin:end] in GLYPHS:
            kind = TokenKind.GLYPH
        elif kind is TokenKind.OPEN:
            depth += 1
            if depth > budget.max_depth:
                return tokens, (TOO_DEEP, begin)
        elif kind is TokenKind.CLOSE and depth:
            depth -= 1
        if len(tokens) >= budget.max_tokens:
            return tokens, (TOO_LONG, begin)
        tokens.append((kind.value, begin, end))
        pos = end


def ours(text: str, start: int, budget: Budget) -> tuple[list[tuple[str, int, int]], tuple[str, int] | None]:
    found = scan(text, start, budget)
    overflow = None if found.overflow is None else (found.overflow.code, found.overflow.offset)
    return [(t.kind.value, t.start, t.end) for t in found.tokens], overflow


CHARS = st.sampled_from(list("eNBRQKxabcdh1234567890=+#-!?$(){};%*/.O@ \n\r\t\u00a0\u2026\u0663\x1cZ}"))
PIECES = st.sampled_from([
    "1-0", "0-1", "1/2-1/2", "*", "1/2", "12.", "12.5", "12.55", "1...", "…", "e4", "N", "+-", "=", "+/=", "∞",
    "%", "%x", "$", "$12", "{c}", "{", "}", "(", ")", ";c", "!?", "0-0", "1-0x", "\u0663", "12\u0663.", "0000",
    "Z0", "--", "N@f3", "1.e4", "C2.5",
])
SEPARATORS = st.sampled_from([" ", "", "\n", "\r\n", "\r", "\t", "\u00a0", "(", ")", "\n% e\n"])


@pytest.mark.slow
@settings(max_examples=examples(1500))
@given(st.text(CHARS, max_size=80) | st.text(max_size=60), st.integers(0, 6), st.integers(0, 40),
       st.integers(0, 6))
def test_any_text_scans_as_the_grammar_says(text, start, max_tokens, max_depth):
    start = min(start, len(text))
    budget = Budget(max_tokens, max_depth)
    assert ours(text, start, budget) == reference(text, start, budget)


@pytest.mark.slow
@settings(max_examples=examples(1500))
@given(st.lists(st.tuples(PIECES, SEPARATORS), max_size=24))
def test_movetext_like_text_scans_as_the_grammar_says(parts):
    text = "".join(piece + separator for piece, separator in parts)
    assert ours(text, 0, Budget()) == reference(text, 0, Budget())


def test_the_scanner_hands_out_codes_and_spans():
    text = "1. e4 {c} (1. d4) *"
    scanner = Scanner(text)
    seen = []
    kind = scanner.next()
    while kind != T_END:
        seen.append((KINDS[kind].value, text[scanner.start:scanner.end]))
        kind = scanner.next()
    assert seen == [("number", "1."), ("move", "e4"), ("comment", "{c}"), ("open", "("), ("number", "1."),
                    ("move", "d4"), ("close", ")"), ("result", "*")]
    assert scanner.count == 8 and scanner.overflow is None
    assert scanner.next() == T_END  # and stays there
