"""What the library returns and raises crosses process boundaries: pickled, copied, and
sent between real worker processes, in both builds.

Users fan FENs out to ``multiprocessing`` or ``concurrent.futures`` pools and Dask
workers, which pickle the arguments, the results and any exception. Compiled (mypyc),
classes that are frozen dataclasses or have their own ``__init__`` used to fail there
(a Crazyhouse ``Setup`` through its ``Pockets``, ``Dialect``, ``ConvertResult``), and the
library's exceptions failed in both builds (their ``__init__`` does not take the message
that the default unpickling passes): each now says how it is rebuilt. The PGN layer's
values go to ``--jobs`` and Dask workers and come back the same way.
"""

from __future__ import annotations

import copy
import pickle
from concurrent.futures import ProcessPoolExecutor

import pytest

from notation import (
    NotationError,
    Pockets,
    Setup,
    UnknownVariantError,
    convert_fen,
    find_variant,
    read_fen,
    read_legal,
    validate_fen,
    write_fen,
)
from notation.errors import FenSyntaxError, IllegalSetupError, Problem
from notation.game.outcome import EndReason, Outcome
from notation.geometry import Geometry
from notation.operations import view_fen
from notation.pgn.games import Limits, PgnProblem
from notation.pgn.normalize import GameResult, NormalizeOptions, Summary
from notation.pgn.tags import Tag
from notation.views import Viewer

CRAZYHOUSE = "r1bqk2r/pppp1ppp/2n2n2/4p3/1b2P3/2NP4/PPP2PPP/R1BQKBNR~[Qn] w KQkq - 0 1"
THREE_CHECK = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2 +1+0"


def values() -> dict[str, object]:
    """One of each public value the library hands out, the richer forms included."""
    read = read_fen(CRAZYHOUSE, "crazyhouse")
    return {
        "ReadResult": read,
        "Setup with pockets and marks": read.setup,
        "Pockets": Pockets("qrp", "nn"),
        "Dialect": read.dialect,
        "Dialect of three-check": read_fen(THREE_CHECK, "threecheck").dialect,
        "Setup on 9x10": read_fen(find_variant("xiangqi").start_fen, "xiangqi").setup,
        "Setup with bombs": Setup(cells="." * 64, bombs=(4, 60)),
        "Geometry": Geometry(9, 9),
        "WriteResult": write_fen(read.setup, read.variant),
        "ConvertResult": convert_fen(CRAZYHOUSE, "crazyhouse"),
        "ConvertResult, refused": convert_fen("8/8/8/8/8/8/8/8 w - - 0 1"),
        "ConvertResult, unreadable": convert_fen("not a fen"),
        "ValidateResult": validate_fen(THREE_CHECK, "threecheck"),
        "ValidateResult, invalid": validate_fen("4k3/8/8/8/8/8/8/4K2K w - - 0 1"),
        "ViewResult": view_fen(find_variant("darkchess").start_fen, "darkchess", Viewer.WHITE),
        "Problem": Problem("bad-input", "line 3: not JSON", field="placement", column=4, extra={"why": [1, 2]}),
        "Variant": find_variant("crazyhouse"),
        "Limits": Limits(max_game_chars=1000, max_comment_chars=100, max_tags=10),
        "Outcome": Outcome("b", EndReason.CHECKMATE),
        "PgnProblem": PgnProblem("pgn-tag-syntax", "bad tag", 3, column=2, tag="FEN"),
        "GameResult": GameResult(1, 0, 1, "1. e4 *\n", changed=True, report=[{"line": 1}], codes=["x"]),
        "Tag": Tag("FEN", "8/8/8/8/8/8/8/8 w - - 0 1", 3, 1, 2, 0, 33, 6, 31, 40, 34),
        "Summary": Summary(games=2, changed=1, unchanged=1),
    }


def test_normalize_options_survive_pickling_for_the_workers():
    options = NormalizeOptions.create("lichess", moves="san", accept=["castling-rights"],
                                      aliases={"zh960": "crazyhouse"})
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(options, protocol))
        assert back.with_changes(registry=options.registry) == options  # a registry compares by identity
        assert back.registry.find("zh960") == options.registry.find("zh960")


def raised(text: str, variant: str = "standard") -> NotationError:
    try:
        read_legal(text, variant)
    except NotationError as exc:
        return exc
    raise AssertionError(f"{text!r} was accepted")


def errors() -> dict[str, NotationError]:
    return {
        "FenSyntaxError": raised("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"),
        "UnknownVariantError": raised("8/8/8/8/8/8/8/8 w - - 0 1", "crazyhous"),
        "IllegalSetupError": raised("8/8/8/8/8/8/8/8 w - - 0 1"),
    }


@pytest.mark.parametrize("name", sorted(values()))
def test_values_survive_pickling_and_copying(name):
    value = values()[name]
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(value, protocol)) == value, protocol
    assert copy.copy(value) == value
    assert copy.deepcopy(value) == value


@pytest.mark.parametrize("name", sorted(errors()))
def test_errors_survive_pickling_with_their_problems(name):
    error = errors()[name]
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(error, protocol))
        assert type(back) is type(error)
        assert str(back) == str(error) and back.args == error.args
        assert back.problems == error.problems and back.code == error.code
        assert vars(back) == vars(error)


def test_the_attributes_of_each_error_come_back():
    syntax = pickle.loads(pickle.dumps(errors()["FenSyntaxError"]))
    assert isinstance(syntax, FenSyntaxError)
    assert (syntax.field, syntax.column, syntax.expected) == ("turn", 45, "w or b")
    unknown = pickle.loads(pickle.dumps(errors()["UnknownVariantError"]))
    assert isinstance(unknown, UnknownVariantError)
    assert unknown.name == "crazyhous" and "Crazyhouse" in unknown.suggestions
    illegal = pickle.loads(pickle.dumps(errors()["IllegalSetupError"]))
    assert isinstance(illegal, IllegalSetupError)
    assert [p.code for p in illegal.problems] == ["empty", "missing-king", "missing-king"]


def _read_in_worker(fen: str) -> object:
    return read_fen(fen, "crazyhouse")


def test_results_and_errors_cross_a_process_pool():
    fens = [CRAZYHOUSE, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"]
    with ProcessPoolExecutor(max_workers=2) as pool:
        assert list(pool.map(_read_in_worker, fens)) == [read_fen(fen, "crazyhouse") for fen in fens]
        assert list(pool.map(convert_fen, fens, ["crazyhouse"] * 2)) == [
            convert_fen(fen, "crazyhouse") for fen in fens
        ]
        failing = pool.submit(_read_in_worker, "rnbqkbnr/pppppppp/8 w")
        with pytest.raises(FenSyntaxError) as caught:
            failing.result(timeout=60)
    assert caught.value.problems[0].code == "fen-syntax"
    assert caught.value.field == "placement"
