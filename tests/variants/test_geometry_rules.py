"""The rules core, validation, the writer's en passant and castling, start positions, PGN
normalize and ``notation check`` on boards other than 8x8: each takes the board from the
variant (tests/geometry_variants.py builds chess variants on other boards)."""

from __future__ import annotations

import io

import pytest
from geometry_variants import TEN, TWELVE, on_board

from notation import Setup, read_fen, write_fen
from notation.check.judge import PositionJudge
from notation.check.problem import ProblemList
from notation.check.runner import check_stream
from notation.geometry import CHESS_BOARD, Geometry
from notation.options import EnPassantMode
from notation.pgn.normalize import NormalizeOptions, normalize_text
from notation.rules import attacks
from notation.rules.attack_view import AttackView, BoardAttackView, attack_view_of
from notation.rules.chess960 import is_chess960
from notation.rules.en_passant import en_passant_square, plausible
from notation.start import NoChess960Error, has_chess960, start_setup
from notation.validation import repair, validate
from notation.variants import DEFAULT_REGISTRY, Registry

NINE_BY_TEN = on_board("standard", Geometry(9, 10))
STANDARD = DEFAULT_REGISTRY.get("standard")


def test_tables_are_built_once_per_board_and_8x8_keeps_the_module_tables():
    assert attacks.tables_for(Geometry(10, 10)) is attacks.tables_for(Geometry(10, 10))
    chess = attacks.tables_for(CHESS_BOARD)
    assert chess is attacks.CHESS_TABLES
    assert chess.knight is attacks.KNIGHT_ATTACKS and chess.rays is attacks.RAYS
    # line and between are built on first use, once
    assert chess.between is chess.between and chess.line is chess.line
    assert (chess.first_rank, chess.last_rank) == (0xFF, 0xFF << 56)
    ten = attacks.tables_for(Geometry(10, 10))
    assert (ten.first_rank, ten.last_rank, ten.all) == ((1 << 10) - 1, ((1 << 10) - 1) << 90, (1 << 100) - 1)


def test_attack_view_of_picks_the_board():
    on_8x8 = read_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").setup
    on_10x10 = read_fen("4k5/10/10/10/10/10/10/10/10/4K5 w - - 0 1", TEN).setup
    assert type(attack_view_of(on_8x8, STANDARD)) is AttackView
    view = attack_view_of(on_10x10, TEN)
    assert isinstance(view, BoardAttackView) and view.tables is attacks.tables_for(TEN.geometry)
    assert view.royal == (1 << 4, 1 << 94)


def test_writer_keeps_a_legal_en_passant_square_on_a_9x10_board():
    fen = "4k4/9/9/3pP4/9/9/9/9/9/4K4 w - d8 0 1"
    setup = read_fen(fen, NINE_BY_TEN).setup
    assert setup.ep_square == NINE_BY_TEN.geometry.parse_square("d8")
    assert en_passant_square(setup, NINE_BY_TEN, EnPassantMode.LEGAL) == setup.ep_square
    assert write_fen(setup, NINE_BY_TEN).fen == fen
    assert validate(setup, NINE_BY_TEN) == []
    # Black to move: the square is on the third rank, a white pawn in front of it.
    black = "4k4/9/9/9/9/9/3Pp4/9/9/4K4 b - d3 0 1"
    assert write_fen(read_fen(black, NINE_BY_TEN).setup, NINE_BY_TEN).fen == black


def test_a_capture_that_exposes_the_king_is_not_written_on_a_wide_board():
    # The white king on a7 and a black rook on j7: taking en passant on d8 empties e7's
    # neighbour d7... and e7 itself, so the rook would see the king along the seventh rank.
    fen = "4k5/10/10/K2pP4r/10/10/10/10/10/10 w - d8 0 1"
    setup = read_fen(fen, TEN).setup
    assert en_passant_square(setup, TEN, EnPassantMode.PSEUDO_LEGAL) == setup.ep_square
    assert en_passant_square(setup, TEN, EnPassantMode.LEGAL) is None


def test_no_double_step_on_boards_of_fewer_than_four_ranks():
    variant = on_board("standard", Geometry(5, 3))
    setup = read_fen("k4/1pP2/K4 w - b3 0 1", variant).setup
    assert not plausible(attack_view_of(setup, variant), setup.ep_square)
    problems = validate(setup, variant)
    assert [p.code for p in problems if p.field == "en-passant"] == ["invalid-ep-square"]
    assert "board of 3 ranks" in " ".join(p.message for p in problems)


def test_a_right_on_the_k_file_that_k_cannot_name_is_dropped_with_a_warning():
    setup = read_fen("5k6/12/12/12/12/12/12/12/12/12/12/5K4RR w - - 0 1", TWELVE).setup
    k1 = TWELVE.geometry.parse_square("k1")
    written = write_fen(setup.with_changes(castling=frozenset({k1})), TWELVE)
    assert written.fen.split()[2] == "-"
    assert [w.code for w in written.warnings] == ["lossy-castling"] and "k1" in written.warnings[0].message
    # The outermost rook on the king's side is K, whatever its file.
    alone = read_fen("5k6/12/12/12/12/12/12/12/12/12/12/5K4R1 w K - 0 1", TWELVE).setup
    assert alone.castling == {k1} and write_fen(alone, TWELVE) == (alone_fen := write_fen(alone, TWELVE))
    assert alone_fen.fen.split()[2] == "K" and alone_fen.warnings == []


def test_a_setup_of_another_board_is_wrong_board_size_and_nothing_else():
    setup = Setup.empty(Geometry(10, 10))
    problems = validate(setup, STANDARD)
    assert [(p.code, p.field) for p in problems] == [("wrong-board-size", "placement")]
    assert "10x10" in problems[0].message and "8x8" in problems[0].message
    assert repair(setup, STANDARD) == (setup, [])
    assert [p.code for p in validate(Setup.empty(), TEN)] == ["wrong-board-size"]


def test_chess960_detection_reads_the_start_array_of_the_board():
    start = read_fen(TEN.start_fen, TEN).setup
    assert not is_chess960(start.cells, start.castling, start.promoted, TEN)
    # The king one file off its start square, with rights: only Chess960 rules allow it.
    moved = read_fen("rnbqkbnr2/pppppppp2/10/10/10/10/10/10/PPPPPPPP2/RNBQBKNR2 w KQ - 0 1", TEN).setup
    assert is_chess960(moved.cells, moved.castling, moved.promoted, TEN)
    assert validate(moved, TEN) == []


def test_chess960_arrays_only_on_boards_eight_files_wide():
    assert not has_chess960(TEN)
    with pytest.raises(NoChess960Error, match="10 files"):
        start_setup(TEN, 518)
    assert start_setup(TEN) == read_fen(TEN.start_fen, TEN).setup
    eight_by_ten = on_board("standard", Geometry(8, 10)).replace(
        start_fen="rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    )
    assert has_chess960(eight_by_ten)
    setup = start_setup(eight_by_ten, 0)  # BBQNNRKR
    assert setup.cells[:8] == "BBQNNRKR" and setup.cells[-8:] == "bbqnnrkr"
    assert validate(setup, eight_by_ten) == []


def test_race_over_on_the_last_rank_of_a_taller_board():
    variant = on_board("racingkings", Geometry(8, 10))
    setup = read_fen("k6K/8/8/8/8/8/8/8/8/8 b - - 0 1", variant).setup
    problems = validate(setup, variant)
    assert [p.code for p in problems] == ["race-over"] and "h10" in problems[0].message
    assert validate(setup.with_changes(turn="w"), variant) == []


REGISTRY = Registry([*DEFAULT_REGISTRY, TEN, TWELVE])


def test_pgn_normalize_rewrites_the_fen_tag_of_a_wide_board():
    pgn = (
        '[Event "x"]\n[Variant "Standard 10x10"]\n'
        '[FEN "rnbqkbnr2/pppppppp2/10/10/10/10/10/10/PPPPPPPP2/RNBQKBNR2 w AHah - 0 1"]\n\n1. e4 *\n'
    )
    text, summary, report = normalize_text(pgn, NormalizeOptions.create("python-chess", registry=REGISTRY))
    assert '[FEN "rnbqkbnr2/pppppppp2/10/10/10/10/10/10/PPPPPPPP2/RNBQKBNR2 w KQkq - 0 1"]' in text
    assert '[SetUp "1"]' in text and report == []
    illegal = pgn.replace("RNBQKBNR2 w", "RNBQKBNP2 w")
    _, _, report = normalize_text(illegal, NormalizeOptions.create("python-chess", registry=REGISTRY))
    messages = " ".join(str(entry) for entry in report)
    assert "pawns-on-backrank" in messages and "h1" in messages


def test_check_judges_fen_lines_of_a_wide_board_with_squares_of_that_board():
    lines = (
        "5k6/12/12/12/12/12/12/12/12/12/12/5K6 w - - 0 1\n"
        "5k5Q/12/12/12/12/12/12/12/12/12/12/5K6 w - - 0 1\n"
        "5k6/12/12/12/12/12/12/12/12/12/12/5K7 w - - 0 1\n"
    )
    problems: list = []
    found_in = ProblemList("positions.fen", problems.append)
    check_stream(io.BytesIO(lines.encode()), None, PositionJudge(REGISTRY), TWELVE, found_in)
    found_in.finish()
    found = sorted((p.line, p.code) for p in problems)
    assert found == [(2, "opposite-check"), (3, "fen-syntax")]
    assert any("l12" in p.message for p in problems)


def test_squares_off_the_board_in_a_setup_built_in_code_are_reported_not_raised():
    setup = read_fen("4k5/10/10/10/10/10/10/10/10/4K5 w - - 0 1", TEN).setup.with_changes(
        castling=frozenset({130}), ep_square=120
    )
    problems = validate(setup, TEN)
    assert {(p.code, p.message) for p in problems} == {
        ("bad-castling-rights", "castling right on square 130: it is not on the 10x10 board"),
        ("invalid-ep-square", "en passant square square 120: it is not on the 10x10 board"),
    }
    repaired, warnings = repair(setup, TEN)
    assert (repaired.castling, repaired.ep_square) == (frozenset(), None)
    assert [w.code for w in warnings] == ["repaired-castling", "repaired-en-passant"]
