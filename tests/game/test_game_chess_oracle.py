"""The chess-family move generator against the test-only oracles, on positions from seeded
random playouts in every variant they play: python-chess for the lichess variants and
Chess960 (legal moves in UCI, every move's SAN, the FEN after each move, the game's end),
Fairy-Stockfish through pyffish for Knightmate, Grasshopper, Losers, Giveaway, Suicide and
Extinction (legal moves, SAN, FEN).

Divergences, each a documented choice (docs/moves.md): Fairy-Stockfish writes no ``#``
after a variant win (Giveaway, Suicide and Extinction captures that end the game); we
write it, as python-chess does after every decided end.
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("chess")
import chess  # noqa: E402
import chess.variant  # noqa: E402
from validation_oracle import BOARDS  # noqa: E402

from notation import read_fen  # noqa: E402
from notation.fen.writer import write_fen  # noqa: E402
from notation.game import legal_position  # noqa: E402
from notation.move_options import CastlingMode, MoveNotation  # noqa: E402
from notation.moves import read_move, write_move  # noqa: E402

pytestmark = [pytest.mark.slow]

# The lichess variants and Chess960 (python-chess's Giveaway and Suicide castle, ours not
# both: those two are checked against Fairy-Stockfish below).
PYTHON_CHESS = {key: board for key, board in BOARDS.items() if key not in ("giveaway", "suicide")}
GAMES, PLIES = 3, 50


def _start(key: str, rng: random.Random):  # type: ignore[no-untyped-def]
    if key == "chess960":
        board = chess.Board.from_chess960_pos(rng.randrange(960))
        board.chess960 = True
        return board
    return PYTHON_CHESS[key]()


@pytest.mark.parametrize("key", sorted(PYTHON_CHESS))
def test_moves_san_and_fen_agree_with_python_chess(key: str) -> None:
    rng = random.Random(f"python-chess {key}")
    ends = 0
    for _ in range(GAMES):
        board = _start(key, rng)
        mode = CastlingMode.CHESS960 if board.chess960 else CastlingMode.STANDARD
        position = legal_position(read_fen(board.fen(), key).setup, key, castling=mode)
        for _ in range(PLIES):
            ours = {write_move(position, move, MoveNotation.UCI): move for move in position.legal_moves()}
            theirs = {board.uci(move): move for move in board.legal_moves}
            assert set(ours) == set(theirs), board.fen()
            for text, move in ours.items():
                san = write_move(position, move, MoveNotation.SAN)
                assert san == board.san(theirs[text]), (board.fen(), text)
                assert write_move(position, move, MoveNotation.LAN) == board.lan(theirs[text]), (board.fen(), text)
                assert read_move(position, san).move == move
                assert read_move(position, text, MoveNotation.UCI).move == move
            if not ours:
                outcome = position.outcome()
                assert outcome is not None and outcome.result == board.result(), board.fen()
                ends += 1
                break
            assert position.outcome() is None
            text = rng.choice(sorted(ours))
            position = position.play(ours[text])
            board.push(theirs[text])
            assert write_fen(position.to_setup(), position.variant).fen == board.fen(), text


def test_chess960_castling_in_uci_both_ways() -> None:
    # King on g1, rooks on b1 and h1: the king takes its rook in either mode, as it does not
    # stand on the e-file (python-chess writes the same).
    fen = "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1"
    board = chess.Board(fen, chess960=True)
    for mode in CastlingMode:
        position = legal_position(read_fen(fen, "chess960").setup, "chess960", castling=mode)
        castles = [m for m in position.legal_moves() if m.kind.value == "castle"]
        ours = sorted(write_move(position, m, MoveNotation.UCI) for m in castles)
        assert ours == sorted(board.uci(m) for m in board.legal_moves if board.is_castling(m)) == ["g1b1", "g1h1"]


def test_standard_castling_is_written_both_ways_and_read_both_ways() -> None:
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    for mode, short, long in ((CastlingMode.STANDARD, "e1g1", "e1c1"), (CastlingMode.CHESS960, "e1h1", "e1a1")):
        position = legal_position(read_fen(fen, "standard").setup, "standard", castling=mode)
        castles = [m for m in position.legal_moves() if m.kind.value == "castle"]
        uci = sorted(write_move(position, m, MoveNotation.UCI) for m in castles)
        assert uci == sorted([short, long])
        for text in ("e1g1", "e1h1", "O-O", "0-0", "Ke1h1"):
            assert read_move(position, text).move.kind.value == "castle"


pyffish = pytest.importorskip("pyffish")

FAIRY = {"knightmate": "knightmate", "grasshopper": "grasshopper", "losers": "losers", "giveaway": "giveaway",
         "suicide": "suicide", "extinction": "extinction"}


def _fairy_san(variant: str, fen: str, uci: str) -> str:
    return str(pyffish.get_san(variant, fen, uci))


@pytest.mark.parametrize("key", sorted(FAIRY))
def test_moves_san_and_fen_agree_with_fairy_stockfish(key: str) -> None:
    name = FAIRY[key]
    rng = random.Random(f"pyffish {key}")
    start = pyffish.start_fen(name)
    for _ in range(GAMES):
        position = legal_position(read_fen(start, key).setup, key)
        played: list[str] = []
        for _ in range(PLIES):
            fen = pyffish.get_fen(name, start, played)
            assert write_fen(position.to_setup(), position.variant).fen == fen
            ours = {write_move(position, move, MoveNotation.UCI): move for move in position.legal_moves()}
            assert set(ours) == set(pyffish.legal_moves(name, start, played)), fen
            # SAN of a sample of the moves (each costs a look at the position after it).
            for text in rng.sample(sorted(ours), min(8, len(ours))):
                move = ours[text]
                san = write_move(position, move, MoveNotation.SAN)
                after = position.play(move).outcome()
                theirs = _fairy_san(name, fen, text)
                if after is not None and after.winner is not None and not theirs.endswith("#"):
                    theirs += "#"  # the documented divergence: '#' after any decided end
                assert san == theirs, (fen, text)
                assert read_move(position, san).move == move
            if not ours:
                break
            text = rng.choice(sorted(ours))
            position = position.play(ours[text])
            played.append(text)
