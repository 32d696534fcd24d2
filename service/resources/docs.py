"""``GET /docs``: the contract rendered for people by Swagger UI, from the assets the
``flask-swagger-ui`` package ships (no CDN: it works offline). It reads ``/openapi.json``.
The online validator badge is off (it would call a server outside)."""

from __future__ import annotations

from flask import Flask
from flask_swagger_ui import get_swaggerui_blueprint

DOCS_PATH = "/docs"
SPEC_PATH = "/openapi.json"
BLUEPRINT_NAME = "docs"


def install(app: Flask) -> None:
    """Swagger UI's page at ``/docs`` and ``/docs/``, its assets at ``/docs/<file>`` (a
    missing one is a 404 problem like any other path)."""
    blueprint = get_swaggerui_blueprint(
        DOCS_PATH,
        SPEC_PATH,
        config={"app_name": "notation API", "validatorUrl": None, "deepLinking": True},
        blueprint_name=BLUEPRINT_NAME,
    )
    app.register_blueprint(blueprint)
    # The same view without the trailing slash, rather than a redirect to it.
    app.add_url_rule(DOCS_PATH, endpoint="docs_page", view_func=app.view_functions[f"{BLUEPRINT_NAME}.show"])
