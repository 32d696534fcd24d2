"""``read_fen_or_error`` answers as ``read_fen`` does, its syntax error returned, never raised.

The line commands and the service read FENs through it (``notation.operations``): every
syntax error the fixtures hold, on each of its paths (a field's reader, the grammar's
explanation of a FEN cut short or of a bad tail, the bomb field, other spellings, an
OpenTafl record, hostile text), comes back as the error ``read_fen`` raises, with the
same field, column, message and expectation; a FEN it reads comes back as the same
``ReadResult``. ``read_or_error``, which the library's own callers take, gives the same
answers with a read FEN's three fields as a plain tuple.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fen_cases import load_cases

from notation import FenSyntaxError, UnknownVariantError, read_fen
from notation.fen.reader import ReadResult, read_fen_or_error, read_or_error

ROOT = Path(__file__).resolve().parents[2]
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
XIANGQI = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"
TABLUT = "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"

# Every path a syntax error takes, with the (field, column) it names (None: the FEN is read;
# what the reader gave before it returned its errors), beyond the fixtures' tables.
PATHS = [
    (START[:-2], "standard", ("fullmove", 55)),  # cut short after the halfmove clock
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", "standard", ("en-passant", 51)),  # no en passant field
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq", "standard", ("turn", 45)),  # cut short, a bad field before
    ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", "standard", ("placement", 19)),  # cut short, a bad placement
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkz - 0", "standard", ("castling", 50)),  # cut short, bad castling
    (START + " extra", "standard", ("pockets", 58)),  # a token after the last field
    (START.replace(" 0 1", " 0 b"), "standard", ("fullmove", 56)),  # a fullmove number that is no counter
    (START.replace(" 0 1", " 1234567890 1"), "standard", ("halfmove", 54)),  # a counter of ten digits
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Qq w KQkq - 0 1", "crazyhouse", ("pockets", 44)),  # '[' never closed
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1", "standard", ("pockets", 44)),  # none in Standard
    (START + " +1+x", "threecheck", ("checks", 58)),
    (START.replace(" - 0 1", " - 3+3 0 1 +1+1"), "threecheck", ("checks", 62)),  # check counters given twice
    (START + " Qq a9", "crazyhouse", ("promoted", 61)),  # appended promoted squares that are no squares
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/Qq/x w KQkq - 0 1", "crazyhouse", ("placement", 44)),
    ("rnbqkbnr/pppp\x01ppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "standard", ("placement", 14)),  # U+0001
    ("x" * 600, "standard", ("placement", 513)),  # too long
    ("   ", "standard", ("placement", 1)),
    ("not a fen at all", "standard", ("placement", 2)),
    (START + " e4e9", "itsyourturnatomic", ("bombs", 58)),  # the bomb field
    (START + " d1e8", "itsyourturnatomic", None),
    (XIANGQI + " x - - 0 1", "xiangqi", ("turn", 61)),  # read in the variant's own spelling first
    (XIANGQI + " r", "xiangqi", ("castling", 62)),
    (XIANGQI.replace("RNBAKABNR", "RNBAKABNQ") + " w - - 0 1", "xiangqi", ("placement", 59)),
    (TABLUT, "tablut", None),  # an OpenTafl record
    (TABLUT[:-1], "tablut", ("placement", 51)),
    (START, "standard", None),
    ("r3k2r/8/8/8/8/8/8/R~3K2R w KQkq - 0 1", "crazyhouse", None),
]


def _cases() -> list[tuple[str, str, tuple[str, int] | None]]:
    table = load_cases("reader_errors.json")
    errors = [(case["fen"], case["variant"], (case["field"], case["column"])) for case in table]
    reads = [(case["fen"], case["variant"], None) for case in load_cases("conversions.json")]
    bombs = json.loads((ROOT / "fixtures" / "fen" / "bomb_fields.json").read_text(encoding="utf-8"))
    bomb_errors = [(case["fen"], "itsyourturnatomic", (case["field"], case["column"])) for case in bombs["errors"]]
    bomb_reads = [(case["fen"], "itsyourturnatomic", None) for case in bombs["read"]]
    return errors + reads + bomb_errors + bomb_reads + PATHS


CASES = _cases()


@pytest.mark.parametrize("fen,variant,where", CASES, ids=[f"{v}:{f[:50]!r}" for f, v, _ in CASES])
def test_the_error_is_returned_as_read_fen_raises_it(fen, variant, where):
    got = read_fen_or_error(fen, variant)  # raises nothing here
    plain = read_or_error(fen, variant)
    if where is None:
        assert isinstance(got, ReadResult)
        assert got == read_fen(fen, variant)
        assert type(plain) is tuple and plain == tuple(got)
        return
    assert isinstance(got, FenSyntaxError)
    assert isinstance(plain, FenSyntaxError)
    assert (plain.field, plain.column, str(plain)) == (got.field, got.column, str(got))
    assert (got.field, got.column) == where
    assert [p.to_dict() for p in got.problems] == [
        {"code": "fen-syntax", "message": str(got), "field": got.field, "column": got.column,
         **({"expected": got.expected} if got.expected else {})}
    ]
    with pytest.raises(FenSyntaxError) as raised:
        read_fen(fen, variant)
    assert (raised.value.field, raised.value.column, str(raised.value)) == (got.field, got.column, str(got))


def test_what_is_no_syntax_error_still_raises():
    for read in (read_fen_or_error, read_or_error):
        with pytest.raises(UnknownVariantError):
            read(START, "no-such-variant")
        with pytest.raises(TypeError):
            read(b"8/8/8/8/8/8/8/8 w - - 0 1", "standard")  # type: ignore[arg-type]
