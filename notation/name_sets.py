"""Names by source: the variant names one program writes, and the variants they mean there.

"Atomic Chess" is lichess Atomic for lichess and CQLi but the designated-bomb variant on
itsyourturn; "Horde Chess" likewise. A database from one program is read with that
program's names: ``registry_for(Source.ITSYOURTURN)`` is the registry whose lookup tries
the source's names first and today's table (every entry's key, name and aliases) after
them. ``Source.DEFAULT`` is today's table alone.

A set maps a name to a variant *target*: an entry's key, or a name the base registry
knows. A target the base registry does not know (its variant is not in this build) is
skipped, not an error, so the name falls back to today's table until the variant lands;
``absent_mappings`` lists the skipped ones. ``parse_source`` raises ``ValueError`` for an
unknown source name; nothing else here raises.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

from notation.errors import UnknownVariantError
from notation.lean_enum import LeanEnum
from notation.variants import DEFAULT_REGISTRY, Registry, normalize_name


class Source(LeanEnum):
    """A program whose variant names a database may use."""

    DEFAULT = "default"  # today's table: every entry's key, name and aliases
    ITSYOURTURN = "itsyourturn"
    LICHESS = "lichess"
    CQLI = "cqli"


# itsyourturn: its two-letter game codes and its names (the itsyourturn variants page,
# "Chess Variations"). Targets of variants not in every build are the page's own names.
# Only the page's full names are here, never a registry key ("atomic", "horde"): keys keep
# naming their entries whatever the source.
_ITSYOURTURN: dict[str, str] = {
    "CK": "kingscorner",
    "King's Corner": "kingscorner",
    "King's Corner Chess": "kingscorner",
    "CF": "kingsfortress",
    "King's Fortress": "kingsfortress",
    "King's Fortress Chess": "kingsfortress",
    "CH": "itsyourturnhorde",
    "Horde Chess": "itsyourturnhorde",
    "CE": "extinction",
    "Extinction Chess": "extinction",
    "CA": "antichess",
    "Anti Chess": "antichess",
    "CD": "Dark Chess",
    "Dark Chess": "Dark Chess",
    "CS": "Screen Chess",
    "Screen Chess": "Screen Chess",
    "CZ": "Crazy Screen Chess",
    "Crazy Screen Chess": "Crazy Screen Chess",
    "CC": "Xiangqi",
    "Chinese Chess": "Xiangqi",
    "Chinese Chess (Xiangqi)": "Xiangqi",
    "CY": "Dark Crazy Screen Chess",
    "Dark Crazy Screen Chess": "Dark Crazy Screen Chess",
    "CT": "itsyourturnatomic",
    "Atomic Chess": "itsyourturnatomic",
    "CN": "knightmate",
    "Knightmate Chess": "knightmate",
    "TB": "Tablut",
    "Tablut": "Tablut",
    "CG": "grasshopper",
    "Grasshopper Chess": "grasshopper",
}

# lichess: the names its [Variant] tags use (plus the two names the issue of names is about).
_LICHESS: dict[str, str] = {
    "Standard": "standard",
    "From Position": "standard",
    "Chess960": "chess960",
    "Crazyhouse": "crazyhouse",
    "Atomic": "atomic",
    "Atomic Chess": "atomic",
    "Antichess": "antichess",
    "King of the Hill": "kingofthehill",
    "Three-check": "threecheck",
    "Racing Kings": "racingkings",
    "Horde": "horde",
    "Horde Chess": "horde",
}

# CQLi: its manual's alias table. It also lists "Antichess" among Giveaway's names, but
# ``antichess`` is a registry key here, and keys always name their own entries.
_CQLI: dict[str, str] = {
    **{name: "atomic" for name in ("Atom", "Atomic", "Atomic Chess")},
    **{name: "chess960" for name in ("Chess960", "Fischerandom")},
    **{name: "crazyhouse" for name in ("Crazyhouse", "Crazy House", "House", "ZH")},
    **{
        name: "giveaway"
        for name in ("Giveaway", "Give away", "Giveaway Chess", "Give away chess")
    },
    **{name: "horde" for name in ("Horde", "Horde Chess")},
    **{name: "kingofthehill" for name in ("King of the Hill", "kingOfTheHill", "KOTH")},
    "Losers": "losers",
    **{name: "racingkings" for name in ("Race", "Racing", "RacingKings", "Racing Kings")},
    **{name: "standard" for name in ("Chess", "Classical", "Normal", "Standard")},
    **{name: "suicide" for name in ("Suicide", "Suicide Chess")},
    **{
        name: "threecheck"
        for name in ("Three-Check", "Three Check", "ThreeCheck", "Three Check Chess", "3-Check", "3 Check")
    },
}

NAME_SETS: Mapping[Source, Mapping[str, str]] = {
    Source.DEFAULT: {},
    Source.ITSYOURTURN: _ITSYOURTURN,
    Source.LICHESS: _LICHESS,
    Source.CQLI: _CQLI,
}

SOURCE_NAMES: tuple[str, ...] = tuple(source.value for source in Source)


def parse_source(text: str | Source) -> Source:
    """The source called ``text`` (case-insensitive); raises ``ValueError`` naming the known ones."""
    if isinstance(text, Source):
        return text
    try:
        return Source(text.strip().casefold())
    except ValueError:
        raise ValueError(f"unknown source {text!r}; known sources: {', '.join(SOURCE_NAMES)}") from None


def _known(target: str, base: Registry) -> bool:
    try:
        base.find(target)
    except UnknownVariantError:
        return False
    return True


def _usable(name: str, target: str, base: Registry) -> bool:
    """The target is known and the name is not another entry's key (keys name their own)."""
    if not _known(target, base):
        return False
    keys = {normalize_name(variant.key): variant for variant in base}
    owner = keys.get(normalize_name(name))
    return owner is None or owner is base.find(target)


def present_mappings(source: Source, base: Registry = DEFAULT_REGISTRY) -> dict[str, str]:
    """The source's names ``registry_for`` uses: target known, name no other entry's key."""
    return {name: target for name, target in NAME_SETS[source].items() if _usable(name, target, base)}


def absent_mappings(source: Source, base: Registry = DEFAULT_REGISTRY) -> dict[str, str]:
    """The source's names whose target ``base`` does not know (skipped by ``registry_for``)."""
    return {name: target for name, target in NAME_SETS[source].items() if not _known(target, base)}


def registry_for(source: Source | str, base: Registry = DEFAULT_REGISTRY) -> Registry:
    """``base`` with ``source``'s names tried first; raises ``ValueError`` for an unknown source."""
    found = parse_source(source)
    if base is DEFAULT_REGISTRY:
        return _default_registry_for(found)
    names = present_mappings(found, base)
    return base.with_aliases(names) if names else base


@functools.cache
def _default_registry_for(source: Source) -> Registry:
    names = present_mappings(source)
    return DEFAULT_REGISTRY.with_aliases(names) if names else DEFAULT_REGISTRY
