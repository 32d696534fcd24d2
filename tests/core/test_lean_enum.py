"""Every enum of the package derives from ``notation.lean_enum``'s bases, and each is the enum
``EnumType``'s own path makes of the same members: looked up by value and by name, iterated
in order, compared, hashed, shown, formatted, written as JSON, copied and pickled alike, and
refusing an unknown value with the same message. The bases' fast path (``enum._simple_enum``)
is taken where the standard library has it, and ``EnumType``'s own path where it has not or
where a class body needs ``__class__``.
"""

from __future__ import annotations

import copy
import enum
import importlib
import json
import pickle
import pkgutil
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

import notation
from notation import lean_enum
from notation.lean_enum import LeanEnum, LeanEnumType, LeanStrEnum


def _package_enums() -> list[type[enum.Enum]]:
    names = {"notation"} | {info.name for info in pkgutil.walk_packages(notation.__path__, "notation.")}
    for name in sorted(names - {"notation.__main__"}):  # that one runs the command line
        importlib.import_module(name)
    found: list[type[enum.Enum]] = []
    stack: list[type[enum.Enum]] = [enum.Enum]
    while stack:
        for cls in stack.pop().__subclasses__():
            stack.append(cls)
            if cls.__module__.startswith("notation.") and cls.__module__ != lean_enum.__name__:
                found.append(cls)
    return sorted(found, key=lambda cls: (cls.__module__, cls.__qualname__))


PACKAGE_ENUMS = _package_enums()


def _reference(cls: type[enum.Enum]) -> type[enum.Enum]:
    """The enum ``EnumType``'s own path makes of ``cls``'s members (aliases included)."""
    members = [(name, member.value) for name, member in cls.__members__.items()]
    mixin = str if issubclass(cls, str) else None
    return enum.Enum(cls.__name__, members, type=mixin, module=cls.__module__, qualname=cls.__qualname__)


def _same_as_reference(cls: type[enum.Enum]) -> None:
    reference = _reference(cls)
    assert type(cls) is LeanEnumType
    assert [(m.name, m.value) for m in cls] == [(m.name, m.value) for m in reference]
    assert list(cls.__members__) == list(reference.__members__) and len(cls) == len(reference)
    for name, member in cls.__members__.items():
        twin = reference.__members__[name]
        assert cls(member.value) is member and cls[name] is member and member in cls
        shown = (str(member), repr(member), format(member), f"{member}")
        assert shown == (str(twin), repr(twin), format(twin), f"{twin}")
        assert hash(member) == hash(twin) and isinstance(member, str) == isinstance(twin, str)
        assert (member == member.value) == (twin == twin.value)
        if isinstance(member, str):
            assert json.dumps(member) == json.dumps(twin) == json.dumps(member.value)
        assert copy.copy(member) is member and copy.deepcopy(member) is member
        if getattr(sys.modules[cls.__module__], cls.__qualname__, None) is cls:  # not a test's own class
            for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
                assert pickle.loads(pickle.dumps(member, protocol)) is member
    unknown = "\x00 no such value"
    with pytest.raises(ValueError) as ours:
        cls(unknown)
    with pytest.raises(ValueError) as theirs:
        reference(unknown)
    assert str(ours.value) == str(theirs.value)


def test_the_package_has_its_enums() -> None:
    names = {cls.__name__ for cls in PACKAGE_ENUMS}
    assert {"Severity", "MoveLanguage", "PocketStyle", "Twist", "TokenKind", "EndReason"} <= names


@pytest.mark.parametrize("cls", PACKAGE_ENUMS, ids=lambda cls: f"{cls.__module__}.{cls.__qualname__}")
def test_every_enum_is_lean_and_the_enum_enum_type_makes(cls: type[enum.Enum]) -> None:
    assert issubclass(cls, (LeanEnum, LeanStrEnum)), "derive the package's enums from notation.lean_enum"
    _same_as_reference(cls)


_NAMES = st.from_regex(r"[A-Z][A-Z0-9_]{0,8}", fullmatch=True)
_VALUES = st.text(alphabet="abcdefgh-_ ", min_size=1, max_size=6)


@given(members=st.dictionaries(_NAMES, _VALUES, min_size=1, max_size=12), as_str=st.booleans())
def test_any_members_make_the_enum_enum_type_makes(members: dict[str, str], as_str: bool) -> None:
    """Aliases included: a value given twice names the member it was first given to."""
    base = LeanStrEnum if as_str else LeanEnum
    body = {"__module__": __name__, "__qualname__": "Drawn", **members}
    _same_as_reference(LeanEnumType("Drawn", (base,), body))


def test_the_fast_path_is_the_standard_librarys(monkeypatch: pytest.MonkeyPatch) -> None:
    if lean_enum._SIMPLE_ENUM is None:
        pytest.skip("this Python has no enum._simple_enum")
    made: list[str] = []

    def counted(etype):
        made.append(etype.__name__)
        return enum._simple_enum(etype)

    monkeypatch.setattr(lean_enum, "_SIMPLE_ENUM", counted)

    class Colour(LeanStrEnum):
        WHITE = "white"
        BLACK = "black"

    assert made == ["LeanStrEnum"]
    _same_as_reference(Colour)


def test_a_simple_path_that_reads_more_of_the_class_is_given_a_class(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast path hands ``_simple_enum`` the class body's name and namespace alone; one
    that reads more of the class it is given (a later Python's) gets a class made of them."""
    if lean_enum._SIMPLE_ENUM is None:
        pytest.skip("this Python has no enum._simple_enum")
    given: list[bool] = []

    def reading_more(etype):
        convert = enum._simple_enum(etype)

        def converted(cls):
            given.append(isinstance(cls, type))
            cls.__mro__  # noqa: B018 (a class has one; the class body alone has not)
            return convert(cls)

        return converted

    monkeypatch.setattr(lean_enum, "_SIMPLE_ENUM", reading_more)

    class Colour(LeanStrEnum):
        WHITE = "white"
        BLACK = "black"

    assert given == [False, True]
    _same_as_reference(Colour)


def test_enum_types_own_path_without_the_fast_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lean_enum, "_SIMPLE_ENUM", None)

    class Colour(LeanStrEnum):
        WHITE = "white"
        BLACK = "black"

        @property
        def letter(self) -> str:
            return self.value[0]

    _same_as_reference(Colour)
    assert Colour.BLACK.letter == "b"


def test_a_body_that_needs_its_class_takes_enum_types_own_path() -> None:
    class Side(LeanEnum):
        WHITE = "w"
        BLACK = "b"

        def shown(self) -> str:
            return "side " + super().__str__()  # __class__, a class cell

    _same_as_reference(Side)
    assert Side.BLACK.shown() == "side Side.BLACK"
