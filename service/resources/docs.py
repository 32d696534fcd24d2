"""``GET /docs``: the contract rendered for people by Swagger UI, reading ``/openapi.json``.

Swagger UI's files are those the ``flask-swagger-ui`` package ships (its ``dist``
directory), served from ``/docs/<file>``: no CDN, so the page works offline. The page
itself and its start-up script are ours (``service/web/docs.html``, ``docs.js``), with the
online validator badge off (it would call a server outside).
"""

from __future__ import annotations

from importlib import resources

from flask import Blueprint, Response, send_from_directory

from .page import WEB_DIR

DIST_DIR = resources.files("flask_swagger_ui").joinpath("dist")
# The files of Swagger UI the page loads; any other name is a 404 problem.
ASSETS = ("swagger-ui.css", "index.css", "swagger-ui-bundle.js", "swagger-ui-standalone-preset.js", "LICENSE")
ASSET_MAX_AGE = 86400

# Swagger UI sets styles from its script and shows data: images; nothing comes from outside.
DOCS_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)

blueprint = Blueprint("docs", __name__)


@blueprint.after_request
def _policy(response: Response) -> Response:
    response.headers.setdefault("Content-Security-Policy", DOCS_POLICY)
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


@blueprint.get("/docs")
def docs_page() -> Response:
    return send_from_directory(str(WEB_DIR), "docs.html", max_age=0)


@blueprint.get("/docs/<any(" + ", ".join(f'"{name}"' for name in ASSETS) + "):name>")
def docs_asset(name: str) -> Response:
    mimetype = "text/plain" if name == "LICENSE" else None
    return send_from_directory(str(DIST_DIR), name, max_age=ASSET_MAX_AGE, mimetype=mimetype)
