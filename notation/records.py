"""``Record``: the base of the small value records every command defines at start-up.

A record behaves as the NamedTuple it replaces did where the library and its users lean on
one: it is equal to another record of its class with equal fields and to the tuple of its
fields (``write_fen(...) == (fen, [])`` holds as it did), hashed as that tuple, pickled and
shown (``Name(field=value, ...)``) by its fields, unpacked like a tuple, and ``_replace``
makes a changed copy. It is not a tuple: it has no order, no ``len`` and no index.

Why not a NamedTuple: defining one costs about ten times a plain class (``typing`` checks
each field's type, ``collections.namedtuple`` compiles its ``__new__`` from source), and
``check`` defines sixteen at start-up, ``convert`` and ``validate`` seven, where a CI step or
a shell loop pays for them on every run (docs/architecture.md, "Start-up"). A subclass
compiled with mypyc is a native class, defined in C when its module is set up, and making
one is a native call. Not a frozen dataclass either: ``dataclasses`` compiles every method
from source at import.

A subclass names its fields in ``_NAMES``, in the order its ``__init__`` takes them, and
sets each once in ``__init__`` (annotated ``Final``: a write is a type error, and compiled,
an ``AttributeError``). Nothing here checks that ``_NAMES`` and ``__init__`` agree:
``tests/core/test_records.py`` does, for every record.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing here
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any, ClassVar, TypeVar

    R = TypeVar("R", bound="Record")


class Record:
    """A value record; see the module's docstring. Raises nothing of its own but
    ``_replace``'s ``ValueError``."""

    _NAMES: ClassVar[tuple[str, ...]] = ()

    def _fields(self) -> tuple[Any, ...]:
        """The fields' values, in ``_NAMES``'s order."""
        return tuple([getattr(self, name) for name in self._NAMES])

    def __eq__(self, other: object) -> bool:
        if type(other) is type(self):
            assert isinstance(other, Record)
            return self._fields() == other._fields()
        if isinstance(other, tuple):
            return self._fields() == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._fields())  # as the tuple it is equal to

    def __iter__(self) -> Iterator[Any]:
        """The fields' values, so that a record unpacks as its NamedTuple did."""
        return iter(self._fields())

    def __repr__(self) -> str:
        shown = [f"{name}={value!r}" for name, value in zip(self._NAMES, self._fields(), strict=True)]
        return type(self).__name__ + "(" + ", ".join(shown) + ")"

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled and copied through ``__init__``: compiled (mypyc), a class has no
        ``__dict__`` for pickle's default to copy."""
        return (type(self), self._fields())

    def _replace(self: R, **changes: Any) -> R:
        """A copy with the fields ``changes`` names replaced; raises ``ValueError`` for a
        name that is no field (as a NamedTuple's ``_replace``)."""
        unknown = [name for name in changes if name not in self._NAMES]
        if unknown:
            raise ValueError(f"Got unexpected field names: {unknown!r}")
        values = dict(zip(self._NAMES, self._fields(), strict=True))
        values.update(changes)
        make: Any = type(self)  # a subclass's __init__ takes its fields
        return make(**values)
