"""``GET /v1/variants``: every registry entry with the facts a client needs to pick one
(``notation.variant_facts``, what ``notation variants --json`` prints too)."""

from __future__ import annotations

from flask import Blueprint, Response

from notation.variant_facts import all_variant_facts

from ..schemas import VariantsOut
from ..state import json_response, state

blueprint = Blueprint("variants", __name__, url_prefix="/v1")


@blueprint.get("/variants")
def list_variants() -> Response:
    return json_response(VariantsOut().dump({"variants": all_variant_facts(state().registry)}))
