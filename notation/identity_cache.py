"""One computed value per object, found by the object's identity.

For the per-variant tables that reading, validating and writing look up on every FEN: a
``functools.lru_cache`` keyed by a ``Variant`` runs ``Variant.__hash__`` (Python code)
on every look-up, and a dictionary keyed by ``id()`` makes and hashes a new int each
time; ``IdentityCache.get`` compares the object with each key it holds (``is``), which
for the handful of variants a process sees is a few machine comparisons. Objects that
are equal but not the same get a value each (both right). Each entry holds its object,
so an identity is never reused while its entry is kept. At most ``limit`` entries: a
full cache is emptied and fills again. Raises what ``compute`` raises, and caches nothing
then. Two threads may compute one value twice; either result is kept.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class IdentityCache(Generic[K, V]):
    """``compute(key)``, computed once per ``key`` object."""

    __slots__ = ("_compute", "_entries", "_limit")

    def __init__(self, compute: Callable[[K], V], limit: int = 64) -> None:
        self._compute = compute
        self._entries: list[tuple[K, V]] = []  # (key, value), in the order computed
        self._limit = limit

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def limit(self) -> int:
        return self._limit

    def get(self, key: K) -> V:
        entries = self._entries
        for entry in entries:
            if entry[0] is key:
                return entry[1]
        value = self._compute(key)
        if len(entries) >= self._limit:
            entries.clear()
        entries.append((key, value))
        return value
