"""The parts of `notation check`: line reading, EPD splitting, field columns, formats.

Tables of real examples plus hypothesis properties (seeded, few examples: these run fast).
"""

from __future__ import annotations

import bz2
import gzip
import io
import json
import pickle
import re

import pytest
import zstandard
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from test_compiled_build import compiled

from notation.check import CheckOptions, CheckProblem, Severity, run_check
from notation.check.epd import EpdSyntaxError, parse_epd, parse_operations, split_position
from notation.check.formats import FORMAT_NAMES, format_class
from notation.check.formats.github import escape_data, escape_property
from notation.check.formats.sarif import SarifFormat, artifact_location
from notation.check.judge import field_column
from notation.check.lines import KEPT_ENDS, LineState, read_lines
from notation.check.problem import CHECK_CODES
from notation.check.sources import FileKind, Skipped, Unreadable, classify
from notation.inputs import InputFile
from notation.variants import DEFAULT_REGISTRY

SETTINGS = settings(max_examples=60, derandomize=True, deadline=None)


def read(data: bytes, max_bytes: int = 64):
    problems = []
    lines = list(read_lines(io.BytesIO(data), lambda *p: problems.append(p), max_bytes=max_bytes))
    return lines, problems


# --- lines ------------------------------------------------------------------------------

def test_bom_and_crlf_are_dropped():
    lines, problems = read(b"\xef\xbb\xbfa\r\nb\n\nc")
    assert [(ln.number, ln.text) for ln in lines] == [(1, "a"), (2, "b"), (3, ""), (4, "c")]
    assert problems == []


def test_undecodable_byte_is_located_by_character_column():
    lines, problems = read("é".encode() + b"x\xffy\n" + b"ok\n" + b"\xe9\n" + b"\xe9\n")
    assert problems[0][:4] == (1, 3, Severity.ERROR, "encoding")
    assert "0xFF" in problems[0][4]
    assert problems[1][:4] == (3, 1, Severity.ERROR, "encoding")
    assert "2 more line(s)" in problems[1][4]
    assert [ln.state for ln in lines] == [LineState.REPLACED, LineState.CLEAN, LineState.REPLACED, LineState.REPLACED]
    assert lines[0].text == "éx\ufffdy"


def test_long_line_keeps_its_ends_and_reading_goes_on():
    long = b"[" + b"x" * 1000 + b"1-0"
    lines, problems = read(b"first\n" + long + b"\nlast\n", max_bytes=64)
    assert [p[:4] for p in problems] == [(2, 1, Severity.ERROR, "line-too-long")]
    assert [ln.number for ln in lines] == [1, 2, 3]
    dropped = lines[1]
    assert dropped.state is LineState.DROPPED
    assert dropped.text.startswith("[x") and dropped.text.endswith("x1-0")
    assert len(dropped.text) <= 2 * KEPT_ENDS + 5
    assert lines[2].text == "last"


def test_a_line_of_exactly_the_limit_is_kept():
    lines, problems = read(b"y" * 64 + b"\n" + b"z" * 64, max_bytes=64)
    assert problems == [] and [len(ln.text) for ln in lines] == [64, 64]


def test_nul_stops_reading_with_its_place():
    lines, problems = read(b"ok\nab\x00cd\nmore\n")
    assert [p[:4] for p in problems] == [(2, 3, Severity.ERROR, "binary-file")]
    assert [ln.text for ln in lines] == ["ok"]


@pytest.mark.parametrize("suffix, compress", [
    (".fen.gz", lambda data: gzip.compress(data, mtime=0)),
    (".fen.bz2", bz2.compress),
    (".fen.zst", lambda data: zstandard.ZstdCompressor().compress(data)),
])
def test_truncated_compressed_stream_is_a_located_problem(tmp_path, suffix, compress):
    data = b"".join(b"%d 4k3/8/8/8/8/8/8/4K3 w - - 0 1\n" % i for i in range(5000))
    path = tmp_path / ("cut" + suffix)
    packed = compress(data)
    path.write_bytes(packed[: len(packed) // 2])
    problems = []
    with InputFile(str(path)) as source:
        lines = list(read_lines(source.binary, lambda *p: problems.append(p), max_bytes=1024))
    assert len(problems) == 1 and problems[0][3] == "decompress"
    assert "truncated file" in problems[0][4]
    assert problems[0][0] == len(lines) + 1


@SETTINGS
@given(st.binary(max_size=400), st.integers(min_value=1, max_value=40))
def test_reading_any_bytes_never_raises_and_numbers_lines(data, max_bytes):
    lines, problems = read(data, max_bytes)
    numbers = [ln.number for ln in lines]
    assert numbers == list(range(1, len(lines) + 1))
    for line in lines:
        assert "\n" not in line.text
        assert len(line.text) <= max_bytes + 2 * KEPT_ENDS + 5
    for number, column, _severity, code, message in problems:
        assert 1 <= number <= len(lines) + 1 and column >= 1 and code in CHECK_CODES and message


# --- EPD ---------------------------------------------------------------------------------

START4 = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"


@pytest.mark.parametrize("line, position, ops", [
    (START4, START4, []),
    (START4 + " bm e4 d4; id \"a; b\";", START4, [("bm", ["e4", "d4"]), ("id", ["a; b"])]),
    (START4 + " 3+3 variant 3check", START4 + " 3+3", [("variant", ["3check"])]),
    (START4 + " 0 1 hmvc 0;", START4 + " 0 1", [("hmvc", ["0"])]),
    ("  " + START4 + " variant \"King of the Hill\";noop;", START4, [("variant", ["King of the Hill"]), ("noop", [])]),
])
def test_epd_records(line, position, ops):
    record = parse_epd(line)
    assert record.position == position
    assert line[record.column - 1:].startswith(position)
    assert [(o.opcode, [x.value for x in o.operands]) for o in record.operations] == ops
    for operation in record.operations:
        assert line[operation.column - 1:].startswith(operation.opcode)
        for operand in operation.operands:
            assert line[operand.column - 1:].startswith(operand.value)


@pytest.mark.parametrize("tail, column", [
    (' id "open', 5),
    (" 3bm e4;", 2),
    (' bm e4 "x', 8),
    (" bm, e4;", 4),
])
def test_epd_syntax_errors_name_their_column(tail, column):
    line = START4 + tail
    _, _, start = split_position(line)
    with pytest.raises(EpdSyntaxError) as caught:
        parse_operations(line, start)
    assert caught.value.column == len(START4) + column


_opcode = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,6}", fullmatch=True)
_operand = st.one_of(
    st.from_regex(r"[A-Za-z0-9+#=\-.]{1,6}", fullmatch=True).map(lambda s: (s, False)),
    st.text(st.characters(blacklist_characters='"\n\r', codec="utf-8"), max_size=8).map(lambda s: (s, True)),
)


@pytest.mark.slow
@SETTINGS
@given(st.lists(st.tuples(_opcode, st.lists(_operand, max_size=3)), max_size=4))
def test_epd_operations_round_trip(operations):
    text = START4 + "".join(
        " " + opcode + "".join(f' "{v}"' if quoted else f" {v}" for v, quoted in operands) + ";"
        for opcode, operands in operations
    )
    record = parse_epd(text)
    assert [(o.opcode, [x.value for x in o.operands]) for o in record.operations] == [
        (opcode, [v for v, _ in operands]) for opcode, operands in operations
    ]


# --- columns of FEN fields ---------------------------------------------------------------

@pytest.mark.parametrize("fen, field, column", [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "castling", 47),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "en-passant", 52),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "fullmove", 56),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1", "checks", 54),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1", "halfmove", 58),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 +1+0", "checks", 58),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Qp] w KQkq - 0 1", "pockets", 44),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/Qp w KQkq - 0 1", "pockets", 45),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 Qp", "pockets", 58),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", "halfmove", None),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w", "castling", None),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", None, None),
])
def test_field_column(fen, field, column):
    assert field_column(fen, field) == column


# --- sources -----------------------------------------------------------------------------

@pytest.mark.parametrize("name, found", [
    ("games.pgn", FileKind.PGN),
    ("Games.PGN.GZ", FileKind.PGN),
    ("suite.epd.zst", FileKind.EPD),
    ("book.pgn.bz2", FileKind.PGN),
    ("a.fen.zstd", FileKind.FEN),
    ("a.fen", FileKind.FEN),
    (".fen", None),
    ("fen", None),
    ("notes.txt", None),
    ("x.gz", None),
    ("a.fen.xz", None),
])
def test_classify(name, found):
    assert classify(name) == found


def test_unreadable_and_skipped_paths_stay_apart_and_pickled():
    unreadable, skipped = Unreadable("a.pgn", "no such file"), Skipped("a.pgn", "no such file")
    assert unreadable != skipped and skipped != unreadable  # the same fields, not the same outcome
    assert unreadable == Unreadable("a.pgn", "no such file") and len({unreadable, skipped}) == 2
    assert repr(Skipped("notes.txt")) == (
        "Skipped(path='notes.txt', reason='not a .pgn, .fen or .epd file (optionally .gz, .bz2 or .zst)')")
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):  # ``--jobs`` and Dask workers get them pickled
        for found in (unreadable, skipped):
            back = pickle.loads(pickle.dumps(found, protocol))
            assert type(back) is type(found) and back == found


@pytest.mark.skipif(not compiled("notation.check.sources"), reason="interpreted, Final is read-only to mypy only")
def test_unreadable_and_skipped_are_read_only_in_the_compiled_build():
    unreadable = Unreadable("a.pgn", "no such file")
    with pytest.raises(AttributeError):
        unreadable.reason = "found"
    assert unreadable == Unreadable("a.pgn", "no such file")


# --- formats -----------------------------------------------------------------------------

def test_github_escapes_properties_and_data():
    out = io.StringIO()
    fmt = format_class("github")(out)
    fmt.problem(CheckProblem("dir,a:b/100%.fen", 3, 7, Severity.WARNING, "rare-dialect", "50% done\r\nnext: a,b"))
    fmt.finish()
    assert out.getvalue() == (
        "::warning file=dir%2Ca%3Ab/100%25.fen,line=3,col=7,title=rare-dialect::50%25 done%0D%0Anext: a,b\n"
    )


def _unescape(text: str) -> str:
    return re.sub(r"%(25|0D|0A|3A|2C)", lambda m: bytes.fromhex(m.group(1)).decode(), text)


@SETTINGS
@given(st.text(max_size=40))
def test_github_escaping_round_trips(text):
    prop, data = escape_property(text), escape_data(text)
    assert _unescape(prop) == text and _unescape(data) == text
    assert not set(prop) & set(",:\r\n") and not set(data) & set("\r\n")


def test_text_and_json_formats():
    problem = CheckProblem("a.pgn", 2, 5, Severity.ERROR, "fen-syntax", "bad\nthing")
    out = io.StringIO()
    fmt = format_class("text")(out)
    fmt.problem(problem)
    fmt.finish()
    assert out.getvalue() == "a.pgn:2:5: fen-syntax: bad thing\n"
    for count in (0, 1, 3):
        out = io.StringIO()
        fmt = format_class("json")(out)
        for _ in range(count):
            fmt.problem(problem)
        fmt.finish()
        assert json.loads(out.getvalue()) == {"problems": [problem.to_dict()] * count}


def test_sarif_log_links_rules_and_artifacts():
    fmt = SarifFormat(io.StringIO())
    problems = [
        CheckProblem("a b/x.fen", 1, 2, Severity.ERROR, "fen-syntax", "m1"),
        CheckProblem("c.pgn", 4, 1, Severity.WARNING, "missing-setup", "m2"),
        CheckProblem("a b/x.fen", 9, 3, Severity.ERROR, "fen-syntax", "m3"),
    ]
    for problem in problems:
        fmt.problem(problem)
    log = fmt.log()
    run = log["runs"][0]
    assert log["version"] == "2.1.0" and "sarif-2.1.0" in log["$schema"]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == ["fen-syntax", "missing-setup"]
    assert [a["location"]["uri"] for a in run["artifacts"]] == ["a%20b/x.fen", "c.pgn"]
    for problem, result in zip(problems, run["results"], strict=True):
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"] == problem.code
        location = result["locations"][0]["physicalLocation"]
        artifact = location["artifactLocation"]
        assert run["artifacts"][artifact["index"]]["location"]["uri"] == artifact["uri"]
        assert location["region"] == {"startLine": problem.line, "startColumn": problem.column}
        assert result["level"] == problem.severity.value


def test_sarif_uris():
    assert artifact_location("dir/../x#1.pgn") == {"uri": "x%231.pgn", "uriBaseId": "%SRCROOT%"}
    assert artifact_location("/abs/p q.fen") == {"uri": "file:///abs/p%20q.fen"}


def test_every_code_is_described():
    from notation.check.games import PGN_SEVERITY
    from notation.pgn.games import PROBLEM_CODES
    from notation.validation import CODES

    assert set(CODES) <= set(CHECK_CODES)
    assert set(PROBLEM_CODES) <= set(CHECK_CODES)
    assert set(PROBLEM_CODES) <= set(PGN_SEVERITY)


# --- whole files of anything -------------------------------------------------------------

_lines = st.lists(
    st.one_of(
        st.sampled_from([
            '[FEN "4k3/8/8/8/8/8/8/4K3 w - - 0 1"]', '[SetUp "1"]', '[Variant "Atomic"]', '[fen "x"]',
            "1. e4 e5 *", "{ open", "}", "", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            'variant "', "[", '[Event "', "4k3/8/8/8/8/8/8/4K3 w - - 0 1 bm Kd2;",
        ]),
        st.text(max_size=30),
    ),
    max_size=12,
).map(lambda parts: "\n".join(parts).encode("utf-8", "surrogatepass"))


@pytest.mark.slow
@SETTINGS
@given(st.one_of(_lines, st.binary(max_size=200)), st.sampled_from(["x.pgn", "x.fen", "x.epd", "x.pgn.gz"]))
def test_any_file_gives_located_problems(tmp_path_factory, data, name):
    path = tmp_path_factory.mktemp("any") / name
    path.write_bytes(gzip.compress(data, mtime=0) if name.endswith(".gz") else data)
    found = []
    summary = run_check([str(path)], CheckOptions(DEFAULT_REGISTRY.find("standard"), DEFAULT_REGISTRY), found.append)
    line_count = len(re.split(rb"\r\n|\r|\n", data))  # the PGN splitter also ends lines at a lone CR
    assert summary.files == 1 and not summary.unreadable
    assert summary.errors + summary.warnings == len(found)
    for problem in found:
        assert problem.path == str(path)
        assert 1 <= problem.line <= line_count and problem.column >= 1
        assert problem.code and problem.message


_LINE_END_RE = re.compile(r"\r\n|\r|\n")


# A line's bytes, without a line feed: a CR last (then a LF follows, or the text ends) or
# within (a lone CR, which ends a line for read_lines and read_blocks alike).
_line_bytes = st.one_of(
    st.sampled_from([b"", b"[Event \"x\"]", b"1. e4 *", b"caf\xe9", b"\xff\xfe", b"a\x00b", b"x\r", b"\xef\xbb\xbf",
                     b"a\rb", b"\r", b"caf\xe9\r\xff"]),
    st.binary(max_size=12).filter(lambda b: b"\n" not in b and b"\r" not in b),
    st.integers(min_value=1, max_value=120).map(lambda n: b"y" * n),
)


@SETTINGS
@given(st.lists(_line_bytes, max_size=14), st.booleans(), st.integers(16, 64), st.integers(1, 48))
def test_blocks_and_lines_agree(parts, final_newline, max_bytes, block_bytes):
    """read_blocks hands on the same text and the same problems as read_lines, lines ended
    by LF, CR LF or a lone CR, but that it keeps the bytes that are not UTF-8 (lone
    surrogates) for the PGN reader, unreported."""
    from notation.check.lines import read_blocks

    data = b"\n".join(parts) + (b"\n" if final_newline and parts else b"")
    lines, line_problems = read(data, max_bytes)
    block_problems = []
    blocks = list(read_blocks(io.BytesIO(data), lambda *p: block_problems.append(p), max_bytes=max_bytes,
                              block_bytes=block_bytes))
    text = "".join(blocks)
    assert block_problems == [problem for problem in line_problems if problem[3] != "encoding"]
    split = _LINE_END_RE.split(text)
    if _LINE_END_RE.search(text[-1:]) or not text:
        split.pop()
    replaced = [s.encode("utf-8", "surrogateescape").decode("utf-8", "replace") for s in split]
    assert replaced == [ln.text for ln in lines]


@SETTINGS
@given(st.lists(_line_bytes, max_size=14), st.booleans(), st.integers(1, 64))
@example(parts=[b"y" * 7, b"z"], final_newline=True, max_bytes=6)
def test_a_byte_order_mark_starting_the_file_changes_nothing_else(parts, final_newline, max_bytes):
    """The mark is dropped and counts towards nothing: the lines, their numbers and the
    problems are the unmarked file's. (The mark and a long first line's first bytes were
    once a line of their own, and the lines after it numbered one too far.)"""
    data = b"\n".join(parts) + (b"\n" if final_newline and parts else b"")
    assume(not data.startswith(b"\xef\xbb\xbf"))
    found = []
    for text in (b"\xef\xbb\xbf" + data, data):
        lines, problems = read(text, max_bytes)
        found.append(([(line.number, line.text, line.state) for line in lines], problems))
    assert found[0] == found[1]


def _read_blocks(data: bytes, max_bytes: int, block_bytes: int):
    from notation.check.lines import read_blocks

    problems: list[tuple] = []
    text = "".join(read_blocks(io.BytesIO(data), lambda *p: problems.append(p),
                               max_bytes=max_bytes, block_bytes=block_bytes))
    return text, problems


@SETTINGS
@given(st.lists(_line_bytes.map(lambda b: b.rstrip(b"\r")), max_size=14), st.booleans(), st.integers(16, 64),
       st.integers(1, 48), st.sampled_from([b"\r", b"\r\n"]))
def test_blocks_end_lines_at_a_lone_cr_as_at_a_line_feed(parts, final_end, max_bytes, block_bytes, end):
    """Old Mac files end their lines with a lone CR: read_blocks numbers their lines, finds
    their long lines and NUL bytes, and hands on their text as it does a file of line
    feeds (and of CR LF), the line ends aside, whatever its blocks."""
    with_feeds = b"\n".join(parts) + (b"\n" if final_end and parts else b"")
    text, problems = _read_blocks(with_feeds, max_bytes, block_bytes)
    other_text, other_problems = _read_blocks(with_feeds.replace(b"\n", end), max_bytes, block_bytes)
    assert other_problems == problems
    assert _LINE_END_RE.sub("\n", other_text) == _LINE_END_RE.sub("\n", text)


def test_a_cr_file_longer_than_a_line_may_be_is_read_line_by_line():
    """A file of lone CRs once was one line to the reading layer: past the longest line
    allowed, it was reported as one line too long and left unread."""
    games = b'[Event "x"]\r[Result "*"]\r\r1. e4 e5 2. Nf3 *\r\r' * 40
    text, problems = _read_blocks(games, 256, 64)
    assert problems == [] and text.encode() == games


@given(st.lists(st.sampled_from([b"\n", b"\r", b"\r\n", b"a", b"\r\r", b"\n\r"]), max_size=60),
       st.lists(st.integers(0, 120), max_size=6))
def test_line_ends_of_a_stream_cut_anywhere_are_those_of_the_whole(parts, cuts):
    from notation.check.lines import LineEnds, line_ends

    data = b"".join(parts)
    ends = LineEnds()
    last = 0
    for cut in sorted(min(c, len(data)) for c in cuts) + [len(data)]:
        ends.feed(data[last:cut])
        last = cut
    assert ends.count == line_ends(data) == len(_LINE_END_RE.findall(data.decode()))


class _CountedReads(io.BytesIO):
    """A stream that counts the reads asked of it."""

    def __init__(self, data: bytes):
        super().__init__(data)
        self.reads = 0

    def read1(self, size: int = -1) -> bytes:
        self.reads += 1
        return super().read1(size)


def _appender(found: list[tuple]):
    """A report that keeps each problem in ``found``."""
    return lambda *problem: found.append(problem)


@pytest.mark.parametrize("line_bytes, max_bytes", [(300_000, 1 << 20), (3_000_000, 1 << 20)])
def test_blocks_gather_a_long_line_in_doubling_reads(line_bytes, max_bytes):
    """A line longer than a block is gathered in reads as long as what is held of it: a few
    dozen reads, where a read a block made each held byte be copied again at every read.
    What is handed on is what smaller and larger blocks hand on."""
    from notation.check.lines import read_blocks

    data = b'[Event "x"]\n' + b"1. e4 " * (line_bytes // 6) + b"*\n" + b"1. d4 *\n"
    handed = {}
    for block_bytes in (64, 1 << 16, 1 << 20):
        stream = _CountedReads(data)
        problems: list[tuple] = []
        text = "".join(read_blocks(stream, _appender(problems), max_bytes=max_bytes, block_bytes=block_bytes))
        handed[block_bytes] = (text, problems)
        if line_bytes < max_bytes:  # past max_bytes the rest of the line is skipped a block at a time
            assert stream.reads <= 40, (block_bytes, stream.reads)
    assert handed[64] == handed[1 << 16] == handed[1 << 20]
    text, problems = handed[64]
    if line_bytes > max_bytes:
        assert [p[3] for p in problems] == ["line-too-long"] and text.endswith("1. e4 *\n1. d4 *\n")
    else:
        assert not problems and text.encode() == data


LINE_FEEDS = [
    b"",
    b"no line end",
    b"\n",
    b"\n" * 5000,  # a run of blank lines: counted byte by byte
    b"\r\n" * 3000,
    b'[Event "x"]\n[Result "*"]\n\n1. e4 { [%clk 0:03:00] } e5 *\n\n' * 200,  # PGN's lines: deleted by memchr
    b"x" * 2000 + b"\n" * 40,  # sparse at first, dense after the sample
    b"\n" * 40 + b"x" * 2000,
]


@pytest.mark.parametrize("data", LINE_FEEDS)
def test_line_feeds_are_counted_whatever_the_lines(data):
    from notation.check.lines import line_feeds

    assert line_feeds(data) == data.count(b"\n")


@given(st.lists(st.sampled_from([b"\n", b"\r\n", b"a", b"[Tag \"v\"]", b"\x00", b"\xff" * 40]), max_size=300))
def test_line_feeds_equal_the_count_of_any_bytes(parts):
    from notation.check.lines import line_feeds

    data = b"".join(parts)
    assert line_feeds(data) == data.count(b"\n")


def test_problems_go_out_in_line_order_as_soon_as_settled():
    from notation.check.problem import ProblemList

    sent = []
    problems = ProblemList("f.pgn", sent.append)
    problems.add(5, 2, Severity.ERROR, "encoding", "ahead of the games")
    problems.add(3, 9, Severity.WARNING, "missing-setup", "b")
    problems.add(3, 1, Severity.ERROR, "fen-syntax", "a")
    problems.settle(4)
    assert [(p.line, p.column) for p in sent] == [(3, 1), (3, 9)]
    problems.add(5, 1, Severity.ERROR, "fen-syntax", "c")
    problems.add(2, 1, Severity.ERROR, "encoding", "a summary, found last")
    problems.finish()
    assert [(p.line, p.column) for p in sent] == [(3, 1), (3, 9), (2, 1), (5, 1), (5, 2)]
    assert len(problems) == 5


# A game's ``notation: ignore`` comment (notation.check.suppress): (movetext, whether the
# game's missing-setup warning is silenced). The game is clean (the fast path's) unless its
# movetext says otherwise.
SUPPRESSIONS = [
    ("{notation: ignore} *", True),
    ("{ notation:ignore[missing-setup] } *", True),
    ("{notation: ignore[fen-syntax]} *", False),  # another code
    ("; notation: ignore\n*", True),  # a rest-of-line comment
    ("{a good move: notation is fine} *", False),  # the letters, not the marker
    ("{Notation: ignore} *", False),  # the marker is written in lowercase
    ("{notation: ignore} \x01 *", True),  # a control character: read by the state machine
    ("{notation: ignore}", True),  # no result: read by the state machine
]


@pytest.mark.parametrize(("movetext", "silenced"), SUPPRESSIONS)
def test_a_games_ignore_comment_silences_its_problems(movetext, silenced):
    from notation.check.judge import PositionJudge
    from notation.check.problem import ProblemList
    from notation.check.runner import check_stream

    game = f'[Event "x"]\n[FEN "4k3/8/8/8/8/8/8/4K3 w - - 0 1"]\n\n{movetext}\n'
    sent: list[CheckProblem] = []
    problems = ProblemList("g.pgn", sent.append)
    check_stream(io.BytesIO(game.encode()), FileKind.PGN, PositionJudge(DEFAULT_REGISTRY),
                 DEFAULT_REGISTRY.find("standard"), problems)
    problems.finish()
    assert ("missing-setup" not in [problem.code for problem in sent]) is silenced
    assert (problems.suppressed > 0) is silenced


def test_a_tag_value_is_no_ignore_comment():
    """The marker is a comment of the game: a tag's value that reads like one silences nothing."""
    from notation.check.suppress import game_suppression
    from notation.pgn.splitter import iter_games

    text = '[Event "{notation: ignore}"]\n[FEN "4k3/8/8/8/8/8/8/4K3 w - - 0 1"]\n\n*\n'
    game = next(iter_games(text))
    assert game.tags_end == text.index("*")  # a clean game: the fast path saw where its tags end
    assert game_suppression(game.text, 1, game.tags_end) is None
    assert game_suppression(game.text, 1) is not None  # where the tags end is not known


@pytest.mark.slow
def test_a_big_file_streams_its_problems():
    """The first game's problem is emitted long before the end of the file is read."""
    from notation.check.judge import PositionJudge
    from notation.check.problem import ProblemList
    from notation.check.runner import check_stream

    game = b'[Event "x"]\n[FEN "4k3/8/8/8/8/8/8/4K3 w - - 0 1"]\n\n*\n\n'
    stream = io.BytesIO(game * 60_000)  # 3 MB
    read_when_emitted = []

    def emit(problem):
        read_when_emitted.append(stream.tell())

    problems = ProblemList("many.pgn", emit)
    check_stream(stream, FileKind.PGN, PositionJudge(DEFAULT_REGISTRY), DEFAULT_REGISTRY.find("standard"), problems)
    problems.finish()
    assert len(read_when_emitted) == 60_000
    assert read_when_emitted[0] <= 2 * 1024 * 1024 < len(game) * 60_000


def test_every_format_name_loads_its_format():
    for name in FORMAT_NAMES:
        fmt = format_class(name)(io.StringIO())
        assert callable(fmt.problem) and callable(fmt.finish)
    with pytest.raises(KeyError):
        format_class("xml")


def test_problems_at_one_place_keep_the_order_they_were_found_in():
    from notation.check.problem import ProblemList

    sent = []
    problems = ProblemList("f.pgn", sent.append)
    for n in range(50):  # a line of many games: every problem on line 1
        problems.add(1, 1 + (n % 3), Severity.WARNING, "pgn-no-tags", str(n))
    problems.settle(0)
    assert sent == []
    problems.settle(1)
    assert [p.message for p in sent] == [str(n) for col in (0, 1, 2) for n in range(50) if n % 3 == col]
