"""Hypothesis profiles, chosen by the ``HYPOTHESIS_PROFILE`` environment variable.

- ``ci`` (the default, what ``make test`` runs): derandomized, no example database, so a
  run tries the same examples every time and CI cannot go red at random;
- ``fuzz`` (``make fuzz``): random examples, ``FUZZ_FACTOR`` times as many, to look for new
  failures; whatever it finds becomes a table test.

Tests that want more or fewer examples than the profile's say so with
``examples(n)`` from ``hypothesis_budget``, which scales with the profile.
"""

from __future__ import annotations

from hypothesis_budget import load_profile

load_profile()
