"""IdentityCache: one computed value per object, by identity, bounded."""

import threading
import time

import pytest

from notation.identity_cache import IdentityCache
from notation.variants import DEFAULT_REGISTRY


def test_computes_once_per_object_and_keeps_equal_objects_apart():
    calls = []

    def compute(variant):
        calls.append(variant)
        return variant.key.upper()

    cache = IdentityCache(compute)
    standard = DEFAULT_REGISTRY.find("standard")
    twin = standard.replace()
    assert twin == standard and twin is not standard
    assert cache.get(standard) == "STANDARD"
    assert cache.get(standard) == "STANDARD"
    assert cache.get(twin) == "STANDARD"
    assert [v is standard for v in calls] == [True, False]  # the twin is its own entry
    assert len(cache) == 2


def test_a_full_cache_starts_again_and_values_stay_right():
    cache = IdentityCache(lambda key: key * 2, limit=3)
    keys = [[n] for n in range(10)]  # lists: unhashable, so only identity can find them
    for key in keys:
        assert cache.get(key) == key * 2
        assert len(cache) <= 3
    assert cache.get(keys[-1]) == keys[-1] * 2


def test_many_keys_are_each_computed_once_and_found_again():
    """Dozens of keys held at once share the slots their ids first point to: each is still
    found, however many of them collide."""
    calls = []

    def compute(key):
        calls.append(key)
        return ("value of", key)

    cache = IdentityCache(compute)
    keys = [object() for _ in range(cache.limit)]
    for _ in range(3):
        for key in keys:
            assert cache.get(key)[1] is key
    assert len(calls) == len(keys)
    assert len(cache) == len(keys)


def test_a_failed_computation_is_not_kept():
    attempts = []

    def compute(key):
        attempts.append(key)
        if len(attempts) == 1:
            raise ValueError("first time")
        return "second time"

    cache = IdentityCache(compute)
    key = object()
    with pytest.raises(ValueError):
        cache.get(key)
    assert len(cache) == 0
    assert cache.get(key) == "second time"


def test_the_cache_knows_which_build_it_runs_in():
    """Compiled it scans its entries, interpreted it looks them up by ``id``: it tells the
    builds apart as ``Setup`` does (both modules are compiled, or neither)."""
    from notation import identity_cache, setup

    assert identity_cache._COMPILED == setup.COMPILED


def test_every_value_stays_with_its_key_across_refills():
    cache = IdentityCache(lambda key: ("value of", key), limit=4)
    keys = [object() for _ in range(9)]
    order = [0, 1, 2, 3, 1, 4, 0, 5, 6, 2, 7, 8, 3, 3, 8, 0]
    for index in order:
        found = cache.get(keys[index])
        assert found[1] is keys[index]


class _Releasing:
    """A key whose release runs Python code that lets another thread in."""

    def __del__(self):
        time.sleep(0)


def test_threads_never_see_a_value_under_another_key():
    """Computing lets other threads run, and so does releasing a key when a full cache
    starts again: each thread must still get its own key's value."""

    def compute(key):
        time.sleep(0)
        return key

    cache = IdentityCache(compute, limit=3)
    wrong = []

    def work(seed):
        keys = [_Releasing() for _ in range(5)]
        for step in range(400):
            key = keys[(seed + step * 7) % len(keys)]
            if cache.get(key) is not key:
                wrong.append(key)
            if step % 50 == 0:
                keys[step % len(keys)] = _Releasing()  # the old key released once the cache lets go

    threads = [threading.Thread(target=work, args=(seed,)) for seed in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert wrong == []
