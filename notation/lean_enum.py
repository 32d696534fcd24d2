"""``LeanEnum`` and ``LeanStrEnum``: the bases of the package's enums, which Python makes in
about half the time ``enum.Enum``'s own path takes.

``EnumType`` makes a class member by member through its general path: a ``_EnumDict``
that vets each name as the body runs, a placeholder per member that becomes the member
when the class is made, a search for aliases and descriptors along the bases. ``check``
defines about forty enums at start-up, where a CI step or a shell loop pays for them on every
run (docs/architecture.md, "Start-up"; bench_startup prints it). The standard library makes its own enums of the simple
kind (values given, no ``__new__``) with ``enum._simple_enum`` (``re.RegexFlag``,
``http.HTTPStatus``): the same members in half the time. A class deriving from one of these
bases is handed to it (the class body's name and namespace: a class made of them for it to
read would be one class more to make). What it makes is an ordinary enum: an ``Enum``
(and a ``str`` for ``LeanStrEnum``), looked up, iterated, compared, hashed, pickled and
shown as the same class made by ``EnumType`` would be, and read by mypy as an enum.

``EnumType``'s own path makes the class where ``enum._simple_enum`` is missing, where the
class has more than one base or keywords, and where its body refers to ``__class__`` (a
method calling ``super()``). ``tests/core/test_lean_enum.py`` holds every enum of the
package to the one ``EnumType`` makes of the same members. Nothing here raises but what
``EnumType`` raises.
"""

from __future__ import annotations

import enum

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing here
if TYPE_CHECKING:
    from typing import Any

_SIMPLE_ENUM: Any = getattr(enum, "_simple_enum", None)  # Python 3.11 and later have it


class LeanEnumType(enum.EnumType):
    """The metaclass of ``LeanEnum`` and ``LeanStrEnum``: a subclass of one of them with
    members of its own is made by ``enum._simple_enum``."""

    # (typeshed gives ``type.__prepare__`` positional-only parameters and ``EnumType``'s
    # named ones: no signature agrees with both)
    @classmethod
    def __prepare__(metacls, cls: str, bases: tuple[type, ...], **kwds: Any) -> Any:  # type: ignore[override]
        if _lean(bases, kwds):
            return {}  # a plain namespace: ``_simple_enum`` sorts members from the rest
        return super().__prepare__(cls, bases, **kwds)

    def __new__(metacls, cls: str, bases: tuple[type, ...], classdict: Any, **kwds: Any) -> Any:
        if _lean(bases, kwds) and type(classdict) is dict:  # noqa: E721 (an _EnumDict is a dict too)
            if "__classcell__" not in classdict:
                simple = _SIMPLE_ENUM(bases[0])
                try:
                    return simple(_ClassBody(cls, classdict))
                except AttributeError:  # a Python whose _simple_enum reads more of a class
                    return simple(type(cls, (), classdict))
            vetted = super().__prepare__(cls, bases, **kwds)  # EnumType's own path after all
            for name, value in classdict.items():
                vetted[name] = value
            classdict = vetted
        return super().__new__(metacls, cls, bases, classdict, **kwds)


class _ClassBody:
    """A class body as ``enum._simple_enum`` reads the class it is given (Python 3.11 to
    3.13): its ``__name__`` and its namespace, ``__dict__``, without a class made of them."""

    __slots__ = ("__name__", "_namespace")

    def __init__(self, name: str, namespace: dict[str, Any]) -> None:
        self.__name__ = name
        self._namespace = namespace

    @property
    def __dict__(self) -> dict[str, Any]:  # type: ignore[override]
        return self._namespace


def _lean(bases: tuple[type, ...], kwds: dict[str, Any]) -> bool:
    """Whether a class with these bases and keywords is made by ``enum._simple_enum``: one
    base, a lean one, and no keywords (``_simple_enum`` makes its own class with them)."""
    return _SIMPLE_ENUM is not None and not kwds and len(bases) == 1 and isinstance(bases[0], LeanEnumType)


class LeanEnum(enum.Enum, metaclass=LeanEnumType):
    """An enum whose values are not strings (or need not be ``str``): the base of such enums
    of the package."""


class LeanStrEnum(str, enum.Enum, metaclass=LeanEnumType):
    """An enum whose members are strings, equal to their values (``(str, Enum)``): the base
    of such enums of the package."""
