"""The service and the command line give the same answers for the same inputs.

Inputs are the project's example tables (fixtures/fen, fixtures/validation); each is run
through ``notation convert --json`` / ``notation validate --json`` and through the
service's single and batch endpoints, and the results must be equal.
"""

from __future__ import annotations

import io
import json
import os
import subprocess

import pytest
from installed import installed_script
from service_fixtures import FIXTURES, app, client, load_fixture  # noqa: F401

from notation.cli.main import main as cli_main
from notation.validation import CODES

pytestmark = [pytest.mark.slow]


def _inputs() -> list[dict[str, str]]:
    items = [{"fen": c["fen"], "variant": c["variant"]} for c in load_fixture("fen", "conversions.json")["cases"]]
    items += [{"fen": c["fen"], "variant": c["variant"]} for c in load_fixture("fen", "reader_errors.json")["cases"]]
    items += [{"fen": c["fen"], "variant": c["variant"]} for c in load_fixture("validation", "cases.json")]
    for table in ("itsyourturn_cases.json", "itsyourturn_screen_dark_cases.json"):
        items += [{"fen": c["fen"], "variant": c["variant"]} for c in load_fixture("validation", table)]
    items.append({"fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "variant": "no-such-chess"})
    return items


INPUTS = _inputs()
BATCH = 200  # the test app's max_batch (service_fixtures.TEST_SETTINGS)


def post_batch(client, body: dict) -> dict:
    """``POST /v1/fen/batch`` of ``body["items"]`` in batches the test app accepts, joined
    as one answer (every batch must answer 200)."""
    items = body["items"]
    joined: dict = {"results": [], "summary": {"total": 0, "ok": 0, "failed": 0}}
    for start in range(0, len(items), BATCH):
        response = client.post("/v1/fen/batch", json={**body, "items": items[start:start + BATCH]})
        assert response.status_code == 200, response.get_data(as_text=True)
        answer = response.get_json()
        joined["results"] += answer["results"]
        for key in joined["summary"]:
            joined["summary"][key] += answer["summary"][key]
    return joined
OPTION_SETS = sorted(
    {key for case in load_fixture("fen", "conversions.json")["cases"] for key in case["outputs"]}
) + ["", "on_illegal=repair", "accept=bad-castling-rights,invalid-ep-square"]


def _options(spec: str) -> dict[str, object]:
    """``"pockets=rank-zero"`` as request fields."""
    out: dict[str, object] = {}
    for part in filter(None, spec.split(";")):
        key, _, value = part.partition("=")
        out[key] = value.split(",") if key == "accept" else value
    return out


def _cli_args(options: dict[str, object]) -> list[str]:
    args: list[str] = []
    for key, value in options.items():
        if key == "on_illegal":
            args.append("--repair")
        elif key == "accept":
            args += [arg for code in value for arg in ("--accept", code)]
        else:
            args += [f"--{key.replace('_', '-')}", str(value)]
    return args


def run_cli(command: str, args: list[str], lines: list[dict], monkeypatch, capsys) -> list[dict]:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(json.dumps(line) + "\n" for line in lines)))
    capsys.readouterr()
    cli_main([command, "--json", *args])
    out = capsys.readouterr().out
    return [_unlocated(json.loads(line)) for line in out.splitlines()]


def _unlocated(answer: dict) -> dict:
    """A CLI answer without the ``line`` that says which input line it answers (a batch
    answers items by their position instead)."""
    answer.pop("line")
    return answer


@pytest.mark.parametrize("spec", OPTION_SETS)
def test_convert_answers_as_the_cli(client, monkeypatch, capsys, spec):
    options = _options(spec)
    expected = run_cli("convert", _cli_args(options), INPUTS, monkeypatch, capsys)
    assert len(expected) == len(INPUTS)

    batch = post_batch(client, {"operation": "convert", "items": INPUTS, **options})
    assert batch["results"] == expected

    for item, line in zip(INPUTS, expected, strict=True):
        response = client.post("/v1/fen/convert", json={**item, **options})
        body = response.get_json()
        if line["ok"]:
            assert response.status_code == 200
            assert body == {key: line[key] for key in ("fen", "variant", "warnings", "detected")}
        else:
            assert response.status_code == 422
            assert body["type"] == "tag:notation,2025:problem:invalid-fen"
            answered = (body["errors"], body["warnings"], body["variant"])
            assert answered == (line["errors"], line["warnings"], line["variant"])


@pytest.mark.parametrize("spec", ["", "accept=bad-castling-rights,opposite-check"])
def test_validate_answers_as_the_cli(client, monkeypatch, capsys, spec):
    options = _options(spec)
    expected = run_cli("validate", _cli_args(options), INPUTS, monkeypatch, capsys)
    assert len(expected) == len(INPUTS)
    assert any(line["valid"] for line in expected) and not all(line["valid"] for line in expected)

    batch = post_batch(client, {"operation": "validate", "items": INPUTS, **options})
    assert batch["results"] == expected
    for item, line in zip(INPUTS, expected, strict=True):
        response = client.post("/v1/fen/validate", json={**item, **options})
        assert response.status_code == 200
        assert response.get_json() == line


def test_fixture_outputs_come_out_of_the_service(client):
    """The conversion table's expected FENs, straight from the service (the table is about
    dialects, not legality, so every validation code is accepted)."""
    for case in load_fixture("fen", "conversions.json")["cases"]:
        for spec, fen in case["outputs"].items():
            body = {"fen": case["fen"], "variant": case["variant"], "accept": list(CODES), **_options(spec)}
            response = client.post("/v1/fen/convert", json=body)
            assert response.status_code == 200, (case["name"], spec, response.get_json())
            assert response.get_json()["fen"] == fen, (case["name"], spec)


def test_the_installed_command_agrees_with_the_service(client, tmp_path):
    """One run of the installed ``notation convert --json`` command, as a user runs it: a
    clean environment (no PYTHONPATH) and a working directory outside the source tree."""
    lines = "".join(json.dumps(item) + "\n" for item in INPUTS)
    env = {name: os.environ[name] for name in ("PATH", "LANG", "LC_ALL", "TMPDIR") if name in os.environ}
    env.update(HOME=str(tmp_path), PYTHONNOUSERSITE="1")
    done = subprocess.run(
        [installed_script("notation"), "convert", "--json", "--profile", "lichess"],
        input=lines, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120, check=False,
    )
    assert done.returncode == 1, done.stderr  # some inputs are bad on purpose
    expected = [_unlocated(json.loads(line)) for line in done.stdout.splitlines()]
    batch = post_batch(client, {"operation": "convert", "profile": "lichess", "items": INPUTS})
    assert batch["results"] == expected
    summary = batch["summary"]
    succeeded = sum(e["ok"] for e in expected)
    assert summary == {"total": len(INPUTS), "ok": succeeded, "failed": len(expected) - succeeded}


def test_batch_item_variant_wins_over_the_batch_variant(client):
    start_zh = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"
    items = [start_zh, {"fen": start_zh, "variant": "standard"}]
    body = {"operation": "validate", "variant": "crazyhouse", "items": items}
    results = client.post("/v1/fen/batch", json=body).get_json()["results"]
    assert [r["variant"] for r in results] == ["crazyhouse", "standard"]


def test_a_batch_answers_each_spelling_and_unknown_name_as_single_requests_do(client):
    """A batch finds each variant name once; every item is still answered as a single
    convert of it would be, an unknown name included (that item's ``unknown-variant``)."""
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    names = ["ZH", "crazyhouse", "Crazy-House", "nosuchvariant", None, "KOTH", "nosuchvariant", "zh"]
    items = [start if name is None else {"fen": start, "variant": name} for name in names]
    batch = client.post("/v1/fen/batch", json={"operation": "convert", "variant": "atomic", "items": items})
    assert batch.status_code == 200
    results = batch.get_json()["results"]
    for name, result in zip(names, results, strict=True):
        single = client.post("/v1/fen/convert", json={"fen": start, "variant": name or "atomic"}).get_json()
        if name == "nosuchvariant":
            assert not result["ok"] and result["errors"][0]["code"] == "unknown-variant"
            assert result["errors"] == single["errors"]
        else:
            assert result["ok"] and result["fen"] == single["fen"] and result["variant"] == single["variant"]
    assert [r["variant"] for r in results if r["ok"]] == [
        "crazyhouse", "crazyhouse", "crazyhouse", "atomic", "kingofthehill", "crazyhouse"]


# --- POST /v1/pgn/normalize and `notation normalize`: the database options ------------------

DATABASES = [FIXTURES / "service" / "database.pgn", FIXTURES / "pgn" / "lichess_variants.pgn",
             FIXTURES / "pgn" / "games" / "xiangqi.pgn"]
# (query, the command's options): each database option as the service and the command spell it.
NORMALIZE_OPTION_SETS = [
    ("export=full", ["--export", "full"]),
    ("export=reduced", ["--export", "reduced"]),
    ("export=full&moves=uci", ["--export", "full", "--moves", "uci"]),
    ("duplicates=drop", ["--duplicates", "drop"]),
    ("duplicates=mark&duplicates_by=White,Black", ["--duplicates", "mark", "--duplicates-by", "White,Black"]),
    ("duplicates=drop&duplicates_by=prefix&merge_tags=true",
     ["--duplicates", "drop", "--duplicates-by", "prefix", "--merge-tags"]),
    ("add_tags=plycount,gameid", ["--add-tags", "plycount,gameid"]),
    ("export=full&duplicates=drop", ["--export", "full", "--duplicates", "drop"]),
    ("export=reduced&moves=san&duplicates=drop&add_tags=gameid",
     ["--export", "reduced", "--moves", "san", "--duplicates", "drop", "--add-tags", "gameid"]),
    ("broken=truncate", ["--broken", "truncate"]),
    ("broken=drop", ["--broken", "drop"]),
    ("fix_results=true&fix_tags=true&fix_move_numbers=true", ["--fix-results", "--fix-tags", "--fix-move-numbers"]),
    ("export=full&moves=san&duplicates=drop&broken=truncate&fix_results=true&fix_tags=false",
     ["--export", "full", "--moves", "san", "--duplicates", "drop", "--broken", "truncate", "--fix-results"]),
]


def _located_as_the_service(entry: dict, path: str) -> dict:
    """A report entry of the command run on ``path`` as the service writes it: the body has
    no file name, so a copy names its first game by line alone."""
    for problem in entry.get("warnings", []):
        if isinstance(problem.get("first"), dict):
            problem["first"]["input"] = ""
            problem["message"] = problem["message"].replace(f"{path}, ", "")
    return entry


@pytest.mark.parametrize("query, cli_args", NORMALIZE_OPTION_SETS, ids=[q for q, _ in NORMALIZE_OPTION_SETS])
@pytest.mark.parametrize("path", DATABASES, ids=[p.name for p in DATABASES])
def test_normalize_options_answer_as_the_cli(client, tmp_path, capsys, path, query, cli_args):
    """The bytes, the report and the summary of ``notation normalize`` with each option."""
    out, report = tmp_path / "out.pgn", tmp_path / "report.jsonl"
    capsys.readouterr()
    cli_main(["normalize", str(path), "-o", str(out), "--report", str(report), "--summary", "json", *cli_args])
    cli_summary = json.loads(capsys.readouterr().err.strip().splitlines()[-1])

    response = client.post(f"/v1/pgn/normalize?{query}", data=path.read_bytes(),
                           content_type="application/x-chess-pgn")
    assert response.status_code == 200, response.get_data(as_text=True)
    lines = [json.loads(line) for line in response.get_data(as_text=True).splitlines()]
    games, summary = lines[:-1], lines[-1]
    assert summary == {"kind": "summary", **cli_summary}
    kept = "".join(g["text"] for g in games if not g["rejected"]).encode("utf-8", "surrogateescape")
    assert kept == out.read_bytes()
    expected = [_located_as_the_service(json.loads(line), str(path))
                for line in report.read_text(encoding="utf-8").splitlines()]
    assert [entry for g in games for entry in g["problems"]] == expected
