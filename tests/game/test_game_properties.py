"""Properties of every variant's moves, on positions reached by random legal moves from the
start (hypothesis draws the variant and the moves; derandomized under ``make test``):

- every position reached by legal moves is a legal setup: its FEN, written and read back,
  validates with no error but a finished game's (the generator and the validator agree);
- every legal move, written in each notation of its family, reads back as itself with no
  warning, and the moves come in one order whatever the notation;
- playing a move and writing the FEN is the same as reading that FEN and starting there.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from notation import read_fen, validate_fen
from notation.fen.writer import write_fen
from notation.game import GamePosition, start_position
from notation.game.chess.generate import pseudo_legal_moves
from notation.moves import notations_of, read_move, write_move
from notation.playing import open_position
from notation.validation import FINISHED_GAME_CODES
from notation.variants import DEFAULT_REGISTRY

VARIANTS = sorted(variant.key for variant in DEFAULT_REGISTRY)


def _fen(position: GamePosition) -> str:
    return write_fen(position.to_setup(), position.variant).fen


@pytest.mark.slow
@pytest.mark.parametrize("key", VARIANTS)
@settings(max_examples=examples(15))
@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=1, max_value=80))
def test_positions_reached_are_legal_and_every_notation_round_trips(key: str, seed: int, plies: int) -> None:
    # The moves are drawn from the seed (hypothesis draws the seed and the game's length):
    # long games, not the short lists a list strategy mostly draws.
    rng = random.Random(seed)
    position = start_position(key)
    for _ in range(plies):
        moves = position.legal_moves()
        if not moves:
            assert position.outcome() is not None
            break
        move = rng.choice(moves)
        for notation in notations_of(position.variant):
            text = write_move(position, move, notation)
            read = read_move(position, text, notation)
            assert read.move == move and not read.warnings, (key, notation, text)
        position = position.play(move)
        fen = _fen(position)
        verdict = validate_fen(fen, key)
        errors = [p.code for p in verdict.errors if p.code not in FINISHED_GAME_CODES]
        assert not errors, (key, fen, errors)
        again = open_position(fen, key)
        assert _fen(again) == fen
        assert sorted(again.legal_moves()) == sorted(position.legal_moves()), (key, fen)


@pytest.mark.parametrize("key", VARIANTS)
@settings(max_examples=examples(3))
@given(st.integers(min_value=0, max_value=10**6))
def test_moves_come_in_one_order_in_every_notation(key: str, seed: int) -> None:
    position = start_position(key)
    moves = position.legal_moves()
    if moves:
        position = position.play(moves[seed % len(moves)])
    legal = position.legal_moves()
    for notation in notations_of(position.variant):
        texts = [write_move(position, move, notation) for move in legal]
        assert len(set(texts)) == len(texts), (key, notation)
        assert [read_move(position, text, notation).move for text in texts] == legal


def test_every_variant_starts_and_reads_its_start() -> None:
    for key in VARIANTS:
        position = start_position(key)
        variant = DEFAULT_REGISTRY.find(key)
        assert _fen(position) == write_fen(read_fen(variant.start_fen, variant).setup, variant).fen
        assert position.legal_moves(), key


CHESS_FAMILY = sorted(variant.key for variant in DEFAULT_REGISTRY if variant.family.value == "chess")


@pytest.mark.slow
@pytest.mark.parametrize("key", CHESS_FAMILY)
@settings(max_examples=examples(3))
@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=1, max_value=60))
def test_one_pieces_moves_are_found_as_all_moves_find_them(key: str, seed: int, plies: int) -> None:
    # A move named in SAN or UCI is looked for among one kind of piece's moves, on a position
    # that has not generated the rest (a fresh one each time): the same moves, the same order.
    rng = random.Random(seed)
    position = start_position(key)
    for _ in range(plies):
        legal = position.legal_moves()
        if not legal:
            break
        fen = _fen(position)
        for move in legal:
            if move.kind.value not in ("normal", "en-passant"):
                continue
            kind = position.kind_at(move.origin)  # type: ignore[attr-defined]
            expected = [
                m for m in legal
                if m.target == move.target and m.kind.value in ("normal", "en-passant")
                and position.kind_at(m.origin) == kind  # type: ignore[attr-defined]
            ]
            fresh = open_position(fen, key)
            assert fresh.moves_of_kind_to(kind, move.target) == expected, (key, fen, move)  # type: ignore[attr-defined]
            assert open_position(fen, key).is_legal_move(move), (key, fen, move)  # type: ignore[attr-defined]
            for notation in notations_of(position.variant):
                text = write_move(open_position(fen, key), move, notation)
                assert read_move(open_position(fen, key), text, notation).move == move, (key, fen, text)
        fresh = open_position(fen, key)
        offered = list(pseudo_legal_moves(fresh))  # type: ignore[arg-type]
        for twist in fresh.rules.twists:  # type: ignore[attr-defined]
            offered += twist.extra_moves(fresh)
        for move in offered:
            assert open_position(fen, key).is_legal_move(move) == (move in legal), (key, fen, move)  # type: ignore[attr-defined]
        assert open_position(fen, key).count_legal() == len(legal), (key, fen)
        position = position.play(rng.choice(legal))


@pytest.mark.parametrize("key", CHESS_FAMILY)
@settings(max_examples=examples(4))
@given(st.integers(min_value=0, max_value=2**32))
def test_attackers_after_a_move_are_those_of_the_position_read_afresh(key: str, seed: int) -> None:
    # A position whose attack groups are known hands them on to the one a move leads to,
    # changed by the move (ChessPosition._carry_groups), where the next position would find
    # them again from its boards: every square's attackers, of both colours, must be those
    # the same position finds when read from its FEN.
    rng = random.Random(seed)
    position = start_position(key)
    for _ in range(80):
        legal = position.legal_moves()  # finds this position's attack groups, as reading a move does
        position.is_check()  # type: ignore[attr-defined]
        if not legal:
            break
        position = position.play(rng.choice(legal))
        fresh = open_position(_fen(position), key)
        occupied = position.occupied  # type: ignore[attr-defined]
        for by in (0, 1):
            for sq in range(64):
                expected = fresh.attackers(sq, by, occupied)  # type: ignore[attr-defined]
                assert position.attackers(sq, by, occupied) == expected, (key, _fen(position), sq, by)  # type: ignore[attr-defined]
