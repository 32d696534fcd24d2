"""The hypothesis profiles: ``make test`` must try the same examples on every run."""

from __future__ import annotations

import pytest
from hypothesis import settings
from hypothesis_budget import CI, FUZZ, FUZZ_FACTOR, PROFILE_VARIABLE, examples, profile_name


def test_the_profile_in_use_is_the_one_named():
    assert settings.default.database is None
    if profile_name() == CI:
        assert settings.default.derandomize and examples(7) == 7
    else:
        assert not settings.default.derandomize and examples(7) == 7 * FUZZ_FACTOR


def test_ci_is_the_default_and_fuzz_multiplies(monkeypatch):
    monkeypatch.delenv(PROFILE_VARIABLE, raising=False)
    assert profile_name() == CI and examples(3) == 3
    assert settings.get_profile(CI).derandomize
    monkeypatch.setenv(PROFILE_VARIABLE, FUZZ)
    assert profile_name() == FUZZ and examples(3) == 3 * FUZZ_FACTOR
    assert not settings.get_profile(FUZZ).derandomize


def test_an_unknown_profile_is_refused(monkeypatch):
    monkeypatch.setenv(PROFILE_VARIABLE, "nightly")
    with pytest.raises(ValueError, match="nightly"):
        profile_name()
