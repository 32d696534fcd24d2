"""The small public API around Setup and the raising read, as README users meet it."""

from __future__ import annotations

import pickle

import pytest

import notation
from notation import IllegalSetupError, Setup
from notation.squares import parse_square

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def test_read_legal_returns_the_read_for_a_legal_setup():
    read = notation.read_legal(START)
    assert read.setup.piece_at(parse_square("e1")) == "K"


def test_read_legal_raises_with_every_problem():
    with pytest.raises(IllegalSetupError) as caught:
        notation.read_legal("4k3/8/8/8/8/8/8/P3K2P w Q - 0 1")
    codes = [p.code for p in caught.value.problems]
    assert codes.count("pawns-on-backrank") == 1 and "bad-castling-rights" in codes
    assert caught.value.code == codes[0]


def test_read_legal_lets_accepted_codes_through():
    read = notation.read_legal("4k3/8/8/8/8/8/8/4K3 w Q - 0 1", accept={"bad-castling-rights"})
    assert read.setup.castling == {parse_square("a1")}


def test_setup_accessors_and_copies():
    setup = notation.read_fen(START).setup
    assert setup.squares_of("N") == [parse_square("b1"), parse_square("g1")]
    assert setup.piece_at(parse_square("e4")) is None
    moved = setup.with_changes(turn="b", board=setup.board)
    assert moved != setup and moved.turn == "b" and moved.cells == setup.cells
    with pytest.raises(TypeError):
        setup.with_changes(colour="b")
    with pytest.raises(AttributeError):
        setup.turn = "b"  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(setup)) == setup
    assert hash(setup) == hash(notation.read_fen(START).setup)


def test_setup_refuses_boards_it_cannot_hold():
    assert Setup.empty().cells == "." * 64
    with pytest.raises(ValueError):
        Setup(board=(None,) * 63)
    with pytest.raises(ValueError):
        Setup(board=("é",) + (None,) * 63)
    with pytest.raises(ValueError):
        Setup(cells="x" * 10)
    with pytest.raises(TypeError):
        Setup()


def test_every_public_name_is_there_and_is_its_module_s_own():
    """``notation`` imports each public name on first use (start-up): every name of
    ``__all__`` is listed by dir() before it is used, and resolves to the very object its
    module defines."""
    import importlib
    import subprocess
    import sys

    listed = subprocess.run(
        [sys.executable, "-c", "import notation; print(sorted(set(notation.__all__) - set(dir(notation))))"],
        capture_output=True, text=True, timeout=60, check=True,
    )
    assert listed.stdout.strip() == "[]"  # nothing imported yet, all listed
    for name in notation.__all__:
        value = getattr(notation, name)
        if name != "profile":
            assert value is getattr(importlib.import_module(notation._EXPORTS[name]), name)
    assert set(notation.__all__) == set(notation._EXPORTS) | {"profile"}


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'read_pgn'"):
        notation.read_pgn  # noqa: B018
    with pytest.raises(ImportError):
        from notation import read_pgn  # noqa: F401
