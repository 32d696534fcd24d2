"""The Chess960 table (fixtures/chess960/cases.json): validation in every castling variant,
each profile's output (cross-checked against pyffish and python-chess, the programs the
fairy-stockfish and python-chess profiles stand for), 960 names, and ``notation start``."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess

import chess
import chess.variant
import pyffish
import pytest
from installed import installed_script
from paths import ROOT

from notation.cli.main import main
from notation.fen.profiles import resolve_options
from notation.fen.reader import read_fen
from notation.operations import convert_fen
from notation.pgn.naming import variant_tag_name
from notation.validation import validate
from notation.variants import DEFAULT_REGISTRY, find_variant

FIXTURES = ROOT / "fixtures" / "chess960"
TABLE = json.loads((FIXTURES / "cases.json").read_text(encoding="utf-8"))

# Our variant key -> Fairy-Stockfish's variant name and python-chess's board class.
FAIRY = {
    "standard": "chess",
    "chess960": "chess",
    "crazyhouse": "crazyhouse",
    "atomic": "atomic",
    "kingofthehill": "kingofthehill",
    "threecheck": "3check",
}
PYTHON_CHESS = {
    "standard": chess.Board,
    "chess960": chess.Board,
    "crazyhouse": chess.variant.CrazyhouseBoard,
    "atomic": chess.variant.AtomicBoard,
    "kingofthehill": chess.variant.KingOfTheHillBoard,
    "threecheck": chess.variant.ThreeCheckBoard,
}


@pytest.mark.parametrize("case", TABLE["validate"], ids=[f"{c['variant']}:{c['fen']}" for c in TABLE["validate"]])
def test_validate(case):
    parsed = read_fen(case["fen"], case["variant"])
    problems = validate(parsed.setup, parsed.variant)
    assert sorted({p.code for p in problems}) == case["codes"]
    text = " | ".join(p.message for p in problems)
    for fragment in case.get("messages", []):
        assert fragment in text


@pytest.mark.parametrize("case", TABLE["convert"], ids=[f"{c['variant']}:{c['fen']}" for c in TABLE["convert"]])
def test_convert(case):
    for profile, expected in case["outputs"].items():
        result = convert_fen(case["fen"], case["variant"], options=resolve_options(profile))
        assert result.ok, result.errors
        assert result.fen == expected, profile
        assert result.detected.chess960 is case["chess960"]
        again = convert_fen(expected, case["variant"], options=resolve_options(profile))
        assert again.fen == expected, f"{profile} output does not read back to itself"


def _fairy_mode(case) -> bool:
    """Fairy-Stockfish's Chess960 mode: for setups that count as Chess960, and in Chess960."""
    return bool(case["chess960"]) or find_variant(case["variant"]).random_start


@pytest.mark.parametrize(
    "case",
    [c for c in TABLE["convert"] if "fairy-stockfish" in c["outputs"]],
    ids=lambda c: f"{c['variant']}:{c['fen']}",
)
def test_fairy_stockfish_outputs_are_what_pyffish_writes(case):
    fen = case["outputs"]["fairy-stockfish"]
    fairy = FAIRY[case["variant"]]
    assert pyffish.get_fen(fairy, fen, [], _fairy_mode(case)) == fen
    # The input as Fairy-Stockfish reads it (it wants both move counters).
    source = case["fen"] if len(case["fen"].split()) >= 6 else case["fen"] + " 0 1"
    assert pyffish.get_fen(fairy, source, [], _fairy_mode(case)) == fen


@pytest.mark.parametrize(
    "case", [c for c in TABLE["convert"] if "python-chess" in c["outputs"]], ids=lambda c: f"{c['variant']}:{c['fen']}"
)
def test_python_chess_outputs_are_what_python_chess_writes(case):
    board = PYTHON_CHESS[case["variant"]](case["fen"], chess960=True)
    assert board.fen() == case["outputs"]["python-chess"]
    assert board.is_valid() or case["variant"] == "chess960"


@pytest.mark.parametrize("case", TABLE["names"], ids=lambda c: f"{c['profile']}:{c['variant']}")
def test_960_names(case):
    variant = DEFAULT_REGISTRY.get(case["variant"])
    assert variant_tag_name(case["profile"], variant, from_setup=True, chess960=True) == case["name"]
    # Every name a profile writes reads back as the same variant.
    assert find_variant(case["name"]).key in (case["variant"], "chess960")


def test_960_names_only_for_chess960_setups():
    crazyhouse = DEFAULT_REGISTRY.get("crazyhouse")
    assert variant_tag_name("fairy-stockfish", crazyhouse, from_setup=True) == "crazyhouse"
    assert variant_tag_name("fairy-stockfish", crazyhouse, from_setup=True, chess960=True) == "crazyhouse960"


@pytest.mark.parametrize(
    "name,key",
    [
        ("Crazyhouse960", "crazyhouse"),
        ("crazyhouse 960", "crazyhouse"),
        ("Atomic960", "atomic"),
        ("3check960", "threecheck"),
        ("King of the Hill 960", "kingofthehill"),
        ("Horde960", "horde"),
        ("Antichess960", "antichess"),
        ("Three check 960", "threecheck"),
    ],
)
def test_960_aliases_resolve(name, key):
    assert find_variant(name).key == key


def _start(args: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["start", *args])
    return code, out.getvalue()


@pytest.mark.parametrize("case", TABLE["start"], ids=lambda c: " ".join(c["args"]))
def test_start(case):
    code, out = _start(case["args"])
    assert code == 0
    assert out == case["fen"] + "\n"
    variant = find_variant(case["args"][case["args"].index("--variant") + 1])
    parsed = read_fen(case["fen"], variant)
    assert validate(parsed.setup, parsed.variant) == []


def test_start_seed_repeats_and_json_names_the_number():
    first = _start(["--variant", "crazyhouse", "--chess960", "--seed", "12", "--json"])[1]
    again = _start(["--variant", "crazyhouse", "--chess960", "--seed", "12", "--json"])[1]
    assert first == again
    record = json.loads(first)
    assert record["variant"] == "crazyhouse" and 0 <= record["chess960_number"] < 960
    numbered = json.loads(_start(["--variant", "crazyhouse", "--number", str(record["chess960_number"]), "--json"])[1])
    assert numbered["fen"] == record["fen"]


@pytest.mark.parametrize(
    "args,message",
    [
        (["--number", "960"], "numbered 0..959"),
        (["--number", "-1"], "numbered 0..959"),
        (["--number", "five"], "whole number"),
        (["--variant", "antichess", "--chess960"], "Antichess has no Chess960 start positions: it does not castle"),
        (["--variant", "racingkings", "--number", "3"], "Racing Kings has no Chess960 start positions"),
        (["--variant", "nosuch"], "unknown variant"),
        (["--number", "3", "--seed", "1"], "cannot be combined"),
        (["--seed", "1"], "--seed only applies"),
    ],
)
def test_start_usage_errors(args, message, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["start", *args])
    assert stop.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("case", TABLE["start"], ids=lambda c: " ".join(c["args"]))
def test_start_takes_the_variant_as_an_argument_too(case):
    args = list(case["args"])
    at = args.index("--variant")
    name = args[at + 1]
    del args[at:at + 2]
    assert _start([name, *args]) == (0, case["fen"] + "\n")
    assert _start([*args, name, "--variant", name.upper()]) == (0, case["fen"] + "\n")  # the same variant twice


def test_start_variant_argument_and_option_of_different_variants_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["start", "crazyhouse", "--variant", "atomic"])
    assert stop.value.code == 2
    assert "VARIANT 'crazyhouse' and --variant 'atomic' name different variants" in capsys.readouterr().err


def test_start_unknown_variant_argument_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["start", "nosuchvariant"])
    assert stop.value.code == 2
    assert "VARIANT: unknown variant 'nosuchvariant'" in capsys.readouterr().err


def test_start_without_a_variant_is_standard():
    assert _start([]) == (0, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n")


@pytest.mark.slow
def test_installed_start_command():
    script = installed_script("notation")
    done = subprocess.run(
        [script, "start", "--variant", "crazyhouse960", "--number", "0", "--profile", "fairy-stockfish"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR[] w HFhf - 0 1\n"
    done = subprocess.run(
        [script, "start", "crazyhouse", "--chess960", "--number", "0", "--profile", "fairy-stockfish"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR[] w HFhf - 0 1\n"
    done = subprocess.run(
        [script, "start", "--number", "1000"], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr


GAME_960 = (
    '[Event "x"]\n[Variant "{variant}"]\n'
    '[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR[] w KQkq - 0 1"]\n[SetUp "1"]\n\n1. e4 *\n'
)


@pytest.mark.parametrize(
    "profile,tag,fen",
    [
        ("lichess", "Crazyhouse", "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR/ w KQkq - 0 1"),
        ("python-chess", "Crazyhouse", "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR[] w KQkq - 0 1"),
        ("fairy-stockfish", "crazyhouse960", "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR[] w HFhf - 0 1"),
        ("xboard", "crazyhouse", "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR[-] w HFhf - 0 1"),
    ],
)
@pytest.mark.parametrize("variant", ["Crazyhouse", "crazyhouse960", "Crazyhouse960"])
def test_normalize_names_a_crazyhouse960_game(profile, tag, fen, variant):
    from notation.pgn.normalize import NormalizeOptions, normalize_text

    out, summary, report = normalize_text(GAME_960.format(variant=variant), NormalizeOptions.create(profile))
    assert report == [] and summary.rejected == 0
    assert f'[Variant "{tag}"]' in out and f'[FEN "{fen}"]' in out


def test_check_accepts_crazyhouse960_games(tmp_path, capsys):
    path = tmp_path / "zh960.pgn"
    path.write_text(
        GAME_960.format(variant="crazyhouse960") + "\n" + GAME_960.format(variant="Atomic960").replace("[]", ""),
        encoding="utf-8",
    )
    assert main(["check", str(path)]) == 0
    assert "0 error(s)" in capsys.readouterr().err
