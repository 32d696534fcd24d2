"""The writer options are defined once (``notation.fen.profiles.WRITER_OPTIONS``): the CLI
flags, the service's fields and ``resolve_options`` are made from that table, and the
documents that cannot be made from it (openapi.yaml, README.md, docs/service.md) are held
to it here."""

from __future__ import annotations

import re

import pytest
import yaml
from paths import ROOT

from notation.cli import options
from notation.cli.main import build_parser
from notation.fen.profiles import DEFAULT_OPTIONS, PROFILES, WRITER_OPTION_NAMES, WRITER_OPTIONS, resolve_options

from notation_service.config import Settings
from notation_service.schemas import NormalizeQuery, request_schemas

CASES = [(option, value) for option in WRITER_OPTIONS for value in option.values]
CASE_IDS = [f"{option.name}={value}" for option, value in CASES]
WRITING_COMMANDS = (["convert"], ["start"], ["normalize", "in.pgn"])


def _spec() -> dict:
    return yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))


def _resolve(spec: dict, schema: dict) -> dict:
    ref = schema.get("$ref")
    if ref is None:
        return schema
    node: dict = spec
    for part in ref.removeprefix("#/").split("/"):
        node = node[part]
    return node


def test_option_names_are_write_options_fields():
    for option in WRITER_OPTIONS:
        for name in (option.name, *option.also_sets):
            assert hasattr(DEFAULT_OPTIONS, name), name
    assert len(set(WRITER_OPTION_NAMES)) == len(WRITER_OPTION_NAMES)


@pytest.mark.parametrize(("option", "value"), CASES, ids=CASE_IDS)
def test_resolve_options_sets_the_option_and_what_it_also_sets(option, value):
    options = resolve_options("python-chess", **{option.name: value})
    for name in (option.name, *option.also_sets):
        assert getattr(options, name) == option.choices(value)


def test_resolve_options_refuses_an_unknown_value_naming_the_allowed_ones():
    for option in WRITER_OPTIONS:
        with pytest.raises(ValueError, match=", ".join(map(re.escape, option.values))):
            resolve_options(None, **{option.name: "no-such-style"})


def test_resolve_options_refuses_an_unknown_keyword():
    with pytest.raises(TypeError, match="pocket"):
        resolve_options("lichess", pocket="bracketed")


@pytest.mark.parametrize("command", WRITING_COMMANDS, ids=lambda c: c[0])
@pytest.mark.parametrize(("option", "value"), CASES, ids=CASE_IDS)
def test_every_writing_command_has_the_flag(command, option, value):
    args = build_parser().parse_args([*command, "--profile", "lichess", option.flag, value])
    expected = resolve_options("lichess", **{option.name: value})
    assert options.writer_options_from(args) == expected


@pytest.mark.parametrize("command", WRITING_COMMANDS, ids=lambda c: c[0])
def test_every_writing_command_refuses_a_value_off_the_table(command, capsys):
    for option in WRITER_OPTIONS:
        with pytest.raises(SystemExit) as stopped:
            build_parser().parse_args([*command, option.flag, "no-such-style"])
        assert stopped.value.code == 2
        assert option.flag in capsys.readouterr().err


@pytest.mark.parametrize(("option", "value"), CASES, ids=CASE_IDS)
def test_service_schemas_take_the_option(option, value):
    schemas = request_schemas(Settings())
    loaded = schemas.convert.load({"fen": "8/8/8/8/8/8/8/8 w - - 0 1", option.name: value})
    assert loaded[option.name] is option.choices(value)
    batch = schemas.batch.load({"operation": "convert", "items": ["x"], option.name: value})
    assert batch[option.name] is option.choices(value)
    assert NormalizeQuery().load({option.name: value})[option.name] is option.choices(value)


def test_service_refuses_writer_options_with_a_validate_batch():
    schemas = request_schemas(Settings())
    for option in WRITER_OPTIONS:
        with pytest.raises(Exception, match="Only for operation convert"):
            schemas.batch.load({"operation": "validate", "items": ["x"], option.name: option.values[0]})


@pytest.mark.slow
def test_openapi_request_bodies_list_the_table():
    spec = _spec()
    schemas = spec["components"]["schemas"]
    bodies = [name for name, schema in schemas.items() if "profile" in schema.get("properties", {})]
    assert bodies, "no request body with writer options found in openapi.yaml"
    for body in bodies:
        properties = spec["components"]["schemas"][body]["properties"]
        for option in WRITER_OPTIONS:
            assert option.name in properties, f"{body} lacks {option.name}"
            assert _resolve(spec, properties[option.name])["enum"] == option.values, f"{body}.{option.name}"
        assert _resolve(spec, properties["profile"])["enum"] == list(PROFILES)


@pytest.mark.slow
def test_openapi_normalize_query_lists_the_table():
    spec = _spec()
    parameters = {p["name"]: p for p in spec["paths"]["/v1/pgn/normalize"]["post"]["parameters"]}
    for option in WRITER_OPTIONS:
        assert option.name in parameters
        assert _resolve(spec, parameters[option.name]["schema"])["enum"] == option.values


def test_readme_lists_every_flag_with_its_values():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    synopsis = next(line for line in readme.splitlines() if line.startswith("notation convert "))
    for option in WRITER_OPTIONS:
        assert f"[{option.flag} " in synopsis
        assert f"`{option.flag} {'|'.join(option.values)}`" in readme.replace("\\|", "|")


def test_service_doc_lists_every_option_with_its_values():
    doc = (ROOT / "docs" / "service.md").read_text(encoding="utf-8")
    flat = " ".join(doc.split())
    values = lambda option: ", ".join(f"`{value}`" for value in option.values)  # noqa: E731
    for option in WRITER_OPTIONS:
        assert f"`{option.name}` ({values(option)})" in flat
        assert f"{option.name}?" in flat  # the convert request's fields
    query = re.search(r"options as query parameters \(([^)]*)\)", flat)
    assert query is not None
    for option in WRITER_OPTIONS:
        assert f"`{option.name}`" in query.group(1)
