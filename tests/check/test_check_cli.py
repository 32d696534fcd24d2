"""`notation check` run on the fixture tree: every format's output and every exit code.

The cases live in fixtures/check/cases.json, the expected outputs in fixtures/check/expected/.
After a deliberate change, regenerate them with NOTATION_UPDATE_EXPECTED=1 and review the diff.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from paths import ROOT

from notation import __version__
from notation.cli import main as cli_main

CHECK = ROOT / "fixtures" / "check"
EXPECTED = CHECK / "expected"
CASES = json.loads((CHECK / "cases.json").read_text(encoding="utf-8"))["cases"]
UPDATE = os.environ.get("NOTATION_UPDATE_EXPECTED") == "1"


def run_check(argv: list[str], capsys, monkeypatch, stdin: bytes | None = None) -> tuple[int, str, str]:
    """Run ``notation check ARGV`` in fixtures/check; returns (exit code, stdout, stderr).

    Only the check subcommand's module is imported and its options built (``main`` builds
    just the command it runs), so other subcommands cannot break these tests.
    """
    monkeypatch.chdir(CHECK)
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    capsys.readouterr()
    try:
        code = cli_main.main(["check", *argv])
    except SystemExit as exc:  # argparse usage errors
        code = exc.code
    out, err = capsys.readouterr()
    # The SARIF driver names the package version; expected files must not change with it.
    out = out.replace(f'"version": "{__version__}"', '"version": "<version>"')
    return code, out, err


def _foreign_codes() -> frozenset[str]:
    """Codes whose wording belongs to the FEN reader, the validator or the PGN splitter."""
    from notation.pgn.games import PROBLEM_CODES
    from notation.validation import CODES

    return frozenset({"fen-syntax", "unknown-variant", *CODES, *PROBLEM_CODES})


FOREIGN = _foreign_codes()
_TEXT_LINE = re.compile(r"(?P<head>.*?:\d+:\d+: (?P<code>[a-z0-9-]+): ).*")
_GITHUB_LINE = re.compile(r"(?P<head>::\w+ .*?,title=(?P<code>[a-z0-9-]+)::).*")


def comparable(name: str, output: str) -> str:
    """The output with the messages of other modules' codes blanked.

    Their wording is those modules' business (and tested there); codes, places, severities
    and the check's own messages stay exact. test_messages_are_the_validators checks that the
    messages are passed on unchanged.
    """
    if name.endswith((".txt", ".github")):
        pattern = _TEXT_LINE if name.endswith(".txt") else _GITHUB_LINE
        lines = []
        for line in output.splitlines():
            match = pattern.fullmatch(line)
            lines.append(match["head"] + "..." if match and match["code"] in FOREIGN else line)
        return "\n".join(lines)
    data = json.loads(output)
    if "problems" in data:
        for problem in data["problems"]:
            if problem["code"] in FOREIGN:
                problem["message"] = "..."
    else:
        for result in data["runs"][0]["results"]:
            if result["ruleId"] in FOREIGN:
                result["message"]["text"] = "..."
    return json.dumps(data, indent=1)


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_case(case, capsys, monkeypatch):
    stdin = (CHECK / case["stdin"]).read_bytes() if "stdin" in case else None
    code, out, err = run_check(case["args"], capsys, monkeypatch, stdin)
    expected_file = EXPECTED / case["stdout"]
    if UPDATE:
        expected_file.write_text(out, encoding="utf-8", newline="")
    assert "Traceback" not in err and "internal error" not in err
    expected = expected_file.read_text(encoding="utf-8")
    name = expected_file.name
    assert (out == "") == (expected == "")
    if out:
        assert comparable(name, out) == comparable(name, expected), f"stdout differs from {name}"
    assert code == case["exit"], err
    if "stderr" in case:
        assert case["stderr"] in err


def test_every_expected_file_is_used():
    used = {case["stdout"] for case in CASES}
    assert used == {p.name for p in EXPECTED.iterdir()}


def test_tree_formats_agree(capsys, monkeypatch):
    """The four formats of the whole tree report the same problems in the same order."""
    text = (EXPECTED / "tree.txt").read_text(encoding="utf-8").splitlines()
    problems = json.loads((EXPECTED / "tree.json").read_text(encoding="utf-8"))["problems"]
    github = (EXPECTED / "tree.github").read_text(encoding="utf-8").splitlines()
    sarif = json.loads((EXPECTED / "tree.sarif").read_text(encoding="utf-8"))
    results = sarif["runs"][0]["results"]
    assert len(text) == len(problems) == len(github) == len(results) > 30
    for line, problem, annotation, result in zip(text, problems, github, results, strict=True):
        place = f"{problem['path']}:{problem['line']}:{problem['column']}"
        assert line == f"{place}: {problem['code']}: {problem['message']}"
        assert annotation.startswith(f"::{problem['severity']} ")
        assert f",line={problem['line']},col={problem['column']}," in annotation
        assert result["ruleId"] == problem["code"]
        assert result["level"] == problem["severity"]
        region = result["locations"][0]["physicalLocation"]["region"]
        assert (region["startLine"], region["startColumn"]) == (problem["line"], problem["column"])


def test_every_fixture_file_is_reported_or_clean():
    """Each bad fixture file shows up in the tree's report; the clean ones do not."""
    problems = json.loads((EXPECTED / "tree.json").read_text(encoding="utf-8"))["problems"]
    reported = {p["path"] for p in problems}
    for path in sorted((CHECK / "tree").rglob("*")):
        if not path.is_file():
            continue
        name = path.relative_to(CHECK).as_posix()
        if path.parent.name == "clean" or path.suffix == ".txt":
            assert name not in reported, name
        else:
            assert name in reported, name


def test_tree_has_each_kind_of_problem():
    problems = json.loads((EXPECTED / "tree.json").read_text(encoding="utf-8"))["problems"]
    codes = {p["code"] for p in problems}
    assert {
        "fen-syntax", "unknown-variant", "epd-syntax", "pgn-windows-1252", "line-too-long", "binary-file",
        "decompress", "empty-file", "missing-setup", "miscased-tag", "rare-dialect",
        "setup-without-fen", "pgn-tag-syntax", "pgn-comment-unterminated", "bad-castling-rights",
        "opposite-check", "too-many-kings", "missing-king", "pawns-on-backrank",
    } <= codes
    for p in problems:
        assert p["line"] >= 1 and p["column"] >= 1
        assert p["severity"] in ("error", "warning")


def test_fen_syntax_column_is_the_column_in_the_file(capsys, monkeypatch, tmp_path):
    """Indenting a FEN moves its syntax error's column by exactly the indent."""
    bad = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1"
    columns = []
    for indent in (0, 1, 7):
        path = tmp_path / f"i{indent}.fen"
        path.write_text(" " * indent + bad + "\n", encoding="utf-8")
        code, out, _ = run_check([str(path), "--format", "json"], capsys, monkeypatch)
        assert code == 1
        (problem,) = json.loads(out)["problems"]
        assert problem["code"] == "fen-syntax"
        columns.append(problem["column"])
    assert columns[0] == bad.index("X") + 1
    assert columns[1] == columns[0] + 1 and columns[2] == columns[0] + 7


def test_pgn_fen_problem_is_on_the_tag_line_at_the_value(capsys, monkeypatch, tmp_path):
    text = '[Event "x"]\n[Result "*"]\n[SetUp "1"]\n[FEN "4k3/8/8/8/8/8/8/4K3 w - e9 0 1"]\n\n*\n'
    path = tmp_path / "one.pgn"
    path.write_text(text, encoding="utf-8")
    code, out, _ = run_check([str(path), "--format", "json"], capsys, monkeypatch)
    (problem,) = json.loads(out)["problems"]
    line = text.splitlines()[3]
    assert code == 1
    assert (problem["line"], problem["column"]) == (4, line.index("e9") + 1)


def test_directory_listing_skips_hidden_directories(capsys, monkeypatch, tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "bad.fen").write_text("not a fen\n", encoding="utf-8")
    (tmp_path / "Upper.FEN").write_text("not a fen either\n", encoding="utf-8")
    code, out, _ = run_check([str(tmp_path)], capsys, monkeypatch)
    assert code == 1
    assert "Upper.FEN:1:" in out and ".git" not in out


def test_messages_are_the_validators(capsys, monkeypatch):
    """Each FEN line's problems are validate_fen's, code and message, in the file's order."""
    from notation.operations import validate_fen

    code, out, _ = run_check(["tree/positions/bad.fen", "--format", "json"], capsys, monkeypatch)
    problems = json.loads(out)["problems"]
    lines = (CHECK / "tree/positions/bad.fen").read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, start=1):
        result = validate_fen(line.strip())
        expected = sorted((p.code, p.message) for p in result.errors)
        found = sorted((p["code"], p["message"]) for p in problems if p["line"] == number)
        assert found == expected, line
    assert code == 1


# --- special files, as the installed command meets them ---------------------------------

GOOD_FEN = b"4k3/8/8/8/8/8/8/4K3 w - - 0 1\n"
BAD_FEN = b"4k3/8/8/8/8/8/8/4K3 w KQ - 0 1\n"
TIMEOUT = 120


def check_installed(*args: str, cwd=None) -> subprocess.CompletedProcess[str]:

    from installed import installed_script

    return subprocess.run([installed_script("notation"), "check", *args], capture_output=True, text=True,
                          timeout=TIMEOUT, cwd=cwd)


def _a_character_device() -> str:
    """/dev/null or /dev/zero, whichever is still a device on this shared machine."""
    import stat

    for path in ("/dev/zero", "/dev/null"):
        if stat.S_ISCHR(os.stat(path).st_mode):
            return path
    pytest.skip("no character device left at /dev/zero or /dev/null on this machine")


@pytest.mark.slow
def test_a_fifo_socket_or_device_in_a_directory_is_skipped_not_opened(tmp_path):
    """Opening a FIFO with no writer would block for ever; the check must end (bounded
    by the subprocess timeout) having skipped them with a warning."""
    import socket

    (tmp_path / "good.fen").write_bytes(GOOD_FEN)
    os.mkfifo(tmp_path / "pipe.fen")
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(tmp_path / "sock.pgn"))
        (tmp_path / "null.epd").symlink_to(_a_character_device())
        result = check_installed(str(tmp_path))
    finally:
        server.close()
    assert result.returncode == 0, result.stderr
    assert f"skipped {tmp_path / 'pipe.fen'}: a FIFO" in result.stderr
    assert f"skipped {tmp_path / 'sock.pgn'}: a socket" in result.stderr
    assert f"skipped {tmp_path / 'null.epd'}: a device" in result.stderr
    assert "1 file(s), 1 position(s), 0 error(s)" in result.stderr


@pytest.mark.slow
def test_a_fifo_named_on_the_command_line_is_read(tmp_path):
    import gzip
    import threading

    fifo = tmp_path / "positions.fen"
    os.mkfifo(fifo)

    def write() -> None:
        with open(fifo, "wb") as writer:
            writer.write(gzip.compress(GOOD_FEN + BAD_FEN, mtime=0))  # compressed: content decides

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    result = check_installed(str(fifo))
    writer.join(timeout=TIMEOUT)
    assert result.returncode == 1, result.stderr
    assert f"{fifo}:2:" in result.stdout and "bad-castling-rights" in result.stdout


@pytest.mark.slow
def test_named_paths_that_cannot_be_read_exit_2_and_say_why(tmp_path):
    import socket

    (tmp_path / "good.fen").write_bytes(GOOD_FEN)
    (tmp_path / "broken.fen").symlink_to(tmp_path / "nowhere")
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(tmp_path / "s.fen"))
        result = check_installed(str(tmp_path / "good.fen"), str(tmp_path / "broken.fen"), str(tmp_path / "s.fen"))
    finally:
        server.close()
    assert result.returncode == 2
    assert "broken.fen: broken symbolic link" in result.stderr
    assert "s.fen: it is a socket" in result.stderr
    assert "1 file(s)" in result.stderr  # the readable one was still checked


def test_dev_null_named_is_an_empty_input():
    import stat

    if not stat.S_ISCHR(os.stat("/dev/null").st_mode):
        pytest.skip("this machine's /dev/null is not a device (something else replaced it)")
    result = check_installed("/dev/null")
    assert result.returncode == 0, result.stderr
    assert "/dev/null:1:1: empty-file" in result.stdout


@pytest.mark.slow
def test_nothing_to_check_is_an_error(tmp_path):
    (tmp_path / "notes.txt").write_text("hello\n")
    result = check_installed(str(tmp_path))
    assert result.returncode == 2
    assert "nothing to check" in result.stderr


@pytest.mark.slow
@pytest.mark.parametrize("suffix", [".fen", ".fen.gz", ".fen.bz2", ".fen.zst"])
def test_truncated_named_file_is_a_located_decompress_error(tmp_path, suffix):
    import bz2
    import gzip

    import zstandard

    data = GOOD_FEN * 20000
    packers = {".fen.gz": lambda d: gzip.compress(d, mtime=0), ".fen.bz2": bz2.compress,
               ".fen.zst": lambda d: zstandard.ZstdCompressor().compress(d)}
    path = tmp_path / f"cut{suffix}"
    if suffix == ".fen":
        path.write_bytes(data)
        assert check_installed(str(path)).returncode == 0
        return
    packed = packers[suffix](data)
    path.write_bytes(packed[: len(packed) // 2])
    result = check_installed(str(path))
    assert result.returncode == 1
    assert re.search(rf"{re.escape(str(path))}:\d+:1: decompress: cannot decompress: the \w+ data ends early "
                     r"\(truncated file\)", result.stdout), result.stdout


@pytest.mark.parametrize("name", ["tree/positions/bad.fen", "tree/positions/bad.epd", "crazyhouse.fen"])
def test_fen_and_epd_files_with_lone_crs_are_reported_as_with_line_feeds(name, tmp_path, capsys, monkeypatch):
    """An old Mac file's lines end with a lone CR: each FEN and EPD line is checked and
    reported at its own line and column, as in the same file with line feeds (the lines
    were once one long line, a control character at its first CR)."""
    data = (CHECK / name).read_bytes()
    assert b"\r" not in data and data.count(b"\n") > 1
    reports = []
    for end in (b"\n", b"\r", b"\r\n"):
        copy = tmp_path / end.hex() / Path(name).name
        copy.parent.mkdir()
        copy.write_bytes(data.replace(b"\n", end))
        code, out, err = run_check([str(copy), "--format", "json"], capsys, monkeypatch)
        reports.append((code, out.replace(str(copy), "FILE"), err))
    assert reports[1] == reports[0] == reports[2]
    assert '"line": 2' in reports[0][1]


@pytest.mark.parametrize("name", ["tree/positions/bad.fen", "tree/positions/bad.epd", "crazyhouse.fen"])
def test_fen_and_epd_files_joined_with_their_byte_order_marks_are_read_with_a_warning(
        name, tmp_path, capsys, monkeypatch):
    """Two Windows files joined with ``cat``: the second one's byte order mark starts a
    line (it was a ``fen-syntax`` error at column 1). The line is read past it with a
    ``fen-bom`` warning there, its other problems at the file's own columns (the mark is one
    character): what the same file with a space for the mark reports, and that warning."""
    data = (CHECK / name).read_bytes()
    lines = data.splitlines(keepends=True)
    marked = [number for number, line in enumerate(lines, start=1)
              if number > 1 and line.strip() and not line.startswith(b"#")]
    assert len(marked) > 1
    reports = []
    for mark in (b"\xef\xbb\xbf", b" "):
        copy = tmp_path / mark.hex() / Path(name).name
        copy.parent.mkdir()
        copy.write_bytes(b"\xef\xbb\xbf" + b"".join(
            mark + line if number in marked else line for number, line in enumerate(lines, start=1)))
        code, out, err = run_check([str(copy), "--format", "json"], capsys, monkeypatch)
        reports.append((code, json.loads(out.replace(str(copy), "FILE")), err))
    (code, joined, err), (spaced_code, spaced, spaced_err) = reports
    warnings = [problem for problem in joined["problems"] if problem["code"] == "fen-bom"]
    assert [(problem["line"], problem["column"], problem["severity"]) for problem in warnings] == [
        (number, 1, "warning") for number in marked]
    others = [problem for problem in joined["problems"] if problem["code"] != "fen-bom"]
    assert (code, others, err) == (spaced_code, spaced["problems"], spaced_err)
    assert spaced["problems"], "the fixture's own problems are reported"
