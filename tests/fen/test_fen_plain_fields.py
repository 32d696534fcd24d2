"""The reader's split of a FEN agrees with its pattern.

The reader first splits the FEN on whitespace (``_plain_fields`` for variants without
pockets or check counters, ``_extended_fields`` for those with them) and runs the regular
expression only when that split declines, or to name the column of an error. These tests
hold each split to its pattern: whatever the split accepts, the pattern matches with the
same groups; and a FEN read through the split gives the same setup, dialect or error
(message, field, column) as one read through the pattern.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from notation import DEFAULT_REGISTRY, read_fen
from notation.errors import FenSyntaxError
from notation.fen import reader

PATTERN = reader.pattern_for(False, False)
STANDARD_VARIANT = DEFAULT_REGISTRY.find("standard")
STANDARD = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

# Texts at the edges of the split: counts of fields, digits that are not ASCII, brackets,
# whitespace of every kind, counters too long, errors in every field.
EDGES = [
    STANDARD,
    "  " + STANDARD + " \t ",
    STANDARD.replace(" ", "\t"),
    STANDARD.replace(" ", "\u3000"),  # ideographic space: whitespace to both
    STANDARD.rsplit(" ", 2)[0],  # EPD-style, four fields
    STANDARD.rsplit(" ", 1)[0],  # five fields
    STANDARD + " 7",  # seven fields
    STANDARD.replace(" 0 1", " 0 \u0661"),  # an Arabic-Indic digit: \d, not ASCII
    STANDARD.replace(" 0 1", " 0 \u00b9"),  # a superscript one: isdigit, not \d
    STANDARD.replace(" 0 1", " 0 1234567890"),  # ten digits
    STANDARD.replace(" 0 1", " 0 123456789"),
    STANDARD.replace(" 0 1", " -1 1"),
    STANDARD.replace("RNBQKBNR w", "RNBQKBNR[] w"),
    STANDARD.replace("RNBQKBNR w", "RNBQKBNR] w"),
    STANDARD.replace(" w ", " x "),
    STANDARD.replace("KQkq", "KQkX"),
    STANDARD.replace(" - ", " e9 "),
    STANDARD.replace("8/8/8/8", "8/8/8/7"),
    STANDARD.replace("8/8/8/8", "8/8/8/8/8"),
    STANDARD.replace("pppppppp", "pppppppé"),
    STANDARD + "\n",  # a control character: refused before the split (found by the fuzz profile)
    STANDARD.replace(" w ", "\nw "),
    "",
    "   ",
]


def _details(call):
    """(setup, dialect) of a read, or the error's message, field, column and expectation
    (the error raised, or returned as the reader returns the placement's and the turn's)."""
    try:
        read = call()
    except FenSyntaxError as exc:
        read = exc
    if isinstance(read, FenSyntaxError):
        return ("error", read.problems[0].to_dict(), read.field, read.column, read.expected)
    setup, _, dialect = read  # a ReadResult, or the reader's plain tuple
    return ("read", setup, dialect)


def _through_pattern(text: str):
    """Reading ``text`` as Standard with the pattern's match, as without the split (the
    refusals that come before either, such as a control character, included)."""
    reader._reject_hostile(text)
    match = PATTERN.fullmatch(text)
    return reader._Reader(text, match, STANDARD_VARIANT).read_plain(match.groups())


def _agrees(text: str) -> None:
    fields = reader._plain_fields(text)
    match = PATTERN.fullmatch(text)
    if fields is not None:
        assert match is not None, f"the split took what the pattern refuses: {text!r}"
        assert fields == match.groups()
        assert _details(lambda: read_fen(text, STANDARD_VARIANT)) == _details(lambda: _through_pattern(text))


@pytest.mark.parametrize("text", EDGES)
def test_the_split_agrees_with_the_pattern_at_its_edges(text):
    _agrees(text)


@pytest.mark.parametrize("text", [t for t in EDGES if PATTERN.fullmatch(t)])
def test_reading_through_the_split_gives_what_the_pattern_gives(text):
    assert reader._plain_fields(text) is not None or not text.isascii()  # the split is tried
    assert _details(lambda: read_fen(text, STANDARD_VARIANT)) == _details(lambda: _through_pattern(text))


TOKENS = st.sampled_from(
    ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "8/8/8/8/8/8/8/8", "w", "b", "x", "KQkq", "-", "e3", "0", "1",
     "12", "1234567890", "\u0661", "[", "]", "[Pp]", "+1+2", "3+3", "KQkq[", "é"]
)
SPACES = st.sampled_from([" ", "  ", "\t", "\n", "\u3000", "\xa0", ""])


@pytest.mark.slow
@settings(max_examples=examples(400))
@given(st.lists(st.tuples(SPACES, TOKENS), max_size=8), SPACES)
def test_the_split_agrees_with_the_pattern_on_random_token_strings(parts, tail):
    _agrees("".join(space + token for space, token in parts) + tail)



# Variants of each extended pattern: pockets (Crazyhouse), check counters (Three-check).
EXTENDED = {name: DEFAULT_REGISTRY.find(name) for name in ("crazyhouse", "threecheck")}
EXTENDED_TOKENS = st.sampled_from(
    ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Pp]",
     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[]", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[-]",
     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/Pp", "8/8/8/8/8/8/8/8[[p]", "8/8/8/8/8/8/8/8[p]]", "[Pp]",
     "8]/8/8/8/8/8/8/8", "w", "b", "KQkq", "-", "e3", "0", "1", "12", "1234567890", "3+3", "+1+2", "+1+2+3",
     "1+", "+1", "3++3", "Pp", "-", "e8", "e8d1", "a10", "z9", "\u0661", "é"]
)


def _extended_agrees(text: str, name: str) -> None:
    variant = EXTENDED[name]
    pattern = reader.pattern_for(variant.has_pockets, variant.has_check_counters)
    groups = reader._extended_fields(text, variant.has_pockets, variant.has_check_counters)
    match = pattern.fullmatch(text)
    if groups is None:
        return
    assert match is not None, f"the split took what the pattern refuses: {text!r}"
    assert {key: value for key, value in groups.items() if key in match.re.groupindex} == match.groupdict()
    assert all(groups[key] is None for key in groups if key not in match.re.groupindex)

    def through_pattern():
        reader._reject_hostile(text)
        return reader._Reader(text, pattern.fullmatch(text), variant).read(pattern.fullmatch(text).groupdict())

    assert _details(lambda: read_fen(text, variant)) == _details(through_pattern)


@pytest.mark.parametrize("name", sorted(EXTENDED))
@pytest.mark.parametrize(
    "text",
    [
        STANDARD, STANDARD.replace(" w", "[Pp] w"), STANDARD.replace(" w", "[] w"), STANDARD + " 3+3",
        STANDARD.replace(" 0 1", " 3+3 0 1"), STANDARD + " +1+2", STANDARD + " Pp", STANDARD + " - e8d1",
        STANDARD + " Pp e8 x", STANDARD.replace(" 0 1", " 3+3 0 1 +1+2"), STANDARD.rsplit(" ", 2)[0] + " Pp",
        STANDARD.replace(" w", "[Pp]] w"), STANDARD.replace(" w", "[[Pp] w"), STANDARD.replace(" 0 1", " 0"),
        STANDARD.replace("KQkq", "KQkq 3+3").rsplit(" ", 2)[0], "  " + STANDARD + " 3+3 \t",
        STANDARD + " +1+2+3", STANDARD + " +1", STANDARD + " 3++3", STANDARD + " 1+2+3", STANDARD + " +1+",
        "[Pp] w KQkq - 0 1", STANDARD + " 3+3", STANDARD + " - -", STANDARD + " Pp1", STANDARD + " 1234567890+1",
    ],
)
def test_the_extended_split_agrees_with_the_pattern_at_its_edges(text, name):
    _extended_agrees(text, name)


@pytest.mark.slow
@settings(max_examples=examples(400))
@given(st.lists(st.tuples(SPACES, EXTENDED_TOKENS), max_size=9), SPACES, st.sampled_from(sorted(EXTENDED)))
def test_the_extended_split_agrees_with_the_pattern_on_random_token_strings(parts, tail, name):
    _extended_agrees("".join(space + token for space, token in parts) + tail, name)


PREFIXES = st.sampled_from([STANDARD.rsplit(" ", 2)[0], STANDARD.replace(" w", "[Pp] w").rsplit(" ", 2)[0]])


@pytest.mark.slow
@settings(max_examples=examples(400))
@given(PREFIXES, st.lists(st.tuples(SPACES, EXTENDED_TOKENS), max_size=5), st.sampled_from(sorted(EXTENDED)))
def test_the_extended_split_agrees_with_the_pattern_after_four_good_fields(prefix, parts, name):
    """The optional fields after a good placement, turn, castling and en passant: every
    order and shape of counters, check counters and appended pockets."""
    _extended_agrees(prefix + "".join((space or " ") + token for space, token in parts), name)


@pytest.mark.parametrize("castling", [None, "standard", "xfen", "shredder"])
def test_each_plain_dialect_is_the_one_its_fields_name(castling):
    """``read_plain``'s dialect, found by index, is the shared one of exactly its fields."""
    for counters in (False, True):
        for promoted in (False, True):
            for chess960 in (False, True):
                found = reader._plain_dialect(castling, counters, promoted, chess960)
                expected = reader._dialect(None, None, castling, counters, "tilde" if promoted else None, chess960)
                assert found is expected
                assert (found.castling, found.counters, found.promoted, found.chess960) == (
                    castling, counters, "tilde" if promoted else None, chess960
                )
