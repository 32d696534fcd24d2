"""Every record (``notation.records.Record``) names its fields in the order its ``__init__``
takes them, and behaves as the NamedTuple it replaced: equal to an equal record and to the
tuple of its fields, hashed as that tuple, unpacked, shown, copied, pickled and changed by
``_replace``, in either build.

Each record is made here with distinct values in every field, so that a field put in
another's place on the way through ``__init__`` (a ``_NAMES`` out of order) is seen.
"""

from __future__ import annotations

import copy
import pickle
from types import MappingProxyType

import pytest

from notation import DEFAULT_REGISTRY
from notation.check.problem import CheckProblem, GameKey, Severity
from notation.check.runner import CheckOptions
from notation.check.settings import CheckSettings
from notation.check.sources import FileKind
from notation.fen.profiles import PROFILES, WriteOptions
from notation.fen.reader import ReadResult, read_fen
from notation.fen.writer import WriteResult
from notation.move_options import MoveLanguage
from notation.options import (
    CastlingStyle,
    CheckStyle,
    EmptyPocket,
    EnPassantMode,
    FieldLayout,
    PieceLetters,
    PocketStyle,
    PositionNotation,
    SideLetters,
)
from notation.pgn.gamemoves import GameMoves, PlacedProblem
from notation.pgn.games import Limits
from notation.pgn.movetext import Budget, Scan, Token, TokenKind
from notation.pgn.movewalk import Level, MoveProblem
from notation.pgn.text_edits import NO_EDITS
from notation.problem import Problem
from notation.records import Record
from notation.variants import Army, BishopColours, Movement, PawnFiles, PieceKind, Placement, Spellings

_READ = read_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
_PROBLEM = MoveProblem("san-over-disambiguated", "Ngf3 names a file it need not", Level.WARNING, 14, 3, "Ngf3")

RECORDS: dict[str, Record] = {
    "WriteOptions": WriteOptions(PocketStyle.RANK_ZERO, CheckStyle.GIVEN, CastlingStyle.SHREDDER, CastlingStyle.XFEN,
                                 EnPassantMode.ALWAYS, EmptyPocket.DASH, PieceLetters.WXF, SideLetters.RB,
                                 FieldLayout.CFEN, PositionNotation.FEN),
    "ReadResult": ReadResult(_READ.setup, _READ.variant, _READ.dialect),
    "WriteResult": WriteResult("8/8/8/8/8/8/8/8 w - - 0 1", [Problem("lost-pockets", "no pockets", field="pockets")]),
    "PieceKind": PieceKind("a", "archbishop", Movement.KNIGHT),
    "Placement": Placement("kqrrbbnn", 2, PawnFiles.ANY, BishopColours.ANY),
    "Spellings": Spellings((("wxf", "rheakcp"),), (("cxboard", "rb"),), ("cfen",)),
    "Army": Army(0, 36, 9, True, (("q", 1),), False, True),
    "CheckProblem": CheckProblem("games.pgn", 3, 7, Severity.WARNING, "san-check-mark", "a check not marked"),
    "GameKey": GameKey(12, 1, b"\x01\x02", 4, True),
    "CheckOptions": CheckOptions(DEFAULT_REGISTRY.find("crazyhouse"), DEFAULT_REGISTRY, FileKind.PGN,
                                 frozenset({"san-check-mark"}), None, ("lichess", PROFILES["lichess"]),
                                 MoveLanguage.DE),
    "CheckSettings": CheckSettings("pyproject.toml", "atomic", "lichess", MappingProxyType({"zh": "crazyhouse"}),
                                   ("san-check-mark",), ("old/",)),
    "Limits": Limits(1000, 200, 30),
    "Token": Token(TokenKind.NAG, 5, 8),
    "Budget": Budget(500, 7),
    "Scan": Scan([Token(TokenKind.MOVE, 0, 2)], None),
    "PlacedProblem": PlacedProblem(2, 9, _PROBLEM),
    "GameMoves": GameMoves([PlacedProblem(2, 9, _PROBLEM)], NO_EDITS, None, 12),
}


def _subclasses(cls: type) -> set[type]:
    found = set(cls.__subclasses__())
    for sub in list(found):
        found |= _subclasses(sub)
    return found


def test_every_record_of_the_library_is_in_the_table() -> None:
    assert {cls.__name__ for cls in _subclasses(Record)} <= set(RECORDS)


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_a_record_is_its_fields_in_order(name: str) -> None:
    record = RECORDS[name]
    fields = tuple(record)
    assert len(fields) == len(type(record)._NAMES)
    assert fields == tuple(getattr(record, field) for field in type(record)._NAMES)
    assert type(record)(*fields) == record
    assert record == fields and fields == record and not record != fields
    # Fields that are lists, or a read-only mapping (CheckSettings' aliases), hash as their tuple
    # would not: not at all.
    if name not in ("Scan", "WriteResult", "GameMoves", "CheckOptions", "CheckSettings"):
        assert hash(record) == hash(fields)
        assert {record: name}[type(record)(*fields)] == name


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_a_record_is_copied_pickled_and_shown_by_its_fields(name: str) -> None:
    record = RECORDS[name]
    # CheckOptions holds the registry, shared and not copied; CheckSettings a read-only
    # mapping, which pickle refuses (a settings file is read again where it is needed).
    if name not in ("CheckOptions", "CheckSettings"):
        assert pickle.loads(pickle.dumps(record)) == record
        assert copy.deepcopy(record) == record
    assert copy.copy(record) == record
    shown = repr(record)
    assert shown.startswith(f"{name}(") and all(f"{field}=" in shown for field in type(record)._NAMES)


def test_replace_changes_the_fields_it_names_and_refuses_others() -> None:
    options = WriteOptions()
    changed = options._replace(sides=PROFILES["lichess"].sides, layout=options.layout)
    assert changed == options and changed is not options
    assert options.but(en_passant=PROFILES["chesscom"].en_passant).en_passant is PROFILES["chesscom"].en_passant
    with pytest.raises(ValueError, match="unexpected field names: \\['colour'\\]"):
        options.but(colour="white")


def test_records_of_different_classes_are_never_equal() -> None:
    assert Budget(500, 7) != Limits(500, 7, 4096)
    assert Token(TokenKind.MOVE, 0, 2) != (TokenKind.MOVE, 0, 3)
    assert Budget(500, 7) != [500, 7]


def test_a_record_unpacks_as_its_named_tuple_did() -> None:
    setup, variant, dialect = _READ
    assert (setup, variant, dialect) == (_READ.setup, _READ.variant, _READ.dialect)
    kind, start, end = Token(TokenKind.COMMENT, 3, 9)
    assert (kind, start, end) == (TokenKind.COMMENT, 3, 9)
