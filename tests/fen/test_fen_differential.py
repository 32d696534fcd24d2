"""Differential tests against python-chess (a GPL test-only oracle, never a runtime import).

Thousands of positions from seeded random games in every lichess variant (and Chess960
flavours of several), written by python-chess in every dialect it writes, must be read by
us into the same position and written back by us exactly as python-chess writes them.
"""

from __future__ import annotations

import random

import chess
import chess.variant
import pytest

from notation import find_variant, read_fen, write_fen
from notation.fen.profiles import PROFILES
from notation.options import CastlingStyle, EnPassantMode

PYTHON_CHESS = PROFILES["python-chess"]

# (our variant key, python-chess board class, chess960)
FLAVOURS = [
    ("standard", chess.Board, False),
    ("chess960", chess.Board, True),
    ("crazyhouse", chess.variant.CrazyhouseBoard, False),
    ("crazyhouse", chess.variant.CrazyhouseBoard, True),
    ("atomic", chess.variant.AtomicBoard, False),
    ("atomic", chess.variant.AtomicBoard, True),
    ("antichess", chess.variant.AntichessBoard, False),
    ("kingofthehill", chess.variant.KingOfTheHillBoard, False),
    ("threecheck", chess.variant.ThreeCheckBoard, False),
    ("threecheck", chess.variant.ThreeCheckBoard, True),
    ("racingkings", chess.variant.RacingKingsBoard, False),
    ("horde", chess.variant.HordeBoard, False),
]
GAMES_PER_FLAVOUR = 10
MAX_PLIES = 90


def random_positions(board_class, chess960: bool, seed: int):
    rng = random.Random(seed)
    for _ in range(GAMES_PER_FLAVOUR):
        if chess960:
            board = board_class.from_chess960_pos(rng.randrange(960))
        else:
            board = board_class()
        yield board.copy(stack=False)
        for _ in range(MAX_PLIES):
            if board.is_variant_end():
                break
            moves = list(board.legal_moves)
            if not moves:
                break
            # Prefer pawn double steps now and then, so en passant squares come up often.
            doubles = [
                m for m in moves
                if board.piece_type_at(m.from_square) == chess.PAWN and abs(m.to_square - m.from_square) == 16
            ]
            board.push(rng.choice(doubles) if doubles and rng.random() < 0.3 else rng.choice(moves))
            yield board.copy(stack=False)


POSITIONS = [
    (key, board)
    for index, (key, board_class, chess960) in enumerate(FLAVOURS)
    for board in random_positions(board_class, chess960, seed=1000 + index)
]


def _our_board_matches(setup, board) -> None:
    for square in range(64):
        piece = board.piece_at(square)
        assert setup.board[square] == (piece.symbol() if piece else None), chess.square_name(square)
    assert setup.turn == ("w" if board.turn else "b")
    assert setup.halfmove == board.halfmove_clock and setup.fullmove == board.fullmove_number


def test_enough_positions():
    assert len(POSITIONS) >= 5000
    assert {key for key, _ in POSITIONS} == {key for key, _, _ in FLAVOURS}


@pytest.mark.slow
@pytest.mark.parametrize("key", sorted({key for key, _, _ in FLAVOURS}))
def test_read_and_write_agree_with_python_chess(key):
    variant = find_variant(key)
    shredder = PYTHON_CHESS.but(castling=CastlingStyle.SHREDDER, castling_960=CastlingStyle.SHREDDER)
    checked = 0
    for board_key, board in POSITIONS:
        if board_key != key:
            continue
        legal_fen = board.fen()
        read = read_fen(legal_fen, variant)
        setup = read.setup
        _our_board_matches(setup, board)
        assert setup.castling == set(chess.SquareSet(board.clean_castling_rights()))
        if variant.has_pockets:
            for color, pocket in ((chess.WHITE, setup.pockets.white), (chess.BLACK, setup.pockets.black)):
                for piece_type in chess.PIECE_TYPES:
                    assert pocket.count(chess.piece_symbol(piece_type)) == board.pockets[color].count(piece_type)
            assert setup.promoted == set(chess.SquareSet(board.promoted & board.occupied))
        if variant.has_check_counters:
            assert setup.remaining_checks == (board.remaining_checks[chess.WHITE], board.remaining_checks[chess.BLACK])

        # Our writer, python-chess's dialect: exactly python-chess's own text.
        assert write_fen(setup, variant, PYTHON_CHESS).fen == legal_fen
        shredder_fen = board.fen(shredder=True)
        assert write_fen(read_fen(shredder_fen, variant).setup, variant, shredder).fen == shredder_fen
        assert read_fen(board.fen(shredder=True), variant).setup == setup

        # En passant in all three of python-chess's modes, from the always-written form.
        always_fen = board.fen(en_passant="fen")
        always = read_fen(always_fen, variant).setup
        assert write_fen(always, variant, PYTHON_CHESS.but(en_passant=EnPassantMode.ALWAYS)).fen == always_fen
        pseudo_legal = PYTHON_CHESS.but(en_passant=EnPassantMode.PSEUDO_LEGAL)
        assert write_fen(always, variant, pseudo_legal).fen == board.fen(en_passant="xfen")
        assert write_fen(always, variant, PYTHON_CHESS).fen == legal_fen

        # EPD: no counters.
        epd_read = read_fen(board.epd(), variant)
        assert epd_read.dialect.counters is False
        assert epd_read.setup.board == setup.board
        checked += 1
    assert checked > 300


@pytest.mark.slow
@pytest.mark.parametrize("key", ["crazyhouse", "threecheck", "standard", "chess960"])
def test_python_chess_reads_what_we_write_in_its_dialect(key):
    """The other direction: python-chess parses our output into the same position."""
    variant = find_variant(key)
    boards = {"crazyhouse": chess.variant.CrazyhouseBoard, "threecheck": chess.variant.ThreeCheckBoard}
    board_class = boards.get(key, chess.Board)
    for board_key, board in POSITIONS:
        if board_key != key:
            continue
        ours = write_fen(read_fen(board.fen(), variant).setup, variant, PYTHON_CHESS).fen
        again = board_class(ours, chess960=board.chess960)
        assert again.fen() == board.fen()
