"""One computed value per object, found by the object's identity.

For the per-variant tables that reading, validating and writing look up on every FEN: a
``functools.lru_cache`` keyed by a ``Variant`` runs ``Variant.__hash__`` (Python code) on
every look-up. Compiled (mypyc), ``IdentityCache.get`` finds the object's ``id()`` in a
small open-addressing table of machine words (librt's ``vec[i64]``, 0 for a free slot),
its value at the same slot of a list: the slot is a few shifts of the address, and no
key object is touched. (A scan of every id held, or a ``(key, value)`` pair to unpack,
each cost more than the look-up: the pair's memory is one more cache line per FEN.) Each
key is held at its slot of a third list, so an id stays its key's while it is kept.
Interpreted, the entries are kept by ``id()`` in a dictionary instead (a turn of an
interpreted loop is dearer than one dictionary look-up). Objects that are equal but not
the same get a value each (both right). At most ``limit`` entries: a full cache starts
again with empty slots. Raises what ``compute`` raises, and caches nothing then. Two
threads may compute one value twice; either result is kept.

Threads (compiled): a slot's key and value are written before its id, and the three are
replaced together by fresh ones when the cache starts again, the old ones released only
once the new ones are in place (releasing a key can run Python code, and so let another
thread in). ``get`` reads the id and the value with no Python code between, so no other
thread runs between the two: an id found is always with its value.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any, Final, Generic, TypeVar, cast

from librt.vecs import vec
from mypy_extensions import i64  # the vector's item type (run time too: ``vec[i64]()``)

K = TypeVar("K")
V = TypeVar("V")

_FREE: Final = 0  # the id of no object: a slot nothing is kept in


class IdentityCache(Generic[K, V]):
    """``compute(key)``, computed once per ``key`` object."""

    __slots__ = ("_compute", "_ids", "_keys", "_values", "_by_id", "_limit", "_count")

    _ids: vec[i64]
    _count: i64

    def __init__(self, compute: Callable[[K], V], limit: int = 64) -> None:
        self._compute = compute
        self._limit = limit
        self._count = 0
        # Compiled: each key's id() as a machine word at its slot (_FREE where none is),
        # the key and its value at the same slot of their lists.
        self._ids = vec[i64]()
        self._keys: list[Any] = []
        self._values: list[Any] = []
        self._start_again()
        self._by_id: dict[int, tuple[K, V]] = {}  # interpreted: id(key) -> (key, value)

    def __len__(self) -> int:
        return self._count if _COMPILED else len(self._by_id)

    @property
    def limit(self) -> int:
        return self._limit

    def get(self, key: K) -> V:
        if _COMPILED:
            ids = self._ids
            wanted: i64 = id(key)
            mask: i64 = len(ids) - 1
            slot = _home(wanted, mask)
            while True:  # ends: at least half the slots are free
                found = ids[slot]
                if found == wanted:
                    return cast(V, self._values[slot])
                if found == _FREE:
                    break
                slot = (slot + 1) & mask
            value = self._compute(key)
            self._keep(key, value, wanted)
            return value
        by_id = self._by_id  # interpreted (the same steps, found by id)
        found_entry = by_id.get(id(key))
        if found_entry is not None and found_entry[0] is key:
            return found_entry[1]
        value = self._compute(key)
        if len(by_id) >= self._limit:
            by_id.clear()
        by_id[id(key)] = (key, value)
        return value

    def _keep(self, key: K, value: V, wanted: i64) -> None:
        """Keep ``value`` at the first slot from ``key``'s that is free or holds its id
        (another thread may have kept it meanwhile); a full cache starts again first."""
        if self._count >= self._limit:
            self._start_again()
        ids = self._ids
        mask: i64 = len(ids) - 1
        slot = _home(wanted, mask)
        while True:
            found = ids[slot]
            if found == _FREE or found == wanted:
                break
            slot = (slot + 1) & mask
        keys = self._keys
        values = self._values
        if found == _FREE:
            self._count += 1
        # The key and the value first, then the id. A value replaced (another thread's,
        # of the same key) may run Python code when released: whichever is read is right.
        keys[slot] = key
        values[slot] = value
        ids[slot] = wanted

    def _start_again(self) -> None:
        """Every slot free, in new lists put in place together. Compiled, assigning an
        attribute releases its old value before it stores the new one, and releasing a key
        can run Python code (another thread would find a freed list): the old lists are
        held here, and emptied only once the new ones are in place."""
        capacity = 8
        while capacity < 2 * self._limit:  # at least half the slots free: a probe ends soon
            capacity *= 2
        old_keys, old_values = self._keys, self._values
        self._ids = vec[i64]([_FREE] * capacity)
        self._keys = [None] * capacity
        self._values = [None] * capacity
        self._count = 0
        old_keys.clear()
        old_values.clear()


def _home(wanted: i64, mask: i64) -> i64:
    """The slot an id is first looked for at: objects are 16-byte aligned, so the low four
    bits say nothing; bits from higher up spread objects allocated near each other."""
    return ((wanted >> 4) ^ (wanted >> 11)) & mask


# Whether this module was compiled by mypyc (a compiled class's attributes are its own
# descriptors, not slot members).
_COMPILED: Final = not isinstance(vars(IdentityCache)["_values"], types.MemberDescriptorType)
