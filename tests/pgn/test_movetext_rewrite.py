"""Rewriting moves: the rewrite table, round trips, byte for byte where nothing changes, the
writer's shortcut, and ``--jobs`` giving the bytes of one process."""

from __future__ import annotations

import json

import pytest
from paths import ROOT

from notation.errors import MoveError
from notation.move_options import MoveNotation
from notation.moves import read_move
from notation.moves.chess import PawnDrop
from notation.moves.chess import write_move as write_chess_move
from notation.pgn.movetext import MOVE, movetext_start, scan
from notation.pgn.movewrite import MoveWriter
from notation.pgn.normalize import MovesOption, NormalizeOptions, normalize_text
from notation.playing import open_position

FIXTURES = ROOT / "fixtures" / "pgn" / "movetext"
CASES = json.loads((FIXTURES / "rewrites.json").read_text(encoding="utf-8"))["cases"]
READINGS = json.loads((ROOT / "fixtures" / "moves" / "chess" / "readings.json").read_text(encoding="utf-8"))


def _codes(report: list[dict]) -> list[str]:
    return sorted({p["code"] for entry in report for kind in ("errors", "warnings") for p in entry.get(kind, [])})


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_rewrite_table(case):
    text = "\n".join(case["pgn"])
    out, summary, report = normalize_text(text, NormalizeOptions.create(case["profile"], moves=case["moves"]))
    expected = text if case["output"] == "same" else "\n".join(case["output"])
    assert out == expected
    assert _codes(report) == case["codes"]
    assert summary.changed == (out != text)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_rewriting_twice_changes_nothing_the_second_time(case):
    options = NormalizeOptions.create(case["profile"], moves=case["moves"])
    once, _, _ = normalize_text("\n".join(case["pgn"]), options)
    twice, summary, _ = normalize_text(once, options)
    assert twice == once


def _moves_of(text: str) -> list[str]:
    start = movetext_start(text)
    return [text[t.start:t.end] for t in scan(text, start).tokens if t.kind is MOVE]


SAN_GAMES = [c for c in CASES if c["moves"] == "san" and c["output"] == "same"] + [
    c for c in CASES if c["name"].startswith("comments, NAGs")
]


@pytest.mark.parametrize("case", SAN_GAMES, ids=[c["name"] for c in SAN_GAMES])
@pytest.mark.parametrize("via", ["uci", "lan"])
def test_san_to_another_notation_and_back_is_the_same_game(case, via):
    text = "\n".join(case["pgn"])
    there, _, report = normalize_text(text, NormalizeOptions.create(case["profile"], moves=via))
    assert not [p for entry in report for p in entry["errors"]]
    back, _, _ = normalize_text(there, NormalizeOptions.create(case["profile"], moves="san"))
    assert back == text
    assert len(_moves_of(there)) == len(_moves_of(text))


def test_only_the_moves_change():
    case = next(c for c in CASES if c["name"].startswith("comments, NAGs"))
    text = "\n".join(case["pgn"])
    out, _, _ = normalize_text(text, NormalizeOptions.create(moves="uci"))
    begin_in, begin_out = movetext_start(text), movetext_start(out)
    tokens_in = scan(text, begin_in).tokens
    tokens_out = scan(out, begin_out).tokens
    assert [t.kind for t in tokens_in] == [t.kind for t in tokens_out]
    for before, after in zip(tokens_in, tokens_out, strict=True):
        if before.kind is not MOVE:
            assert text[before.start:before.end] == out[after.start:after.end]
    assert text[:begin_in] == out[:begin_out]


def test_keep_is_todays_behaviour_byte_for_byte():
    for case in CASES:
        text = "\n".join(case["pgn"])
        out, _, report = normalize_text(text, NormalizeOptions.create(case["profile"]))
        keep, _, keep_report = normalize_text(text, NormalizeOptions.create(case["profile"], moves=MovesOption.KEEP))
        assert (out, report) == (keep, keep_report)
        assert out[movetext_start(out):] == text[movetext_start(text):]
        assert not [p for entry in report for kind in ("errors", "warnings") for p in entry.get(kind, [])
                    if p["code"] in ("illegal-move", "castling-with-zeros", "notation-unavailable")]


def test_a_game_whose_moves_need_no_change_is_byte_for_byte():
    text = ('[Event "x"]\r\n[Result "1-0"]\r\n\r\n1. e4 {c} e5!? $1 2. Nf3 (2. f4 exf4) Nc6 ; note\r\n'
            "% escape\r\n3. Bb5 a6 1-0\r\n\r\n")
    out, summary, _ = normalize_text(text, NormalizeOptions.create(moves="san"))
    assert out == text and summary.unchanged == 1 and summary.changed == 0


# A move token of the scanner never holds a glyph (e4!? is e4, then !?).
@pytest.mark.parametrize("reading", [r for r in READINGS["readings"] if "uci" in r and not set("!?") & set(r["move"])],
                         ids=lambda r: f"{r['variant']}-{r['move']}")
def test_the_writer_keeps_a_clean_san_reading_only_where_it_is_what_it_writes(reading):
    """The writer's shortcut (a SAN reading without warnings is kept as written) gives what
    writing the move gives, on every reading of the move layer's table."""
    position = open_position(reading.get("fen"), reading["variant"])
    try:
        read = read_move(position, reading["move"], MoveNotation.SAN)
    except MoveError:
        return
    # a novelty mark or evaluation sign glued on is written apart after the move, as its NAG
    annotations = {w.extra["annotation"] for w in read.warnings if "annotation" in w.extra}
    assert len(annotations) <= 1
    for drop in PawnDrop:
        written = write_chess_move(position, read.move, MoveNotation.SAN, pawn_drop=drop)
        written += "".join(f" {a}" for a in annotations)
        # the check marks are the writer's own: a reading without warnings had them right
        assert MoveWriter(MoveNotation.SAN, drop).write(position, read, reading["move"], True) == written


@pytest.mark.parametrize("reading", [r for r in READINGS["readings"] if "uci" in r],
                         ids=lambda r: f"{r['variant']}-{r['move']}")
def test_a_played_move_is_written_as_the_move_layer_writes_it(reading):
    """Given the position a move leads to (the walk has played it), the writer skips the
    legality check and takes the check mark from that position: the same text as
    ``write_move`` in every notation, on every reading of the move layer's table."""
    position = open_position(reading.get("fen"), reading["variant"])
    try:
        read = read_move(position, reading["move"], MoveNotation.SAN)
    except MoveError:
        return
    after = position.play(read.move)
    for notation in (MoveNotation.SAN, MoveNotation.LAN, MoveNotation.UCI):
        for drop in PawnDrop:
            writer = MoveWriter(notation, drop)
            assert writer.move_text(position, read, "", False, after) == writer.move_text(position, read, "", False)
            assert writer.move_text(position, read, "", False, after) == write_chess_move(
                position, read.move, notation, pawn_drop=drop)
