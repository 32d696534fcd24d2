"""A PGN game's board at any ply: ``notation.svg.game_ply`` / ``game_svg`` over the games of
``notation.read_games``, held to python-chess (``chess.svg.board(lastmove=, check=)``'s
squares, the position after each move), and ``notation svg --pgn`` as a user runs it."""

from __future__ import annotations

import pathlib
import subprocess
import xml.etree.ElementTree as ET

import chess
import chess.variant
import pytest
from installed import installed_script
from paths import ROOT
from svg_cases import marks_of

import notation
from notation.svg import (
    CheckMark,
    Orientation,
    PlyError,
    PlyFailure,
    SvgOptions,
    board_svg,
    game_ply,
    game_svg,
    parse_move_squares,
)

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
GAMES = ROOT / "fixtures" / "pgn" / "games"
ZH = GAMES / "crazyhouse_drops.pgn"  # 36 plies, drops, castling, checks, mate by a drop
ILLEGAL = GAMES / "illegal_move.pgn"  # 12 plies, then 7. Bxf7+ cannot be played (line 10, column 14)
XIANGQI = GAMES / "xiangqi.pgn"  # 30 plies, a cannon's check at ply 13
THREE_CHECK = '[Variant "Three-check"]\n\n1. e4 e5 2. Bc4 Nc6 3. Bxf7+ Kxf7 4. Qh5+ g6 5. Qf3# Nf6 *\n'
# Chess960 (nrbqnbkr): the king castles on g1, where it stands; only the rook moves.
CASTLE_IN_PLACE = ('[Variant "Chess960"]\n[FEN "nrbqnbkr/pppppppp/8/8/8/8/PPPPPPPP/NRBQNBKR w HBhb - 0 1"]\n'
                   '[SetUp "1"]\n\n1. g3 g6 2. Bg2 Bg7 3. O-O *\n')


def first_game(source: pathlib.Path | str):
    if isinstance(source, pathlib.Path):
        return next(notation.open_games(str(source)))
    return next(notation.read_games(source))


def name(ply, square: int) -> str:
    return ply.setup.geometry.square_name(square)


# --- the position, the last move and the check of every ply --------------------------------

@pytest.mark.parametrize("path", [ZH, ILLEGAL, XIANGQI], ids=lambda p: p.stem)
def test_every_ply_is_the_position_after_that_move_of_the_main_line(path):
    game = first_game(path)
    start = game_ply(game, 0)
    assert start.ply == 0 and start.played is None and start.last_move == () and start.checked == frozenset()
    assert start.setup == game.start.to_setup()
    for played in game.moves:
        found = game_ply(game, played.ply)
        assert found.played is played
        assert found.setup == played.after.to_setup()
        # The move's squares, as its UCI text names them (no castling with a rook on the king's
        # target square in these games, so UCI's squares are the king's own).
        assert found.last_move == parse_move_squares(played.uci, found.setup.geometry), played
    if game.end is not None:  # the whole main line was played: its last position is the default
        assert game_ply(game).ply == len(game.moves)


@pytest.mark.parametrize("path", [ZH, ILLEGAL], ids=lambda p: p.stem)
def test_marks_are_those_python_chess_draws(path):
    # chess.svg.board(lastmove=move, check=king square) marks move.from_square and
    # move.to_square (one square for a drop), and the king of the side in check.
    game = first_game(path)
    board = chess.variant.CrazyhouseBoard() if game.variant.key == "crazyhouse" else chess.Board()
    for played in game.moves:
        move = chess.Move.from_uci(played.uci)
        board.push(move)
        found = game_ply(game, played.ply)
        assert {name(found, sq) for sq in found.last_move} == {chess.square_name(move.from_square),
                                                               chess.square_name(move.to_square)}, played
        in_check = {chess.square_name(board.king(board.turn))} if board.is_check() else set()
        assert {name(found, sq) for sq in found.checked} == in_check, played
        assert played.fen == board.fen()


def test_a_drop_marks_its_square_and_a_mate_its_king():
    found = game_ply(first_game(ZH))  # the last position: 18... N*h3#
    assert found.ply == 36 and found.played.text == "N*h3#"
    assert [name(found, sq) for sq in found.last_move] == ["h3"]
    assert [name(found, sq) for sq in found.checked] == ["g1"]


def test_castling_marks_the_kings_squares_and_a_king_that_stays_its_rook():
    found = game_ply(first_game(ZH), 19)  # 10. O-O
    assert found.played.text == "O-O" and [name(found, sq) for sq in found.last_move] == ["e1", "g1"]
    game = first_game(CASTLE_IN_PLACE)
    found = game_ply(game)
    assert found.played.text == "O-O" and found.setup.cells[6] == "K" and found.setup.cells[5] == "R"
    assert [name(found, sq) for sq in found.last_move] == ["g1", "h1"]


def test_xiangqi_check_is_the_generals_point():
    found = game_ply(first_game(XIANGQI), 13)  # 7. C5+4, a central cannon takes and checks
    assert found.played.text == "C5+4"
    assert [name(found, sq) for sq in found.last_move] == ["e3", "e7"]
    assert [name(found, sq) for sq in found.checked] == ["e10"]


# --- the picture ---------------------------------------------------------------------------

def test_game_svg_draws_the_position_with_the_games_own_marks():
    game = first_game(ZH)
    options = SvgOptions(size=360, orientation=Orientation.BLACK, last_move=(0, 1))  # last_move is replaced
    drawn = game_svg(game, 30, options)  # 15... Qh5+
    found = game_ply(game, 30)
    expected = SvgOptions(size=360, orientation=Orientation.BLACK, last_move=found.last_move)
    assert drawn == board_svg(found.setup, found.position.variant, expected)
    assert marks_of(drawn)["marks"] == {"last-move": ["d5", "h5"], "check": ["h3"], "arrow": []}
    assert marks_of(game_svg(game, 30, SvgOptions(check=CheckMark.NONE)))["marks"]["check"] == []


def test_xiangqi_marks_are_drawn_over_the_pieces():
    # Xiangqi's pieces are discs that cover a point's tint: the marks are ringed over them.
    root = ET.fromstring(game_svg(first_game(XIANGQI), 13).encode())
    groups = [element.get("class") for element in root]
    assert groups.index("in-check") > groups.index("pieces")
    assert groups.index("last-move-rings") > groups.index("pieces")
    rings = root.findall(".//*[@class='last-move-ring']")
    assert sorted(ring.get("data-square") for ring in rings) == ["e3", "e7"]


def test_a_check_of_three_check_is_marked_at_its_ply():
    assert marks_of(game_svg(first_game(THREE_CHECK), 5))["marks"]["check"] == ["e8"]


# --- what cannot be drawn ------------------------------------------------------------------

def refused(game, ply) -> PlyError:
    with pytest.raises(PlyError) as caught:
        game_ply(game, ply)
    assert isinstance(caught.value, ValueError)
    return caught.value


def test_a_move_that_cannot_be_played_is_named_with_its_place():
    game = first_game(ILLEGAL)
    assert game_ply(game, 12).played.text == "b5"
    for ply in (13, 14, None):
        error = refused(game, ply)
        assert error.failure is PlyFailure.MOVE and error.plies == 12
        assert (error.problem.code, error.problem.ply, error.problem.move) == ("illegal-move", 13, "Bxf7+")
        assert (error.problem.line, error.problem.column) == (10, 14)
        assert "the move 'Bxf7+' at ply 13 (line 10, column 14) cannot be played: illegal-move" in str(error)
    assert str(refused(game, None)).startswith("game 1 cannot be drawn at its end: ")


def test_a_move_after_the_game_ended_is_named():
    error = refused(first_game(THREE_CHECK), None)
    assert error.failure is PlyFailure.MOVE
    assert (error.problem.code, error.problem.ply, error.problem.move) == ("game-over", 10, "Nf6")


def test_the_main_lines_failure_not_a_variations():
    # The variation replacing 2. Nf3 fails first in the text; the main line stops at 2... Qxh1.
    game = first_game("1. e4 e5 2. Nf3 (2. Nc3 Qxh4 3. Qxh8) Qxh1 *")
    error = refused(game, 4)
    assert (error.problem.ply, error.problem.move) == (4, "Qxh1") and error.plies == 3


def test_a_ply_past_the_end_says_how_many_plies_there_are():
    error = refused(first_game(XIANGQI), 31)
    assert error.failure is PlyFailure.PAST_END and error.problem is None
    assert str(error) == "game 1 has 30 plies: ply 31 is past its end"
    assert refused(first_game("1. e4 *"), 2).args[0] == "game 1 has 1 ply: ply 2 is past its end"
    assert refused(first_game("1. e4 *"), -1).failure is PlyFailure.PAST_END


@pytest.mark.parametrize(
    ("pgn", "code", "place"),
    [
        ('[Variant "Crazyhose"]\n\n1. e4 *\n', "unknown-variant", "line 1, column 11"),
        ('[FEN "rnbqkbnr/ppxppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]\n\n1. e4 *\n', "fen-syntax",
         "line 1, column 18"),
        ('[Variant "Chess960"]\n\n1. e4 *\n', "unknown-start", "line 3, column 4"),
    ],
    ids=["unknown-variant", "bad-fen-tag", "chess960-without-fen"],
)
def test_a_game_without_a_start_says_why(pgn, code, place):
    error = refused(first_game(pgn), 0)
    assert error.failure is PlyFailure.NO_START and error.problem.code == code
    assert str(error).startswith(f"game 1 has no start position to play its moves from: {place}: {code}: ")


def test_moves_pasted_alone_are_a_standard_game():
    found = game_ply(first_game("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#"))
    assert found.ply == 7 and [name(found, sq) for sq in found.checked] == ["e8"]


# --- notation svg --pgn --------------------------------------------------------------------

def run(*args: str, stdin: str | None = None, cwd: pathlib.Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([installed_script("notation"), "svg", *args], capture_output=True, text=True,
                          input=stdin, timeout=120, cwd=cwd)


@pytest.mark.slow
def test_cli_draws_what_the_library_draws(tmp_path):
    target = tmp_path / "ply30.svg"
    done = run("--pgn", str(ZH), "--ply", "30", "--size", "360", "--flip", "-o", str(target))
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    options = SvgOptions(size=360, orientation=Orientation.BLACK)
    assert target.read_text(encoding="utf-8") == game_svg(first_game(ZH), 30, options)


@pytest.mark.slow
def test_cli_reads_standard_input_and_draws_the_last_position_by_default():
    done = run("--pgn", "-", stdin="1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#\n")
    assert done.returncode == 0, done.stderr
    assert marks_of(done.stdout)["marks"] == {"last-move": ["h5", "f7"], "check": ["e8"], "arrow": []}


@pytest.mark.slow
def test_cli_chooses_a_game_of_the_file(tmp_path):
    joined = tmp_path / "games.pgn"
    joined.write_text("".join(path.read_text(encoding="utf-8") + "\n" for path in (ZH, ILLEGAL, XIANGQI)),
                      encoding="utf-8")
    done = run("--pgn", str(joined), "--game", "3", "--ply", "13")
    assert done.returncode == 0, done.stderr
    assert done.stdout == game_svg(first_game(XIANGQI), 13)
    done = run("--pgn", str(joined), "--game", "4")
    assert done.returncode == 1
    assert done.stderr == f"notation svg: {joined}: no game 4: the file holds 3 games\n"


@pytest.mark.slow
def test_cli_names_the_move_that_stops_the_game(tmp_path):
    done = run("--pgn", str(ILLEGAL), "--ply", "14")
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (f"notation svg: {ILLEGAL}: game 1 cannot be drawn at ply 14: the move 'Bxf7+' at ply 13 "
                           "(line 10, column 14) cannot be played: illegal-move: 'Bxf7+' is not a legal move here\n")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--pgn", str(XIANGQI), "--ply", "40"], "game 1 has 30 plies: ply 40 is past its end"),
        (["--pgn", "-"], "unknown-variant: unknown variant 'Crazyhose'"),
    ],
)
def test_cli_input_that_cannot_be_drawn_exits_1(args, message):
    done = run(*args, stdin='[Variant "Crazyhose"]\n\n1. e4 *\n')
    assert done.returncode == 1 and message in done.stderr and "Traceback" not in done.stderr


@pytest.mark.slow
def test_cli_accept_lets_a_fen_tag_with_that_code_be_played_from():
    castling = '[FEN "4k3/8/8/8/8/8/8/4K2R w KQ - 0 1"]\n[SetUp "1"]\n\n1. O-O *\n'
    done = run("--pgn", "-", stdin=castling)
    assert done.returncode == 1
    assert done.stderr.startswith("notation svg: <stdin>: game 1 has no start position to play its moves from: "
                                  "line 1, column 7: bad-castling-rights: ")
    done = run("--pgn", "-", "--accept", "bad-castling-rights", stdin=castling)
    assert done.returncode == 0, done.stderr
    assert marks_of(done.stdout)["marks"]["last-move"] == ["e1", "g1"]


def test_cli_variant_names_the_variant_of_a_game_without_a_tag():
    done = run("--pgn", "-", "--variant", "crazyhouse", stdin="1. e4 d5 2. exd5 Qxd5 3. P@e4 *\n")
    assert done.returncode == 0, done.stderr
    assert marks_of(done.stdout)["marks"]["last-move"] == ["e4"]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([START, "--pgn", str(ZH)], "give a FEN or --pgn, not both"),
        ([], "give the FEN of the position to draw, or --pgn FILE"),
        ([START, "--ply", "3"], "--game and --ply choose"),
        (["--pgn", str(ZH), "--ply", "-1"], "argument --ply: -1 is less than 0"),
        (["--pgn", str(ZH), "--ply", "x"], "argument --ply: 'x' is not a whole number"),
        (["--pgn", str(ZH), "--game", "0"], "argument --game: 0 is less than 1"),
        (["--pgn", str(ZH), "--variant", "auto"], "--variant auto guesses a FEN's variant"),
        (["--pgn", str(ZH), "--variant", "crazyhose"], "--variant: unknown variant 'crazyhose'"),
        (["--pgn", str(ZH), "--last-move", "e2e4"], "--last-move: with --pgn the game's own move is marked"),
        (["--pgn", "/nonexistent-directory/games.pgn"], "cannot read '/nonexistent-directory/games.pgn'"),
        (["--pgn", str(ZH), "--highlight", "e9"], "not a square"),
        (["--pgn", str(ZH), "--accept", "no-such-code"], "no-such-code"),
    ],
)
def test_cli_usage_errors_exit_2(args, message):
    done = run(*args)
    assert done.returncode == 2, done.stderr
    assert message in done.stderr and "Traceback" not in done.stderr
    assert done.stdout == ""
