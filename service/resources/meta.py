"""``GET /healthz``, ``/readyz``, ``/metrics``, ``GET /openapi.yaml`` (the contract, read
from the installed package) and ``GET /openapi.json`` (the same contract as JSON, for tools
and the ``/docs`` page).

Under ``notation serve`` the front end answers ``/healthz``, ``/readyz`` and ``/metrics``
itself (for every worker); these views answer for an app served by another WSGI server:
ready whenever it answers, and the metrics of its own process (``service.metrics``)."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

import yaml
from flask import Blueprint, Response, current_app
from werkzeug.exceptions import NotFound

from notation import __version__

from ..jsonio import dumps
from ..metrics import CONTENT_TYPE as METRICS_CONTENT_TYPE
from ..metrics import METRICS_KEY
from ..schemas import HealthOut
from ..state import json_response, state

blueprint = Blueprint("meta", __name__)
# The package's installed name (notation_service; the repository keeps it in service/).
_PACKAGE = __name__.split(".")[0]

SPEC_MEDIA_TYPE = "application/yaml"


@lru_cache(maxsize=1)
def spec_bytes() -> bytes:
    """The text of ``openapi.yaml`` as shipped in the ``service`` package."""
    return resources.files(_PACKAGE).joinpath("openapi.yaml").read_bytes()


@blueprint.get("/healthz")
def healthz() -> Response:
    return json_response(HealthOut().dump({"status": "ok", "version": __version__}))


@blueprint.get("/readyz")
def readyz() -> Response:
    return json_response({"status": "ready", "version": __version__})


@blueprint.get("/metrics")
def metrics() -> Response:
    if state().settings.metrics != "on":
        raise NotFound("metrics are off (NOTATION_METRICS=off)")
    return Response(current_app.extensions[METRICS_KEY].render(), content_type=METRICS_CONTENT_TYPE)


@blueprint.get("/openapi.yaml")
def openapi() -> Response:
    return Response(spec_bytes(), mimetype=SPEC_MEDIA_TYPE)


@lru_cache(maxsize=1)
def spec_json_bytes() -> bytes:
    """``openapi.yaml`` as a JSON document: the same contract, parsed once."""
    return dumps(yaml.safe_load(spec_bytes())).encode()


@blueprint.get("/openapi.json")
def openapi_json() -> Response:
    return Response(spec_json_bytes(), mimetype="application/json")
