"""``convert`` and ``validate`` answer every line, whatever it holds: one output line per
non-blank input line, in order, and the lines after a hostile one are still answered.
The installed command, reading real pipes."""

from __future__ import annotations

import gzip
import json
import re
import subprocess

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from installed import installed_script

from notation.cli.input_lines import MAX_LINE_BYTES, iter_fen_inputs
from notation.cli.jsonl import STARTING_USES

pytestmark = [pytest.mark.slow]

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
TIMEOUT = 120

# (name, line bytes, expected code); every line is followed by a good FEN.
HOSTILE = [
    ("deep-json-array", b'{"fen": ' + b"[" * 30_000 + b"]" * 30_000 + b"}", "bad-input"),
    ("deep-json-object", b'{"fen": ' + b'{"a":' * 1000 + b"1" + b"}" * 1000 + b"}", "bad-input"),
    ("huge-integer", b'{"fen": ' + b"9" * 5000 + b"}", "bad-input"),
    ("not-utf8", b"\xff\xfe" + START.encode(), "encoding"),
    ("over-the-limit", b"8/" * (MAX_LINE_BYTES // 2 + 1), "line-too-long"),
    ("far-over-the-limit", b"x" * (8 * MAX_LINE_BYTES + 3), "line-too-long"),
    ("json-not-object", b'{"fen": "x"', "bad-input"),
]


def run(command: str, data: bytes, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([installed_script("notation"), command, *args], input=data, capture_output=True,
                          timeout=TIMEOUT)


@pytest.mark.parametrize("command, ok_key", [("convert", "ok"), ("validate", "valid")])
def test_json_one_answer_per_line_and_every_later_line_answered(command, ok_key):
    lines = []
    for _, line, _ in HOSTILE:
        lines += [line, START.encode()]
    result = run(command, b"\n".join(lines) + b"\n", "--json")
    assert result.returncode == 1, result.stderr
    assert b"Traceback" not in result.stderr and b"internal error" not in result.stderr
    answers = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert len(answers) == 2 * len(HOSTILE)
    for index, (name, _, code) in enumerate(HOSTILE):
        bad, good = answers[2 * index], answers[2 * index + 1]
        assert bad[ok_key] is False and bad["errors"][0]["code"] == code, name
        assert good[ok_key] is True, name


@pytest.mark.parametrize("command, good_prefix", [("convert", START), ("validate", "valid")])
def test_text_one_answer_per_line(command, good_prefix):
    lines = [b"x" * (3 * MAX_LINE_BYTES), START.encode(), b"\xff", START.encode()]
    result = run(command, b"\n".join(lines))  # no final line end
    out = result.stdout.decode().splitlines()
    assert len(out) == 4
    assert "line-too-long" in out[0] and "encoding" in out[2]
    assert out[1].startswith(good_prefix) and out[3].startswith(good_prefix)


def test_a_line_at_the_limit_is_read():
    fen = START + " " * (MAX_LINE_BYTES - len(START))
    assert len(fen.encode()) == MAX_LINE_BYTES
    result = run("validate", fen.encode() + b"\n" + fen.encode())
    assert result.stdout.decode().splitlines() == ["valid", "valid"]


def _peak_rss_kib(lines: list[bytes], repeat_first: int = 1) -> tuple[int, bytes]:
    """Run ``notation validate`` on ``lines`` (the first written ``repeat_first`` times, so a
    huge line never exists in this process); its peak RSS in KiB and its output."""
    import os
    import threading

    process = subprocess.Popen([installed_script("notation"), "validate"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out: list[bytes] = []
    reader = threading.Thread(target=lambda: out.append(process.stdout.read()), daemon=True)
    reader.start()
    try:
        for _ in range(repeat_first):
            process.stdin.write(lines[0])
        for line in lines[1:]:
            process.stdin.write(line)
        process.stdin.close()
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
    finally:
        if process.returncode is None:
            process.kill()
            process.wait(timeout=TIMEOUT)
    reader.join(timeout=TIMEOUT)
    return usage.ru_maxrss, out[0]


def test_a_long_line_is_not_held_in_memory():
    """200 MB on one line is read and dropped in bounded chunks: the run's peak RSS stays
    within 50 MB of the same command answering two short lines (holding the line would
    take 200 MB more)."""
    baseline, _ = _peak_rss_kib([START.encode() + b"\n", START.encode() + b"\n"])
    peak, out = _peak_rss_kib([b"x" * (1 << 20), b"\n" + START.encode() + b"\n"], repeat_first=200)
    lines = out.decode().splitlines()
    assert "line-too-long" in lines[0] and lines[1:] == ["valid"]
    assert peak - baseline < 50 * 1024, (peak, baseline)


def test_compressed_standard_input_is_read():
    result = run("validate", gzip.compress((START + "\n").encode() * 3, mtime=0))
    assert result.stdout.decode().splitlines() == ["valid"] * 3


@settings(max_examples=80, derandomize=True, deadline=None)
@given(st.lists(st.binary(max_size=60).filter(lambda b: b"\n" not in b), max_size=12))
@example([b"", b"\xef\xbb\xbf"])  # a later line of a byte order mark alone: blank
@example([b"", b"\xef\xbb\xbf{}"])  # a later line after its mark: an input
def test_every_non_blank_line_yields_one_input(raw_lines):
    import io

    data = b"\n".join(raw_lines)
    items = list(iter_fen_inputs([], "standard", json_lines=True, stream=io.BufferedReader(io.BytesIO(data))))
    def blank(line: bytes) -> bool:
        # A mark starting a later line is a joined file's (``cat a.jsonl b.jsonl``): dropped,
        # so a line of the mark alone (an empty file's) is blank.
        try:
            return not line.decode("utf-8").removeprefix("\ufeff").strip()
        except UnicodeDecodeError:
            return False
    # a lone CR ends a line too (an old Mac file); a byte order mark starting the stream is dropped
    lines = re.split(rb"\r\n|\r|\n", data.removeprefix(b"\xef\xbb\xbf"))
    expected = [number for number, line in enumerate(lines, start=1) if not blank(line)]
    assert [item.line for item in items] == expected
    assert all((item.fen is None) == (item.problem is not None) for item in items)


# JSON lines as read: the usual one is parsed from its bytes, anything orjson refuses is
# read again as text, so that each problem is said as it always was (what, and where).
JSON_LINES = [
    (b'{"fen": "' + START.encode() + b'"}\n', (START, "standard", None, None)),
    (b'{"fen": "' + START.encode() + b'", "variant": "zh"}\r\n', (START, "zh", None, None)),
    (b'{"fen": "\xff"}\n', (None, "standard", "encoding", "line 7: byte 0xFF at byte 10 is not valid UTF-8")),
    (b'{"fen": "x"} junk\n', (None, "standard", "bad-input",
                                "line 7: not valid JSON: unexpected content after document (column 14)")),
    (b'{"fen": 1}', (None, "standard", "bad-input", 'line 7: "fen" must be a string')),
    (b'{"fen": "x", "side": "w"}', (None, "standard", "unknown-field",
                                      'line 7: unknown field(s) "side"; known fields: fen, variant')),
    (b'{"fen": "\xc3\xa9"}\x0b\n', None),  # a vertical tab after the object: not JSON's whitespace
]


@pytest.mark.parametrize("data, expected", JSON_LINES)
def test_json_lines_read_from_bytes_say_each_problem_as_the_text_path(data, expected):
    from notation.cli.input_lines import RawInput, _json_input, fen_input

    item = fen_input(RawInput(None, data, 7), "standard", json_lines=True)
    as_text = _json_input(data.decode("utf-8").rstrip("\r\n"), "standard", 7) if expected is None else None
    found = (item.fen, item.variant, item.problem and item.problem.code, item.problem and item.problem.message)
    if as_text is not None:
        expected = (as_text.fen, as_text.variant, as_text.problem and as_text.problem.code,
                    as_text.problem and as_text.problem.message)
    assert found == expected


# A run's first lines are read and answered without orjson (json_codec's starting
# functions), the rest with it: a line must get the same answer wherever it falls.
ANSWERED_ALIKE = [
    b'{"fen": "' + START.encode() + b'", "variant": "standard"}',
    b'{"fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1", "variant": "crazyhouse"}',
    b'{"fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 +0+0", "variant": "threecheck"}',
    b'{"fen": "8/8/8/8/8/8/8/8 w - - 0 1"}',
    b'{"fen": "\\u00e9t\\u00e9"}',
    '{"fen": "été ♔ \u2028"}'.encode(),
    b'{"fen": "\\ud800"}',
    b'{"fen": "x", "ply": 3}',
    b'{"fen": 12}',
    b'{"fen": "8/8/8/8/8/8/8/K6k w - - 0 1"',
    b'{"fen": "x\xff"}',
    b"\xef\xbb\xbf" + b'{"fen": "x"}',
    b'{"fen": "tab\there"}',
    START.encode(),
]


@pytest.mark.parametrize("command", ["convert", "validate"])
def test_a_line_is_answered_alike_at_the_start_of_a_run_and_later(command):
    repeats = STARTING_USES // len(ANSWERED_ALIKE) + 2  # two uses a line: past the start, twice
    result = run(command, b"\n".join(ANSWERED_ALIKE * repeats) + b"\n", "--json")
    assert b"Traceback" not in result.stderr and b"internal error" not in result.stderr
    answers = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert len(answers) == len(ANSWERED_ALIKE) * repeats
    for answer in answers:
        del answer["line"]
    first = [json.dumps(answer) for answer in answers[: len(ANSWERED_ALIKE)]]
    for start in range(0, len(answers), len(ANSWERED_ALIKE)):
        block = [json.dumps(answer) for answer in answers[start:start + len(ANSWERED_ALIKE)]]
        assert [re.sub(r"\bline \d+", "line N", text) for text in block] == [
            re.sub(r"\bline \d+", "line N", text) for text in first], start


# FEN lines of every kind a run meets: good, illegal, unreadable, blank, JSON, too long.
_MIXED_LINES = [
    START.encode(),
    b"",
    b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",  # cut short
    b'{"fen": "' + START.encode() + b'", "variant": "crazyhouse"}',
    b"8/" * (MAX_LINE_BYTES // 2 + 1),  # too long
    b"   ",
    b"4k3/8/8/8/8/8/8/4K2R w KQ - 0 1",  # a castling right without its rook
    START.encode(),
]


@pytest.mark.parametrize("args", [(), ("--json",), ("--json", "--jobs", "2")])
@pytest.mark.parametrize("command", ["convert", "validate"])
@pytest.mark.parametrize("end", [b"\r", b"\r\n"])
def test_lines_ended_by_lone_crs_are_answered_as_lines_ended_by_line_feeds(command, args, end):
    """An old Mac file ends its lines with a lone CR: each line is answered, numbered as in
    the same file with line feeds (a CR was once a control character inside one long FEN),
    on standard input and from ``--input``."""
    with_feeds = b"\n".join(_MIXED_LINES) + b"\n"
    expected = run(command, with_feeds, *args)
    assert expected.stdout.count(b"\n") == 6  # the blank lines are not answered
    result = run(command, with_feeds.replace(b"\n", end), *args)
    assert (result.returncode, result.stdout, result.stderr) == (expected.returncode, expected.stdout, expected.stderr)


def test_input_files_with_lone_crs_are_read_line_by_line(tmp_path):
    with_feeds, with_crs = tmp_path / "feeds.fen", tmp_path / "crs.fen"
    with_feeds.write_bytes(b"\n".join(_MIXED_LINES) + b"\n")
    with_crs.write_bytes(b"\r".join(_MIXED_LINES) + b"\r")
    expected = run("validate", b"", "--input", str(with_feeds))
    result = run("validate", b"", "--input", str(with_crs))
    assert result.returncode == expected.returncode == 1
    assert result.stdout.decode().replace("crs.fen", "feeds.fen") == expected.stdout.decode()
    assert ":8: valid" in result.stdout.decode()


@pytest.mark.parametrize("args", [(), ("--json",)])
@pytest.mark.parametrize("command", ["convert", "validate"])
@pytest.mark.parametrize("end", [b"\n", b"\r\n", b"\r"])
def test_a_byte_order_mark_starting_the_input_is_dropped(command, args, end):
    """Windows editors start a UTF-8 file with a byte order mark: it was read as the first
    FEN's first character (``fen-syntax``, or a JSON line taken for a FEN)."""
    lines = [b'{"fen": "' + START.encode() + b'", "variant": "standard"}' if args else START.encode(),
             b"8/8/8/8/8/8/8/K6k w - - 0 1"]
    plain = end.join(lines) + end
    expected = run(command, plain, *args)
    assert expected.returncode == 0
    assert run(command, b"\xef\xbb\xbf" + plain, *args).stdout == expected.stdout


def test_a_byte_order_mark_does_not_count_towards_the_first_lines_length():
    """The longest line read is as long with a mark before it as without."""
    longest = b" " * (MAX_LINE_BYTES - len(START)) + START.encode()
    answers = []
    for data in (longest, longest + b" "):
        expected = run("validate", data + b"\n", "--json")
        assert run("validate", b"\xef\xbb\xbf" + data + b"\n", "--json").stdout == expected.stdout
        answers.append(json.loads(expected.stdout))
    assert answers[0]["valid"] is True and answers[1]["errors"][0]["code"] == "line-too-long"


@pytest.mark.parametrize("args", [(), ("--json",), ("--json", "--jobs", "2")])
@pytest.mark.parametrize("command", ["convert", "validate"])
def test_files_joined_with_their_byte_order_marks_are_read_with_a_warning(command, args):
    """Two Windows files joined with ``cat``: the second one's byte order mark starts a
    line. That line is answered as without the mark (it was ``fen-syntax`` at column 1, and
    a JSON line was taken for a FEN), with a ``fen-bom`` warning: first among the JSON
    answer's warnings, or on standard error."""
    lines = [line for line in _MIXED_LINES if len(line) < 200]
    marked = [number for number, line in enumerate(lines, start=1) if number > 1 and line.strip()]
    plain = b"\n".join(lines) + b"\n"
    joined = b"\n".join(b"\xef\xbb\xbf" + line if number in marked else line
                        for number, line in enumerate(lines, start=1)) + b"\n"
    expected, result = run(command, plain, *args), run(command, joined, *args)
    assert result.returncode == expected.returncode == 1
    warning = "fen-bom: byte order mark at the start of the line (files joined?); skipped"
    if not args:
        assert result.stdout == expected.stdout
        assert result.stderr.decode().splitlines() == [f"warning: line {number}: {warning}" for number in marked]
        return
    for got, want in zip(result.stdout.decode().splitlines(), expected.stdout.decode().splitlines(), strict=True):
        got, want = json.loads(got), json.loads(want)
        if got["line"] in marked:
            assert got["warnings"][0] == {"code": "fen-bom", "message": warning.removeprefix("fen-bom: ")}
            del got["warnings"][0]
        assert got == want


def test_a_byte_order_mark_alone_on_a_later_line_is_a_blank_line():
    result = run("validate", START.encode() + b"\n\xef\xbb\xbf\n" + START.encode() + b"\n", "--json")
    assert [json.loads(line)["line"] for line in result.stdout.decode().splitlines()] == [1, 3]
    assert result.stderr == b""
