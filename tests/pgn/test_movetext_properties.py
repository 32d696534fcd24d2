"""Properties of reading and rewriting moves: checking never changes a byte of any movetext,
and a game played by random legal moves, written in any notation with any decoration,
comes back as the same moves after a SAN rewrite."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from notation.game import start_position
from notation.move_options import MoveNotation
from notation.moves import write_move
from notation.pgn.movetext import MOVE, movetext_start, scan
from notation.pgn.normalize import NormalizeOptions, normalize_text
from notation.pgn.splitter import iter_games

HEADER = '[Event "property"]\n[Result "*"]\n'
# Codes that keep a game from being rewritten (the splitter's, such as pgn-missing-result, do not).
MOVE_ERRORS = {"bad-move-syntax", "illegal-move", "ambiguous-move", "game-over", "move-after-end",
               "pgn-unbalanced-variation", "pgn-misplaced-variation", "pgn-movetext-too-long", "pgn-movetext-too-deep"}
PIECES = ["1.", "12...", "e4", "e5", "Nf3", "Nc6", "O-O", "0-0", "exd5", "Qxh1", "e8=Q", "N@f3", "P*e4", "--", "Z0",
          "(", ")", "{a comment}", "{[%clk 0:01:00]}", "; rest of line\n", "\n% escape\n", "$1", "!?", "+-", "*", "1-0",
          "1/2-1/2", "g1f3", "Ng1-f3", "hello", "}", "{", "e4!!", " ", "\n", "\r\n", "\t"]
movetexts = st.lists(st.sampled_from(PIECES), max_size=40).map(" ".join) | st.text(max_size=80)


@pytest.mark.slow
@settings(max_examples=examples(150))
@given(movetexts)
def test_checking_any_movetext_changes_no_byte(movetext):
    text = HEADER + "\n" + movetext
    out, _, _ = normalize_text(text, NormalizeOptions.create(moves="check"))
    assert out == text
    keep, _, _ = normalize_text(text, NormalizeOptions.create())
    assert keep == text


@pytest.mark.slow
@settings(max_examples=examples(150))
@given(movetexts)
def test_a_rewrite_keeps_every_byte_but_the_moves(movetext):
    """Game by game (a result ends a game's movetext: text after it is the next game), a game
    with a move error comes out as it went in; any other keeps every token but its moves."""
    text = HEADER + "\n" + movetext
    out, _, report = normalize_text(text, NormalizeOptions.create(moves="uci"))
    refused = {entry["game"] for entry in report for p in entry["errors"] if p["code"] in MOVE_ERRORS}
    games_in, games_out = list(iter_games(text)), list(iter_games(out))
    assert [g.number for g in games_in] == [g.number for g in games_out]
    for game_in, game_out in zip(games_in, games_out, strict=True):
        old_text, new_text = game_in.text, game_out.text
        if game_in.number in refused:
            assert new_text == old_text
            continue
        before = scan(old_text, movetext_start(old_text)).tokens
        after = scan(new_text, movetext_start(new_text)).tokens
        assert [t.kind for t in before] == [t.kind for t in after]
        for old, new in zip(before, after, strict=True):
            if old.kind is not MOVE:
                assert old_text[old.start:old.end] == new_text[new.start:new.end]


VARIANTS = ["standard", "crazyhouse", "atomic", "kingofthehill", "threecheck", "antichess", "horde", "racingkings"]
NOTATIONS = [MoveNotation.SAN, MoveNotation.LAN, MoveNotation.UCI]


def _random_game(rng: random.Random, variant: str) -> tuple[str, list[str]]:
    """A movetext of random legal moves in random notations, with move numbers, comments,
    NAGs and a variation here and there, and the moves in UCI in token order."""
    position = start_position(variant)
    parts: list[str] = []
    uci: list[str] = []
    for ply in range(rng.randint(0, 40)):
        moves = position.legal_moves()
        if not moves:
            break
        move = rng.choice(moves)
        if ply % 2 == 0 or rng.random() < 0.2:
            parts.append(f"{ply // 2 + 1}{'.' if ply % 2 == 0 else '...'}")
        parts.append(write_move(position, move, rng.choice(NOTATIONS)))
        uci.append(write_move(position, move, MoveNotation.UCI))
        roll = rng.random()
        if roll < 0.1:
            parts.append(rng.choice(["{a comment}", "$1", "!?", "{[%clk 0:00:10]}"]))
        elif roll < 0.2 and len(moves) > 1:  # a variation replacing this move
            other = rng.choice([m for m in moves if m != move])
            after = position.play(other)
            parts += ["(", write_move(position, other, rng.choice(NOTATIONS))]
            uci.append(write_move(position, other, MoveNotation.UCI))
            follow = after.legal_moves()
            if follow:
                reply = rng.choice(follow)
                parts.append(write_move(after, reply, rng.choice(NOTATIONS)))
                uci.append(write_move(after, reply, MoveNotation.UCI))
            parts.append(")")
        position = position.play(move)
    parts.append("*")
    return " ".join(parts), uci


def _uci_moves(text: str) -> list[str]:
    out, _, report = normalize_text(text, NormalizeOptions.create(moves="uci"))
    assert not any(entry["errors"] for entry in report), report
    return [out[t.start:t.end] for t in scan(out, movetext_start(out)).tokens if t.kind is MOVE]


@pytest.mark.slow
@settings(max_examples=examples(40))
@given(st.integers(0, 2**32 - 1), st.sampled_from(VARIANTS))
def test_a_san_rewrite_of_random_legal_games_reads_back_to_the_same_moves(seed, variant):
    movetext, uci = _random_game(random.Random(seed), variant)
    text = f'[Event "random"]\n[Variant "{variant}"]\n[Result "*"]\n\n{movetext}\n'
    san, _, report = normalize_text(text, NormalizeOptions.create(moves="san"))
    assert not any(entry["errors"] for entry in report), report
    assert _uci_moves(san) == uci
    again, summary, _ = normalize_text(san, NormalizeOptions.create(moves="san"))
    assert again == san and summary.changed == 0
