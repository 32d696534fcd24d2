"""``--dask`` with ``--moves`` (and ``--export``): the workers rewrite the moves as one process does (the same
per-game code), so the parts joined, the report and the rejects are those of one process."""

from __future__ import annotations

import pathlib
import random

import pytest
from cluster_runs import cluster_equals_one_process
from test_normalize_properties import GAMES

pytestmark = [pytest.mark.slow]

pytest.importorskip("distributed")


@pytest.mark.parametrize("moves", [["--moves", "uci"], ["--moves", "check"], ["--export", "full"]])
def test_normalize_moves_on_a_local_cluster_gives_one_process_output(tmp_path: pathlib.Path, capsys, monkeypatch,
                                                                      moves):
    monkeypatch.chdir(tmp_path)
    rng = random.Random(3)
    text = "".join(rng.choice(GAMES) for _ in range(200))
    (tmp_path / "db.pgn").write_bytes(text.encode("utf-8", "surrogateescape"))
    common = [*moves, "--profile", "xboard", "--progress", "never"]
    one = cluster_equals_one_process(tmp_path, capsys, common, 1)
    assert any(p["code"] == "illegal-move" for entry in one for p in entry["errors"])
