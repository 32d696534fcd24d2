"""Property tests on boards of every size from 1x1 to 12x12 (hypothesis).

- read(write(s)) == s for random setups of registry-like variants moved to a random board
  (Standard, Crazyhouse with pockets and promoted pieces, Three-check with its counters,
  Antichess, Grasshopper, Horde), in every dialect that can express the setup;
- validation never raises, and every problem it reports has a known code and names
  squares of the board it was given;
- the attack tables of any board agree with a slow square-by-square walk.
"""

from __future__ import annotations

import itertools
import re

import pytest
from geometry_variants import TEMPLATES, on_board
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from notation import Pockets, Setup, read_fen, write_fen
from notation.fen.castling import outer_rook
from notation.fen.profiles import WriteOptions
from notation.geometry import Geometry
from notation.options import CastlingStyle, CheckStyle, EmptyPocket, EnPassantMode, PocketStyle
from notation.rules import chess_attacks
from notation.rules.attacks import CHESS_TABLES, DIRECTIONS, tables_for
from notation.rules.square_set import from_word, to_word
from notation.validation import CODES, repair, validate

STYLES = [
    WriteOptions(pockets=p, checks=c, castling=k, castling_960=k, en_passant=EnPassantMode.ALWAYS, empty_pocket=e)
    for p, c, k, e in itertools.product(PocketStyle, CheckStyle, CastlingStyle, EmptyPocket)
]

geometries = st.builds(Geometry, st.integers(1, 12), st.integers(1, 12))


@st.composite
def setups(draw, geometry_strategy=geometries):
    geometry = draw(geometry_strategy)
    variant = on_board(draw(st.sampled_from(TEMPLATES)), geometry)
    letters = variant.piece_letters + variant.piece_letters.upper()
    size = geometry.size
    square = st.one_of(st.none(), st.none(), st.none(), st.sampled_from(letters))
    board = tuple(draw(st.lists(square, min_size=size, max_size=size)))
    occupied = [sq for sq, piece in enumerate(board) if piece]
    promoted: frozenset[int] = frozenset()
    pockets = None
    if variant.has_pockets:
        if occupied:
            promoted = frozenset(draw(st.sets(st.sampled_from(occupied), max_size=4)))
        pocket_letters = st.text(alphabet=variant.piece_letters, max_size=6)
        pockets = Pockets(draw(pocket_letters), draw(pocket_letters))
    checks = None
    if variant.has_check_counters:
        checks = (draw(st.integers(0, 9)), draw(st.integers(0, 9)))
    castling: frozenset[int] = frozenset()
    if geometry.ranks >= 2:  # one rank is both sides' back rank: no right could say whose it is
        back_ranks = list(range(geometry.files)) + list(range(size - geometry.files, size))
        castling = frozenset(draw(st.sets(st.sampled_from(back_ranks), max_size=4)))
    setup = Setup(
        board=board,
        turn=draw(st.sampled_from("wb")),
        castling=castling,
        ep_square=draw(st.one_of(st.none(), st.integers(0, size - 1))),
        halfmove=draw(st.integers(0, 999_999)),
        fullmove=draw(st.integers(0, 999_999)),
        promoted=promoted,
        pockets=pockets,
        remaining_checks=checks,
        geometry=geometry,
    )
    return variant, setup


def expressible(setup: Setup, variant, options: WriteOptions) -> bool:
    if variant.has_check_counters and options.checks is CheckStyle.GIVEN:
        if not all(0 <= left <= variant.checks_to_win for left in setup.remaining_checks):
            return False
    return not any(_k_file_right_without_a_letter(setup, variant, sq) for sq in setup.castling)


def _k_file_right_without_a_letter(setup: Setup, variant, square: int) -> bool:
    """On eleven files or more the k-file's letter reads as K (the outermost rook on the
    king's side): a right on the k-file that is not that rook cannot be written."""
    geometry = setup.geometry
    if geometry.files < 11 or geometry.file_of(square) != 10:
        return False
    white = square < geometry.files
    back = 0 if white else geometry.size - geometry.files
    king_letter = variant.castling_piece or "k"  # as the writer reads it
    rook, king = ("R", king_letter.upper()) if white else ("r", king_letter)
    return outer_rook(setup.cells, back, rook, king, True, geometry.files) != square


@pytest.mark.slow
@settings(max_examples=examples(400))
@given(setups(), st.sampled_from(STYLES))
def test_read_of_write_is_the_setup_on_every_board(case, options):
    variant, setup = case
    written = write_fen(setup, variant, options)
    if expressible(setup, variant, options):
        assert written.warnings == []
        assert read_fen(written.fen, variant).setup == setup, written.fen
    else:
        assert written.warnings and all(w.code.startswith("lossy-") for w in written.warnings)


@pytest.mark.slow
@settings(max_examples=examples(200))
@given(setups(st.builds(Geometry, st.integers(9, 12), st.integers(9, 12))), st.sampled_from(STYLES))
def test_wide_boards_write_runs_of_ten_and_more_as_one_number(case, options):
    variant, setup = case
    fen = write_fen(setup, variant, options).fen
    placement = fen.split()[0].split("[")[0]
    for rank in placement.split("/")[: setup.geometry.ranks]:
        assert not re.search(r"\d~?\d~?\d", rank)  # at most 12 empty squares: two digits
        width = sum(int(run) for run in re.findall(r"\d+", rank)) + len(re.findall(r"[A-Za-z]", rank))
        assert width == setup.geometry.files, fen


_SQUARE_NAME = re.compile(r"\b([a-l])(1[0-2]|[1-9])\b")


@pytest.mark.slow
@settings(max_examples=examples(300))
@given(setups())
def test_validation_never_raises_and_names_squares_of_the_board(case):
    variant, setup = case
    problems = validate(setup, variant)
    files = setup.geometry.file_names
    for problem in problems:
        assert problem.code in CODES
        for file, rank in _SQUARE_NAME.findall(problem.message):
            if file in files:  # "a" and "e" are words too; letters past the board are not squares
                assert int(rank) <= setup.geometry.ranks, problem.message
    repaired, warnings = repair(setup, variant)
    assert {w.code for w in warnings} <= {"repaired-castling", "repaired-en-passant"}
    assert {p.code for p in validate(repaired, variant)} <= {p.code for p in problems}


def _walk(geometry: Geometry, sq: int, occupied: int, steps, *, hop: bool = False) -> int:
    """The slow definition: slide until blocked, or land just past the first piece."""
    files = geometry.files
    bb = 0
    for df, dr in steps:
        f, r = sq % files + df, sq // files + dr
        while geometry.on_board(f, r):
            target = r * files + f
            if hop:
                if occupied >> target & 1:
                    if geometry.on_board(f + df, r + dr):
                        bb |= 1 << ((r + dr) * files + f + df)
                    break
            else:
                bb |= 1 << target
                if occupied >> target & 1:
                    break
            f, r = f + df, r + dr
    return bb


@st.composite
def boards(draw):
    geometry = draw(geometries)
    return geometry, draw(st.integers(0, geometry.size - 1)), draw(st.integers(0, (1 << geometry.size) - 1))


@pytest.mark.slow
@settings(max_examples=examples(400))
@given(boards())
def test_attack_tables_of_any_board_agree_with_a_walk(case):
    geometry, sq, occupied = case
    tables = tables_for(geometry)
    rook_steps, bishop_steps = DIRECTIONS[0:2] + DIRECTIONS[4:6], DIRECTIONS[2:4] + DIRECTIONS[6:8]
    assert tables.rook_attacks(sq, occupied) == _walk(geometry, sq, occupied, rook_steps)
    assert tables.bishop_attacks(sq, occupied) == _walk(geometry, sq, occupied, bishop_steps)
    assert tables.grasshopper_attacks(sq, occupied) == _walk(geometry, sq, occupied, DIRECTIONS, hop=True)
    assert tables.king[sq] == _walk(geometry, sq, -1, DIRECTIONS)
    knight = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
    assert tables.knight[sq] == _walk(geometry, sq, -1, knight)
    assert tables.pawn[0][sq] == _walk(geometry, sq, -1, ((-1, 1), (1, 1)))
    assert tables.pawn[1][sq] == _walk(geometry, sq, -1, ((-1, -1), (1, -1)))
    for other in range(geometry.size):
        between = tables.between[sq][other]
        if between:
            assert tables.line[sq][other] & (1 << sq) and tables.line[sq][other] & (1 << other)
            assert between & tables.line[sq][other] == between


@pytest.mark.slow
@settings(max_examples=examples(300))
@given(st.integers(0, 63), st.integers(0, (1 << 64) - 1))
def test_ray_scan_agrees_with_the_8x8_occupancy_tables(sq, occupied):
    """Any board's ray scan, on 8x8, against the 8x8 board's word look-ups (chess_attacks)."""
    word = to_word(occupied)
    assert CHESS_TABLES.rook_attacks(sq, occupied) == from_word(chess_attacks.rook_attacks(sq, word))
    assert CHESS_TABLES.bishop_attacks(sq, occupied) == from_word(chess_attacks.bishop_attacks(sq, word))
