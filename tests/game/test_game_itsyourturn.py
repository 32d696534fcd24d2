"""The itsyourturn variants' moves, each rule from the itsyourturn rules page ("Chess
Variations"), with our own perft table (no oracle plays these variants; every count below
is explained by the rule beside it or by a smaller count it extends)."""

from __future__ import annotations

import pytest

from notation.game import EndReason, perft
from notation.moves import read_move
from notation.playing import open_position, play_moves

# (variant, FEN or None for the start, [perft 1, 2, 3]).
PERFT = [
    # Dark Chess: no check, but no king can be reached in three plies: the standard counts.
    ("dark", None, [20, 400, 8902]),
    # Screen Chess: 16 pieces placed on 32 squares of the own four ranks, pawns never on
    # the first rank: 5 kinds x 32 + pawns x 24 = 184. Black the same, less the king's
    # squares White's first piece attacks (no placing into check): 33,268 of 184^2 = 33,856.
    ("screen", None, [184, 33268]),
    # Crazy Screen: no restrictions, pawns on the first rank too: 6 kinds x 32 = 192; then
    # 36,276 of 192^2 = 36,864 (no placing into check). In the dark, check does not exist:
    # all 36,864.
    ("crazyscreen", None, [192, 36276]),
    ("darkcrazyscreen", None, [192, 36864]),
    # King's Corner, King's Fortress: standard moves from their arrays, no castling.
    ("kingscorner", None, [20, 400, 8964]),
    ("kingsfortress", None, [16, 256, 4692]),
    # itsyourturn Horde: Black's pawns never step twice (8 single steps for the front row).
    ("itsyourturnhorde", None, [16, 140, 2621]),
]


@pytest.mark.parametrize(("variant", "fen", "counts"), PERFT, ids=[row[0] for row in PERFT])
def test_perft(variant: str, fen: str | None, counts: list[int]) -> None:
    position = open_position(fen, variant)
    for depth, count in enumerate(counts, start=1):
        if count <= 200_000:
            assert perft(position, depth) == count


def test_dark_chess_allows_moving_into_check_and_ends_when_the_king_is_taken() -> None:
    # "A player can freely make a move that puts himself or herself in check."
    position = open_position("4k3/8/8/8/8/8/8/r3K3 w - - 0 1", "dark")
    assert read_move(position, "Kd1").move in position.legal_moves()
    played = play_moves("4k3/8/8/8/8/8/8/r3K3 w - - 0 1", "dark", ["Kd2", "Rd1", "Kxd1"])
    assert played.ok
    taken = play_moves("4k3/8/8/8/8/8/8/r3K3 w - - 0 1", "dark", ["Kd2", "Ra2", "Kc3", "Rc2", "Kb3", "Rc3"])
    assert taken.ok
    lost = play_moves("4k3/8/8/8/8/8/3K4/r7 b - - 0 1", "dark", ["Rd1", "Kc2", "Rd2", "Kxd2"])
    assert lost.ok and lost.outcome is None
    captured = play_moves("4k3/8/8/8/8/8/3K4/3r4 b - - 0 1", "dark", ["Rxd2"])
    assert captured.ok and captured.outcome == {"winner": "b", "reason": "royal-captured", "result": "0-1"}


def test_screen_placement_restrictions() -> None:
    # "Each Pawn must be placed on a different file, and Pawns may not be placed on the
    # first rank. Your Bishops must be placed on different colored squares."
    fen = "8/8/8/8/8/8/4P3/2B5[KQRRBNNPPPPPPPkqrrbbnnpppppppp] w - - 0 1"
    position = open_position(fen, "screen")
    texts = {m.drop + position.variant.geometry.square_name(m.target) for m in position.legal_moves()}
    assert "pe3" not in texts and "pe4" not in texts and "pa1" not in texts and "pa2" in texts
    assert "bd1" in texts and "be1" not in texts  # c1 is dark: the other bishop goes on light
    crazy = open_position(fen.replace("2B5", "2B5").replace("[KQRRBNN", "[KQRRBNN"), "crazyscreen")
    assert any(m.drop == "p" and m.target == 0 for m in crazy.legal_moves())


def test_no_piece_is_placed_into_check() -> None:
    # Black's king may not be placed where White's queen attacks it; in the dark it may.
    fen = "8/8/8/8/7Q/8/8/8[KRRBBNNPPPPPPPPkqrrbbnnpppppppp] b - - 0 1"
    squares = open_position(fen, "crazyscreen").variant.geometry.square_names
    kings = {squares[m.target] for m in open_position(fen, "crazyscreen").legal_moves() if m.drop == "k"}
    assert "h5" not in kings and "e7" not in kings and "g8" in kings
    dark = {squares[m.target] for m in open_position(fen, "darkcrazyscreen").legal_moves() if m.drop == "k"}
    assert "h5" in dark


def test_crazy_screen_pawn_on_the_first_rank_steps_once() -> None:
    # "If a pawn starts the game on the first rank, it can only move forward one space."
    position = open_position("4k3/pppppppp/8/8/8/8/8/P3K3 w - - 0 1", "crazyscreen")
    assert {position.variant.geometry.square_name(m.target) for m in position.legal_moves() if m.origin == 0} == {"a2"}


def test_bomb_detonation_is_a_whole_move() -> None:
    # "You can detonate this piece/bomb at any time ... which will destroy that piece and
    # all pieces in squares immediately adjacent"; "If your opponent's king is in one of
    # the detonated squares, then you win"; "If you blow up your own king ..., you lose".
    fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 a1-"
    played = play_moves(fen, "itsyourturnatomic", ["a1a1"])
    assert played.ok and played.fen == "4k3/8/8/8/8/8/8/4K3 b - - 1 1 -"
    near = play_moves("8/8/8/8/8/3qk3/8/3RK3 w - - 0 1 d1e3", "itsyourturnatomic", ["@@d1"])
    assert near.outcome == {"winner": "b", "reason": "royal-exploded", "result": "0-1"}
    win = play_moves("4k3/8/8/8/8/8/3r4/R1K5 b - - 0 1 a1d2", "itsyourturnatomic", ["@@d2"])
    assert win.outcome is not None and win.outcome["reason"] == EndReason.ROYAL_EXPLODED.value
    both = play_moves("8/8/8/8/8/8/3r4/2K1k3 b - - 0 1 -d2", "itsyourturnatomic", ["@@d2"])
    assert both.outcome == {"winner": None, "reason": "royal-exploded", "result": "1/2-1/2"}


def test_bomb_travels_with_its_piece_and_is_gone_when_taken() -> None:
    played = play_moves("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 a1-", "itsyourturnatomic", ["Ra5"])
    assert played.ok and played.fen is not None and played.fen.endswith(" a5-")
    taken = play_moves("4k3/8/8/r7/8/8/8/R3K3 w - - 0 1 a1a5", "itsyourturnatomic", ["Rxa5"])
    assert taken.ok and taken.fen is not None and taken.fen.endswith(" a5-")


def test_itsyourturn_horde_black_pawns_step_once() -> None:
    # "No Black pawn can move forward 2 spaces on its first move."
    position = open_position(None, "itsyourturnhorde")
    black = position.play(position.legal_moves()[0])
    assert all(abs(m.target - m.origin) in (7, 8, 9) for m in black.legal_moves())
