"""``GET /v1/variants``: every registry entry with the facts a client needs to pick one."""

from __future__ import annotations

from flask import Blueprint, Response

from notation.variants import Variant

from ..profile_families import profiles_for
from ..schemas import VariantsOut
from ..state import json_response, state

blueprint = Blueprint("variants", __name__, url_prefix="/v1")


@blueprint.get("/variants")
def list_variants() -> Response:
    variants = [_facts(variant) for variant in state().registry]
    return json_response(VariantsOut().dump({"variants": variants}))


def _facts(variant: Variant) -> dict:
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
    }
