"""User variant aliases reach the service: the setting, its environment variable, the CLI."""

from __future__ import annotations

import pytest

from notation.cli.main import main

from notation_service import create_app
from notation_service.config import ConfigError, Settings

ZH_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1"


def test_alias_setting_teaches_the_service_a_name():
    client = create_app({"variant_aliases": "house960=crazyhouse, zhouse=ZH"}).test_client()
    for name in ("house960", "ZHOUSE"):
        response = client.post("/v1/fen/convert", json={"fen": ZH_START, "variant": name})
        assert response.status_code == 200, response.get_json()
        assert response.get_json()["variant"] == "crazyhouse"


def test_without_the_setting_the_alias_is_unknown():
    client = create_app().test_client()
    response = client.post("/v1/fen/convert", json={"fen": ZH_START, "variant": "house960"})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["code"] == "unknown-variant"


def test_aliases_come_from_the_environment():
    settings = Settings.from_env({"NOTATION_VARIANT_ALIASES": "koth2=KOTH"})
    assert settings.registry().find("koth2").key == "kingofthehill"


@pytest.mark.parametrize("value", ["noequals", "x=nosuchvariant", "=crazyhouse"])
def test_bad_aliases_stop_the_service_at_start(value):
    with pytest.raises(ConfigError) as caught:
        create_app({"variant_aliases": value})
    assert "NOTATION_VARIANT_ALIASES" in str(caught.value)


def test_serve_rejects_a_bad_alias_as_a_usage_error(capsys):
    from notation.cli.main import main

    with pytest.raises(SystemExit) as caught:
        main(["serve", "--variant-alias", "x=nosuchvariant"])
    assert caught.value.code == 2
    assert "nosuchvariant" in capsys.readouterr().err


def test_serve_refuses_a_malformed_alias_naming_the_option(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["serve", "--variant-alias", "zh960=crazyhouse,nonsense"])
    assert stopped.value.code == 2
    assert "--variant-alias: expected ALIAS=VARIANT, got 'nonsense'" in capsys.readouterr().err


def test_serve_takes_comma_separated_aliases_like_every_command(monkeypatch):
    served = []
    monkeypatch.setattr("notation_service.server.serve", served.append)
    monkeypatch.setenv("NOTATION_VARIANT_ALIASES", "koth2=KOTH")
    assert main(["serve", "--variant-alias", "zh960=crazyhouse,house=zh", "--variant-alias", "x=atomic"]) == 0
    (settings,) = served
    assert settings.alias_map() == {"koth2": "KOTH", "zh960": "crazyhouse", "house": "zh", "x": "atomic"}
