"""Drawn start positions (notation/start.py ``DRAWS``): Chess960 numbered as python-chess
numbers it (the standard table), King's Corner and King's Fortress arrays meeting every
constraint of the itsyourturn variants page, uniform draws, and the same answers from the
library, the installed ``notation start`` and ``GET /v1/start``."""

from __future__ import annotations

import collections
import itertools
import json
import subprocess

import chess
import pytest
from installed import installed_script

from notation.fen.reader import read_fen
from notation.fen.writer import write_fen
from notation.start import (
    CHESS960_COUNT,
    CLASSICAL_NUMBER,
    CORNER_COUNT,
    DRAWS,
    corner_array,
    draw_number,
    drawn_start,
    start_position,
)
from notation.validation import validate
from notation.variants import DEFAULT_REGISTRY, StartDraw

from notation_service import create_app

CORNER_VARIANTS = [v for v in DEFAULT_REGISTRY if v.start_draw is StartDraw.CORNER]
SEEDS = 10_000


def test_every_drawn_variant_has_its_draw():
    assert {v.key for v in CORNER_VARIANTS} == {"kingscorner", "kingsfortress"}
    for variant in DEFAULT_REGISTRY:
        assert variant.start_draw is StartDraw.FIXED or variant.start_draw in DRAWS


# -- Chess960 --------------------------------------------------------------------------------


@pytest.mark.slow
def test_chess960_numbers_are_python_chess_numbers_all_distinct_518_classical():
    variant = DEFAULT_REGISTRY.get("chess960")
    placements = set()
    for number in range(CHESS960_COUNT):
        setup, drawn = drawn_start(variant, number=number)
        assert drawn == number
        ours = write_fen(setup, variant).fen.split()[0]
        assert ours == chess.Board.from_chess960_pos(number).board_fen()
        placements.add(ours)
    assert len(placements) == CHESS960_COUNT
    classical, _ = drawn_start(variant, number=CLASSICAL_NUMBER)
    assert write_fen(classical, variant).fen.split()[0] == chess.STARTING_BOARD_FEN


# -- King's Corner and King's Fortress -------------------------------------------------------


def _legal_corner_rows() -> set[str]:
    """Every array the rules page allows, by brute force: the king on h1, the other seven
    pieces on a1..g1, one bishop on a light and one on a dark square."""
    rows = set()
    for order in set(itertools.permutations("RNBQNBR")):
        bishops = [file for file, role in enumerate(order) if role == "B"]
        if (bishops[0] + bishops[1]) % 2 == 1:  # a1 is dark: files of opposite parity
            rows.add("".join(order) + "K")
    return rows


def assert_corner_constraints(fen: str, variant) -> None:
    """Every constraint the itsyourturn variants page puts on the array, and validity."""
    placement, rest = fen.split(" ", 1)
    ranks = placement.split("/")
    white, black = ranks[7], ranks[0]
    assert white[7] == "K", fen  # "The King is placed at the lower right corner"
    assert black[0] == "k", fen  # Black's lower right, seen from Black's side, is a8
    assert sorted(white[:7]) == sorted("BBNNQRR"), fen  # "the other pieces ... on the bottom row"
    light = [file for file, role in enumerate(white) if role == "B" and file % 2 == 1]
    dark = [file for file, role in enumerate(white) if role == "B" and file % 2 == 0]
    assert len(light) == 1 and len(dark) == 1, fen  # "One bishop is placed on each color square."
    # "Each player sees his or her own pieces in the same order, left to right ... The
    # pieces do not mirror each other": Black's row read from h8 to a8 is White's a1 to h1.
    assert black[::-1] == white.lower(), fen
    start_ranks = variant.start_fen.split(" ", 1)[0].split("/")
    assert ranks[1:7] == start_ranks[1:7], fen  # pawns (King's Fortress's extra three) kept
    assert rest == variant.start_fen.split(" ", 1)[1], fen  # "No castling": rights "-"
    parsed = read_fen(fen, variant)
    assert validate(parsed.setup, variant) == [], fen


def test_corner_numbers_are_exactly_the_legal_arrays():
    arrays = [corner_array(number) for number in range(CORNER_COUNT)]
    assert len(set(arrays)) == CORNER_COUNT
    assert set(arrays) == _legal_corner_rows()


@pytest.mark.parametrize("variant", CORNER_VARIANTS, ids=lambda v: v.key)
def test_every_numbered_array_meets_every_constraint(variant):
    for number in range(CORNER_COUNT):
        setup, _ = drawn_start(variant, number=number)
        assert_corner_constraints(write_fen(setup, variant).fen, variant)


@pytest.mark.slow
@pytest.mark.parametrize("variant", CORNER_VARIANTS, ids=lambda v: v.key)
def test_ten_thousand_seeds_all_meet_every_constraint(variant):
    seen = set()
    for seed in range(SEEDS):
        setup, number = drawn_start(variant, seed=seed)
        fen = write_fen(setup, variant).fen
        assert_corner_constraints(fen, variant)
        assert drawn_start(variant, seed=seed)[1] == number  # a seed repeats its draw
        seen.add(number)
    assert len(seen) == CORNER_COUNT  # every legal array is drawn


@pytest.mark.slow
def test_draws_are_uniform_over_the_arrays():
    """36,000 seeded draws (fixed seeds: the same counts every run) put between 60 and 140
    on each of the 360 arrays (100 expected; a fair draw lands there with near certainty)."""
    draw = DRAWS[StartDraw.CORNER]
    counts = collections.Counter(draw_number(draw, seed) for seed in range(36_000))
    assert set(counts) == set(range(CORNER_COUNT))
    assert 60 <= min(counts.values()) and max(counts.values()) <= 140


@pytest.mark.parametrize("number", [-1, CORNER_COUNT, True])
def test_a_number_outside_the_draw_is_a_value_error(number):
    with pytest.raises(ValueError, match="numbered 0 to 359"):
        drawn_start("kingscorner", number=number)


def test_start_position_choices():
    assert start_position("standard").draw == "fixed"
    assert start_position("kingscorner", number=208).number == 208
    assert start_position("crazyhouse", number=0).chess960_number == 0
    assert start_position("chess960", seed=1).draw == "chess960"
    assert start_position("knightmate", array="chess960", seed=4).chess960


# -- front ends ------------------------------------------------------------------------------


def _start(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [installed_script("notation"), "start", *args], capture_output=True, text=True, timeout=120, check=False
    )


@pytest.mark.slow
def test_installed_start_numbers_and_seeds():
    done = _start("kingsfortress", "--number", "208")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "krnqbbnr/pppppppp/ppp5/8/8/5PPP/PPPPPPPP/RNBBQNRK w - - 0 1\n"
    first = json.loads(_start("kingscorner", "--seed", "77", "--json").stdout)
    again = json.loads(_start("kingscorner", "--seed", "77", "--json").stdout)
    assert first == again and first["draw"] == "corner" and first["chess960_number"] is None
    corner = DEFAULT_REGISTRY.get("kingscorner")
    assert first["fen"] == write_fen(drawn_start(corner, number=first["number"])[0], corner).fen
    bad = _start("kingscorner", "--number", "360")
    assert bad.returncode == 2 and "numbered 0 to 359" in bad.stderr


@pytest.mark.slow
def test_service_start_answers_as_the_command():
    client = create_app().test_client()
    response = client.get("/v1/start?variant=CF&from=itsyourturn&number=208")
    assert response.status_code == 200
    assert response.get_json() == {
        "fen": "krnqbbnr/pppppppp/ppp5/8/8/5PPP/PPPPPPPP/RNBBQNRK w - - 0 1",
        "variant": "kingsfortress",
        "draw": "corner",
        "number": 208,
        "chess960_number": None,
    }
    response = client.get("/v1/start?variant=chess960&number=518&profile=fairy-stockfish")
    assert response.get_json()["fen"] == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
    seeded = client.get("/v1/start?variant=kingscorner&seed=77").get_json()
    command = json.loads(_start("kingscorner", "--seed", "77", "--json").stdout)
    assert seeded == command


@pytest.mark.parametrize(
    "query,parameter",
    [
        ("variant=kingscorner&number=360", "number"),
        ("variant=nosuch", "variant"),
        ("variant=antichess&array=chess960", "array"),
        ("variant=kingscorner&number=3&seed=2", "seed"),
        ("variant=standard&seed=2", "seed"),
        ("number=x", "number"),
        ("variant=a&variant=b", "variant"),
    ],
)
def test_service_start_refuses_bad_queries_naming_the_parameter(query, parameter):
    response = create_app().test_client().get("/v1/start?" + query)
    assert response.status_code == 422
    assert response.headers["Content-Type"] == "application/problem+json"
    assert response.get_json()["errors"][0]["parameter"] == parameter
