"""``--fix-results`` against python-chess: for standard games played by a seeded random
player (who mates when it can), the result repaired to is python-chess's ``board.outcome()``
where that is a mate or a stalemate, and otherwise what the game states (the token's decided
result, else the tag's): a draw a player must claim, insufficient material or the
seventy-five-move rule, is no end our repair writes. ``--broken truncate``: a game whose bad
variations are cut reads without an error in python-chess, its main line the one python-chess
reads in the game as it was."""

from __future__ import annotations

import io
import json
import random
import re

import chess
import chess.pgn
import pytest
from paths import ROOT

from notation.pgn.normalize import NormalizeOptions, normalize_text
from notation.pgn.splitter import iter_games

RESULTS = ["1-0", "0-1", "1/2-1/2", "*"]
DECIDED = ("1-0", "0-1", "1/2-1/2")
SEEDS = 30


def _random_game(seed: int) -> chess.Board:
    """A random game; one seed in three looks for a stalemate where the others look for a mate."""
    rng = random.Random(seed)
    board = chess.Board()
    stalemating = seed % 3 == 0
    while board.outcome() is None and board.ply() < 400:
        moves = list(board.legal_moves)
        ends = [move for move in moves if _ends(board, move, stalemating)]
        board.push(ends[0] if ends else rng.choice(moves))
    return board


def _ends(board: chess.Board, move: chess.Move, stalemating: bool) -> bool:
    if not stalemating and not board.gives_check(move):
        return False
    board.push(move)
    try:
        return board.is_stalemate() if stalemating else board.is_checkmate()
    finally:
        board.pop()


def _written(board: chess.Board, tag: str, token: str) -> str:
    game = chess.pgn.Game.from_board(board)
    game.headers["Result"] = tag
    text = game.accept(chess.pgn.StringExporter(headers=True, variations=True, comments=False))
    return text.rstrip().rsplit(maxsplit=1)[0] + f" {token}\n\n"


@pytest.mark.parametrize("seed", range(SEEDS))
def test_repaired_result_is_python_chess_outcome(seed):
    board = _random_game(seed)
    rng = random.Random(seed)
    tag, token = rng.choice(RESULTS), rng.choice(RESULTS)
    text = _written(board, tag, token)
    out, _, report = normalize_text(text, NormalizeOptions.create(None, repairs=["results"]))
    (game,) = iter_games(out)
    outcome = board.outcome()
    if outcome is not None and outcome.termination in (chess.Termination.CHECKMATE, chess.Termination.STALEMATE):
        expected = outcome.result()
    else:
        expected = token if token in DECIDED else tag if tag in DECIDED else "*"
    assert game.tag("Result").value == expected
    assert out.rstrip().endswith(" " + expected)


def test_the_random_player_reaches_mates_and_stalemates():
    ends = {outcome.termination for seed in range(SEEDS) if (outcome := _random_game(seed).outcome()) is not None}
    assert {chess.Termination.CHECKMATE, chess.Termination.STALEMATE} <= ends


# -- --broken truncate: a cut variation, the main line python-chess reads kept ----------------
_CUT_VARIATIONS = [case for case in json.loads((ROOT / "fixtures" / "pgn" / "repair_cases.json").read_text(
    encoding="utf-8")) if case["family"] == "standard" and "{variation cut here" in case["output"]]


@pytest.mark.parametrize("case", _CUT_VARIATIONS, ids=lambda c: c["note"])
def test_a_cut_variation_leaves_python_chess_the_same_main_line_and_no_error(case):
    # python-chess loses the main line after a bad variation (its reading stops there), so the
    # main line to compare with is the one it reads in the game with every variation taken out
    plain = chess.pgn.read_game(io.StringIO(_without_variations(case["input"])))
    assert plain is not None
    out, _, _ = normalize_text(case["input"], NormalizeOptions.create(None, **case["options"]))
    cut = chess.pgn.read_game(io.StringIO(out))
    assert cut is not None and not cut.errors, cut.errors
    # a bad move of the main line ends python-chess's reading where our cut ends the game
    assert [move.uci() for move in cut.mainline_moves()] == [move.uci() for move in plain.mainline_moves()]
    if "{game cut here" not in out and case["options"] == {"broken": "truncate"}:
        assert cut.headers["Result"] == plain.headers["Result"]  # the result as it was


def _without_variations(text: str) -> str:
    """``text`` with every ``( ... )`` taken out (the fixtures' comments hold no parenthesis)."""
    while True:
        shorter = re.sub(r"\([^()]*\)", "", text)
        if shorter == text:
            return text
        text = shorter
