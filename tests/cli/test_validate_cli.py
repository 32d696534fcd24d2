"""``notation validate`` end to end: outputs, exit codes, JSON lines, --accept, bad lines."""

from __future__ import annotations

import argparse
import io
import json

import pytest

from notation.cli import validate_cmd
from notation.cli.usage import UsageError

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def run(argv, stdin="", monkeypatch=None, capsys=None):
    parser = argparse.ArgumentParser(prog="notation")
    validate_cmd.add_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["validate", *argv])
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = args.run(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_valid_and_invalid_arguments(monkeypatch, capsys):
    code, out, _ = run([START, "4k2P/8/8/8/8/8/8/R3K3 w KQ e6 0 1"], monkeypatch=monkeypatch, capsys=capsys)
    lines = out.splitlines()
    assert code == 1
    assert lines[0] == "valid"
    assert lines[1].startswith("invalid: ")
    for fragment in (
        "pawns-on-backrank: white pawn on h8",
        "(field placement)",
        "bad-castling-rights",
        "castling right on h1",
        "invalid-ep-square",
    ):
        assert fragment in lines[1]


def test_all_valid_exits_zero(monkeypatch, capsys):
    code, out, _ = run([START], monkeypatch=monkeypatch, capsys=capsys)
    assert (code, out) == (0, "valid\n")


def test_json_lines_one_output_per_input(monkeypatch, capsys):
    stdin = "\n".join(
        [
            json.dumps({"fen": "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1", "variant": "Racing Kings"}),
            json.dumps({"fen": START, "variant": "no such variant"}),
            "{not json",
            "",
            "k6K/8/8/8/8/8/8/8 b - - 0 1",
        ]
    )
    code, out, _ = run(["--json", "--variant", "racingkings"], stdin, monkeypatch, capsys)
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 1
    assert len(rows) == 4
    assert rows[0]["valid"] is True and rows[0]["variant"] == "racingkings"
    assert set(rows[0]) == {"valid", "variant", "errors", "warnings", "detected", "line"}
    assert [row["line"] for row in rows] == [1, 2, 3, 5]  # the blank line is counted
    assert rows[1]["errors"][0]["code"] == "unknown-variant"
    assert rows[2]["valid"] is False and "line 3" in rows[2]["errors"][0]["message"]
    assert [e["code"] for e in rows[3]["errors"]] == ["race-over"]


def test_accept_turns_errors_into_warnings(monkeypatch, capsys):
    args = ["--variant", "antichess", "--accept", "bad-castling-rights", START]
    code, out, err = run(args, monkeypatch=monkeypatch, capsys=capsys)
    assert (code, out) == (0, "valid\n")
    assert "warning: argument: bad-castling-rights" in err


def test_accept_unknown_code_is_a_usage_error(monkeypatch, capsys):
    with pytest.raises(UsageError, match="unknown code"):
        run(["--accept", "no-such-code", START], monkeypatch=monkeypatch, capsys=capsys)


def test_syntax_error_names_field_and_column(monkeypatch, capsys):
    code, out, _ = run(
        ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPP/RNBQKBNR w KQkq - 0 1"], monkeypatch=monkeypatch, capsys=capsys
    )
    assert code == 1
    assert out.startswith("invalid: fen-syntax:") and "column" in out and "field placement" in out


def test_variant_alias(monkeypatch, capsys):
    args = ["--variant-alias", "zh=crazyhouse", "--variant", "zh", START.replace(" w", "[] w")]
    code, out, _ = run(args, monkeypatch=monkeypatch, capsys=capsys)
    assert (code, out) == (0, "valid\n")
