"""``--variant auto``: the variant guessed from a FEN's shape, through the installed command
and through ``notation.guess`` with registries of other shapes."""

from __future__ import annotations

import json
import subprocess

import pytest
from installed import installed_script

from notation.geometry import Geometry
from notation.guess import VariantGuessError, guess_variant, placement_shape, with_hint
from notation.variants import DEFAULT_REGISTRY, VARIANTS, Registry

# (FEN, the variant it can only be, what the warning names)
SHAPES = [
    ("rnbqkbnr/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3", "crazyhouse", "its pockets"),
    ("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR/ w KQkq - 0 2", "crazyhouse", "its pockets"),
    ("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 3+3 0 2", "threecheck", "its check counters"),
    ("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 +0+0", "threecheck", "its check counters"),
    ("8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1", "racingkings", "its start array"),
    ("r1bqkbnr/pppp1ppp/2n5/4p3/2PPP3/PPPPPPPP/PPPPPPPP/PPPPPPPP b kq - 0 2", "horde", "its armies"),
    ("rnbqkbnr/gggggggg/pppppppp/8/4P3/PPPP1PPP/GGGGGGGG/RNBQKBNR b KQkq - 0 1", "grasshopper", "its pieces (g)"),
    ("rmbqkbmr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RMBQKBMR w KQkq - 0 2", "knightmate", "its pieces (m)"),
]


def notation(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [installed_script("notation"), *args], input=stdin, capture_output=True, text=True, timeout=120, check=False
    )


@pytest.mark.parametrize(("fen", "key", "why"), SHAPES)
def test_the_one_variant_that_fits_is_guessed(fen, key, why):
    guess = guess_variant(fen)
    assert guess.variant.key == key
    assert guess.reason.startswith(why)


@pytest.mark.slow
def test_the_installed_command_guesses_and_says_so():
    done = notation("validate", "--variant", "auto", *(fen for fen, _, _ in SHAPES))
    assert done.stdout == "valid\n" * len(SHAPES), done.stdout
    warnings = done.stderr.splitlines()
    assert len(warnings) == len(SHAPES)
    for line, (_, key, why) in zip(warnings, SHAPES, strict=True):
        assert line.startswith("warning: argument: guessed-variant: guessed variant ")
        assert f"from {why}" in line and f"--variant {key}" in line


@pytest.mark.slow
def test_a_plain_fen_is_standard_without_a_warning():
    done = notation("convert", "--variant", "auto", "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
    assert done.returncode == 0 and done.stderr == ""


@pytest.mark.slow
def test_json_lines_may_ask_for_a_guess_per_line():
    lines = [json.dumps({"fen": SHAPES[0][0], "variant": "auto"}), json.dumps({"fen": SHAPES[0][0], "variant": "zh"})]
    done = notation("convert", "--json", stdin="\n".join(lines) + "\n")
    guessed, told = (json.loads(line) for line in done.stdout.splitlines())
    assert guessed["variant"] == told["variant"] == "crazyhouse"
    assert [w["code"] for w in guessed["warnings"]] == ["guessed-variant"] and told["warnings"] == []
    assert guessed["warnings"][0]["guessed"] == "crazyhouse"


@pytest.mark.slow
def test_no_guess_says_the_fens_own_problem_and_where_to_choose():
    done = notation("validate", "--variant", "auto", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0")
    assert done.returncode == 1
    assert done.stdout == (
        "invalid: fen-syntax: expected fullmove number, found the end of the FEN (read as Standard: no variant reads"
        " this FEN); say which with --variant: standard, chess960, crazyhouse, atomic or 19 more"
        " (`notation variants` lists them) (field fullmove, column 55)\n"
    )


def test_ambiguity_lists_the_variants_that_fit():
    twin = DEFAULT_REGISTRY.get("crazyhouse").replace(key="twinhouse", name="Twinhouse", aliases=())
    registry = Registry((*VARIANTS, twin))
    with pytest.raises(VariantGuessError) as caught:
        guess_variant(SHAPES[0][0], registry)
    assert caught.value.suggestions == ["crazyhouse", "twinhouse"]
    problem = caught.value.problems[0]
    assert problem.code == "unknown-variant" and "--variant" not in problem.message
    assert "say which with --variant: crazyhouse, twinhouse" in with_hint(problem, "--variant", "x").message


@pytest.mark.parametrize(("files", "ranks"), [(9, 10), (9, 9), (10, 8)])
def test_a_board_of_one_variants_geometry_names_it(files, ranks):
    """By data: a variant of another board, added to the registry, is guessed by its size."""
    rows = "/".join([str(files)] * ranks)
    other = DEFAULT_REGISTRY.get("standard").replace(
        key="wide", name="Wide", aliases=(), pgn_default=False,
        start_fen=f"{rows} w - - 0 1", geometry=Geometry(files, ranks),
    )
    others = [v for v in VARIANTS if v.geometry != other.geometry]  # Xiangqi is 9x10, Tablut 9x9
    guess = guess_variant(f"{rows} w - - 0 1", Registry((*others, other)))
    assert (guess.variant.key, guess.reason) == ("wide", f"its {files}x{ranks} board")


@pytest.mark.parametrize(
    ("fen", "key"),
    [
        ("4k4/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1", "xiangqi"),
        ("4k4/9/9/9/4K4/9/9/9/9 w - - 0 1", "tablut"),
    ],
)
def test_the_registrys_other_boards_are_guessed_by_size(fen, key):
    guess = guess_variant(fen, DEFAULT_REGISTRY)
    assert guess.variant.key == key
    assert guess.reason == f"its {guess.variant.geometry} board"


@pytest.mark.parametrize(
    ("placement", "shape"),
    [("8/8/8/8/8/8/8/8", (8, 8)), ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR", (9, 10)),
     ("12/12", (12, 2)), ("rnbq2nQ~/ppppk2p/5p1B/8/8/1P6/P1P1PPPP/q~N1QKBNR/PBRr", None), ("8/7", None)],
)
def test_placement_shape(placement, shape):
    assert placement_shape(placement) == shape


@pytest.mark.slow
@pytest.mark.oracle
def test_of_several_variants_that_fit_the_one_lichess_plays_is_guessed():
    # Early Crazyhouse positions also fit the Screen variants' placement phase (pieces in
    # hand, every one of them placed where that phase allows): Crazyhouse, and the warning
    # says which others fit.
    fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"
    guess = guess_variant("r1bqkbnr/pppppppp/2n5/8/8/5N2/PPPPPPPP/RNBQKB1R[] w KQkq - 2 2")
    assert guess.variant.key == "crazyhouse"
    ambiguous = [
        f for f in _crazyhouse_positions(400) if "the one lichess plays" in guess_variant(f).reason
    ]
    assert ambiguous, "no Crazyhouse position of the sample also fits another variant"
    for f in ambiguous:
        guess = guess_variant(f)
        assert guess.variant.key == "crazyhouse"
        assert "screen" in guess.reason
    assert guess_variant(fen).variant.key == "crazyhouse"


def _crazyhouse_positions(count: int) -> list[str]:
    """FENs of seeded random Crazyhouse games (python-chess, test-only)."""
    import random

    import chess.variant

    rng = random.Random(11)
    fens: list[str] = []
    while len(fens) < count:
        board = chess.variant.CrazyhouseBoard()
        for _ in range(40):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            fens.append(board.fen())
    return fens[:count]
