"""The movetext scanner: the token table, spans that lose nothing, the budget, placing offsets."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples
from paths import ROOT

from notation.pgn.movetext import (
    TOO_DEEP,
    TOO_LONG,
    Budget,
    Locator,
    TokenKind,
    movetext_place,
    movetext_start,
    scan,
)

FIXTURES = ROOT / "fixtures" / "pgn" / "movetext"
CASES = json.loads((FIXTURES / "tokens.json").read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_token_table(case):
    text = case["movetext"]
    found = scan(text)
    assert found.overflow is None
    assert [[t.kind.value, text[t.start:t.end]] for t in found.tokens] == case["tokens"]


def _gaps_are_space(text: str, start: int, tokens) -> bool:
    at = start
    for token in tokens:
        if text[at:token.start].strip():
            return False
        assert token.start >= at and token.end > token.start
        at = token.end
    return not text[at:].strip()


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_spans_and_the_space_between_them_are_the_text(case):
    text = case["movetext"]
    assert _gaps_are_space(text, 0, scan(text).tokens)


MOVETEXT_CHARS = st.sampled_from(list("eNBRQKxabcdh12345678=+#-!?$(){};%*/.O0@ \n\r\t\u00a0\u2026Z"))


@settings(max_examples=examples(300))
@given(st.text(MOVETEXT_CHARS, max_size=200) | st.text(max_size=120))
def test_any_text_scans_without_loss(text):
    found = scan(text)
    assert found.overflow is None
    assert _gaps_are_space(text, 0, found.tokens)


def test_movetext_starts_after_the_tags():
    text = '[Event "x"]\n[Site "y"] [Round "1"]\n\n1. e4 *\n'
    assert text[movetext_start(text):] == "1. e4 *\n"
    assert movetext_start('[Event "x"]') == len('[Event "x"]')  # tags only, no line end
    assert movetext_start("1. e4 *") == 0  # a game without tags
    assert movetext_start('\ufeff[Event "x"]\r\n\r\n1. d4 *') == len('\ufeff[Event "x"]\r\n\r\n')


def test_an_escape_line_only_at_the_start_of_a_line():
    text = '[Event "x"]\n\n% escape\n1. e4 %x *'
    tokens = scan(text, movetext_start(text)).tokens
    assert [(t.kind, text[t.start:t.end]) for t in tokens] == [
        (TokenKind.ESCAPE, "% escape"), (TokenKind.NUMBER, "1."), (TokenKind.MOVE, "e4"), (TokenKind.MOVE, "%x"),
        (TokenKind.RESULT, "*"),
    ]


def test_the_token_budget_stops_the_scan_where_it_runs_out():
    text = "1. e4 e5 2. Nf3 Nc6 *"
    found = scan(text, budget=Budget(max_tokens=4))
    assert len(found.tokens) == 4
    assert found.overflow is not None and found.overflow.code == TOO_LONG
    assert text[found.overflow.offset:] == "Nf3 Nc6 *"  # tokens 1., e4, e5, 2. were read


@pytest.mark.parametrize("start, budget, expected", [
    (10**20, Budget(), []),  # past the end: nothing left
    (-10**20, Budget(), ["1.", "e4", "e5"]),  # before the start: from the start
    (0, Budget(max_tokens=10**30, max_depth=10**30), ["1.", "e4", "e5"]),  # past a machine word: no limit
    (0, Budget(max_tokens=-10**30), []),  # below nothing: nothing read
])
def test_offsets_and_budgets_out_of_range_read_as_their_nearest_end(start, budget, expected):
    # Compiled, offsets and budgets are machine words: out of their range is not an error.
    text = "1. e4 e5"
    found = scan(text, start, budget)
    assert [text[t.start:t.end] for t in found.tokens] == expected


def test_the_depth_budget_stops_at_the_first_parenthesis_too_deep():
    text = "1. e4 (1. d4 (1. c4 (1. Nf3))) *"
    found = scan(text, budget=Budget(max_depth=2))
    assert found.overflow is not None and found.overflow.code == TOO_DEEP
    assert text[found.overflow.offset:].startswith("(1. Nf3")
    assert scan(text, budget=Budget(max_depth=3)).overflow is None


def test_hostile_movetext_stays_within_the_budget():
    deep = "1. e4 " + "(" * 10_000 + ")" * 10_000 + " *"
    found = scan(deep)
    assert found.overflow is not None and found.overflow.code == TOO_DEEP
    assert len(found.tokens) <= Budget().max_depth + 3
    long_game = "1. e4 e5 " * 200_000
    found = scan(long_game)
    assert found.overflow is not None and found.overflow.code == TOO_LONG
    assert len(found.tokens) == Budget().max_tokens


def test_a_megabyte_comment_and_a_megabyte_token_are_one_token_each():
    comment = "{" + "x" * (1 << 20) + "}"
    word = "e" * (1 << 20)
    text = f"1. e4 {comment} {word} *"
    kinds = [t.kind for t in scan(text).tokens]
    assert kinds == [TokenKind.NUMBER, TokenKind.MOVE, TokenKind.COMMENT, TokenKind.MOVE, TokenKind.RESULT]


def test_locator_counts_lines_as_the_splitter_does():
    text = "a\r\nb\rc\nd e"
    locator = Locator(text, 10)
    assert locator.place(text.index("b")) == (11, 1)
    assert locator.place(text.index("c")) == (12, 1)
    assert locator.place(text.index("e")) == (13, 3)
    assert locator.place(0) == (10, 1)  # back to the start: counted afresh


def _reference_place(text: str, offset: int, first_line: int, first_column: int) -> tuple[int, int]:
    """Line and column counted afresh over a copy of the text before ``offset``."""
    before = text[:offset]
    line = first_line + before.count("\n") + before.count("\r") - before.count("\r\n")
    line_start = max(before.rfind("\n"), before.rfind("\r")) + 1
    return line, (offset + first_column if line_start == 0 else offset - line_start + 1)


@settings(max_examples=examples(300), deadline=None)
@given(
    pieces=st.lists(st.sampled_from(["e4", " ", "\n", "\r", "\r\n", "{c}", "\n\n", "\t"]), max_size=40),
    picks=st.lists(st.integers(min_value=0, max_value=10_000), max_size=12),
    first_line=st.integers(min_value=1, max_value=5),
    first_column=st.integers(min_value=1, max_value=5),
)
def test_locator_places_as_a_fresh_count_does(pieces, picks, first_line, first_column):
    # Offsets anywhere but inside a "\r\n" (a token's start never is), asked in any order.
    text = "".join(pieces)
    offsets = [i for i in range(len(text) + 1) if not (text[i - 1:i + 1] == "\r\n" and i > 0)]
    locator = Locator(text, first_line, first_column)
    for pick in picks:
        offset = offsets[pick % len(offsets)]
        assert locator.place(offset) == _reference_place(text, offset, first_line, first_column)


@settings(max_examples=examples(300), deadline=None)
@given(
    lines=st.lists(st.sampled_from(['[Event "x"]', '[Site "y"] ', "  ", "\ufeff[A \"b\"]", "", '[W "v"] 1. e4']),
                   max_size=6),
    ends=st.lists(st.sampled_from(["\n", "\r\n", "\r"]), min_size=6, max_size=6),
    movetext=st.sampled_from(["", "1. e4 e5\n2. Nf3 *", "1. d4\r\n*", "{c}\r1. c4 *"]),
    picks=st.lists(st.integers(min_value=0, max_value=10_000), max_size=8),
    first_column=st.integers(min_value=1, max_value=3),
)
def test_a_locator_counted_on_from_the_movetext_places_as_a_fresh_count(lines, ends, movetext, picks, first_column):
    # movetext_place counts the line breaks it steps over; a Locator told them places every
    # offset as one counting from the text's start does, offsets in the tags included.
    text = "".join(line + end for line, end in zip(lines, ends, strict=False)) + movetext
    begin, breaks = movetext_place(text)
    assert begin == movetext_start(text)
    assert 7 + breaks == _reference_place(text, begin, 7, first_column)[0]  # the line movetext starts on
    offsets = [i for i in range(len(text) + 1) if not (text[i - 1:i + 1] == "\r\n" and i > 0)]
    locator = Locator(text, 7, first_column, (begin, breaks))
    for pick in picks:
        offset = offsets[pick % len(offsets)]
        assert locator.place(offset) == _reference_place(text, offset, 7, first_column)
