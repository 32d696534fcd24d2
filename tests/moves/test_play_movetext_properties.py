"""Properties of ``play``'s move lists (hypothesis draws the game; derandomized under
``make test``):

- a game's moves written as SAN movetext (numbered ``1.``, a ``N...`` after a break, a
  result last) read back as the same moves (``position_args.movetext_moves``);
- a Xiangqi game played in UCI from an engine's point of view (ranks 1-10) and the same
  game in ICCS (ranks 0-9) reach the same position whenever one of its moves settles the
  notation (``notation.playing.play_moves``), and never a different one.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from notation.cli.position_args import movetext_moves
from notation.move_options import MoveNotation
from notation.moves import write_move
from notation.moves.coordinates import settled_notation
from notation.playing import open_position, play_moves


def _playout(variant: str, seed: int, plies: int, notation: MoveNotation) -> list[str]:
    chooser = random.Random(seed)
    position = open_position(None, variant)
    moves = []
    for _ in range(plies):
        legal = position.legal_moves()
        if not legal or position.outcome() is not None:
            break
        move = chooser.choice(legal)
        moves.append(write_move(position, move, notation))
        position = position.play_legal(move)
    return moves


@settings(max_examples=examples(20))
@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=0, max_value=60),
       st.sampled_from(["1-0", "0-1", "1/2-1/2", "*", None]), st.integers(min_value=0, max_value=60))
def test_numbered_movetext_reads_back_as_its_moves(seed: int, plies: int, result: str | None, brk: int) -> None:
    moves = _playout("standard", seed, plies, MoveNotation.SAN)
    words: list[str] = []
    for ply, move in enumerate(moves):
        if ply % 2 == 0:
            words.append(f"{ply // 2 + 1}.")
        elif ply == brk:
            words.append(f"{ply // 2 + 1}...")
        words.append(move)
    text = " ".join(words + ([result] if result else []))
    assert movetext_moves([text]) == (moves, None)
    assert movetext_moves(text.split()) == (moves, None)


@pytest.mark.slow
@settings(max_examples=examples(15))
@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=1, max_value=60))
def test_xiangqi_uci_and_iccs_lists_agree(seed: int, plies: int) -> None:
    uci = _playout("xiangqi", seed, plies, MoveNotation.UCI)
    position = open_position(None, "xiangqi")
    iccs = []
    for text in uci:  # the same moves, each written in ICCS
        chosen = next(m for m in position.legal_moves() if write_move(position, m, MoveNotation.UCI) == text)
        iccs.append(write_move(position, chosen, MoveNotation.ICCS))
        position = position.play_legal(chosen)
    by_uci, by_iccs = play_moves(None, "xiangqi", uci), play_moves(None, "xiangqi", iccs)
    if settled_notation(uci) is not None:
        assert by_uci.ok and by_iccs.ok and by_uci.fen == by_iccs.fen
    for answer in (by_uci, by_iccs):  # unsettled, a move may be ambiguous: refused, never misread
        assert answer.ok or [e.code for e in answer.errors] == ["ambiguous-move"]
    if by_uci.ok and by_iccs.ok:
        assert by_uci.fen == by_iccs.fen == play_moves(None, "xiangqi", uci, notation="uci").fen
