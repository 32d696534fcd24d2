"""How many examples property tests try, per hypothesis profile (see conftest.py)."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

PROFILE_VARIABLE = "HYPOTHESIS_PROFILE"
CI, FUZZ = "ci", "fuzz"
BASE_EXAMPLES = 100
FUZZ_FACTOR = 20
_COMMON = {"deadline": None, "database": None, "suppress_health_check": [HealthCheck.too_slow]}

settings.register_profile(CI, derandomize=True, max_examples=BASE_EXAMPLES, **_COMMON)
settings.register_profile(FUZZ, derandomize=False, max_examples=BASE_EXAMPLES * FUZZ_FACTOR, **_COMMON)


def profile_name() -> str:
    """The profile named by ``HYPOTHESIS_PROFILE`` (``ci`` when unset); raises ValueError
    for another name."""
    name = os.environ.get(PROFILE_VARIABLE) or CI
    if name not in (CI, FUZZ):
        raise ValueError(f"{PROFILE_VARIABLE}={name!r}: expected {CI!r} or {FUZZ!r}")
    return name


def load_profile() -> None:
    settings.load_profile(profile_name())


def examples(n: int) -> int:
    """``n`` examples under the ``ci`` profile, ``FUZZ_FACTOR`` times as many under ``fuzz``."""
    return n * FUZZ_FACTOR if profile_name() == FUZZ else n
