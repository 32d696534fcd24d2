"""``notation convert``: input rules, output shape, exit codes."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest
from installed import installed_script

from notation.cli.main import main

pytestmark = [pytest.mark.slow]

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
ZH_RANK_ZERO = "rnbq2nQ~/ppppk2p/5p1B/8/8/1P6/P1P1PPPP/q~N1QKBNR/PBRr w K - 1 8"


def run(args, stdin: str = "", monkeypatch=None, capsys=None):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(["convert", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_arguments_in_profile_out(monkeypatch, capsys):
    code, out, _ = run(
        [ZH_RANK_ZERO, "--variant", "zh", "--profile", "chesscom"], monkeypatch=monkeypatch, capsys=capsys
    )
    assert code == 0
    assert out == "rnbq2nQ/ppppk2p/5p1B/8/8/1P6/P1P1PPPP/qN1QKBNR w K - 1 8 RBPr a1h8\n"


def test_options_override_the_profile(monkeypatch, capsys):
    code, out, _ = run(
        [ZH_RANK_ZERO, "--variant", "crazyhouse", "--profile", "chesscom", "--pockets", "bracketed"],
        monkeypatch=monkeypatch, capsys=capsys,
    )
    assert code == 0 and out == "rnbq2nQ~/ppppk2p/5p1B/8/8/1P6/P1P1PPPP/q~N1QKBNR[RBPr] w K - 1 8\n"


def test_stdin_one_line_out_per_nonblank_line_in_order(monkeypatch, capsys):
    stdin = f"{START}\n\n   \nnot a fen\r\n{START.replace(' w ', ' b ')}\n"
    code, out, err = run(["--castling", "shredder"], stdin, monkeypatch=monkeypatch, capsys=capsys)
    lines = out.splitlines()
    assert code == 1
    assert len(lines) == 3
    assert lines[0] == START.replace("KQkq", "HAha")
    assert lines[1].startswith("error: line 4: fen-syntax")  # blank lines counted, not shifting it
    assert lines[2] == START.replace(" w ", " b ").replace("KQkq", "HAha")
    assert "fen-syntax" not in err  # the error is said once, on its output line


def test_json_lines_with_per_line_variant(monkeypatch, capsys):
    stdin = "\n".join(
        [
            json.dumps({"fen": ZH_RANK_ZERO, "variant": "ZH"}),
            json.dumps({"fen": "5k2/p7/1p6/3B2P1/3P1rp1/b1P2P2/P5K1/7R w - - 4 34 +2+0", "variant": "3check"}),
            START,
            json.dumps({"fen": START, "variant": "nosuchvariant"}),
            "{not json",
            json.dumps({"fen": START, "colour": "w"}),
        ]
    )
    code, out, _ = run(["--json", "--profile", "xboard"], stdin, monkeypatch=monkeypatch, capsys=capsys)
    results = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and len(results) == 6
    assert results[0] == {
        "ok": True,
        "fen": "rnbq2nQ~/ppppk2p/5p1B/8/8/1P6/P1P1PPPP/q~N1QKBNR[RBPr] w K - 1 8",
        "variant": "crazyhouse",
        "errors": [],
        "warnings": [],
        "detected": results[0]["detected"],
        "line": 1,
    }
    assert results[0]["detected"]["pockets"] == "rank-zero"
    assert results[1]["fen"] == "5k2/p7/1p6/3B2P1/3P1rp1/b1P2P2/P5K1/7R w - - 1+3 4 34"
    assert results[2]["ok"] and results[2]["variant"] == "standard"
    assert results[3]["ok"] is False and results[3]["errors"][0]["code"] == "unknown-variant"
    assert results[4]["ok"] is False and results[4]["errors"][0]["code"] == "bad-input"
    assert results[5]["ok"] is False and "colour" in results[5]["errors"][0]["message"]


def test_many_spellings_of_variant_names_each_answer_as_their_variant(monkeypatch, capsys):
    """The command finds each name the lines give once and keeps at most a few hundred:
    past that bound, and for names no variant has, every line is still answered by its
    own name."""
    spellings = []
    for n in range(300):  # 300 distinct spellings of two variants: the bits of n say which letters are capitals
        word = "kingofthehill" if n % 3 == 0 else "crazyhouse"
        spellings.append("".join(c.upper() if n >> i & 1 else c for i, c in enumerate(word)))
    names = [name for pair in zip(spellings, [f"nosuch{n}" for n in range(300)], strict=True) for name in pair]
    assert len(set(names)) == 600
    stdin = "\n".join(json.dumps({"fen": START, "variant": name}) for name in names) + "\n"
    code, out, _ = run(["--json"], stdin, monkeypatch=monkeypatch, capsys=capsys)
    results = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and len(results) == 600
    for name, result in zip(names, results, strict=True):
        if name.startswith("nosuch"):
            assert result["errors"][0]["code"] == "unknown-variant" and name in result["errors"][0]["message"]
        else:
            expected = "kingofthehill" if "KING" in name.upper() else "crazyhouse"
            assert result["ok"] and result["variant"] == expected, (name, result)


def test_json_syntax_error_has_field_and_column(monkeypatch, capsys):
    code, out, _ = run(["--json", START.replace("KQkq", "KQxq")], monkeypatch=monkeypatch, capsys=capsys)
    error = json.loads(out)["errors"][0]
    assert code == 1
    assert error["code"] == "fen-syntax" and error["field"] == "castling" and error["column"] == 49


def test_illegal_setups_are_refused_with_codes(monkeypatch, capsys):
    code, out, _ = run(["--json", "4k3/8/8/8/8/8/8/8 w - - 0 1"], monkeypatch=monkeypatch, capsys=capsys)
    result = json.loads(out)
    assert code == 1 and result["ok"] is False and result["fen"] is None
    assert "missing-king" in {e["code"] for e in result["errors"]}


def test_repair_and_accept(monkeypatch, capsys):
    bad_rights = "4k3/8/8/8/8/8/8/4K2R w KQ - 0 1"
    code, out, _ = run(["--json", "--repair", bad_rights], monkeypatch=monkeypatch, capsys=capsys)
    result = json.loads(out)
    assert code == 0 and result["fen"] == "4k3/8/8/8/8/8/8/4K2R w K - 0 1"
    assert [w["code"] for w in result["warnings"]] == ["repaired-castling"]
    code, out, _ = run(
        ["--json", "--accept", "bad-castling-rights", bad_rights], monkeypatch=monkeypatch, capsys=capsys
    )
    result = json.loads(out)
    assert code == 0 and result["fen"] == bad_rights
    assert [w["code"] for w in result["warnings"]] == ["bad-castling-rights"]


def test_variant_alias_option(monkeypatch, capsys):
    code, out, _ = run(
        [ZH_RANK_ZERO, "--variant", "myhouse", "--variant-alias", "myhouse=crazyhouse"],
        monkeypatch=monkeypatch,
        capsys=capsys,
    )
    assert code == 0 and out.startswith("rnbq2nQ~/")


@pytest.mark.parametrize(
    "args",
    [["--profile", "nosuch", START], ["--pockets", "sideways", START], ["--variant-alias", "noequals", START],
     ["--variant-alias", "x=nosuchvariant", START], ["--accept", "no-such-code", START]],
)
def test_usage_errors_exit_2(args, monkeypatch, capsys):
    with pytest.raises(SystemExit) as caught:
        run(args, monkeypatch=monkeypatch, capsys=capsys)
    assert caught.value.code == 2
    assert "Traceback" not in capsys.readouterr().err


def test_lossy_conversion_warns_on_stderr(monkeypatch, capsys):
    fen = "5k2/p7/1p6/3B2P1/3P1rp1/b1P2P2/P5K1/7R w - - 5+3 4 34"
    args = [fen, "--variant", "threecheck", "--accept", "bad-check-counters", "--checks", "given"]
    code, out, err = run(args, monkeypatch=monkeypatch, capsys=capsys)
    assert code == 0 and out.strip().endswith("+0+0")
    assert "lossy-checks" in err


def test_installed_console_script():
    script = installed_script("notation")
    done = subprocess.run(
        [script, "convert", "--variant", "zh", "--profile", "lichess"],
        input="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1\n",
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1\n"


def test_closed_output_pipe_is_not_success():
    """`notation check . | head -1` must not turn errors past the first line into a pass."""
    script = installed_script("notation")
    fens = "\n".join(["4k3/8/8/8/8/8/8/8 w - - 0 1"] * 20000) + "\n"
    done = subprocess.run(
        f"{script} validate | head -1 > /dev/null; exit ${{PIPESTATUS[0]}}",
        shell=True, executable="/bin/bash", input=fens, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 141, done.stderr
    assert "Traceback" not in done.stderr
