"""One computed value per object, found by the object's identity.

For the per-variant tables that reading, validating and writing look up on every FEN: a
``functools.lru_cache`` keyed by a ``Variant`` runs ``Variant.__hash__`` (Python code)
on every look-up. Compiled (mypyc), ``IdentityCache.get`` compares the object with each
key it holds (``is``), which for the handful of variants a process sees is a few machine
comparisons, where a dictionary keyed by ``id()`` would make and hash a new int each
time. Interpreted, each comparison is a turn of an interpreted loop, dearer than one
dictionary look-up once a few variants are held, so the entries are kept by ``id()``
instead. Objects that are equal but not the same get a value each (both right). Each
entry holds its object, so an identity is never reused while its entry is kept. At most
``limit`` entries: a full cache is emptied and fills again. Raises what ``compute``
raises, and caches nothing then. Two threads may compute one value twice; either result
is kept.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Final, Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class IdentityCache(Generic[K, V]):
    """``compute(key)``, computed once per ``key`` object."""

    __slots__ = ("_compute", "_entries", "_by_id", "_limit")

    def __init__(self, compute: Callable[[K], V], limit: int = 64) -> None:
        self._compute = compute
        self._entries: list[tuple[K, V]] = []  # compiled: (key, value), in the order computed
        self._by_id: dict[int, tuple[K, V]] = {}  # interpreted: id(key) -> (key, value)
        self._limit = limit

    def __len__(self) -> int:
        return len(self._entries) if _COMPILED else len(self._by_id)

    @property
    def limit(self) -> int:
        return self._limit

    def get(self, key: K) -> V:
        if _COMPILED:
            entries = self._entries
            for entry in entries:
                if entry[0] is key:
                    return entry[1]
            value = self._compute(key)
            if len(entries) >= self._limit:
                entries.clear()
            entries.append((key, value))
            return value
        by_id = self._by_id  # interpreted (the same steps, found by id)
        found = by_id.get(id(key))
        if found is not None and found[0] is key:
            return found[1]
        value = self._compute(key)
        if len(by_id) >= self._limit:
            by_id.clear()
        by_id[id(key)] = (key, value)
        return value


# Whether this module was compiled by mypyc (a compiled class's attributes are its own
# descriptors, not slot members).
_COMPILED: Final = not isinstance(vars(IdentityCache)["_entries"], types.MemberDescriptorType)
