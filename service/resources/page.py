"""``GET /``: the page where a person pastes a FEN and sees its board, its problems and the
position in every profile. Its HTML, script and style ship in the package (``service/web``)
and are served from ``/page/<file>``; it calls only the public API, nothing outside."""

from __future__ import annotations

from importlib import resources

from flask import Blueprint, Response

WEB_DIR = resources.files("service").joinpath("web")

blueprint = Blueprint("page", __name__, static_folder=str(WEB_DIR), static_url_path="/page")


@blueprint.get("/")
def index() -> Response:
    return blueprint.send_static_file("index.html")
