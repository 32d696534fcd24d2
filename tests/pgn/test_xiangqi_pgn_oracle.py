"""Xiangqi PGN games against Fairy-Stockfish's Python binding (pyffish, GPL: a test-only oracle).

Games are played by seeded random legal moves from pyffish's start position. Each is written
as a PGN game in our SAN, WXF, ICCS, UCI and LAN (``notation.write_game``) and in pyffish's
own SAN and WXF (``get_san_moves``), and read back by the movetext layer
(``notation.read_games``, the walk ``check`` and ``normalize --moves`` use): the moves must be
pyffish's, in its UCI, and the final position its ``get_fen``.
"""

from __future__ import annotations

import random

import pyffish
import pytest

import notation
from notation.fen.profiles import PROFILES
from notation.fen.writer import write_fen
from notation.pgn.normalize import NormalizeOptions, normalize_text

GAMES = 6
MAX_PLIES = 120
OURS = ["san", "wxf", "iccs", "uci", "lan"]
THEIRS = {"san": pyffish.NOTATION_SAN, "wxf": pyffish.NOTATION_XIANGQI_WXF}


def _play(seed: int) -> tuple[list[str], str]:
    """pyffish's moves (its UCI) along one seeded random game, and the FEN they reach."""
    rng = random.Random(seed)
    start = pyffish.start_fen("xiangqi")
    moves: list[str] = []
    for _ in range(rng.randint(MAX_PLIES // 2, MAX_PLIES)):
        legal = sorted(pyffish.legal_moves("xiangqi", start, moves))
        if not legal:
            break
        moves.append(rng.choice(legal))
    return moves, pyffish.get_fen("xiangqi", start, moves)


PLAYED = {seed: _play(seed) for seed in range(GAMES)}


def _final_fen(game: notation.PgnGame) -> str:
    assert game.end is not None
    return write_fen(game.end.to_setup(), game.end.variant, PROFILES["fairy-stockfish"]).fen


def _movetext(words: list[str]) -> str:
    """Moves numbered as a PGN game numbers them (red moves first)."""
    out = []
    for index, word in enumerate(words):
        if index % 2 == 0:
            out.append(f"{index // 2 + 1}.")
        out.append(word)
    return " ".join(out)


@pytest.mark.slow
def test_the_oracle_played_long_games_with_captures_and_checks():
    start = pyffish.start_fen("xiangqi")
    assert sum(len(moves) for moves, _ in PLAYED.values()) > GAMES * 40
    assert any(pyffish.gives_check("xiangqi", start, moves[:i]) for moves, _ in PLAYED.values()
               for i in range(len(moves)))
    sans = [san for moves, _ in PLAYED.values()
            for san in pyffish.get_san_moves("xiangqi", start, moves, False, pyffish.NOTATION_SAN)]
    assert any("x" in san for san in sans)


@pytest.mark.parametrize("written_in", OURS)
@pytest.mark.parametrize("seed", range(GAMES))
def test_our_notations_read_back_to_fairy_stockfishs_moves(seed, written_in):
    moves, fen = PLAYED[seed]
    start = notation.open_position(None, "xiangqi")
    text = notation.write_game(start, moves, tags={"Event": f"pyffish {seed}"}, notation=written_in, reading="uci")
    (game,) = notation.read_games(text)
    assert game.variant.key == "xiangqi"
    assert game.problems == [], game.problems
    assert [move.uci for move in game.moves] == moves
    assert _final_fen(game) == fen
    for ours, theirs in zip(game.moves, range(len(moves)), strict=True):
        assert ours.fen == write_fen(ours.after.to_setup(), ours.after.variant).fen
        assert ours.ply == theirs + 1


@pytest.mark.parametrize("written_in", sorted(THEIRS))
@pytest.mark.parametrize("seed", range(GAMES))
def test_fairy_stockfishs_own_notations_read_back_to_its_moves(seed, written_in):
    moves, fen = PLAYED[seed]
    start = pyffish.start_fen("xiangqi")
    words = pyffish.get_san_moves("xiangqi", start, moves, False, THEIRS[written_in])
    text = f'[Event "pyffish {seed}"]\n[Variant "Xiangqi"]\n\n{_movetext(words)} *\n'
    (game,) = notation.read_games(text)
    assert [p for p in game.problems if p.level.value == "error"] == []
    assert [move.uci for move in game.moves] == moves
    assert _final_fen(game) == fen
    assert [move.write(written_in) for move in game.moves] == words  # we write what Fairy-Stockfish writes


@pytest.mark.parametrize("seed", range(GAMES))
def test_normalize_rewrites_between_the_notations_and_back(seed):
    moves, _ = PLAYED[seed]
    start = notation.open_position(None, "xiangqi")
    text = notation.write_game(start, moves, notation="wxf", reading="uci")
    as_iccs, summary, report = normalize_text(text, NormalizeOptions.create(moves="iccs"))
    assert report == [] and summary.changed == 1
    back, _, _ = normalize_text(as_iccs, NormalizeOptions.create(moves="wxf"))
    assert back == text
    by_profile, _, _ = normalize_text(as_iccs, NormalizeOptions.create("wxf"))  # the profile implies WXF
    assert by_profile == text


AMBIGUOUS_FEN = "2rakabn1/7cr/2n1b4/p1p1p3p/P5p2/4P1P2/C1P1N4/4B4/C4N1c1/R1BAKA2R w - - 18 19"  # from seed 0


def test_a_move_both_coordinate_notations_read_takes_the_games_notation():
    """``a1b1`` is the chariot's move in UCI and, as ``a2b2``, the cannon's in ICCS: the
    game's ``d10e9`` (a rank only UCI has) says which; without such a move it is ambiguous."""
    head = f'[Variant "Xiangqi"]\n[FEN "{AMBIGUOUS_FEN}"]\n[SetUp "1"]\n\n'
    (game,) = notation.read_games(head + "19. a1b1 d10e9 *\n")
    assert game.problems == [] and [m.uci for m in game.moves] == ["a1b1", "d10e9"]
    (game,) = notation.read_games(head + "19. a1b1 *\n")
    assert [(p.code, p.move) for p in game.problems] == [("ambiguous-move", "a1b1")]
    assert sorted(game.problems[0].candidates) == ["a1b1", "a2b2"]
