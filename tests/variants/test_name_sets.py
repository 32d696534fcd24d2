"""Names by source (notation/name_sets.py): the table fixtures/names/cases.json, the
itsyourturn codes, mappings whose variant is not in this build, and ``--from`` / ``from``
on every front end (library, installed CLI, service)."""

from __future__ import annotations

import json
import subprocess

import pytest
from installed import installed_script
from paths import ROOT

from notation.errors import UnknownVariantError
from notation.name_sets import NAME_SETS, Source, absent_mappings, parse_source, registry_for
from notation.operations import validate_fen
from notation.variants import VARIANTS, Registry, Variant

from notation_service import create_app

FIXTURES = ROOT / "fixtures" / "names"
CASES = json.loads((FIXTURES / "cases.json").read_text(encoding="utf-8"))
ITSYOURTURN_CODES = ("CK", "CF", "CH", "CE", "CA", "CD", "CS", "CZ", "CC", "CY", "CT", "CN", "TB", "CG")
# Targets whose variants other work adds: skipped until they land, then they light up.
PENDING_TARGETS = {
    "Dark Chess", "Screen Chess", "Crazy Screen Chess", "Dark Crazy Screen Chess", "Xiangqi", "Tablut",
}
CH_START = "pppppppp/pppppppp/pppppppp/pppppppp/1pp2pp1/8/PPPPPPPP/RNBQKBNR w KQ - 0 1"


def _resolves(case: dict) -> str | None:
    try:
        return registry_for(case["source"]).find(case["name"]).key
    except UnknownVariantError:
        return None


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['source']}:{c['name']}")
def test_case(case):
    found = _resolves(case)
    if case.get("pending") and case["variant"] not in {v.key for v in VARIANTS}:
        try:
            Registry().find(case["variant"])
        except UnknownVariantError:
            # Not in this build: the mapping is skipped, never an error, never a wrong variant.
            assert case["name"] in absent_mappings(parse_source(case["source"]))
            return
    assert found == (Registry().find(case["variant"]).key if case["variant"] else None)


def test_every_itsyourturn_code_is_in_its_set():
    names = NAME_SETS[Source.ITSYOURTURN]
    assert set(ITSYOURTURN_CODES) <= set(names)
    assert {case["name"] for case in CASES if case["source"] == "itsyourturn"} >= set(ITSYOURTURN_CODES)


def test_only_the_pending_targets_are_absent():
    for source in Source:
        assert set(absent_mappings(source).values()) <= PENDING_TARGETS, source


def test_an_absent_target_lights_up_when_its_variant_lands():
    without_dark = Registry(tuple(v for v in VARIANTS if v.name != "Dark Chess"))
    assert "CD" in absent_mappings(Source.ITSYOURTURN, without_dark)
    with pytest.raises(UnknownVariantError):
        registry_for(Source.ITSYOURTURN, without_dark).find("CD")
    dark = Variant("darkchess", "Dark Chess", ("Dark",), VARIANTS[0].start_fen)
    base = Registry((*without_dark, dark))
    assert registry_for(Source.ITSYOURTURN, base).find("CD") is dark
    assert "CD" not in absent_mappings(Source.ITSYOURTURN, base)


def test_every_two_letter_code_names_a_variant_of_this_build():
    for source in Source:
        assert absent_mappings(source) == {}, source


def test_registry_keys_keep_naming_their_entries_under_every_source():
    for source in Source:
        registry = registry_for(source)
        for variant in VARIANTS:
            assert registry.find(variant.key) is variant, (source, variant.key)


def test_an_unknown_source_is_a_value_error_naming_the_known_ones():
    with pytest.raises(ValueError, match="known sources: default, itsyourturn, lichess, cqli"):
        parse_source("chess.com")
    assert parse_source("ItsYourTurn") is Source.ITSYOURTURN


def test_atomic_chess_is_the_bomb_variant_on_itsyourturn_only():
    assert registry_for("itsyourturn").find("Atomic Chess").key == "itsyourturnatomic"
    assert registry_for("itsyourturn").find("CT").key == "itsyourturnatomic"
    for source in ("default", "lichess", "cqli"):
        assert registry_for(source).find("Atomic Chess").key == "atomic"


def test_library_validate_with_a_source_registry():
    result = validate_fen(CH_START, "CH", registry=registry_for("itsyourturn"))
    assert result.valid and result.variant == "itsyourturnhorde"
    assert validate_fen(CH_START, "Horde Chess").variant == "horde"
    assert not validate_fen(CH_START, "Horde Chess").valid


# -- the installed command ---------------------------------------------------------------------


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [installed_script("notation"), *args], capture_output=True, text=True, timeout=120, check=False
    )


@pytest.mark.slow
def test_normalize_from_itsyourturn_reads_its_codes(tmp_path):
    out = tmp_path / "out.pgn"
    done = _run("normalize", str(FIXTURES / "itsyourturn.pgn"), "--from", "itsyourturn", "-o", str(out))
    assert done.returncode == 0, done.stderr
    tags = [line for line in out.read_text(encoding="utf-8").splitlines() if line.startswith("[Variant ")]
    assert tags == [
        '[Variant "itsyourturn Horde"]',
        '[Variant "King\'s Fortress"]',
        '[Variant "itsyourturn Horde"]',
        '[Variant "Antichess"]',
    ]


@pytest.mark.slow
def test_normalize_without_from_does_not_know_the_codes(tmp_path):
    done = _run("normalize", str(FIXTURES / "itsyourturn.pgn"), "-o", str(tmp_path / "out.pgn"))
    assert done.returncode == 1
    assert "unknown-variant 3" in done.stderr


@pytest.mark.slow
def test_check_from_itsyourturn_passes_and_default_fails():
    path = str(FIXTURES / "itsyourturn.pgn")
    assert _run("check", path, "--from", "itsyourturn").returncode == 0
    failed = _run("check", path)
    assert failed.returncode == 1
    assert "unknown variant 'CH'" in failed.stdout
    assert "black has 36 pawns; Horde allows at most 8" in failed.stdout


@pytest.mark.slow
def test_validate_from_and_a_bad_source():
    assert _run("validate", "--from", "itsyourturn", "--variant", "CH", CH_START).returncode == 0
    bad = _run("validate", "--from", "nope", CH_START)
    assert bad.returncode == 2
    assert "--from" in bad.stderr and "Traceback" not in bad.stderr


# -- the service ---------------------------------------------------------------------------------


@pytest.fixture
def client():
    return create_app().test_client()


def test_service_from_field_on_validate_convert_and_batch(client):
    response = client.post("/v1/fen/validate", json={"fen": CH_START, "variant": "CH", "from": "itsyourturn"})
    assert response.status_code == 200
    assert response.get_json()["valid"] and response.get_json()["variant"] == "itsyourturnhorde"
    response = client.post("/v1/fen/convert", json={"fen": CH_START, "variant": "Horde Chess", "from": "itsyourturn"})
    assert response.status_code == 200 and response.get_json()["variant"] == "itsyourturnhorde"
    response = client.post(
        "/v1/fen/batch",
        json={"operation": "validate", "from": "itsyourturn", "items": [{"fen": CH_START, "variant": "CH"}]},
    )
    assert response.get_json()["results"][0]["variant"] == "itsyourturnhorde"
    response = client.post("/v1/fen/validate", json={"fen": CH_START, "variant": "CH"})
    assert response.get_json()["errors"][0]["code"] == "unknown-variant"


def test_service_refuses_an_unknown_source(client):
    response = client.post("/v1/fen/validate", json={"fen": CH_START, "from": "nope"})
    assert response.status_code == 422
    assert response.headers["Content-Type"] == "application/problem+json"
    assert "from" in json.dumps(response.get_json())


def test_service_from_query_on_pgn_normalize(client):
    body = (FIXTURES / "itsyourturn.pgn").read_bytes()
    response = client.post(
        "/v1/pgn/normalize?from=itsyourturn", data=body, headers={"Content-Type": "application/vnd.chess-pgn"}
    )
    assert response.status_code == 200
    lines = [json.loads(line) for line in response.get_data(as_text=True).splitlines()]
    assert lines[-1]["kind"] == "summary" and lines[-1]["problems"] == {}


@pytest.mark.parametrize("source", [source.value for source in Source])
def test_service_aliases_apply_under_every_source(source):
    client = create_app({"variant_aliases": "hordy=itsyourturnhorde"}).test_client()
    response = client.post("/v1/fen/validate", json={"fen": CH_START, "variant": "hordy", "from": source})
    assert response.get_json()["variant"] == "itsyourturnhorde"
