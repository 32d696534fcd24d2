"""One computed value per object, found by the object's identity.

For the per-variant tables that reading, validating and writing look up on every FEN: a
``functools.lru_cache`` keyed by a ``Variant`` runs ``Variant.__hash__`` (Python code) on
every look-up. Compiled (mypyc), ``IdentityCache.get`` compares the object's ``id()`` with
those of the keys it holds, machine words in a vector of their own: for the handful of
variants a process sees, a few machine comparisons, where a dictionary keyed by ``id()``
would make and hash a new int each time, and a list of ``(key, value)`` pairs would have
each pair unpacked and each key touched (four reference counts changed) to compare one
pointer. Each entry holds its key, so an id stays its key's while the entry is kept. The
ids and the entries are appended to, and emptied, with no Python code between, so
threads keep them in step; the entry found is checked to hold its key all the same.
Interpreted, each comparison is a turn of an interpreted loop, dearer than one dictionary
look-up once a few variants are held, so the entries are kept by ``id()`` in a
dictionary instead. Objects that are equal but not the same get a value each (both
right). At most ``limit`` entries: a full cache is emptied and fills again. Raises what
``compute`` raises, and caches nothing then. Two threads may compute one value twice;
either result is kept.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Final, Generic, TypeVar

from librt.vecs import append, vec
from mypy_extensions import i64  # the vector's item type (run time too: ``vec[i64]()``)

K = TypeVar("K")
V = TypeVar("V")


class IdentityCache(Generic[K, V]):
    """``compute(key)``, computed once per ``key`` object."""

    __slots__ = ("_compute", "_ids", "_entries", "_by_id", "_limit")

    _ids: vec[i64]

    def __init__(self, compute: Callable[[K], V], limit: int = 64) -> None:
        self._compute = compute
        self._ids = vec[i64]()  # compiled: each key's id() as a machine word, in the order computed
        self._entries: list[tuple[K, V]] = []  # compiled: (key, value) of each, in that order
        self._by_id: dict[int, tuple[K, V]] = {}  # interpreted: id(key) -> (key, value)
        self._limit = limit

    def __len__(self) -> int:
        return len(self._entries) if _COMPILED else len(self._by_id)

    @property
    def limit(self) -> int:
        return self._limit

    def get(self, key: K) -> V:
        if _COMPILED:
            ids = self._ids
            wanted: i64 = id(key)
            count: i64 = len(ids)
            index: i64 = 0
            while index < count:
                if ids[index] == wanted:
                    entries = self._entries
                    if index < len(entries):
                        entry = entries[index]
                        if entry[0] is key:  # kept in step (below); a slip would cost a computation
                            return entry[1]
                    break
                index += 1
            value = self._compute(key)
            entries = self._entries
            if len(entries) >= self._limit:
                # The entries are emptied in place, never replaced: compiled, assigning an
                # attribute releases the old value before the new one is stored, and
                # releasing a key can run Python code (another thread would find the
                # attribute freed). A vector of words holds no object: replacing it runs none.
                self._ids = vec[i64]()
                entries.clear()
            self._ids = append(self._ids, id(key))
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
