"""One severity per code everywhere: ``notation.pgn.severity.SEVERITY`` rates every code, and
``check``, ``normalize --report``, ``read_games`` and ``POST /v1/pgn/game`` all say what it
says. The games of fixtures/pgn/severity_cases.json are run through each front end as a
user runs it (the CLI in a subprocess, the library, the service's client); each one's codes
are listed there, so a case that stops finding its codes fails too."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest
from paths import ROOT
from service_fixtures import app, client  # noqa: F401  (pytest fixtures)

import notation
from notation.check.games import PGN_SEVERITY
from notation.check.problem import CHECK_CODES
from notation.pgn.games import PROBLEM_CODES
from notation.pgn.severity import ERROR, SEVERITY, WARNING, severity_of
from notation.validation import CODES, FINISHED_GAME_CODES

FIXTURES = ROOT / "fixtures" / "pgn"
CASES = json.loads((FIXTURES / "severity_cases.json").read_text(encoding="utf-8"))


def test_every_code_has_one_severity():
    assert set(CHECK_CODES) <= set(SEVERITY), "a code without a row in notation/pgn/severity.py"
    assert set(PROBLEM_CODES) | set(CODES) <= set(SEVERITY)
    assert set(SEVERITY.values()) == {ERROR, WARNING}
    assert {code for code in CODES if SEVERITY[code] == WARNING} == FINISHED_GAME_CODES
    assert {code: severity.value for code, severity in PGN_SEVERITY.items()} == {
        code: SEVERITY[code] for code in PROBLEM_CODES}


def test_an_accepted_code_is_a_warning_and_an_unlisted_one_an_error():
    assert severity_of("bad-castling-rights") == ERROR
    assert severity_of("bad-castling-rights", {"bad-castling-rights"}) == WARNING
    assert severity_of("no-such-code") == ERROR
    assert severity_of("no-such-code", default=WARNING) == WARNING


def _run(*args: str, cwd: pathlib.Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "notation", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=300, check=False)


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> pathlib.Path:
    folder = tmp_path_factory.mktemp("severity")
    for case in CASES:
        (folder / f"{case['name']}.pgn").write_text(case["pgn"], encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def checked(files) -> dict[str, list[tuple[str, str]]]:
    """``notation check --format json`` of every case at once."""
    return _check(files)


def _rated(found: list[tuple[str, str]]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for code, severity in found:
        out.setdefault(code, set()).add(severity)
    return out


def _check(folder: pathlib.Path) -> dict[str, list[tuple[str, str]]]:
    done = _run("check", "--format", "json", ".", cwd=folder)
    assert done.returncode in (0, 1), done.stderr
    found: dict[str, list[tuple[str, str]]] = {case["name"]: [] for case in CASES}
    for problem in json.loads(done.stdout)["problems"]:
        found[pathlib.Path(problem["path"]).stem].append((problem["code"], problem["severity"]))
    return found


def _normalize(source: pathlib.Path, folder: pathlib.Path) -> list[tuple[str, str]]:
    done = _run("normalize", str(source), "--moves", "check", "--report", "report.jsonl", "-o", "out.pgn",
                "--summary", "none", cwd=folder)
    assert done.returncode in (0, 1), done.stderr
    found = []
    for line in (folder / "report.jsonl").read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        found += [(problem["code"], ERROR) for problem in entry["errors"]]
        found += [(problem["code"], WARNING) for problem in entry.get("warnings", [])]
    return found


def _library(text: str) -> list[tuple[str, str]]:
    found = []
    for game in notation.read_games(text):
        found += [(problem.code, problem.level) for problem in game.damage]
        found += [(problem.code, problem.level.value) for problem in game.problems]
    return found


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_every_front_end_rates_a_code_as_the_table_does(case, files, checked, client, tmp_path):  # noqa: F811
    normalized = _normalize(files / f"{case['name']}.pgn", tmp_path)
    checked = checked[case["name"]]
    read = _library(case["pgn"])
    answer = client.post("/v1/pgn/game", json={"pgn": case["pgn"]}).get_json()
    served = [(problem["code"], problem["level"]) for problem in answer["problems"]]
    for front_end, found in (("check", checked), ("normalize", normalized), ("read_games", read),
                             ("service", served)):
        rated = _rated(found)
        assert rated, f"{front_end} found nothing in {case['name']}"
        for code, severities in rated.items():
            assert severities == {SEVERITY[code]}, (front_end, code, severities)
    assert set(case["codes"]) <= set(_rated(checked)), "check no longer finds the case's codes"
    assert set(case["codes"]) <= set(_rated(checked)) | set(_rated(normalized)) | set(_rated(read))
