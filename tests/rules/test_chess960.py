"""Chess960 in every castling variant (docs/validation.md, "Chess960").

- All 960 start arrays in each variant that has them, in X-FEN and Shredder-FEN: valid,
  read as Chess960 exactly when the array is not classical-looking, and round-tripped
  through the profiles (several profiles per array, every profile over the arrays).
- Differential: random legal play from random 960 arrays, against python-chess's variant
  boards with ``chess960=True`` (castling rights kept and dropped, FEN written) and against
  pyffish in Chess960 mode (FEN written by the fairy-stockfish profile, legality).
- ``is_chess960`` is python-chess's ``has_chess960_castling_rights`` (hypothesis).

Seeded and bounded: the same positions every run.
"""

from __future__ import annotations

import random

import chess
import chess.variant
import pyffish
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.fen.profiles import PROFILES, resolve_options
from notation.fen.reader import read_fen
from notation.fen.writer import write_fen
from notation.options import CastlingStyle
from notation.rules.chess960 import chess960_good_rights, is_chess960
from notation.setup import Setup
from notation.start import CLASSICAL_NUMBER, chess960_array, has_chess960, start_setup
from notation.validation import validate
from notation.validation.castling import judge_rights
from notation.validation.context import Context
from notation.variants import DEFAULT_REGISTRY, Variant

CASTLING_VARIANTS = [v for v in DEFAULT_REGISTRY if has_chess960(v)]
PROFILE_NAMES = sorted(PROFILES)
XFEN = resolve_options("python-chess", castling="xfen")
SHREDDER = resolve_options("python-chess", castling="shredder")


def _same_position(a: Setup, b: Setup) -> bool:
    return (a.cells, a.turn, a.castling, a.pockets, a.remaining_checks, a.promoted) == (
        b.cells,
        b.turn,
        b.castling,
        b.pockets,
        b.remaining_checks,
        b.promoted,
    )


def _classical_looking(number: int) -> bool:
    """King on e, rooks on a and h: rights that need no Chess960 reading."""
    array = chess960_array(number)
    return array[0] == "R" and array[4] == "K" and array[7] == "R"


def test_castling_variants_are_the_ones_expected():
    keys = {v.key for v in CASTLING_VARIANTS}
    assert keys >= {
        "standard",
        "chess960",
        "crazyhouse",
        "atomic",
        "kingofthehill",
        "threecheck",
        "horde",
        "giveaway",
        "losers",
        "knightmate",
        "extinction",
        "grasshopper",
    }
    assert not keys & {"antichess", "suicide", "racingkings", "kingscorner"}


def test_arrays_are_python_chess_numbering():
    for number in range(960):
        board = chess.Board.from_chess960_pos(number)
        assert chess960_array(number) == "".join(board.piece_at(sq).symbol() for sq in range(8))
    assert chess960_array(CLASSICAL_NUMBER) == "RNBQKBNR"
    assert sum(_classical_looking(n) for n in range(960)) == 18  # 518 and its 17 look-alikes


@pytest.mark.slow
@pytest.mark.parametrize("variant", CASTLING_VARIANTS, ids=lambda v: v.key)
def test_every_array_is_valid_and_round_trips(variant: Variant):
    for number in range(960):
        setup = start_setup(variant, number)
        assert setup.castling, number
        for options in (XFEN, SHREDDER):
            fen = write_fen(setup, variant, options).fen
            parsed = read_fen(fen, variant)
            assert _same_position(parsed.setup, setup), fen
            assert validate(parsed.setup, variant) == [], fen
            assert parsed.dialect.chess960 is not _classical_looking(number), fen
        for profile in PROFILE_NAMES:
            fen = write_fen(setup, variant, PROFILES[profile]).fen
            parsed = read_fen(fen, variant)
            assert _same_position(parsed.setup, setup), (profile, fen)
            assert write_fen(parsed.setup, variant, PROFILES[profile]).fen == fen


@pytest.mark.parametrize("variant", CASTLING_VARIANTS, ids=lambda v: v.key)
def test_960_style_of_each_profile(variant: Variant):
    """Shredder letters where the producer writes them, X-FEN (K/Q) elsewhere."""
    setup = start_setup(variant, 0)  # BBQNNRKR: rooks on f and h
    for profile, options in PROFILES.items():
        castling = write_fen(setup, variant, options).fen.split()[2]
        expected = "HFhf" if options.castling_960 is CastlingStyle.SHREDDER else "KQkq"
        if not any(sq < 8 for sq in setup.castling):  # Horde: only Black castles
            expected = expected[2:]
        if not any(sq >= 56 for sq in setup.castling):  # itsyourturn Horde: only White castles
            expected = expected[:2]
        assert castling == expected, profile


# -- python-chess, chess960=True ------------------------------------------------------------

PYTHON_CHESS = {
    "standard": chess.Board,
    "chess960": chess.Board,
    "crazyhouse": chess.variant.CrazyhouseBoard,
    "atomic": chess.variant.AtomicBoard,
    "kingofthehill": chess.variant.KingOfTheHillBoard,
    "threecheck": chess.variant.ThreeCheckBoard,
    "horde": chess.variant.HordeBoard,
    "giveaway": chess.variant.GiveawayBoard,
}
GAMES_PER_VARIANT = 12
MAX_PLIES = 50


def _python_chess_games(key: str, seed: int):
    """(board, our setup) along seeded random games from random 960 arrays."""
    rng = random.Random(seed)
    variant = DEFAULT_REGISTRY.get(key)
    python_chess = PROFILES["python-chess"]
    for _game in range(GAMES_PER_VARIANT):
        number = rng.randrange(960)
        board = PYTHON_CHESS[key](write_fen(start_setup(variant, number), variant, python_chess).fen, chess960=True)
        for _ply in range(rng.randint(10, MAX_PLIES)):
            moves = list(board.legal_moves)
            if not moves or board.is_variant_end():
                break
            board.push(rng.choice(moves))
            yield board, variant


def _bad_squares_python_chess(board: chess.Board) -> set[int]:
    return set(chess.scan_forward(board.castling_rights & ~board.clean_castling_rights()))


def _comparable(board: chess.Board) -> bool:
    """python-chess lets promoted rooks castle and picks one of several back-rank kings; we
    do neither (docs/validation.md), so rights are compared only without those."""
    for colour, rank in ((chess.WHITE, chess.BB_RANK_1), (chess.BLACK, chess.BB_RANK_8)):
        if chess.popcount(board.kings & board.occupied_co[colour] & rank) > 1:
            return False
    return not board.promoted & board.rooks & chess.BB_BACKRANKS


@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(PYTHON_CHESS))
def test_random_960_play_against_python_chess(key):
    checked = mutated = 0
    rng = random.Random(9600 + len(key))
    for board, variant in _python_chess_games(key, seed=960 + len(key)):
        fen = board.fen()
        parsed = read_fen(fen, variant)
        assert validate(parsed.setup, variant) == [], fen
        assert parsed.setup.castling == set(chess.scan_forward(board.clean_castling_rights())), fen
        assert write_fen(parsed.setup, variant, PROFILES["python-chess"]).fen == fen
        shredder = board.fen(shredder=True).split()[2]
        assert write_fen(parsed.setup, variant, SHREDDER).fen.split()[2] == shredder, fen
        checked += 1
        # Random rights on back-rank squares: the same rights are bad for both.
        fresh = board.copy(stack=False)
        fresh.castling_rights = chess.SquareSet(
            rng.sample(list(chess.SquareSet(chess.BB_BACKRANKS)), rng.randint(1, 4))
        ).mask
        if not _comparable(fresh):
            continue
        setup = parsed.setup.with_changes(castling=frozenset(chess.scan_forward(fresh.castling_rights)))
        ours = set(judge_rights(Context.of(setup, variant)))
        assert ours == _bad_squares_python_chess(fresh), (fresh.fen(), sorted(ours))
        mutated += 1
    assert checked >= GAMES_PER_VARIANT * 5 and mutated >= checked // 2


# -- pyffish, Chess960 mode -----------------------------------------------------------------

FAIRY = {
    "standard": "chess",
    "chess960": "chess",
    "crazyhouse": "crazyhouse",
    "atomic": "atomic",
    "kingofthehill": "kingofthehill",
    "threecheck": "3check",
    "horde": "horde",
    "knightmate": "knightmate",
}
FAIRY_GAMES = 6
FAIRY_PLIES = 40


@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(FAIRY))
def test_random_960_play_against_pyffish(key):
    """Every position Fairy-Stockfish reaches in Chess960 mode reads, is valid, and is
    written back exactly by the fairy-stockfish profile in its 960 mode; setups that count
    as Chess960 need no mode (the profile alone writes the same)."""
    variant = DEFAULT_REGISTRY.get(key)
    fairy = FAIRY[key]
    profile = PROFILES["fairy-stockfish"]
    in_960_mode = profile.but(castling=profile.castling_960)
    rng = random.Random(96_000 + len(key))
    checked = with_ep = 0
    for _game in range(FAIRY_GAMES):
        start = write_fen(start_setup(variant, rng.randrange(960)), variant, in_960_mode).fen
        assert pyffish.get_fen(fairy, start, [], True) == start
        moves: list[str] = []
        for _ply in range(FAIRY_PLIES):
            legal = pyffish.legal_moves(fairy, start, moves, True)
            if not legal:
                break
            moves.append(rng.choice(sorted(legal)))
            theirs = pyffish.get_fen(fairy, start, moves, True)
            parsed = read_fen(theirs, variant)
            assert validate(parsed.setup, variant) == [], theirs
            assert write_fen(parsed.setup, variant, in_960_mode).fen == theirs
            if parsed.dialect.chess960:
                assert write_fen(parsed.setup, variant, profile).fen == theirs
            checked += 1
            with_ep += theirs.split()[3] != "-"
    assert checked >= FAIRY_GAMES * 10
    if key not in ("horde", "knightmate"):
        assert with_ep > 0, "no en passant square was ever compared"


# -- when a setup is Chess960 ----------------------------------------------------------------


@st.composite
def back_ranks(draw):
    """Back ranks of kings, rooks and knights, rights on random back-rank squares."""
    board = chess.Board(None)
    for rank, colour in ((0, chess.WHITE), (7, chess.BLACK)):
        for file in range(8):
            kind = draw(st.sampled_from([None, None, chess.ROOK, chess.ROOK, chess.KNIGHT]))
            if kind:
                board.set_piece_at(chess.square(file, rank), chess.Piece(kind, colour))
        king_file = draw(st.sampled_from([4, 4, 0, 1, 2, 3, 5, 6, 7, None]))
        if king_file is not None:
            board.set_piece_at(chess.square(king_file, rank), chess.Piece(chess.KING, colour))
    squares = list(chess.SquareSet(chess.BB_BACKRANKS))
    board.castling_rights = chess.SquareSet(draw(st.sets(st.sampled_from(squares), max_size=4))).mask
    return board


@pytest.mark.slow
@settings(max_examples=600, deadline=None)
@given(back_ranks())
def test_is_chess960_is_python_chess_has_chess960_castling_rights(board):
    cells = "".join((board.piece_at(sq).symbol() if board.piece_at(sq) else ".") for sq in range(64))
    rights = frozenset(chess.scan_forward(board.castling_rights))
    standard = DEFAULT_REGISTRY.get("standard")
    assert is_chess960(cells, rights, frozenset(), standard) is board.has_chess960_castling_rights()
    # the same board as a list: the square-by-square search instead of str.find
    assert is_chess960(list(cells), rights, frozenset(), standard) is board.has_chess960_castling_rights()
    assert chess960_good_rights(cells, rights, (), "k", "r") == chess960_good_rights(list(cells), rights, (), "k", "r")


def test_is_chess960_answers_each_question_not_the_last_one():
    """The reader, the validator and the writer ask about one setup in turn, and
    ``is_chess960`` keeps its last answer for them; another question about the same board
    (other rights, another variant, promoted rooks) gets its own answer."""
    standard, antichess = DEFAULT_REGISTRY.get("standard"), DEFAULT_REGISTRY.get("antichess")
    white_king_on_d1 = read_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1", standard).setup.cells
    assert is_chess960(white_king_on_d1, frozenset({0, 7}), (), standard)
    assert is_chess960(white_king_on_d1, {0, 7}, (), standard)  # the same rights as a set
    assert not is_chess960(white_king_on_d1, frozenset({56, 63}), (), standard)
    assert not is_chess960(white_king_on_d1, frozenset({0, 7}), (), antichess)  # no castling piece
    assert not is_chess960(white_king_on_d1, frozenset({0, 7}), frozenset({0, 7}), standard)
    assert is_chess960(white_king_on_d1, frozenset({0, 7}), (), standard)
    assert is_chess960(list(white_king_on_d1), frozenset({0, 7}), (), standard)


@pytest.mark.slow
@settings(max_examples=600, deadline=None)
@given(back_ranks())
def test_verdicts_follow_python_chess_in_the_mode_the_setup_needs(board):
    """Classical setups get python-chess's classical verdicts, Chess960 ones its 960 verdicts."""
    board.chess960 = board.has_chess960_castling_rights()
    if not _comparable(board):
        return
    cells = tuple(board.piece_at(sq).symbol() if board.piece_at(sq) else None for sq in range(64))
    setup = Setup(board=cells, castling=frozenset(chess.scan_forward(board.castling_rights)))
    ours = set(judge_rights(Context.of(setup, DEFAULT_REGISTRY.get("standard"))))
    assert ours == _bad_squares_python_chess(board), board.fen()
