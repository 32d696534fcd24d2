"""The plain JSON path of convert --json and validate --json (notation.cli.plain_json):
whatever line it reads, it reads as the JSON library does, and whatever answer it writes,
it writes as the library does, to the byte; the usual lines and answers are its to take."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples
from installed import installed_script
from paths import ROOT

from notation import json_codec
from notation.cli import plain_json
from notation.cli.answers import Answer, located
from notation.cli.input_lines import FenInput, RawInput, _json_object_input, fen_input
from notation.cli.line_jobs import answered
from notation.errors import Problem
from notation.fen.dialect import Dialect
from notation.operations import ConvertResult, ValidateResult, convert_fen, validate_fen
from notation.options import CheckStyle, PocketStyle

FIXTURES = ROOT / "fixtures"
LINES = json.loads((FIXTURES / "cli" / "json_lines.json").read_text(encoding="utf-8"))["cases"]
DEFAULT = "standard"


def library_read(data: bytes, number: int = 1) -> tuple[str | None, str, str | None] | None:
    """What the JSON library's path makes of a line it parses: (fen, variant, problem
    message); None where it does not parse it."""
    try:
        obj = json_codec.loads(data)
    except json_codec.JSONDecodeError:
        return None
    item = _json_object_input(obj, DEFAULT, number)
    return item.fen, item.variant, item.problem.message if item.problem else None


def plain_read(data: bytes) -> tuple[str | None, str, str | None] | None:
    fen, variant = plain_json.read_fen_object(data)
    if fen is None:
        assert variant is None
        return None
    return fen, DEFAULT if variant is None else variant, None


@pytest.mark.parametrize("case", LINES, ids=lambda case: repr(case["line"])[:60])
def test_a_line_is_read_as_the_json_library_reads_it(case):
    data = case["line"].encode("utf-8")
    found = plain_read(data)
    assert (found is not None) == case["plain"]
    if found is not None:
        assert found == library_read(data)


@pytest.mark.parametrize("case", LINES, ids=lambda case: repr(case["line"])[:60])
def test_the_command_s_input_is_the_same_whichever_path_reads_it(case):
    data = case["line"].encode("utf-8")
    item = fen_input(RawInput(None, data, 7, "in.jsonl"), DEFAULT, json_lines=True)
    expected = library_read(data, 7) if case["line"].lstrip().startswith("{") else None  # else a FEN line
    if expected is not None:
        assert item is not None
        assert (item.fen, item.variant, item.problem.message if item.problem else None) == expected
        assert (item.line, item.source) == (7, "in.jsonl")


NOT_UTF8 = [b'{"fen": "\xff"}\n', b'{"fen": "x\xc3"}\n', b'{"fen": "\xed\xa0\x80"}\n', b'{"fen": "x"}\xff\n',
            b'{"fen\xc3\xa9": "x"}\n', b'{"fen": "x", "variant": "\x00"}\n']


@pytest.mark.parametrize("data", NOT_UTF8, ids=repr)
def test_bytes_that_are_not_plain_are_the_library_s(data):
    assert plain_json.read_fen_object(data) == (None, None)


plain_text = st.text(st.characters(min_codepoint=32, max_codepoint=126).filter(lambda c: c not in '"\\'),
                     max_size=12)
# One character that is not plain among plain ones: the writer must see it, wherever it is.
one_unplain = st.builds(lambda head, character, tail: head + character + tail, plain_text,
                        st.sampled_from(['"', "\\", "\x00", "\x1f", "\x7f", "\u00e9", "\u2028", "\ud800"]), plain_text)
any_text = st.one_of(plain_text, plain_text, plain_text, one_unplain, st.text(max_size=6))
spaces = st.sampled_from(["", " ", "  ", "\t", " \r ", "\n"])


@st.composite
def json_lines(draw) -> tuple[bytes, bool]:
    """An object line of string values (its keys mostly ``fen`` and ``variant``), spaced
    at random, perhaps broken by one byte; and whether the plain reader must take it."""
    keys = draw(st.lists(st.sampled_from(["fen", "variant", "fen", "other", "FEN"]), max_size=3))
    values = [draw(any_text) for _ in keys]
    gap = draw(spaces)
    members = [f"{draw(spaces)}{json.dumps(key)}{draw(spaces)}:{draw(spaces)}{json.dumps(value, ensure_ascii=False)}"
               f"{draw(spaces)}" for key, value in zip(keys, values, strict=True)]
    text = gap + "{" + ",".join(members) + (draw(spaces) if not members else "") + "}" + draw(spaces) + "\n"
    data = text.encode("utf-8", "surrogatepass")
    plain = ("fen" in keys and len(set(keys)) == len(keys) and set(keys) <= {"fen", "variant"}
             and all(plain_json.is_plain(value) for value in values))
    if draw(st.booleans()):
        at = draw(st.integers(0, len(data)))
        data = data[:at] + bytes([draw(st.sampled_from(b'{}":, \\\t\x00\x7fe\xc3'))]) + data[at + 1:]
        plain = None  # broken: either way, as long as it reads as the library reads it
    return data, plain


@settings(max_examples=examples(300))
@given(json_lines())
def test_any_line_is_read_as_the_json_library_reads_it_or_left_to_it(line):
    data, plain = line
    found = plain_read(data)
    if plain is not None:
        assert (found is not None) == plain
    if found is not None:
        assert found == library_read(data)


def library_line(result: ConvertResult | ValidateResult, item: FenInput) -> str:
    return json_codec.dumps(located(item, result.to_dict())) + "\n"


def _fixture_inputs() -> list[tuple[str, str]]:
    found = []
    for name in ("fen/conversions.json", "fen/reader_errors.json", "fen/field_edges.json"):
        for case in json.loads((FIXTURES / name).read_text(encoding="utf-8"))["cases"]:
            if isinstance(case.get("fen"), str):
                found.append((case["fen"], case.get("variant", DEFAULT)))
    return found


INPUTS = _fixture_inputs()
SOURCES = [None, "games/in.jsonl", 'odd "name".jsonl', "caf\u00e9.jsonl"]


def test_every_answer_is_written_as_the_json_library_writes_it():
    taken = 0
    for fen, variant in INPUTS:
        for judge in (convert_fen, validate_fen):
            result = judge(fen, variant)
            for source in SOURCES:
                item = FenInput(fen, variant, 12, None, source)
                written = plain_json.answer_line(result, item.line, item.source)
                expected = library_line(result, item)
                if written is not None:
                    assert written == expected
                    taken += 1
                assert answered(item, Answer.JUDGED, result, True, "", "", json_lines=True).out == expected
    assert taken > len(INPUTS)  # the plain ones are its to write: legal and illegal, from files or not


def test_a_legal_answer_and_its_problems_are_plain_path_s():
    legal = validate_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    assert plain_json.answer_line(legal, 3, None) == library_line(legal, FenInput("", "", 3))
    illegal = convert_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "chess960")
    assert illegal.errors
    assert plain_json.answer_line(illegal, None, None) == library_line(illegal, FenInput("", "", None))


DIALECTS = [None, Dialect(), Dialect(PocketStyle.BRACKETED, CheckStyle.GIVEN, "xfen", False, "tilde", True)]


@st.composite
def problems(draw) -> Problem:
    extra = draw(st.sampled_from([None, {}, {"square": "e4"}, {"move": 'e"4'}, {"suggestions": ["a"]},
                                  {"field": "x"}, {"guessed": "atomic", "reason": "a plain reason"}]))
    return Problem(draw(any_text), draw(any_text), draw(st.none() | any_text), draw(st.none() | st.integers(1, 999)),
                   extra)


@st.composite
def results(draw) -> ConvertResult | ValidateResult:
    errors, warnings = draw(st.lists(problems(), max_size=2)), draw(st.lists(problems(), max_size=2))
    variant, detected = draw(st.none() | any_text), draw(st.sampled_from(DIALECTS))
    if draw(st.booleans()):
        return ConvertResult(draw(st.booleans()), draw(st.none() | any_text), variant, errors=errors,
                             warnings=warnings, detected=detected)
    return ValidateResult(draw(st.booleans()), variant, errors, warnings, detected)


@settings(max_examples=examples(300))
@given(results(), st.none() | st.integers(1, 10**12), st.none() | any_text)
def test_any_answer_is_written_as_the_json_library_writes_it_or_left_to_it(result, line, source):
    item = FenInput("", "", line, None, source)
    written = plain_json.answer_line(result, line, source)
    strings = [result.variant, source, getattr(result, "fen", None)]
    for problem in (*result.errors, *result.warnings):
        strings += [problem.code, problem.message, problem.field]
    extras = [(key, value) for problem in (*result.errors, *result.warnings) for key, value in problem.extra.items()]
    plain = all(text is None or plain_json.is_plain(text) for text in strings) and all(
        isinstance(value, str) and plain_json.is_plain(value) and key not in ("code", "message", "field", "column")
        for key, value in extras)
    assert (written is not None) == plain
    if written is not None:
        assert written == library_line(result, item)


@pytest.mark.parametrize("text, plain", [("", True), ("KQkq - 0 1", True), ("~ }{", True), ('"', False),
                                         ("\\", False), ("\x1f", False), ("\x7f", False), ("\u00e9", False),
                                         ("\ud800", False)])
def test_plain_is_printable_ascii_without_a_quote_or_a_backslash(text, plain):
    assert plain_json.is_plain(text) is plain


def test_a_run_of_plain_lines_imports_no_json_library(tmp_path):
    lines = tmp_path / "lines.jsonl"
    fens = [fen for fen, variant in INPUTS if variant == DEFAULT][:5]
    lines.write_text("".join(json.dumps({"fen": fen, "variant": DEFAULT}) + "\n" for fen in fens * 60),
                     encoding="utf-8")
    script = installed_script("notation")
    for command in ("convert", "validate"):
        done = subprocess.run([sys.executable, "-X", "importtime", script, command, "--json", "--input", str(lines)],
                              capture_output=True, text=True, check=False)
        assert done.returncode in (0, 1), done.stderr[-2000:]
        assert len(done.stdout.splitlines()) == 300
        imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if "import time:" in line}
        if plain_json.USED:  # compiled
            assert not {"orjson", "json"} & imported
        else:  # interpreted: the library's C code is the faster, from the 101st line orjson's
            assert "orjson" in imported


def test_a_string_checked_once_is_answered_alike_the_next_time():
    plain, quoted = Problem("bad", "a plain message"), Problem("bad", 'a "quoted" message')
    for _ in range(2):
        result = ValidateResult(False, "standard", [plain])
        assert plain_json.answer_line(result, 1, None) == library_line(result, FenInput("", "", 1))
        assert plain_json.answer_line(ValidateResult(False, "standard", [quoted]), 1, None) is None


def test_one_message_under_other_codes_fields_and_columns_is_written_with_each():
    """A problem's head is kept by its message (its column left out): another code, field
    or column with the same message must not be given the head kept first, nor the column
    written with it first."""
    problems = [Problem("bad", "same words"), Problem("worse", "same words"),
                Problem("bad", "same words", field="turn"), Problem("bad", "same words", field="turn", column=3),
                Problem("bad", "same words", field="turn", column=11), Problem("bad", "same words", field="turn"),
                Problem("bad", "same words", field="castling", column=3)]
    for _ in range(2):
        for problem in problems:
            result = ValidateResult(False, "standard", [problem])
            assert plain_json.answer_line(result, 1, None) == library_line(result, FenInput("", "", 1))


def test_a_string_of_another_type_is_the_library_s_to_write():
    member = PocketStyle.BRACKETED  # a str, and an enum's member: the library writes its value
    assert plain_json.answer_line(ValidateResult(True, member), 1, None) is None
    assert plain_json.answer_line(ValidateResult(False, "standard", [Problem("bad", "m", member)]), 1, None) is None


def test_what_it_keeps_stays_bounded_however_many_long_messages_it_writes():
    for index in range(plain_json._QUOTED_LIMIT + 50):
        message = f"{index} " + "x" * 1000  # as an unknown variant's name, 64 KiB long, would make one
        result = ValidateResult(False, "standard", [Problem("unknown-variant", message)])
        assert plain_json.answer_line(result, index, None) == library_line(result, FenInput("", "", index))
    assert len(plain_json._QUOTED) <= plain_json._QUOTED_LIMIT
    assert len(plain_json._HEADS) <= plain_json._QUOTED_LIMIT
    assert all(len(message) <= plain_json._QUOTED_LENGTH for message in plain_json._HEADS)
    assert all(len(text) <= plain_json._QUOTED_LENGTH for text in plain_json._QUOTED)


def test_the_middles_kept_of_answers_without_problems_stay_right_and_bounded():
    """An answer without problems takes its middle (variant to ``line``) from what is kept
    per variant and dialect: each is the library's, however many variants and dialects a
    run meets, and what is kept stays bounded."""
    dialects = [
        Dialect(pockets, checks, castling, counters, promoted, chess960)
        for pockets in (None, PocketStyle.BRACKETED, PocketStyle.APPENDED)
        for checks in (None, CheckStyle.GIVEN, CheckStyle.REMAINING)
        for castling in (None, "standard", "xfen", "shredder")
        for counters in (False, True)
        for promoted in (None, "tilde", "squares")
        for chess960 in (False, True)
    ]
    assert len(dialects) > plain_json._MIDDLE_LIMIT
    variants = [f"variant-{index}" for index in range(plain_json._MIDDLE_LIMIT + 20)]
    for index, (variant, dialect) in enumerate(zip(variants * 3, dialects * 2, strict=False)):
        for result in (ValidateResult(True, variant, detected=dialect),
                       ConvertResult(True, "8/8/8/8/8/8/8/8 w - - 0 1", variant, detected=dialect)):
            for _ in range(2):  # made, then (where kept) found
                assert plain_json.answer_line(result, index, None) == library_line(result, FenInput("", "", index))
    for dialect in dialects:
        result = ValidateResult(True, "standard", detected=dialect)
        assert plain_json.answer_line(result, 1, None) == library_line(result, FenInput("", "", 1))
    assert len(plain_json._MIDDLES) <= plain_json._MIDDLE_LIMIT
    assert all(len(kept) <= plain_json._MIDDLE_LIMIT for kept in plain_json._MIDDLES.values())


def test_a_variant_value_met_again_is_the_same_text_and_what_is_kept_stays_bounded():
    plain_json._VARIANT_BYTES.clear()  # as a new run starts: the tests before kept values of their own
    plain_json._VARIANT_VALUES.clear()
    names = [f"variant-{index}" for index in range(plain_json._VARIANT_LIMIT + 20)] + ["x" * 300]
    for _ in range(2):
        for name in names:
            line = json.dumps({"fen": "8/8/8/8/8/8/8/K6k w - - 0 1", "variant": name}).encode() + b"\n"
            assert plain_json.read_fen_object(line) == ("8/8/8/8/8/8/8/K6k w - - 0 1", name)
    first = plain_json.read_fen_object(b'{"fen": "f", "variant": "variant-3"}')
    again = plain_json.read_fen_object(b'{"variant":"variant-3","fen":"g"}')
    assert first[0] is not None and again[0] is not None and first[1] is again[1]  # one str, its hash made once
    assert len(plain_json._VARIANT_BYTES) == len(plain_json._VARIANT_VALUES) <= plain_json._VARIANT_LIMIT
    assert all(raw.decode() == value for raw, value in zip(plain_json._VARIANT_BYTES, plain_json._VARIANT_VALUES,
                                                            strict=True))
    assert all(len(raw) <= plain_json._QUOTED_LENGTH for raw in plain_json._VARIANT_BYTES)


def _plain_end_byte_by_byte(data: bytes, at: int, end: int) -> int:
    for index in range(at, end):
        if data[index] == 34:
            return index
        if not 32 <= data[index] <= 126 or data[index] == 92:
            return -1
    return end


# Long runs of plain bytes with now and then one that is not (or a quote), anywhere in a
# word of eight: the words read at once must stop where the byte-by-byte reading does.
_BYTES_MET = st.sampled_from([0, 31, 32, 33, 34, 35, 91, 92, 93, 126, 127, 128, 195, 255])
_PLAIN_BYTE = st.integers(32, 126).filter(lambda code: code not in (34, 92))


@settings(max_examples=examples(500))
@given(st.lists(st.one_of(_PLAIN_BYTE, _PLAIN_BYTE, _PLAIN_BYTE, _PLAIN_BYTE, _BYTES_MET), max_size=80),
       st.integers(0, 80), st.integers(0, 80))
@example([80] * 40 + [34] + [80] * 20, 0, 61)
@example([80] * 7 + [255] + [80] * 20, 0, 28)
@example([80] * 12 + [127] + [34], 3, 14)
def test_the_end_of_a_plain_string_is_found_as_byte_by_byte(codes, at, end):
    data = bytes(codes)
    end = min(end, len(data))
    at = min(at, end)
    assert plain_json._plain_end(data, at, end) == _plain_end_byte_by_byte(data, at, end)
