"""``normalize --export full`` against python-chess's exporter (a test-only oracle):
``game.accept(chess.pgn.StringExporter(columns=80))`` writes export-format movetext.

On seeded random standard games with NAGs and short comments, written by python-chess on
one line (import format), our export's movetext is python-chess's byte for byte: the same
move numbers (``12...`` after a comment, none after a NAG alone), the same lines under 80
characters. With variations the tokens are the same; the layout differs where the standard
leaves it open: python-chess writes ``( 2... Nf6 )``, we write ``(2... Nf6)`` as pgn-extract
and the standard's own examples do, so lines break elsewhere.
"""

from __future__ import annotations

import random
import re

import chess
import chess.pgn
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from notation.pgn.movetext import movetext_start
from notation.pgn.normalize import NormalizeOptions, normalize_text

COMMENTS = ["good", "the only move", "[%clk 0:03:00]", "White is better", "a trap"]


def _game(seed: int, variations: bool) -> chess.pgn.Game:
    rng = random.Random(seed)
    game = chess.pgn.Game()
    game.headers["Event"] = f"oracle {seed}"
    node: chess.pgn.GameNode = game
    for _ in range(rng.randint(0, 90)):
        board = node.board()
        moves = list(board.legal_moves)
        if not moves or board.is_game_over():
            break
        move = rng.choice(moves)
        if variations and rng.random() < 0.1 and len(moves) > 1:
            side = node.add_variation(rng.choice([m for m in moves if m != move]))
            replies = list(side.board().legal_moves)
            if replies:
                side.add_variation(rng.choice(replies)).comment = rng.choice(COMMENTS)
        node = node.add_main_variation(move)
        roll = rng.random()
        if roll < 0.1:
            node.nags.add(rng.randrange(1, 140))
        elif roll < 0.2:
            node.comment = rng.choice(COMMENTS)
    game.headers["Result"] = rng.choice(["1-0", "0-1", "1/2-1/2", "*"])
    return game


def _movetext(text: str) -> str:
    return text[movetext_start(text):]


def _ours(game: chess.pgn.Game) -> str:
    one_line = game.accept(chess.pgn.StringExporter(columns=None)) + "\n\n"
    out, _, report = normalize_text(one_line, NormalizeOptions.create(export="full"))
    assert not any(entry["errors"] for entry in report), report
    return _movetext(out)


def _python_chess(game: chess.pgn.Game) -> str:
    return _movetext(game.accept(chess.pgn.StringExporter(columns=80)) + "\n\n")


@settings(max_examples=examples(40))
@given(st.integers(0, 2**32 - 1))
def test_the_movetext_is_python_chess_export(seed):
    game = _game(seed, variations=False)
    assert _ours(game) == _python_chess(game)


@settings(max_examples=examples(40))
@given(st.integers(0, 2**32 - 1))
def test_with_variations_the_tokens_are_python_chess_export(seed):
    game = _game(seed, variations=True)
    ours = _ours(game)
    theirs = re.sub(r"\s+\)", ")", re.sub(r"\(\s+", "(", _python_chess(game)))
    assert ours.split() == theirs.split()
    assert max(len(line) for line in ours.splitlines()) < 80
