"""The records ``check`` sends between processes (``--jobs`` workers, a Dask cluster's
workers) pickle to equal records, in either build.

Compiled, a class keeps no instance dictionary, so pickle's default (the class, then its
``__dict__``) cannot copy it: each record says how it is pickled (``__reduce__`` through its
``__init__``; mypyc's ``serializable`` for the problem logs), or stays a Python class where
it needs Python's own semantics (the paths not checked, the errors). The jobs and cluster
tests send these whole; this table names them one by one.
"""

from __future__ import annotations

import pickle

import pytest

from notation.check.judge import Finding
from notation.check.lines import Line, LineEnds, LineState
from notation.check.problem import ProblemLog, ReadCounts, Severity
from notation.check.runner import Summary
from notation.check.sources import FileKind, Skipped, Source, Unreadable
from notation.check.suppress import Suppression
from notation.errors import FenSyntaxError, UnknownVariantError
from notation.fen.profiles import WRITER_OPTIONS
from notation.inputs import CorruptInput, InputError


def _line_ends() -> LineEnds:
    ends = LineEnds()
    ends.feed(b"one\r\ntwo\r")
    return ends


RECORDS = {
    "Finding": Finding(Severity.ERROR, "fen-syntax", "a FEN of five fields", 12),
    "Line": Line(7, "1. e4 e5", LineState.REPLACED),
    "Source": Source("games/club.pgn", FileKind.PGN),
    "Source of standard input": Source("-", None, is_stdin=True),
    "Skipped": Skipped("notes.txt", "not a FEN, EPD or PGN file name"),
    "Unreadable": Unreadable("gone.pgn", "No such file or directory"),
    "Suppression": Suppression(3, 9, frozenset({"illegal-move"})),
    "Suppression of every code": Suppression(4, 4, None),
    "ReadCounts": ReadCounts(games=2, plies=80, positions=1),
    "Summary": Summary(files=3, errors=1, warnings=2, skipped=[Skipped("a.txt", "why")], read=ReadCounts(1, 2, 3)),
    "WriterOption": WRITER_OPTIONS[0],
}


def _fields(record: object) -> object:
    """What equal records share: the record itself where it compares by its fields, else its
    repr (``Line``) or its slots (``LineEnds``, ``WriterOption``)."""
    if type(record).__eq__ is not object.__eq__:
        return record
    if type(record).__repr__ is not object.__repr__:
        return repr(record)
    return tuple(getattr(record, name) for name in ("count", "_after_cr", "name", "choices", "help", "also_sets")
                 if hasattr(record, name))


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_a_record_pickles_to_an_equal_one(name):
    record = RECORDS[name]
    copy = pickle.loads(pickle.dumps(record, pickle.HIGHEST_PROTOCOL))
    assert type(copy) is type(record)
    assert _fields(copy) == _fields(record)


def test_line_ends_count_on_after_a_pickle():
    copy = pickle.loads(pickle.dumps(_line_ends()))
    copy.feed(b"\nthree\n")  # the LF that ends the CR's line is not a line of its own
    assert copy.count == 3


def test_a_problem_log_pickles_with_what_it_recorded():
    log = ProblemLog("games.pgn")
    log.add(3, 1, Severity.ERROR, "illegal-move", "an illegal move")
    log.settle(4)
    copy = pickle.loads(pickle.dumps(log))
    assert copy.events == log.events and copy.path == log.path


@pytest.mark.parametrize("error", [
    FenSyntaxError("a FEN of five fields", "fullmove", 30, "a number"),
    UnknownVariantError("crazyhous", ["crazyhouse"]),
], ids=lambda error: type(error).__name__)
def test_an_error_pickles_with_its_message_and_fields(error):
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is type(error) and copy.args == error.args and vars(copy) == vars(error)


def test_an_input_error_is_a_python_class_with_its_reason():
    """An input error is raised by the readers (compiled) and caught, sent on and
    subclassed by code that is not; it keeps its reason as an attribute of its own."""
    error = CorruptInput("games.pgn.gz", "not a gzip file")
    assert isinstance(error, InputError) and vars(error) == {"reason": "not a gzip file"}
    assert str(error) == "cannot read games.pgn.gz: not a gzip file"
