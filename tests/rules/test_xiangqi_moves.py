"""Xiangqi's moves and attacks (notation/rules/xiangqi_moves.py): a table of the rules that
block pieces (horse legs, elephant eyes, cannon screens, palaces, the river) and the
property that the fast ``attackers`` finds exactly the pieces whose targets hold the point."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from notation.fen.reader import read_fen
from notation.rules.xiangqi_moves import attackers, targets
from notation.variants import find_variant

XIANGQI = find_variant("xiangqi")
GEOMETRY = XIANGQI.geometry


def _names(squares: list[int]) -> list[str]:
    return sorted(GEOMETRY.square_name(sq) for sq in squares)


# (placement, square of the piece, capture?, the points it reaches)
TABLE = [
    ("9/9/9/9/9/9/9/9/9/1N7", "b1", True, ["a3", "c3", "d2"]),
    ("9/9/9/9/9/9/9/9/1P7/1N7", "b1", True, ["d2"]),  # leg b2 blocked: a3 and c3 gone
    ("9/9/9/9/9/9/9/9/9/1NP6", "b1", True, ["a3", "c3"]),  # leg c1 blocked: d2 gone
    ("9/9/9/9/9/9/9/9/9/2B6", "c1", True, ["a3", "e3"]),
    ("9/9/9/9/9/9/9/9/3P5/2B6", "c1", True, ["a3"]),  # eye d2 blocked
    ("9/9/9/9/9/2B6/9/9/9/9", "c5", True, ["a3", "e3"]),  # never across the river
    ("9/9/9/9/9/9/9/9/9/3A5", "d1", True, ["e2"]),  # stays in the palace
    ("9/9/9/9/9/9/9/9/9/2A6", "c1", True, []),  # outside its palace: no moves
    ("9/9/9/9/9/9/9/9/9/3K5", "d1", True, ["d2", "e1"]),
    ("9/9/9/9/9/9/P8/9/9/9", "a4", True, ["a5"]),  # own side: forwards only
    ("9/9/9/9/1P7/9/9/9/9/9", "b6", True, ["a6", "b7", "c6"]),  # across: sideways too
    ("9/9/9/9/1p7/9/9/9/9/9", "b6", True, ["b5"]),  # black moves down
    ("9/9/9/4p4/9/9/9/4P4/9/4C4", "e1", True, ["e7"]),  # captures over one screen (e3)
    ("9/9/9/4p4/9/9/9/4P4/9/4C4", "e1", False, ["a1", "b1", "c1", "d1", "e2", "f1", "g1", "h1", "i1"]),
    ("9/9/9/9/9/9/9/4P4/9/4R4", "e1", True, ["a1", "b1", "c1", "d1", "e2", "e3", "f1", "g1", "h1", "i1"]),
]


@pytest.mark.parametrize(("placement", "square", "capture", "expected"), TABLE)
def test_targets(placement, square, capture, expected):
    cells = read_fen(f"{placement} w - - 0 1", XIANGQI).setup.cells
    assert _names(targets(cells, GEOMETRY, XIANGQI, GEOMETRY.parse_square(square), capture=capture)) == expected


@st.composite
def boards(draw: st.DrawFn) -> str:
    letters = "." * 30 + XIANGQI.piece_letters + XIANGQI.piece_letters.upper()
    return "".join(draw(st.lists(st.sampled_from(letters), min_size=GEOMETRY.size, max_size=GEOMETRY.size)))


@pytest.mark.slow
@given(boards(), st.integers(0, 89), st.booleans())
def test_attackers_are_the_pieces_whose_targets_hold_the_point(cells, target, red):
    slow = [
        sq for sq, letter in enumerate(cells)
        if letter != "." and letter.isupper() == red
        and target in targets(cells, GEOMETRY, XIANGQI, sq, capture=True)
    ]
    assert attackers(cells, GEOMETRY, XIANGQI, target, red) == slow
