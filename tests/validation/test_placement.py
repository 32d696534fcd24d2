"""The Screen variants' placement phase: Fairy-Stockfish's ``placement`` variant (pyffish,
test-only) as the oracle for positions, and properties of setups placed at random."""

from __future__ import annotations

import json
import random
import subprocess

import pyffish
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples
from installed import installed_script
from paths import ROOT

from notation.fen.profiles import PROFILES
from notation.fen.reader import read_fen
from notation.fen.writer import write_fen
from notation.operations import convert_fen, validate_fen
from notation.options import IllegalPolicy
from notation.start import start_setup
from notation.validation import FINISHED_GAME_CODES
from notation.variants import DEFAULT_REGISTRY

FAIRY = "placement"
GAMES = 40
PLIES = 60


def _random_play(seed: int) -> list[str]:
    """Every FEN of one random game of Fairy-Stockfish's placement variant."""
    rng = random.Random(seed)
    start = pyffish.start_fen(FAIRY)
    moves: list[str] = []
    fens = [start]
    for _ in range(PLIES):
        legal = pyffish.legal_moves(FAIRY, start, moves)
        if not legal:
            break
        moves.append(rng.choice(sorted(legal)))
        fens.append(pyffish.get_fen(FAIRY, start, moves))
    return fens


def test_fairy_stockfish_start_is_a_screen_placement_setup():
    start = pyffish.start_fen(FAIRY)
    assert start == "8/pppppppp/8/8/8/8/PPPPPPPP/8[KQRRBBNNkqrrbbnn] w - - 0 1"
    result = convert_fen(start, "screen")
    assert result.ok and result.fen == start


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(GAMES))
def test_random_placement_play_is_valid_screen_and_written_as_fairy_stockfish_writes_it(seed):
    """Placement and play alike: valid for Screen and written back unchanged, except what
    Fairy-Stockfish's placement allows and Screen does not (castling, en passant)."""
    checked = 0
    for fen in _random_play(seed):
        fields = fen.split()
        expected = set()
        if fields[2] != "-":
            expected.add("bad-castling-rights")
        if fields[3] != "-":
            expected.add("invalid-ep-square")
        result = validate_fen(fen, "screen")
        assert {p.code for p in result.errors} == expected, (fen, result.errors)
        if expected:
            continue
        assert convert_fen(fen, "screen").fen == fen
        assert convert_fen(fen, "screen", options=PROFILES["fairy-stockfish"]).fen == fen
        checked += 1
    assert checked > PLIES // 2


def test_screen_forbids_what_fairy_stockfish_placement_allows():
    """A king and rook dropped on their start squares get castling rights in
    Fairy-Stockfish's placement; Screen has no castling, and --repair drops them."""
    start = pyffish.start_fen(FAIRY)
    fen = pyffish.get_fen(FAIRY, start, ["K@e1", "K@e8", "R@h1", "R@h8"])
    assert fen.split()[2] == "Kk"
    assert {p.code for p in validate_fen(fen, "screen").errors} == {"bad-castling-rights"}
    repaired = convert_fen(fen, "screen", on_illegal=IllegalPolicy.REPAIR)
    assert repaired.ok and repaired.fen == fen.replace(" Kk ", " - ")
    assert [p.code for p in repaired.warnings] == ["repaired-castling", "repaired-castling"]


def test_start_of_every_screen_variant_is_the_placement_start():
    for key in ("screen", "crazyscreen", "darkcrazyscreen"):
        fen = write_fen(start_setup(key), DEFAULT_REGISTRY.get(key)).fen
        assert fen == "8/8/8/8/8/8/8/8[KQRRBBNNPPPPPPPPkqrrbbnnpppppppp] w - - 0 1"
        assert validate_fen(fen, key).valid


# -- properties ------------------------------------------------------------------------------

ARMY = "kqrrbbnnpppppppp"
LIGHT = {sq for sq in range(64) if ((sq & 7) + (sq >> 3)) % 2 == 1}


@st.composite
def screen_placements(draw):
    """A legal Screen placement part-way: each side has placed some of its army on its own
    half, pawns on different files off the first rank, bishops on different colours."""
    cells = ["."] * 64
    hands = []
    for colour in (0, 1):
        # Black keeps at least one piece in hand: the placement phase is still under way.
        placed_count = draw(st.integers(0, len(ARMY) - colour))
        order = draw(st.permutations(ARMY))
        # Pawns first, so that every pawn still finds a file of its own.
        placed = sorted(order[:placed_count], key=lambda letter: letter != "p")
        hand = order[placed_count:]
        free = [sq for sq in range(64) if (sq < 32) == (colour == 0) and cells[sq] == "."]
        pawn_files: set[int] = set()
        bishop_shades: set[bool] = set()
        for letter in placed:
            options = free
            if letter == "p":
                first = 0 if colour == 0 else 7
                options = [sq for sq in free if sq & 7 not in pawn_files and sq >> 3 != first]
            elif letter == "b":
                options = [sq for sq in free if (sq in LIGHT) not in bishop_shades]
            sq = draw(st.sampled_from(options))
            free.remove(sq)
            if letter == "p":
                pawn_files.add(sq & 7)
            if letter == "b":
                bishop_shades.add(sq in LIGHT)
            cells[sq] = letter.upper() if colour == 0 else letter
        hands.append("".join(hand))
    ranks = []
    for rank in range(7, -1, -1):
        row, run = "", 0
        for cell in cells[rank * 8 : rank * 8 + 8]:
            if cell == ".":
                run += 1
                continue
            row += (str(run) if run else "") + cell
            run = 0
        ranks.append(row + (str(run) if run else ""))
    turn = draw(st.sampled_from("wb"))
    pocket = hands[0].upper() + hands[1]
    return f"{'/'.join(ranks)}[{pocket}] {turn} - - 0 1"


@pytest.mark.slow
@settings(max_examples=examples(100))
@given(screen_placements())
def test_placed_setups_are_valid_in_every_screen_variant(fen):
    for key in ("screen", "crazyscreen", "darkcrazyscreen"):
        result = convert_fen(fen, key)
        assert result.ok, (key, fen, result.errors)
        assert read_fen(result.fen, key).setup == read_fen(fen, key).setup


@pytest.mark.slow
@settings(max_examples=examples(100))
@given(screen_placements(), st.sampled_from("QRBNP"))
def test_an_extra_piece_in_hand_is_always_placement_army(fen, extra):
    board, rest = fen.split("[", 1)
    bigger = f"{board}[{extra}{rest}"
    codes = {p.code for p in validate_fen(bigger, "screen").errors}
    assert "placement-army" in codes


# -- every front end ----------------------------------------------------------------------

CASES = json.loads((ROOT / "fixtures" / "validation"
                    / "itsyourturn_screen_dark_cases.json").read_text(encoding="utf-8"))


def _run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [installed_script("notation"), *args], input=stdin, capture_output=True, text=True, timeout=300
    )


def test_installed_validate_answers_every_case_with_its_codes():
    lines = "".join(json.dumps({"fen": c["fen"], "variant": c["variant"]}) + "\n" for c in CASES)
    done = _run("validate", "--json", stdin=lines)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(CASES)
    for case, answer in zip(CASES, answers, strict=True):
        codes = {p["code"] for p in answer["errors"] + answer["warnings"]}
        assert codes == set(case["codes"]), case
        assert answer["valid"] == (not set(case["codes"]) - FINISHED_GAME_CODES)
    assert done.returncode == 1  # the table has illegal setups


@pytest.mark.slow
def test_installed_check_and_normalize_judge_the_new_variants(tmp_path):
    pgn = tmp_path / "games.pgn"
    games = []
    for number, case in enumerate(CASES):
        name = DEFAULT_REGISTRY.get(case["variant"]).name
        games.append(f'[Event "{number}"]\n[Variant "{name}"]\n[SetUp "1"]\n[FEN "{case["fen"]}"]\n\n*\n')
    pgn.write_text("\n".join(games), encoding="utf-8")
    checked = _run("check", "--format", "json", str(pgn))
    assert checked.returncode == 1
    report = json.loads(checked.stdout)
    by_game: dict[int, set[str]] = {}
    for problem in report["problems"]:
        by_game.setdefault((problem["line"] - 4) // 7, set()).add(problem["code"])  # 7 lines a game
    assert by_game == {number: set(case["codes"]) for number, case in enumerate(CASES) if case["codes"]}
    severities = {p["code"]: p["severity"] for p in report["problems"]}
    assert severities["king-captured"] == "warning" and severities["placement-army"] == "error"
    normalized = _run("normalize", str(pgn))
    assert normalized.returncode == 1  # problems were reported
    for case in CASES:
        if set(case["codes"]) - FINISHED_GAME_CODES:
            assert f'[FEN "{case["fen"]}"]' in normalized.stdout  # refused: left as it was
        else:
            assert f'[FEN "{convert_fen(case["fen"], case["variant"]).fen}"]' in normalized.stdout
