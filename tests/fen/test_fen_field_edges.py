"""The reader's answers at the edges of a FEN's fields (fixtures/fen/field_edges.json): how
many fields there are, the whitespace between them, digits that are not ASCII, counters
too long, brackets, the optional fields of pockets and check counters in every order, and
an error in each field. The fields are found by the reader's regular expression
(``fen.grammar.fen_pattern``); a text it refuses is explained by the pyparsing grammar.
Each case says what its text reads as (the FEN written again, canonically) or which field
and 1-based column its error names.
"""

from __future__ import annotations

import pytest
from fen_cases import load_cases
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from notation import DEFAULT_REGISTRY, read_fen
from notation.errors import FenSyntaxError
from notation.fen import reader
from notation.fen.writer import write_fen

EDGES = load_cases("field_edges.json")


@pytest.mark.parametrize("case", EDGES, ids=[f"{c['variant']}|{c['fen']!r}" for c in EDGES])
def test_a_text_at_the_edges_of_the_fields_reads_or_fails_where_the_table_says(case):
    try:
        read = read_fen(case["fen"], case["variant"])
    except FenSyntaxError as exc:
        assert (exc.field, exc.column) == (case.get("field"), case.get("column")), exc
        return
    assert "reads_as" in case, f"read, where the table expects an error in {case['field']}"
    assert write_fen(read.setup, read.variant).fen == case["reads_as"]


@settings(max_examples=examples(300))
@given(st.text(alphabet="0123456789", min_size=1, max_size=9))
def test_counters_read_as_int_reads_them(digits):
    """Every counter field is one to nine ASCII digits; compiled, the reader sums them
    itself (``_counter_value``); interpreted, that name is ``int``: the same number."""
    assert reader._counter_value(digits) == int(digits)
    fen = f"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - {digits} {digits}"
    setup = read_fen(fen, DEFAULT_REGISTRY.find("standard")).setup
    assert (setup.halfmove, setup.fullmove) == (int(digits), int(digits))


@settings(max_examples=examples(300))
@given(st.text(alphabet=st.characters(max_codepoint=0x2000), max_size=80))
@example("8/8/8/8/8/8/8/8 w - - 0 1\ud800")  # a lone surrogate: no UTF-8 form
@example("8/8/8/8/8/8/8/8 w - - 0 1\x7f")
@example(" ~\x1f")
@example("é")
def test_the_printable_ascii_test_is_the_two_methods(text):
    """Before any field is looked for, a text of printable ASCII needs no search for a
    control character; compiled, the reader tests it by character code
    (``_printable_ascii``): the same answer as ``isascii`` and ``isprintable``."""
    assert reader._printable_ascii(text) == (text.isascii() and text.isprintable())
