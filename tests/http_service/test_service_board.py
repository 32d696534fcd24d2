"""``GET /v1/board.svg``, ``/openapi.json``, the page at ``/`` and ``/docs``: answers,
caching, and problem+json for every bad request (never a 500, never HTML errors)."""

from __future__ import annotations

import http.client
import json
import urllib.parse
import xml.etree.ElementTree as ET

import pytest
import yaml
from browser import serve
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples
from paths import ROOT
from service_fixtures import PROBLEM, app, assert_problem, client  # noqa: F401
from svg_cases import marks_of, marks_table

from notation.svg import Orientation, SvgOptions, fen_svg

from notation_service.problems import INVALID_FEN, INVALID_REQUEST
from notation_service.resources.meta import spec_bytes

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def board_url(**query: str) -> str:
    return "/v1/board.svg?" + urllib.parse.urlencode(query)


def test_draws_the_position_as_the_library_does(client):
    response = client.get(board_url(fen=START, highlight="e2,e4", size="300", orientation="black"))
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    options = SvgOptions(size=300, orientation=Orientation.BLACK, highlight=frozenset({12, 28}))
    assert response.get_data(as_text=True) == fen_svg(START, options=options)
    assert ET.fromstring(response.get_data()).tag == "{http://www.w3.org/2000/svg}svg"


def test_is_cacheable_and_answers_304_to_its_etag(client):
    url = board_url(fen=START, variant="zh")
    first = client.get(url)
    assert first.headers["Cache-Control"] == "public, max-age=86400"
    etag = first.headers["ETag"]
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.get_data() == b""
    other = client.get(board_url(fen=START, variant="standard"))
    assert other.headers["ETag"] != etag


def test_an_illegal_position_is_drawn(client):
    response = client.get(board_url(fen="4k3/8/8/8/8/8/8/4KK2 w - - 0 1", highlight="e1 f1"))
    assert response.status_code == 200
    assert response.get_data(as_text=True).count('class="highlight"') == 2


def test_service_aliases_name_variants(app):
    from notation_service import create_app

    aliased = create_app({"variant_aliases": "house=crazyhouse"}).test_client()
    response = aliased.get(board_url(fen=START.replace(" w", "[] w"), variant="house"))
    assert response.status_code == 200, response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("query", "parameter"),
    [
        ({}, "fen"),
        ({"fen": ""}, "fen"),
        ({"fen": START, "size": "8"}, "size"),
        ({"fen": START, "size": "abc"}, "size"),
        ({"fen": START, "orientation": "up"}, "orientation"),
        ({"fen": START, "coordinates": "yes"}, "coordinates"),
        ({"fen": START, "highlight": "e9"}, "highlight"),
        ({"fen": START, "highlight": "x" * 1001}, "highlight"),
        ({"fen": START, "colour": "red"}, "colour"),
        ({"fen": START, "variant": "v" * 65}, "variant"),
        ({"fen": START + " " * 600}, "fen"),
    ],
)
def test_bad_parameters_are_invalid_request_naming_them(client, query, parameter):
    body = assert_problem(client.get(board_url(**query)), 422, INVALID_REQUEST)
    assert parameter in [error["parameter"] for error in body["errors"]]


def test_a_repeated_parameter_is_refused(client):
    body = assert_problem(client.get(f"/v1/board.svg?fen={urllib.parse.quote(START)}&size=40&size=50"), 422)
    assert body["errors"][0]["parameter"] == "size"


def test_an_unreadable_fen_is_invalid_fen_with_its_column(client):
    body = assert_problem(
        client.get(board_url(fen="rnbqkbnr/ppxppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")), 422, INVALID_FEN
    )
    assert body["errors"][0]["code"] == "fen-syntax" and body["errors"][0]["column"] == 12
    assert body["variant"] == "standard" and body["warnings"] == []


def test_an_unknown_variant_is_invalid_fen(client):
    body = assert_problem(client.get(board_url(fen=START, variant="crazyhose")), 422, INVALID_FEN)
    assert body["errors"][0]["code"] == "unknown-variant" and body["variant"] is None


def test_other_methods_are_405_problems(client):
    # GET draws a FEN, POST a PGN game's position (tests/http_service/test_service_board_game.py).
    assert_problem(client.put(board_url(fen=START)), 405)
    assert_problem(client.delete(board_url(fen=START)), 405)


@pytest.mark.slow
@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.dictionaries(st.sampled_from(["fen", "variant", "size", "orientation", "coordinates", "highlight", "x"]),
                       st.text(max_size=80), max_size=6))
def test_any_query_gets_a_picture_or_a_problem(client, query):
    response = client.get(board_url(**query))
    if response.status_code == 200:
        assert response.mimetype == "image/svg+xml"
        ET.fromstring(response.get_data())
    else:
        assert_problem(response, 422)


def test_openapi_json_is_the_yaml_contract(client):
    response = client.get("/openapi.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    assert json.loads(response.get_data()) == yaml.safe_load(spec_bytes())


def test_the_page_and_the_docs_are_served_from_the_package(client):
    page = client.get("/")
    assert page.status_code == 200 and page.mimetype == "text/html"
    text = page.get_data(as_text=True)
    assert '<label for="fen">FEN</label>' in text and '<label for="variant">Variant</label>' in text
    for asset in ("/page/page.js", "/page/game.js", "/page/database.js", "/page/page.css", "/page/docs.js"):
        assert client.get(asset).status_code == 200, asset
    docs = client.get("/docs")
    assert docs.status_code == 200 and b"swagger-ui-bundle.js" in docs.get_data()
    for asset in ("swagger-ui.css", "index.css", "swagger-ui-bundle.js", "swagger-ui-standalone-preset.js"):
        response = client.get(f"/docs/{asset}")
        assert response.status_code == 200 and response.headers["Cache-Control"] == "public, max-age=86400"
    licence = client.get("/docs/LICENSE")
    assert licence.mimetype == "text/plain" and b"Apache" in licence.get_data()


def test_nothing_on_the_page_comes_from_outside(client):
    for path in ("/", "/docs", "/page/page.js", "/page/game.js", "/page/database.js", "/page/docs.js",
                 "/page/page.css"):
        text = client.get(path).get_data(as_text=True)
        assert "http://" not in text.replace("http://www.w3.org/2000/svg", "") and "https://" not in text, path


@pytest.mark.parametrize("path", ["/page/app.py", "/page/../app.py", "/docs/", "/docs/oauth2-redirect.html",
                                  "/docs/swagger-ui.js.map", "/page/index.html", "/favicon.ico"])
def test_other_files_are_404_problems(client, path):
    assert_problem(client.get(path), 404)


@pytest.fixture(scope="module")
def live():
    yield from serve()


def _get(base: str, path: str, headers: dict | None = None) -> http.client.HTTPResponse:
    host, port = urllib.parse.urlparse(base).netloc.split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    connection.request("GET", path, headers=headers or {})
    response = connection.getresponse()
    response.body = response.read()  # type: ignore[attr-defined]
    connection.close()
    return response


@pytest.mark.live_server
def test_over_the_wire_the_picture_is_cached_and_bad_input_is_a_problem(live):
    url = board_url(fen=START)
    first = _get(live, url)
    assert first.status == 200 and first.getheader("Content-Type").startswith("image/svg+xml")
    again = _get(live, url, {"If-None-Match": first.getheader("ETag")})
    assert again.status == 304 and again.body == b""  # type: ignore[attr-defined]
    bad = _get(live, board_url(fen="nonsense"))
    assert bad.status == 422 and bad.getheader("Content-Type") == PROBLEM
    page = _get(live, "/")
    assert page.status == 200 and b'id="fen"' in page.body  # type: ignore[attr-defined]


def test_the_page_files_ship_as_package_data():
    from importlib import resources

    web = resources.files("notation_service").joinpath("web")
    for name in ("index.html", "page.js", "game.js", "database.js", "page.css", "docs.html", "docs.js"):
        assert web.joinpath(name).is_file(), name


def test_the_page_docs_and_pictures_may_load_nothing_from_outside(client):
    for path in ("/", "/docs", "/page/page.js"):
        policy = client.get(path).headers["Content-Security-Policy"]
        assert policy.startswith("default-src 'none'") and "script-src 'self';" in policy, path
        assert "http" not in policy and "*" not in policy
    picture = client.get(board_url(fen=START))
    assert picture.headers["Content-Security-Policy"] == "default-src 'none'"
    assert picture.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("case", marks_table()["cases"], ids=lambda c: c["name"])
def test_marks_table(client, case):
    response = client.get(board_url(fen=case["fen"], variant=case["variant"], **case["query"]))
    assert response.status_code == 200, response.get_data(as_text=True)
    drawn = marks_of(response.get_data(as_text=True))
    assert drawn["marks"] == case["marks"] and drawn["given"] == case.get("given", {})


@pytest.mark.parametrize("case", marks_table()["refused"], ids=lambda c: c["parameter"])
def test_marks_table_refusals(client, case):
    body = assert_problem(client.get(board_url(fen=case["fen"], variant=case["variant"], **case["query"])), 422,
                          INVALID_REQUEST)
    assert [error["parameter"] for error in body["errors"]] == [case["parameter"]]
    assert case["message"] in body["errors"][0]["message"] or case["parameter"] == "check"


def test_auto_guesses_as_the_command_line_does(client):
    response = client.get(board_url(fen="4k3/4Q3/8/8/8/8/8/4K3[] b - - 0 2", variant="auto", last_move="Q@e7"))
    assert response.status_code == 200
    assert response.get_data(as_text=True) == (
        ROOT / "fixtures" / "svg" / "crazyhouse-drop-check.svg"
    ).read_text(encoding="utf-8")
    body = assert_problem(client.get(board_url(fen="8/8/8 w - - 0", variant="auto")), 422, INVALID_FEN)
    # No variant reads it: the FEN's own problem, in the API's words for choosing a variant.
    assert body["errors"][0]["code"] == "fen-syntax" and body["errors"][0]["suggestions"]
    assert "only 3 ranks" in body["errors"][0]["message"] and '"variant" field' in body["errors"][0]["message"]
