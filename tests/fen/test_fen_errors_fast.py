"""The reader's quick answer for a FEN cut short agrees with the grammar's.

A FEN missing its last required fields is the most common unreadable line (a truncated
copy, a halfmove clock without its fullmove number). The reader explains it without
running the pyparsing grammar (``_missing_field_error``); these tests hold that answer
to the grammar's own (``_grammar_parse_error``): same message, field, column and
expectation, on real cut-short FENs and on random cuts of every variant's start FEN.
So is a FEN whose four required fields are there and whose tail is wrong (a counter that
is no number, a halfmove clock without a fullmove number, a token no field takes:
``_tail_error``), on real wrong tails and on random tails after every variant's first four
fields.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from notation import DEFAULT_REGISTRY, read_fen
from notation.errors import FenSyntaxError
from notation.fen import reader
from notation.variants import RuleFamily

# Every variant whose FEN the grammar reads (an OpenTafl record has its own reader).
VARIANTS = [v for v in DEFAULT_REGISTRY if v.family is not RuleFamily.TAFL]
STANDARD = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
ODD_TOKENS = ["x", "W", "KQkqq", "e9", "-", "0", "12", "3+3", "+1+2", "abc", "Qb", "1234567890", "~", "[", "]", "w"]

# (variant, FEN, field, column): FENs users send cut short, answered without the grammar.
CUT_SHORT = [
    ("standard", STANDARD.rsplit(" ", 1)[0], "fullmove", 55),
    ("standard", STANDARD.rsplit(" ", 1)[0] + "  ", "fullmove", 57),
    ("standard", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", "en-passant", 51),
    ("standard", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\tw", "castling", 46),
    ("standard", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "turn", 44),
    ("standard", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x", "turn", 45),
    ("crazyhouse", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Pp] w KQkq", "en-passant", 55),
    ("crazyhouse", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Pp] w KQkq - 0", "fullmove", 59),
    ("threecheck", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 7", "fullmove", 55),
    ("xiangqi", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0", "fullmove", 68),
]


CRAZYHOUSE = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"
THREECHECK = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1"
XIANGQI = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
# (variant, FEN, field, column): wrong tails, answered without the grammar.
WRONG_TAILS = [
    ("standard", STANDARD[:-1] + "x", "fullmove", 56),
    ("standard", STANDARD.replace(" 0 1", " x 1"), "halfmove", 54),
    ("standard", STANDARD.replace(" 0 1", " 0 -1"), "fullmove", 56),
    ("standard", STANDARD.replace(" 0 1", " 0 1234567890"), "fullmove", 56),  # ten digits
    ("standard", STANDARD + " junk", "pockets", 58),
    ("standard", STANDARD + " +1+2", "checks", 58),
    ("standard", STANDARD + " 7", "end", 58),
    ("standard", STANDARD.replace(" 0 1", "\t0\t1\tjunk "), "pockets", 58),
    ("standard", STANDARD.replace("w KQkq", "x KQkq") + " junk", "turn", 45),  # the first wrong field
    ("chess960", "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1 x", "pockets", 58),
    ("atomic", STANDARD.replace(" 0 1", " 3+3 0 1"), "checks", 54),
    ("racingkings", "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1 2", "end", 41),
    ("kingofthehill", STANDARD.replace("w KQkq - 0 1", "b - - 12 x"), "fullmove", 54),
    ("crazyhouse", CRAZYHOUSE[:-1] + "x", "fullmove", 58),
    ("crazyhouse", CRAZYHOUSE + " +1+2", "checks", 60),
    ("crazyhouse", CRAZYHOUSE.replace("[]", "") + " Pp e4 x", "pockets", 64),  # after a pocket and its marks
    ("threecheck", THREECHECK[:-1] + "x", "fullmove", 60),
    ("threecheck", THREECHECK + " 7", "end", 62),
    ("threecheck", THREECHECK[:-2], "fullmove", 59),  # cut short after checks remaining and a halfmove clock
    ("threecheck", THREECHECK[:-2] + "  ", "fullmove", 61),
    ("threecheck", THREECHECK.replace("3+3 ", "") + " +1+2 junk", "pockets", 63),
    ("xiangqi", XIANGQI + " x", "pockets", 71),
]


def _error(call) -> FenSyntaxError | None:
    """The error ``call`` returns, or raises (a field before the last one wrong on its own)."""
    try:
        return call()
    except FenSyntaxError as exc:
        return exc


def _same(quick: FenSyntaxError, slow: FenSyntaxError | None) -> None:
    assert slow is not None, "the grammar accepted what the quick path refused"
    assert (quick.problems[0].to_dict(), quick.field, quick.column, quick.expected) == (
        slow.problems[0].to_dict(),
        slow.field,
        slow.column,
        slow.expected,
    )


def _missing(text: str, groups: frozenset[str], variant):
    return reader._missing_field_error(text, groups, variant)


def _tail(text: str, groups: frozenset[str], variant):
    return reader._tail_error(text, groups, variant, DEFAULT_REGISTRY)


def _both(text: str, variant, quick_path=_missing) -> tuple[FenSyntaxError | None, FenSyntaxError | None]:
    """The answer of ``quick_path`` (``_missing`` or ``_tail``) and the grammar's."""
    groups = reader._field_groups(variant)
    quick = _error(lambda: quick_path(text, groups, variant))
    slow = _error(lambda: reader._grammar_parse_error(text, groups, variant, DEFAULT_REGISTRY))
    return quick, slow


def _answered_quickly(quick_path, name: str, fen: str, field: str, column: int) -> None:
    variant = DEFAULT_REGISTRY.find(name)
    quick, slow = _both(fen, variant, quick_path)
    assert quick is not None, "the quick path should answer this shape"
    _same(quick, slow)
    with pytest.raises(FenSyntaxError) as raised:  # and it is what read_fen says
        read_fen(fen, variant)
    assert (raised.value.field, raised.value.column) == (field, column)


@pytest.mark.parametrize(("name", "fen", "field", "column"), CUT_SHORT)
def test_cut_short_fens_are_answered_quickly_as_the_grammar_would(name, fen, field, column):
    _answered_quickly(_missing, name, fen, field, column)


@pytest.mark.parametrize(("name", "fen", "field", "column"), WRONG_TAILS)
def test_wrong_tails_are_answered_quickly_as_the_grammar_would(name, fen, field, column):
    _answered_quickly(_tail, name, fen, field, column)


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.key)
def test_every_variants_wrong_tail_is_answered_quickly(variant):
    for text in (variant.start_fen + " 7", variant.start_fen + " 7 +0+0"):
        quick, slow = _both(text, variant, _tail)
        assert quick is not None, text
        _same(quick, slow)


# Tokens a tail is made of: odd ones, counters, check counters, pockets, promoted squares,
# and ones a field takes only a part of.
TAIL_TOKENS = [*ODD_TOKENS, "1", "42", "123456789", "3+3x", "+1+2+3", "e3e4", "a10", "abc1", "Pp", "1+", "--", "a1-"]


@st.composite
def wrong_tails(draw):
    """A variant, its start FEN's first four fields (one maybe replaced by an odd token)
    and a tail of odd tokens and of the fields its start FEN has after them."""
    variant = draw(st.sampled_from(VARIANTS))
    fields = variant.start_fen.split()
    tokens = fields[:4]
    if draw(st.booleans()):
        tokens[draw(st.integers(1, 3))] = draw(st.sampled_from(ODD_TOKENS))
    tokens += draw(st.lists(st.sampled_from([*TAIL_TOKENS, *fields[4:]]), min_size=1, max_size=5))
    gaps = [draw(st.sampled_from([" ", "\t", "  ", " \t"])) for _ in tokens]
    text = "".join(gap + token for gap, token in zip(gaps, tokens, strict=True))
    return variant, text[1:] + draw(st.sampled_from(["", " ", "\t "]))


@pytest.mark.slow
@settings(max_examples=examples(600))
@given(wrong_tails())
def test_the_quick_answer_to_a_wrong_tail_is_the_grammars(case):
    variant, text = case
    quick, slow = _both(text, variant, _tail)
    if quick is not None:
        _same(quick, slow)


@st.composite
def cut_fens(draw):
    variant = draw(st.sampled_from(VARIANTS))
    tokens = variant.start_fen.split()
    tokens = tokens[: draw(st.integers(1, len(tokens)))]
    if draw(st.booleans()):
        tokens[draw(st.integers(0, len(tokens) - 1))] = draw(st.sampled_from(ODD_TOKENS))
    if draw(st.booleans()):
        tokens.append(draw(st.sampled_from(ODD_TOKENS)))
    gaps = [draw(st.sampled_from([" ", "\t", "  ", " \t"])) for _ in tokens]
    text = "".join(gap + token for gap, token in zip(gaps, tokens, strict=True))
    text = text[1:] if draw(st.booleans()) else text
    text += draw(st.sampled_from(["", " ", "\t "]))
    return variant, text


@pytest.mark.slow
@settings(max_examples=examples(400))
@given(cut_fens())
def test_the_quick_answer_is_the_grammars(case):
    variant, text = case
    quick, slow = _both(text, variant)
    if quick is not None:
        _same(quick, slow)


@pytest.mark.slow
@settings(max_examples=examples(1000))
@given(
    st.lists(st.sampled_from(list("ab1/-+ \t\u00a0\u2003\u3000\n\x1c") + ["KQ", "rnbq"]), max_size=30).map("".join),
    st.integers(0, 50),
)
def test_the_first_tokens_and_their_columns_are_the_whitespace_separated_fields(text, limit):
    """The error path splits a FEN as ``\\S+`` finds fields (Unicode spaces included)."""
    import re

    head = text[:limit]
    expected = [(m.start(), m.group()) for m in re.finditer(r"\S+", head)][:4]
    assert reader._first_tokens(head, 4) == expected


@pytest.mark.slow
@settings(max_examples=examples(1000))
@given(cut_fens(), st.sampled_from([(False, False), (False, True), (True, False), (True, True)]))
def test_what_is_surely_cut_short_no_pattern_matches(case, groups):
    """The reader explains a FEN it finds cut short without running the pattern: no FEN
    pattern (with or without pockets, with or without check counters) may match one."""
    _, text = case
    if reader._surely_cut_short(text):
        assert reader.pattern_for(*groups).fullmatch(text) is None, text


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.key)
def test_no_start_fen_is_taken_for_cut_short(variant):
    assert not reader._surely_cut_short(variant.start_fen)


@pytest.mark.parametrize(("text", "cut_short"), [
    (STANDARD, False),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", False),  # counters are optional
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3", False),  # checks remaining, no counters
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0", True),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", True),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\tw", True),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - \u0661", False),  # not an ASCII digit: the grammar says
    ("", True),
])
def test_cut_short_examples(text, cut_short):
    assert reader._surely_cut_short(text) is cut_short
