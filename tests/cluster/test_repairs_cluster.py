"""``--dask`` with ``--broken`` and the ``--fix-*`` repairs: the options travel to the workers
in ``NormalizeOptions``, and the parts joined, the report and the rejects are one process's."""

from __future__ import annotations

import json
import pathlib

import pytest
from paths import ROOT

from notation.cli.main import main

pytestmark = [pytest.mark.slow]

pytest.importorskip("distributed")

CASES = json.loads((ROOT / "fixtures" / "pgn" / "repair_cases.json").read_text(encoding="utf-8"))


def _run(argv: list[str], capsys) -> int:
    capsys.readouterr()
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


@pytest.mark.parametrize("broken", ["truncate", "drop"])
def test_repairs_on_a_local_cluster_give_one_process_output(tmp_path: pathlib.Path, capsys, monkeypatch, broken):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "db.pgn").write_text("".join(case["input"] for case in CASES) * 20, encoding="utf-8")
    common = ["--broken", broken, "--fix-results", "--fix-tags", "--fix-move-numbers", "--progress", "never"]
    assert _run(["normalize", "db.pgn", "-o", "one.pgn", "--report", "one.jsonl", "--reject-to", "one-rejects.pgn",
                 *common], capsys) == 0
    assert _run(["normalize", "db.pgn", "--dask", "local:2", "--partition-size", "20000", "-o", "parts",
                 "--report", "parts.jsonl", "--reject-to", "parts-rejects.pgn", *common], capsys) == 0
    parts = sorted(path for path in (tmp_path / "parts").iterdir() if path.name.startswith("part-"))
    assert len(parts) > 2
    assert b"".join(path.read_bytes() for path in parts) == (tmp_path / "one.pgn").read_bytes()
    assert (tmp_path / "parts-rejects.pgn").read_bytes() == (tmp_path / "one-rejects.pgn").read_bytes()
    one = [json.loads(line) for line in (tmp_path / "one.jsonl").read_text().splitlines()]
    cluster = [json.loads(line) for line in (tmp_path / "parts.jsonl").read_text().splitlines()]
    assert [{k: v for k, v in entry.items() if k != "input"} for entry in cluster] == one
    code = {"truncate": "game-truncated", "drop": "game-dropped"}[broken]
    assert any(p["code"] == code for entry in one for p in entry.get("warnings", []))
