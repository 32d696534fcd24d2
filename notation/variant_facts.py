"""What a client needs to know of each variant to pick one: ``variant_facts`` is one entry of
``GET /v1/variants`` and of ``notation variants --json`` (one builder, so they say the same).

Beside the registry's data (key, name, aliases, board, family, pieces, twists, ...): what
the FEN reader reads of it (``reads``: the position notations, pocket and check-counter
styles, castling letters, other letters, side letters and field layouts, as
``notation.options`` names them) and what it plays (``plays``: the move notations of
``moves`` and ``play``, and ``perft``).

Which writer profiles apply to a variant: those of its rule family, and those of none. A
profile belongs to a rule family when it sets a writer option only that family reads
(Xiangqi's piece letters, side letters and field layout; the tafl games' position
notation); every other profile writes every variant alike, so that the page never offers
a Xiangqi profile for a chess position. Nothing here raises.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from notation.fen.profiles import DEFAULT_OPTIONS, PROFILES, WriteOptions
from notation.moves import notations_of
from notation.options import CastlingStyle, CheckStyle, PocketStyle, PositionNotation
from notation.variants import Registry, RuleFamily, Variant

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


def reads(variant: Variant) -> dict[str, list[str]]:
    """What the FEN reader takes of ``variant`` besides its plain FEN (empty lists: none)."""
    positions = [PositionNotation.FEN.value]
    if variant.family is RuleFamily.TAFL:
        positions.append(PositionNotation.OPENTAFL.value)
    return {
        "positions": positions,
        "pockets": [style.value for style in PocketStyle] if variant.has_pockets else [],
        "checks": [style.value for style in CheckStyle] if variant.has_check_counters else [],
        "castling": [style.value for style in CastlingStyle] if variant.castling else [],
        "letters": [style for style, _ in variant.spellings.letters],
        "sides": [style for style, _ in variant.spellings.sides],
        "layouts": list(variant.spellings.layouts),
        "fields": ["bombs"] if variant.has_bombs else [],
    }


def plays(variant: Variant) -> dict[str, Any]:
    """What ``moves``, ``play`` and ``perft`` do with ``variant``: its move notations (the
    default first) and whether perft counts it (every family has a move generator)."""
    return {"moves": [notation.value for notation in notations_of(variant)], "perft": True}


def variant_facts(variant: Variant) -> dict[str, Any]:
    """One variant as ``GET /v1/variants`` and ``notation variants --json`` list it."""
    return {
        "key": variant.key,
        "name": variant.name,
        "aliases": list(variant.aliases),
        "start_fen": variant.start_fen,
        "random_start": variant.random_start,
        "pockets": variant.has_pockets,
        "check_counters": variant.has_check_counters,
        "checks_to_win": variant.checks_to_win,
        "castling": variant.castling,
        "royal": variant.royal,
        "promotions": variant.promotions,
        "stalemate": variant.stalemate.value,
        "twists": sorted(twist.value for twist in variant.twists),
        "pieces": [{"letter": p.letter, "name": p.name, "movement": p.movement.value} for p in variant.pieces],
        "lichess_name": variant.lichess_name,
        "geometry": {"files": variant.geometry.files, "ranks": variant.geometry.ranks},
        "family": variant.family.value,
        "profiles": profiles_for(variant),
        "reads": reads(variant),
        "plays": plays(variant),
    }


def all_variant_facts(registry: Registry) -> list[dict[str, Any]]:
    """Every entry of ``registry``, in its order, as ``variant_facts``."""
    return [variant_facts(variant) for variant in registry]
