"""Fixtures ``app`` and ``client`` for the service tests, and the helpers they share.

Every answer the ``client`` receives is checked against openapi.yaml (``contract``).
Test modules import them (``from service_fixtures import app, client``); pytest puts this
directory on the module search path (``pythonpath`` in pyproject.toml). They live in this module, not
in a conftest.py, so that each service test names the fixtures it uses.
"""

from __future__ import annotations

import json
import pathlib
from typing import Any

import pytest
from contract import ContractClient

from notation_service import create_app

FIXTURES = pathlib.Path(__file__).resolve().parents[1] / "fixtures"
PROBLEM = "application/problem+json"

# Small limits so that oversize tests stay cheap.
TEST_SETTINGS = {"max_body_bytes": 64 * 1024, "max_pgn_bytes": 256 * 1024, "max_batch": 200, "max_fen_chars": 512}


@pytest.fixture
def app():
    application = create_app(TEST_SETTINGS)
    application.config["TESTING"] = True
    application.test_client_class = ContractClient  # every answer checked against openapi.yaml
    return application


@pytest.fixture
def client(app):
    return app.test_client()


def load_fixture(*parts: str) -> Any:
    return json.loads(FIXTURES.joinpath(*parts).read_text(encoding="utf-8"))


def assert_problem(response, status: int, problem_type: str | None = None) -> dict[str, Any]:
    """The problem+json body of ``response``, after checking its status, type and members."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == PROBLEM
    body = json.loads(response.get_data(as_text=True))
    assert body["status"] == status
    assert isinstance(body["title"], str) and body["title"]
    assert isinstance(body["detail"], str) and body["detail"]
    if problem_type is not None:
        assert body["type"] == problem_type
    return body
