"""Which writer profiles apply to a variant: those of its rule family, and those of none.

A profile belongs to a rule family when it sets a writer option only that family reads
(Xiangqi's piece letters, side letters and field layout; the tafl games' position
notation); every other profile writes every variant alike. ``GET /v1/variants`` lists each
variant's ``profiles`` from here, so that the page never offers a Xiangqi profile for a
chess position. Nothing here raises.
"""

from __future__ import annotations

from collections.abc import Mapping

from notation.fen.profiles import DEFAULT_OPTIONS, PROFILES, WriteOptions
from notation.variants import RuleFamily, Variant

# The writer options (``WriteOptions`` fields) that only one rule family reads.
FAMILY_OPTIONS: Mapping[RuleFamily, tuple[str, ...]] = {
    RuleFamily.XIANGQI: ("letters", "sides", "layout"),
    RuleFamily.TAFL: ("notation",),
}


def family_of(options: WriteOptions) -> RuleFamily | None:
    """The family whose own options ``options`` sets (differently from the default), or None."""
    for family, names in FAMILY_OPTIONS.items():
        if any(getattr(options, name) != getattr(DEFAULT_OPTIONS, name) for name in names):
            return family
    return None


def profiles_for(variant: Variant) -> list[str]:
    """The names of the profiles that write ``variant``, in ``PROFILES`` order."""
    return [name for name, options in PROFILES.items() if family_of(options) in (None, variant.family)]
