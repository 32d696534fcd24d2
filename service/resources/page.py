"""``GET /``: the page where a person pastes a FEN (or a PGN game, to step through) and sees
its board, its problems and the position in every profile. Its HTML, scripts and style
ship in the package (``service/web``); the scripts and style are served from
``/page/<file>``. The page calls only this service's public API, nothing outside."""

from __future__ import annotations

from importlib import resources

from flask import Blueprint, Response, send_from_directory

# The package's installed name (notation_service; the repository keeps it in service/).
_PACKAGE = __name__.split(".")[0]
WEB_DIR = resources.files(_PACKAGE).joinpath("web")
# The files under /page/; any other name is a 404 problem.
ASSETS = ("page.js", "game.js", "database.js", "page.css", "docs.js")

# Everything the page needs comes from this service; nothing else may load or run.
PAGE_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)

blueprint = Blueprint("page", __name__)


@blueprint.after_request
def _policy(response: Response) -> Response:
    response.headers.setdefault("Content-Security-Policy", PAGE_POLICY)
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


@blueprint.get("/")
def index() -> Response:
    return send_from_directory(str(WEB_DIR), "index.html", max_age=0)


@blueprint.get("/page/<any(" + ", ".join(f'"{name}"' for name in ASSETS) + "):name>")
def asset(name: str) -> Response:
    return send_from_directory(str(WEB_DIR), name, max_age=0)
