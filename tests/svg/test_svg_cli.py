"""``notation svg`` as a user runs it: the installed command, real files, exit statuses."""

from __future__ import annotations

import os
import subprocess
import xml.etree.ElementTree as ET
from importlib import resources

import pytest
from installed import installed_script
from paths import ROOT
from svg_cases import GOLDENS, cli_args, marks_of, marks_table

from notation.svg import Orientation, SvgOptions, fen_svg
from notation.variants import DEFAULT_REGISTRY

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
GOLDEN_DIR = ROOT / "fixtures" / "svg"


def notation(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([installed_script("notation"), "svg", *args], capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_writes_the_picture_to_a_file(tmp_path):
    target = tmp_path / "board.svg"
    done = notation(START, "-o", str(target))
    assert done.returncode == 0, done.stderr
    assert done.stdout == "" and done.stderr == ""
    assert target.read_text(encoding="utf-8") == (GOLDEN_DIR / "standard-start.svg").read_text(encoding="utf-8")


def test_writes_to_standard_output_by_default():
    done = notation(START)
    assert done.returncode == 0
    assert ET.fromstring(done.stdout.encode()).tag == "{http://www.w3.org/2000/svg}svg"


@pytest.mark.slow
@pytest.mark.parametrize("golden", [g for g in GOLDENS if g.own is None], ids=lambda g: g.name)
def test_options_draw_what_the_library_draws(golden):
    options = golden.options
    args = [golden.fen, "--variant", golden.variant, "--orientation", options.orientation.value,
            "--coordinates", options.coordinates.value]
    if options.size:
        args += ["--size", str(options.size)]
    name = DEFAULT_REGISTRY.find(golden.variant).geometry.square_name
    if options.highlight:
        args += ["--highlight", ",".join(name(sq) for sq in sorted(options.highlight))]
    if options.last_move:
        args += ["--last-move", "@" + name(options.last_move[0]) if len(options.last_move) == 1
                 else "".join(map(name, options.last_move))]
    args += ["--check", options.check.value]
    for origin, target in options.arrows:
        args += ["--arrows", name(origin) + name(target)]
    done = notation(*args)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (GOLDEN_DIR / f"{golden.name}.svg").read_text(encoding="utf-8")


def test_flip_is_black_at_the_bottom():
    done = notation(START, "--flip", "--highlight", "e2", "--highlight", "e4")
    assert done.returncode == 0
    options = SvgOptions(orientation=Orientation.BLACK, highlight=frozenset({12, 28}))
    assert done.stdout == fen_svg(START, options=options)


def test_an_unreadable_fen_exits_1_naming_the_column(tmp_path):
    target = tmp_path / "board.svg"
    done = notation("rnbqkbnr/ppxppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "-o", str(target))
    assert done.returncode == 1
    assert "fen-syntax" in done.stderr and "column 12" in done.stderr
    assert not target.exists()


def test_an_unknown_variant_is_a_usage_error_with_suggestions():
    done = notation(START, "--variant", "crazyhose")
    assert done.returncode == 2
    assert "--variant: unknown variant 'crazyhose'" in done.stderr and "Crazyhouse" in done.stderr


def test_auto_guesses_the_variant_and_says_so():
    done = notation("4k3/4Q3/8/8/8/8/8/4K3[] b - - 0 2", "--variant", "auto", "--last-move", "Q@e7")
    assert done.returncode == 0
    assert done.stdout == (GOLDEN_DIR / "crazyhouse-drop-check.svg").read_text(encoding="utf-8")
    assert "guessed-variant: guessed variant Crazyhouse from its pockets" in done.stderr


def test_a_fen_no_variant_fits_exits_1():
    done = notation("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0", "--variant", "auto")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (
        "notation svg: fen-syntax: expected fullmove number, found the end of the FEN (read as Standard: no variant"
        " reads this FEN); say which with --variant: standard, chess960, crazyhouse, atomic or 19 more"
        " (`notation variants` lists them) (field fullmove, column 55)\n"
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--size", "8"], "size must be 16 to 4096"),
        (["--size", "big"], "invalid int value"),
        (["--highlight", "e9"], "not a square"),
        (["--orientation", "up"], "invalid choice"),
        (["-o", "/nonexistent-directory/board.svg"], "nonexistent-directory"),
        (["--last-move", "e2"], "--last-move: 'e2' is not a move"),
        (["--last-move", "e2e9"], "e9 is not a square of a 8x8 board"),
        (["--arrows", "e2e4,Q@e5"], "--arrows: 'Q@e5' is not an arrow"),
        (["--check", "yes"], "invalid choice"),
    ],
)
def test_usage_errors_exit_2_in_one_line(args, message):
    done = notation(START, *args)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_an_existing_file_is_replaced_whole(tmp_path):
    target = tmp_path / "board.svg"
    target.write_text("old", encoding="utf-8")
    os.chmod(target, 0o640)
    done = notation(START, "-o", str(target))
    assert done.returncode == 0
    assert target.read_text(encoding="utf-8").startswith("<?xml")
    assert target.stat().st_mode & 0o777 == 0o640


@pytest.mark.slow
def test_help_names_the_options():
    done = subprocess.run([installed_script("notation"), "svg", "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    for option in ("--variant", "--output", "--size", "--flip", "--orientation", "--coordinates", "--highlight",
                   "--last-move", "--check", "--arrows"):
        assert option in done.stdout


def test_the_licence_of_the_pieces_ships_beside_them():
    licence = resources.files("notation").joinpath("svg", "PIECES-LICENSE.txt")
    assert licence.is_file() and "CC0" in licence.read_text(encoding="utf-8")


@pytest.mark.slow
@pytest.mark.parametrize("case", marks_table()["cases"], ids=lambda c: c["name"])
def test_marks_table(case):
    done = notation(case["fen"], "--variant", case["variant"], *cli_args(case["query"]))
    assert done.returncode == 0, done.stderr
    drawn = marks_of(done.stdout)
    assert drawn["marks"] == case["marks"] and drawn["given"] == case.get("given", {})


@pytest.mark.slow
@pytest.mark.parametrize("case", marks_table()["refused"], ids=lambda c: c["parameter"])
def test_marks_table_refusals(case):
    done = notation(case["fen"], "--variant", case["variant"], *cli_args(case["query"]))
    assert done.returncode == 2
    flag = "--" + case["parameter"].replace("_", "-")
    assert flag in done.stderr and "Traceback" not in done.stderr
