"""Chess-family moves read from text (fixtures/moves/chess/readings.json): each lenient
reading gives the right move and its warning codes; each bad move its error code, with the
move and the position before it in the problem."""

from __future__ import annotations

import json
from typing import Any

import pytest
from paths import ROOT

from notation.errors import MoveError
from notation.move_options import MoveNotation
from notation.moves import read_move, write_move
from notation.playing import open_position

TABLE = json.loads((ROOT / "fixtures" / "moves" / "chess" / "readings.json").read_text())


def _id(row: dict[str, Any]) -> str:
    return f"{row['variant']}:{row['move']}"


@pytest.mark.parametrize("row", TABLE["readings"], ids=_id)
def test_reading(row: dict[str, Any]) -> None:
    position = open_position(row["fen"], row["variant"])
    notation = MoveNotation(row["notation"]) if "notation" in row else None
    read = read_move(position, row["move"], notation)
    assert write_move(position, read.move, MoveNotation.UCI) == row["uci"]
    assert sorted(w.code for w in read.warnings) == sorted(row["warnings"])
    for warning in read.warnings:
        assert row["move"] in warning.message


@pytest.mark.parametrize("row", TABLE["errors"], ids=_id)
def test_error(row: dict[str, Any]) -> None:
    position = open_position(row["fen"], row["variant"])
    with pytest.raises(MoveError) as caught:
        read_move(position, row["move"])
    problem = caught.value.problems[0]
    assert problem.code == row["code"]
    assert problem.extra["move"] == row["move"]
    assert "/" in problem.extra["fen"]
    if row["code"] == "ambiguous-move":
        assert len(problem.extra["candidates"]) >= 2


def test_every_move_of_each_notation_reads_back() -> None:
    for fen, variant in (
        ("r3k2r/1P6/8/8/8/8/6p1/R3K2R w KQkq - 0 1", "standard"),
        ("r3k2r/p7/8/8/8/8/8/R3K2R[QNp] w KQkq - 0 1", "crazyhouse"),
    ):
        position = open_position(fen, variant)
        for move in position.legal_moves():
            for notation in (MoveNotation.SAN, MoveNotation.LAN, MoveNotation.UCI):
                text = write_move(position, move, notation)
                read = read_move(position, text, notation)
                assert read.move == move and not read.warnings, text
