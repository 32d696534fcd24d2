"""``Setup`` keeps what it was given and refuses every change, in both builds.

``Setup.__init__`` writes its attributes one way when compiled (plain assignments, which
mypyc makes direct writes past ``__setattr__``) and another when interpreted (the slot
descriptors): ``notation.setup.COMPILED`` chooses, and must say which build this is.
"""

from __future__ import annotations

import os
import pickle

import pytest
from test_compiled_build import compiled

from notation import Pockets, Setup
from notation.geometry import Geometry
from notation.setup import _SETUP_FIELDS, COMPILED

FIELDS = {
    "turn": "b",
    "castling": frozenset({0, 63}),
    "ep_square": 20,
    "halfmove": 7,
    "fullmove": 31,
    "promoted": frozenset({5}),
    "pockets": Pockets("qp", "n"),
    "remaining_checks": (2, 1),
    "geometry": Geometry(8, 8),
    "bombs": (3, None),
}
CELLS = "RNBQKBNR" + "PPPP.PPP" + "." * 32 + "pppppppp" + "rnbqkbnr"


def test_compiled_says_which_build_this_is():
    assert COMPILED is compiled("notation.setup")
    if os.environ.get("NOTATION_PURE") == "1":
        assert not COMPILED


@pytest.mark.parametrize("how", ["cells", "board"])
def test_every_field_is_kept_as_given(how):
    if how == "cells":
        setup = Setup(cells=CELLS, **FIELDS)
    else:
        setup = Setup(tuple(None if cell == "." else cell for cell in CELLS), **FIELDS)
    assert setup.cells == CELLS
    assert setup.board[0] == "R" and setup.board[12] is None
    for name in _SETUP_FIELDS:
        assert getattr(setup, name) == FIELDS[name], name
    # castling and promoted are frozen whatever set type they came as
    loose = Setup(cells=CELLS, castling={7}, promoted=[5])
    assert type(loose.castling) is frozenset and type(loose.promoted) is frozenset
    assert loose.castling == {7} and loose.promoted == {5}


@pytest.mark.parametrize("name", ["cells", *_SETUP_FIELDS, "_board"])
def test_no_field_can_be_changed_after_construction(name):
    setup = Setup(cells=CELLS, **FIELDS)
    before = getattr(setup, name)
    with pytest.raises(AttributeError, match="immutable"):
        setattr(setup, name, None)
    with pytest.raises(AttributeError):
        delattr(setup, name)
    assert getattr(setup, name) == before


def test_defaults_and_copies_round_trip():
    setup = Setup(cells="." * 64)
    assert (setup.turn, setup.castling, setup.ep_square, setup.halfmove, setup.fullmove) == ("w", set(), None, 0, 1)
    assert (setup.promoted, setup.pockets, setup.remaining_checks, setup.bombs) == (set(), None, None, None)
    full = Setup(cells=CELLS, **FIELDS)
    assert pickle.loads(pickle.dumps(full)) == full
    assert full.with_changes(turn="w").turn == "w" and full.turn == "b"


@pytest.mark.parametrize(
    ("board", "square", "held"),
    [
        ([1] + [None] * 63, "a1", "1"),
        ([None] * 63 + ["KK"], "h8", "'KK'"),
        ([None] * 10 + [b"K"] + [None] * 53, "c2", "b'K'"),
        ([None] * 20 + ["."] + [None] * 43, "e3", "'.'"),
    ],
)
def test_a_bad_square_is_named_in_both_builds(board, square, held):
    # Compiled, the board's items were once type-checked on the way in: a TypeError that
    # named no square, where the interpreted build said which square held what.
    with pytest.raises(ValueError, match=f"square {square} holds {held}: expected one FEN letter or None"):
        Setup(board)
