"""Service settings from the environment, and the batch fast path against its schemas."""

from __future__ import annotations

import pytest
from service_fixtures import app, client  # noqa: F401

from notation_service import create_app
from notation_service.config import ConfigError, Settings
from notation_service.schemas import ConvertItemOut, ValidateOut


def test_environment_overrides_defaults():
    settings = Settings.from_env({"NOTATION_MAX_BATCH": "50", "PORT": "9000", "NOTATION_WORKERS": "3",
                                  "NOTATION_LOG_LEVEL": "WARNING", "NOTATION_MAX_BODY_BYTES": "1_048_576",
                                  "NOTATION_HEADER_TIMEOUT": "3", "NOTATION_MAX_QUEUE": "0"})
    assert (settings.max_batch, settings.port, settings.worker_count, settings.log_level) == (50, 9000, 3, "warning")
    assert settings.max_body_bytes == 1_048_576
    assert (settings.header_timeout, settings.queue_bound) == (3, 24)
    assert Settings.from_env({}) == Settings()


def test_variables_of_the_gunicorn_server_are_reported_not_refused():
    warnings = Settings.removed_variables(
        {"NOTATION_WORKER_CLASS": "sync", "NOTATION_THREADS": "8", "NOTATION_WORKERS": "2"}
    )
    assert [text.split()[0] for text in warnings] == ["NOTATION_WORKER_CLASS", "NOTATION_THREADS"]
    assert Settings.from_env({"NOTATION_WORKER_CLASS": "eventlet", "NOTATION_THREADS": "-1"}) == Settings()


@pytest.mark.parametrize(
    "environ, named",
    [
        ({"NOTATION_MAX_BATCH": "many"}, "NOTATION_MAX_BATCH"),
        ({"NOTATION_MAX_BATCH": "0"}, "NOTATION_MAX_BATCH"),
        ({"PORT": "70000"}, "PORT"),
        ({"NOTATION_MAX_BODY_BYTES": "10"}, "NOTATION_MAX_BODY_BYTES"),
        ({"NOTATION_LOG_LEVEL": "loud"}, "NOTATION_LOG_LEVEL"),
        ({"NOTATION_TIMEOUT": "0"}, "NOTATION_TIMEOUT"),
        ({"NOTATION_BODY_TIMEOUT": "soon"}, "NOTATION_BODY_TIMEOUT"),
        ({"NOTATION_MAX_CONNECTIONS": "0"}, "NOTATION_MAX_CONNECTIONS"),
        ({"NOTATION_MAX_QUEUE": "-1"}, "NOTATION_MAX_QUEUE"),
    ],
)
def test_bad_environment_values_name_the_variable(environ, named):
    with pytest.raises(ConfigError, match=named):
        Settings.from_env(environ)


def test_create_app_rejects_unknown_settings():
    with pytest.raises(ConfigError, match="max_batches"):
        create_app({"max_batches": 3})


def test_serve_reports_bad_environment_as_usage_error(monkeypatch, capsys):
    from notation.cli.main import main

    monkeypatch.setenv("NOTATION_MAX_BATCH", "lots")
    with pytest.raises(SystemExit) as stopped:
        main(["serve"])
    assert stopped.value.code == 2
    assert "NOTATION_MAX_BATCH" in capsys.readouterr().err


def test_batch_results_are_what_the_item_schemas_dump(client):
    """Batches skip the per-item schema dump for speed; their items must not differ from it."""
    fens = ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/Qq w KQkq - 0 1", "8/8/8/8/8/8/8/8 w - - 0 1", "x",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1"]
    for variant in ("crazyhouse", "threecheck", "standard", "nonesuch"):
        for operation, schema in (("convert", ConvertItemOut()), ("validate", ValidateOut())):
            body = {"operation": operation, "variant": variant, "items": fens}
            results = client.post("/v1/fen/batch", json=body).get_json()["results"]
            assert results == [schema.dump(result) for result in results]
