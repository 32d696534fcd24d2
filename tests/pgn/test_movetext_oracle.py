"""Moves of PGN games against python-chess (a test-only oracle): on seeded random games in
Standard, Chess960 and Crazyhouse, with variations, written by python-chess's exporter,

- our SAN rewrite changes nothing: our SAN is python-chess's SAN, move for move;
- the same games rewritten in UCI and back to SAN are python-chess's export again;
- with one move made illegal, we find it at the ply where python-chess's ``read_game`` stops.
"""

from __future__ import annotations

import io
import random

import chess
import chess.pgn
import chess.variant
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from notation.pgn.movetext import movetext_start
from notation.pgn.normalize import NormalizeOptions, normalize_text

KINDS = ["standard", "chess960", "crazyhouse"]


def _board(kind: str, rng: random.Random) -> chess.Board:
    if kind == "chess960":
        return chess.Board.from_chess960_pos(rng.randrange(960))
    if kind == "crazyhouse":
        return chess.variant.CrazyhouseBoard()
    return chess.Board()


def _python_chess_game(kind: str, seed: int) -> chess.pgn.Game:
    """A game of random legal moves, with a variation here and there, as python-chess holds it."""
    rng = random.Random(seed)
    board = _board(kind, rng)
    game = chess.pgn.Game.from_board(board)
    game.headers["Event"] = f"oracle {kind} {seed}"
    if kind == "chess960":
        game.headers["Variant"] = "Chess960"
        game.headers["FEN"] = board.fen()
        game.headers["SetUp"] = "1"
    node: chess.pgn.GameNode = game
    for _ in range(rng.randint(1, 50)):
        moves = list(node.board().legal_moves)
        if not moves or node.board().is_variant_end():
            break
        move = rng.choice(moves)
        if rng.random() < 0.1 and len(moves) > 1:
            side = node.add_variation(rng.choice([m for m in moves if m != move]))
            replies = list(side.board().legal_moves)
            if replies and not side.board().is_game_over():
                side.add_variation(rng.choice(replies))
        node = node.add_main_variation(move)
    return game


def _export(game: chess.pgn.Game) -> str:
    return str(game) + "\n\n"


def _movetext(text: str) -> str:
    return text[movetext_start(text):]


@settings(max_examples=examples(20))
@given(st.sampled_from(KINDS), st.integers(0, 2**32 - 1))
def test_our_san_is_python_chess_san(kind, seed):
    text = _export(_python_chess_game(kind, seed))
    out, _, report = normalize_text(text, NormalizeOptions.create(moves="san"))
    assert not any(entry["errors"] for entry in report), report
    assert _movetext(out) == _movetext(text)  # the tags are the normaliser's to rewrite


@pytest.mark.slow
@settings(max_examples=examples(20))
@given(st.sampled_from(KINDS), st.integers(0, 2**32 - 1))
def test_uci_and_back_to_san_is_python_chess_export(kind, seed):
    game = _python_chess_game(kind, seed)
    text = _export(game)
    uci, _, _ = normalize_text(text, NormalizeOptions.create(moves="uci"))
    # python-chess reads our UCI movetext (its reader takes UCI too) as the same game
    again = chess.pgn.read_game(io.StringIO(uci))
    assert again is not None and not again.errors
    assert [m.uci() for m in again.mainline_moves()] == [m.uci() for m in game.mainline_moves()]
    back, _, report = normalize_text(uci, NormalizeOptions.create(moves="san"))
    assert _movetext(back) == _movetext(text)


def _with_one_illegal_move(game: chess.pgn.Game, rng: random.Random) -> tuple[str, int] | None:
    """The game's export with one main-line move replaced by a SAN that python-chess refuses
    there (a legal move of another position of the game), and that move's ply."""
    nodes = list(game.mainline())
    if len(nodes) < 2:
        return None
    ply = rng.randrange(1, len(nodes))  # 0-based index of the move replaced
    board = nodes[ply].parent.board()
    for other in nodes:
        san = other.san()
        try:
            board.parse_san(san)
        except ValueError:
            text = _export(game)
            exported = text.split("\n\n", 1)
            movetext = exported[1]
            wrong = nodes[ply].san()
            # the move's place in the movetext: count its tokens
            tokens = movetext.split(" ")
            seen = 0
            for index, token in enumerate(tokens):
                if token and not token[0].isdigit() and token not in ("*", "1-0", "0-1", "1/2-1/2"):
                    if seen == ply:
                        if token.rstrip("+#") != wrong.rstrip("+#"):
                            return None
                        tokens[index] = san
                        return exported[0] + "\n\n" + " ".join(tokens), ply + 1
                    seen += 1
            return None
    return None


@pytest.mark.slow
@settings(max_examples=examples(40))
@given(st.sampled_from(KINDS), st.integers(0, 2**32 - 1))
def test_an_illegal_move_is_found_where_python_chess_stops(kind, seed):
    rng = random.Random(seed)
    game = _python_chess_game(kind, seed)
    for node in list(game.mainline()):  # main line only: the illegal move's place is easy to find
        for variation in node.variations[1:]:
            node.remove_variation(variation)
    for variation in game.variations[1:]:
        game.remove_variation(variation)
    found = _with_one_illegal_move(game, rng)
    if found is None:
        return
    text, ply = found
    theirs = chess.pgn.read_game(io.StringIO(text))
    assert theirs is not None and theirs.errors
    _, _, report = normalize_text(text, NormalizeOptions.create(moves="check"))
    errors = [p for entry in report for p in entry["errors"] if p["code"] != "pgn-missing-result"]
    warnings = [(p["code"], p["ply"]) for entry in report for p in entry.get("warnings", [])]
    if ("missing-capture-mark", ply) in warnings:
        # The one reading we take that python-chess refuses: a pawn capture written as a
        # push ("f4" for exf4), read with a warning (docs/moves.md, "Reading moves"); the
        # game goes on from there, where python-chess stops.
        return
    # python-chess's IllegalMoveError or AmbiguousMoveError; ours an illegal move, or an
    # ambiguous one where the text fits several (a pawn push read as either capture)
    assert [p["code"] for p in errors] in (["illegal-move"], ["ambiguous-move"])
    assert errors[0]["ply"] == ply == len(list(theirs.mainline_moves())) + 1
    board = theirs.end().board()
    assert errors[0]["fen"].split()[:4] == board.fen().split()[:4]


@pytest.mark.parametrize("spelling", ["Crazyhouse", "crazyhouse", "ZH", "Crazy House", "crazyhouse960"])
def test_drops_are_read_whatever_the_variant_tag_says(spelling):
    """python-chess reads drops only under the Variant names it knows; we read them under
    every alias of the registry."""
    game = _python_chess_game("crazyhouse", 7)
    text = _export(game).replace('[Variant "Crazyhouse"]', f'[Variant "{spelling}"]')
    _, _, report = normalize_text(text, NormalizeOptions.create(moves="check"))
    assert not any(entry["errors"] for entry in report), report
