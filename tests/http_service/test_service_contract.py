"""The contract: openapi.yaml is a valid OpenAPI 3 document, and the running app keeps it
(schemathesis generates valid and invalid requests from it and checks every response)."""

from __future__ import annotations

import os
import pathlib
import re
from importlib import metadata, resources

import pytest
import schemathesis
import yaml
from hypothesis import HealthCheck, settings
from openapi_spec_validator import validate
from paths import ROOT
from schemathesis.specs.openapi.checks import negative_data_rejection, positive_data_acceptance
from service_fixtures import app, client  # noqa: F401  (pytest fixtures)

from notation_service import create_app
from notation_service.config import Settings
from notation_service.resources.meta import spec_bytes


@pytest.mark.slow
def test_spec_is_a_valid_openapi_3_document():
    document = yaml.safe_load(spec_bytes())
    validate(document)
    assert document["openapi"].startswith("3.")


def installed_contract() -> pathlib.Path:
    """``notation_service/openapi.yaml`` of the installed ``notation`` distribution (its
    RECORD): the repository's service/ is installed as notation_service.

    An editable install records no package files (it points at the source tree): then the
    test is skipped, except under ``make test``, which installs the package for real.
    """
    recorded = [f for f in metadata.files("notation") or () if f.as_posix() == "notation_service/openapi.yaml"]
    if not recorded:
        if os.environ.get("NOTATION_INSTALLED_TEST"):
            pytest.fail("the installed notation distribution does not ship notation_service/openapi.yaml")
        pytest.skip("notation is installed editable: no installed copy of openapi.yaml to compare")
    return pathlib.Path(str(recorded[0].locate())).resolve()


def test_repository_openapi_yaml_is_the_shipped_contract():
    shipped = installed_contract()
    source = (ROOT / "service" / "openapi.yaml").resolve()
    assert shipped != source and "site-packages" in shipped.parts, f"{shipped} is not an installed copy"
    # The package reads its contract with importlib.resources: that must be the installed file.
    served = pathlib.Path(str(resources.files("notation_service").joinpath("openapi.yaml"))).resolve()
    assert served == shipped
    assert (ROOT / "openapi.yaml").read_bytes() == shipped.read_bytes() == spec_bytes()


def test_the_contract_names_no_fixed_server():
    # /docs "Try it out" calls the server that served the document, on any host and port.
    assert yaml.safe_load(spec_bytes())["servers"] == [{"url": "/"}]


def test_every_operation_is_in_one_declared_group_and_every_group_is_used():
    # /docs (Swagger UI) lists operations by tag: untagged ones would fall in "default".
    document = yaml.safe_load(spec_bytes())
    declared = [tag["name"] for tag in document["tags"]]
    used = []
    for path, item in document["paths"].items():
        for method, operation in item.items():
            assert len(operation.get("tags", [])) == 1, f"{method.upper()} {path}"
            assert operation["tags"][0] in declared, f"{method.upper()} {path}"
            used.append(operation["tags"][0])
    assert len(used) == 21
    assert sorted(set(used)) == sorted(declared) and len(declared) == len(set(declared))


def test_get_openapi_yaml_serves_the_contract(client):
    response = client.get("/openapi.yaml")
    assert response.status_code == 200
    assert response.mimetype == "application/yaml"
    assert response.get_data() == spec_bytes()


def test_every_route_of_the_app_is_in_the_contract(app):
    documented = set(yaml.safe_load(spec_bytes())["paths"])
    # Werkzeug's <converter(...):name> is OpenAPI's {name}.
    rules = [rule.rule for rule in app.url_map.iter_rules() if rule.endpoint != "static"]
    routed = {re.sub(r"<(?:[^:<>]*:)?(\w+)>", r"{\1}", rule) for rule in rules}
    assert routed == documented


# PGN bodies are text: send them as schemathesis sends text/plain.
schemathesis.serializer.alias("application/x-chess-pgn", "text/plain")

# The contract states the default limits, so it is tested against an app that has them.
schema = schemathesis.openapi.from_wsgi("/openapi.yaml", create_app(Settings()))


@pytest.mark.slow
@schema.parametrize()
@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)
def test_app_keeps_the_contract(case):
    # A schema-valid convert request may still carry an unconvertible FEN or an unknown
    # variant: the contract answers those with 422 invalid-fen, not 2xx.
    # A start request may combine valid parameters that contradict each other (a number and
    # a seed, a number past the variant's range): 422 invalid-request too. The same holds for
    # the FEN of GET /v1/board.svg, and the FEN and moves of POST /v1/moves and /v1/play
    # (422 invalid-fen or invalid-move). A normalize request may give duplicates_by or
    # merge_tags without the duplicates they need (422 invalid-request).
    lenient = ("/v1/fen/convert", "/v1/start", "/v1/board.svg", "/v1/moves", "/v1/play", "/v1/pgn/normalize")
    excluded = [positive_data_acceptance] if case.operation.path in lenient else []
    # Any text is a PGN body (bad PGN is reported per game), so "a body that is not a
    # string" cannot exist on the wire; query parameters are tested in test_service_pgn.
    if case.operation.path == "/v1/pgn/normalize":
        excluded.append(negative_data_rejection)
    case.call_and_validate(excluded_checks=excluded)
