"""Hypothesis profiles, and the ``oracle`` marker.

Hypothesis profiles are chosen by the ``HYPOTHESIS_PROFILE`` environment variable:

- ``ci`` (the default, what ``make test`` runs): derandomized, no example database, so a
  run tries the same examples every time and CI cannot go red at random;
- ``fuzz`` (``make fuzz``): random examples, ``FUZZ_FACTOR`` times as many, to look for new
  failures; whatever it finds becomes a table test.

Tests that want more or fewer examples than the profile's say so with
``examples(n)`` from ``hypothesis_budget``, which scales with the profile.

Every test of a module that imports python-chess or pyffish, itself or through a helper
module (``validation_oracle``), is marked ``oracle``; a test that imports them inside a
function says so itself (``@pytest.mark.oracle``). A ``live_server`` or ``browser`` test is
marked ``slow`` too. The markers are listed in pyproject.toml.
"""

from __future__ import annotations

import sys
from types import ModuleType

import pytest
from hypothesis_budget import load_profile

load_profile()

ORACLES = ("chess", "pyffish")


def _is_oracle(name: str) -> bool:
    return name.split(".")[0] in ORACLES


def _imports_an_oracle(module: ModuleType, *, through_helpers: bool = True) -> bool:
    for value in vars(module).values():
        name = value.__name__ if isinstance(value, ModuleType) else getattr(value, "__module__", None)
        if not isinstance(name, str):
            continue
        if _is_oracle(name):
            return True
        helper = sys.modules.get(name)
        if through_helpers and helper is not None and helper is not module and not name.startswith("notation"):
            if _imports_an_oracle(helper, through_helpers=False):
                return True
    return False


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    verdicts: dict[str, bool] = {}
    for item in items:
        module = getattr(item, "module", None)
        if module is None:
            continue
        if module.__name__ not in verdicts:
            verdicts[module.__name__] = _imports_an_oracle(module)
        if verdicts[module.__name__]:
            item.add_marker(pytest.mark.oracle)
        # A server or a browser takes seconds to start: such a test is slow too.
        if item.get_closest_marker("live_server") or item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.slow)
