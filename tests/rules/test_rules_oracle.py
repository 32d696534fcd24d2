"""The rules core against python-chess (test-only oracle) on seeded random positions:
checkers, pins and the three en passant modes, in every lichess variant."""

from __future__ import annotations

import chess
import pytest
from validation_oracle import positions

from notation.options import EnPassantMode
from notation.rules.attack_view import attack_view_of
from notation.rules.en_passant import en_passant_square
from notation.rules.royal_attacks import pinned, pins

pytestmark = [pytest.mark.slow]

SEED = 7


@pytest.fixture(scope="module")
def legal_items():
    items = positions(SEED, 6000, mutate_share=0.3)
    return [item for item in items if item.board.status() == chess.STATUS_VALID]


def test_sample_has_en_passant_cases(legal_items):
    with_ep = [item for item in legal_items if item.board.ep_square is not None]
    assert len(with_ep) > 100
    assert any(item.board.has_legal_en_passant() for item in with_ep)


@pytest.mark.slow
def test_en_passant_modes_match(legal_items):
    for item in legal_items:
        board, setup, variant = item.board, item.setup, item.variant
        legal = board.ep_square if board.has_legal_en_passant() else None
        pseudo = board.ep_square if board.has_pseudo_legal_en_passant() else None
        where = (variant.key, board.fen(en_passant="fen"))
        assert en_passant_square(setup, variant, EnPassantMode.LEGAL) == legal, where
        assert en_passant_square(setup, variant, EnPassantMode.PSEUDO_LEGAL) == pseudo, where
        assert en_passant_square(setup, variant, EnPassantMode.ALWAYS) == board.ep_square


@pytest.mark.parametrize("key", ["standard", "chess960", "crazyhouse", "kingofthehill", "threecheck", "horde"])
def test_pins_match(legal_items, key):
    checked = 0
    for item in legal_items:
        if item.variant.key != key:
            continue
        view = attack_view_of(item.setup, item.variant)
        for colour, chess_colour in ((0, chess.WHITE), (1, chess.BLACK)):
            expected = 0
            for sq in chess.scan_forward(item.board.occupied_co[chess_colour]):
                if item.board.is_pinned(chess_colour, sq):
                    expected |= 1 << sq
            assert pinned(view, colour) == expected, item.board.fen()
            for sq, allowed in pins(view, colour).items():
                # Ours is the segment up to the pinner; python-chess gives the whole line.
                line = item.board.pin_mask(chess_colour, sq)
                assert allowed >> sq & 1 and not allowed & ~line, item.board.fen()
                assert allowed & item.board.occupied_co[not chess_colour], item.board.fen()
            checked += 1
    assert checked > 50
