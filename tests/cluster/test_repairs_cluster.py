"""``--dask`` with ``--broken`` and the ``--fix-*`` repairs: the options travel to the workers
in ``NormalizeOptions``, and the parts joined, the report and the rejects are one process's."""

from __future__ import annotations

import json
import pathlib

import pytest
from cluster_runs import cluster_equals_one_process
from paths import ROOT

pytestmark = [pytest.mark.slow]

pytest.importorskip("distributed")

CASES = json.loads((ROOT / "fixtures" / "pgn" / "repair_cases.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(("broken", "code"), [("truncate", "game-truncated"), ("drop", "game-dropped")])
def test_repairs_on_a_local_cluster_give_one_process_output(tmp_path: pathlib.Path, capsys, monkeypatch, broken,
                                                             code):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "db.pgn").write_text("".join(case["input"] for case in CASES) * 20, encoding="utf-8")
    common = ["--broken", broken, "--fix-results", "--fix-tags", "--fix-move-numbers", "--progress", "never"]
    report = cluster_equals_one_process(tmp_path, capsys, common, 0)
    assert any(p["code"] == code for entry in report for p in entry.get("warnings", []))
    assert any(p["code"] == "result-fixed" for entry in report for p in entry.get("warnings", []))
