"""``select --reaches`` and ``--tag`` on Standard games equal what python-chess finds.

python-chess reads each game (``chess.pgn.read_game``) and plays its main line; a game
reaches a target when the target's ``Board._transposition_key()`` is the key of one of the
main line's boards, the start included. That key is the one python-chess's own repetition
rules compare (pieces, side to move, castling rights, and the en passant square only where
a legal en passant capture exists), taken from the board itself, not from any text: the
same rule ``select --reaches`` states, so the two must agree position for position
(``board.epd()`` would compare texts, which would depend on how each writes them).

The games are random walks through a narrow tree (each move one of the first few legal
moves in UCI order), so that the games transpose into each other's positions, repeat
positions and meet en passant squares with and without a legal capture; they are written
by python-chess's exporter with player names drawn from a few. Marked ``oracle``.
"""

from __future__ import annotations

import io
import random

import chess
import chess.pgn
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from notation.pgn.gameread import read_games
from notation.selection import Criteria, parse_tag_test, select_games

NAMES = ("Carlsen, Magnus", "Carlsson, Emma", "Novak, Pia", "Ortiz, Luis")


def _database(seed: int, games: int) -> str:
    rng = random.Random(seed)
    out = []
    for number in range(games):
        board = chess.Board()
        for _ in range(rng.randrange(0, 24)):
            moves = sorted(board.legal_moves, key=lambda move: move.uci())
            if not moves:
                break
            board.push(rng.choice(moves[: rng.choice((2, 3, 5))]))
        game = chess.pgn.Game.from_board(board)
        game.headers["White"] = rng.choice(NAMES)
        game.headers["Round"] = str(number + 1)
        out.append(str(game) + "\n\n")
    return "".join(out)


def _their_keys(text: str) -> list[set]:
    """Each game's main-line keys, as python-chess reads the games."""
    keys = []
    stream = io.StringIO(text)
    while (game := chess.pgn.read_game(stream)) is not None:
        board = game.board()
        seen = {board._transposition_key()}
        for move in game.mainline_moves():
            board.push(move)
            seen.add(board._transposition_key())
        keys.append(seen)
    return keys


def _their_positions(text: str) -> list[str]:
    """Every FEN the games' main lines pass through, in python-chess's writing."""
    fens = []
    stream = io.StringIO(text)
    while (game := chess.pgn.read_game(stream)) is not None:
        board = game.board()
        fens.append(board.fen(en_passant="fen"))
        for move in game.mainline_moves():
            board.push(move)
            fens.append(board.fen(en_passant="fen"))
    return fens


@settings(deadline=None, max_examples=examples(20))
@given(seed=st.integers(0, 10**6), games=st.integers(1, 12), picks=st.lists(st.integers(0, 10**6), max_size=6))
def test_reaches_finds_the_games_python_chess_finds(seed, games, picks):
    text = _database(seed, games)
    keys = _their_keys(text)
    positions = _their_positions(text)
    # Targets: positions the games pass through, written with the en passant square after
    # every double step (as the PGN standard's FEN does, whether or not a pawn can take),
    # and the same position with counters no game has.
    targets = [positions[pick % len(positions)] for pick in picks]
    targets += [" ".join(fen.split()[:4] + ["37", "99"]) for fen in targets[:2]]
    for fen in targets:
        wanted = chess.Board(fen)._transposition_key()
        theirs = [number for number, seen in enumerate(keys, 1) if wanted in seen]
        ours = [game.number for game in select_games(read_games(text), Criteria(reaches=(fen,)))]
        assert ours == theirs, fen


@settings(deadline=None, max_examples=examples(20))
@given(seed=st.integers(0, 10**6), games=st.integers(1, 12), name=st.sampled_from(NAMES),
       pattern=st.sampled_from(("^Carls", "Emma$", ", [LP]", "o")))
def test_tags_select_the_games_python_chess_s_headers_say(seed, games, name, pattern):
    import re

    text = _database(seed, games)
    headers = []
    stream = io.StringIO(text)
    while (game := chess.pgn.read_game(stream)) is not None:
        headers.append(game.headers)
    exact = Criteria(tags=(parse_tag_test(f"White={name}"),))
    assert [game.number for game in select_games(read_games(text), exact)] == [
        number for number, found in enumerate(headers, 1) if found.get("White") == name]
    searched = Criteria(tags=(parse_tag_test(f"White~{pattern}"),))
    assert [game.number for game in select_games(read_games(text), searched)] == [
        number for number, found in enumerate(headers, 1) if re.search(pattern, found.get("White", ""))]
