"""The FEN grammar: grammar only, no model code. One entry point each for the two paths.

BNF (whitespace = one or more spaces or tabs between fields; leading/trailing ignored)::

    fen        ::= placement [bracketed] turn castling en_passant [remaining]
                   [halfmove fullmove] [given] [appended_pocket [appended_promoted]]
    placement  ::= rank ("/" rank)* ["/" pocket_letters]          ; ranks: the geometry's; one more = rank zero
    rank       ::= (piece ["~"] | digit)+
    bracketed  ::= "[" (pocket_letters | "-" | "") "]"            ; no space before "["
    turn       ::= "w" | "b"
    castling   ::= "-" | castling_letter+                         ; K Q k q A-H a-h
    en_passant ::= "-" | file rank
    remaining  ::= digits "+" digits                               ; checks remaining, W+B
    halfmove   ::= digits ; fullmove ::= digits
    given      ::= "+" digits "+" digits                           ; checks given, +W+B
    appended_pocket   ::= pocket_letters | "-"
    appended_promoted ::= (file rank)+ | "-"

Two ways in, built from the same field patterns so they accept the same language:

- ``fen_pattern(groups)``: one compiled regular expression with a named group per field, the fast
  path for well-formed input (on these short inputs pyparsing takes a hundred times as long
  as the regex match or more: bench/bench_fen.py prints both figures).
- ``fen_grammar(groups)``: the same fields as named pyparsing elements, run only when the fast
  path fails, to say which field broke and at which column.

Inside the placement, castling and en passant fields the reader checks character by
character (its errors name the exact column), so the field patterns here are loose.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pyparsing as pp

# Field patterns, shared by the regex and the pyparsing grammar.
PLACEMENT = r"[^\s\[\]]+"
BRACKETED = r"\[[^\]\s]*\]"
TURN = r"\S+"
CASTLING = r"\S+"
EN_PASSANT = r"\S+"
# Counters are ASCII digits: ``\d`` would also take other scripts' digits (``١``), which
# ``int`` reads as numbers, though no FEN writer writes them.
REMAINING = r"[0-9]{1,9}\+[0-9]{1,9}"
COUNTER = r"[0-9]{1,9}"
GIVEN = r"\+[0-9]{1,9}\+[0-9]{1,9}"
APPENDED_POCKET = r"[A-Za-z]+|-"
APPENDED_PROMOTED = r"(?:[a-l][1-9][0-9]?)+|-"

_END = r"(?=\s|$)"

# Optional field groups: which ones a variant allows decides the grammar it is read with,
# so that "... 0 1 junk" in Standard is an unexpected field, not a misread pocket.
POCKET_FIELDS = "pockets"
CHECK_FIELDS = "checks"


@functools.lru_cache(maxsize=8)  # one entry per subset of the two optional groups
def fen_pattern(groups: frozenset[str]) -> re.Pattern[str]:
    """The fast-path regex for a FEN whose optional field ``groups`` are allowed."""
    remaining = rf"(?:\s+(?P<remaining>{REMAINING}){_END})?" if CHECK_FIELDS in groups else ""
    given = rf"(?:\s+(?P<given>{GIVEN}){_END})?" if CHECK_FIELDS in groups else ""
    appended = (
        rf"""(?:\s+(?P<appended_pocket>{APPENDED_POCKET}){_END}
            (?:\s+(?P<appended_promoted>{APPENDED_PROMOTED}){_END})?)?"""
        if POCKET_FIELDS in groups
        else ""
    )
    bracketed = rf"(?P<bracketed>{BRACKETED})?" if POCKET_FIELDS in groups else ""
    return re.compile(
        rf"""\s*
        (?P<placement>{PLACEMENT}){bracketed}
        \s+(?P<turn>{TURN})
        \s+(?P<castling>{CASTLING})
        \s+(?P<en_passant>{EN_PASSANT})
        {remaining}
        (?:\s+(?P<halfmove>{COUNTER})\s+(?P<fullmove>{COUNTER}){_END})?
        {given}
        {appended}
        \s*""",
        re.VERBOSE,
    )


# Human names of the fields, used in error messages ("expected <name>").
FIELD_NAMES = {
    "placement": "piece placement",
    "turn": "side to move (w or b)",
    "castling": "castling rights (- or letters)",
    "en-passant": "en passant square (- or a square)",
    "checks": "check counters",
    "halfmove": "halfmove clock",
    "fullmove": "fullmove number",
    "pockets": "pocket",
    "promoted": "promoted squares",
}


def _field(pattern: str, results_name: str, field: str) -> pp.ParserElement:
    import pyparsing as pp

    element = pp.Regex(pattern + _END)(results_name)
    element.set_name(FIELD_NAMES[field])
    return element


def _gap(field: str) -> pp.ParserElement:
    """The whitespace before a field, named for the field so a missing field is reported."""
    import pyparsing as pp

    gap = pp.White(" \t").suppress()
    gap.set_name(FIELD_NAMES[field])
    return gap


@functools.lru_cache(maxsize=8)  # one entry per subset of the two optional groups
def fen_grammar(groups: frozenset[str]) -> pp.ParserElement:
    """The pyparsing grammar for a FEN whose optional field ``groups`` are allowed.

    pyparsing is imported here, not with the module: only a FEN the fast path refuses needs
    it, and importing it takes longer than reading thousands of well-formed FENs."""
    import pyparsing as pp

    bracketed = rf"(?P<bracketed>{BRACKETED})?" if POCKET_FIELDS in groups else ""
    placement = pp.Regex(rf"(?P<placement>{PLACEMENT}){bracketed}{_END}")
    placement.set_name(FIELD_NAMES["placement"])
    # "-" (an error stop): once a halfmove clock is seen, a fullmove number must follow.
    counters = _gap("halfmove") + _field(COUNTER, "halfmove", "halfmove") - _gap("fullmove") - _field(
        COUNTER, "fullmove", "fullmove"
    )
    end = pp.Optional(pp.White(" \t")).suppress() + pp.StringEnd()
    end.set_name("end of FEN")
    grammar = (
        pp.Optional(pp.White(" \t")).suppress()
        + placement
        + _gap("turn") + _field(TURN, "turn", "turn")
        + _gap("castling") + _field(CASTLING, "castling", "castling")
        + _gap("en-passant") + _field(EN_PASSANT, "en_passant", "en-passant")
    )
    if CHECK_FIELDS in groups:
        grammar += pp.Optional(_gap("checks") + _field(REMAINING, "remaining", "checks"))
    grammar += pp.Optional(counters)
    if CHECK_FIELDS in groups:
        grammar += pp.Optional(_gap("checks") + _field(GIVEN, "given", "checks"))
    if POCKET_FIELDS in groups:
        grammar += pp.Optional(
            _gap("pockets")
            + _field(APPENDED_POCKET, "appended_pocket", "pockets")
            + pp.Optional(_gap("promoted") + _field(APPENDED_PROMOTED, "appended_promoted", "promoted"))
        )
    grammar += end
    grammar.leave_whitespace()
    grammar.parse_with_tabs()  # columns count a tab as one, as in the text the user gave
    return grammar.set_name("FEN")
