"""``--dask`` with ``--moves`` (and ``--export``): the workers rewrite the moves as one process does (the same
per-game code), so the parts joined, the report and the rejects are those of one process."""

from __future__ import annotations

import json
import pathlib
import random

import pytest
from test_normalize_properties import GAMES

from notation.cli.main import main

pytestmark = [pytest.mark.slow]

pytest.importorskip("distributed")


def _run(argv: list[str], capsys) -> int:
    capsys.readouterr()
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


@pytest.mark.parametrize("moves", [["--moves", "uci"], ["--moves", "check"], ["--export", "full"]])
def test_normalize_moves_on_a_local_cluster_gives_one_process_output(tmp_path: pathlib.Path, capsys, monkeypatch,
                                                                      moves):
    monkeypatch.chdir(tmp_path)
    rng = random.Random(3)
    text = "".join(rng.choice(GAMES) for _ in range(200))
    (tmp_path / "db.pgn").write_bytes(text.encode("utf-8", "surrogateescape"))
    common = [*moves, "--profile", "xboard", "--progress", "never"]
    assert _run(["normalize", "db.pgn", "-o", "one.pgn", "--report", "one.jsonl", "--reject-to", "one-rejects.pgn",
                 *common], capsys) == 1
    assert _run(["normalize", "db.pgn", "--dask", "local:2", "--partition-size", "20000", "-o", "parts",
                 "--report", "parts.jsonl", "--reject-to", "parts-rejects.pgn", *common], capsys) == 1
    parts = sorted(path for path in (tmp_path / "parts").iterdir() if path.name.startswith("part-"))
    assert len(parts) > 2
    assert b"".join(path.read_bytes() for path in parts) == (tmp_path / "one.pgn").read_bytes()
    assert (tmp_path / "parts-rejects.pgn").read_bytes() == (tmp_path / "one-rejects.pgn").read_bytes()
    one = [json.loads(line) for line in (tmp_path / "one.jsonl").read_text().splitlines()]
    cluster = [json.loads(line) for line in (tmp_path / "parts.jsonl").read_text().splitlines()]
    assert [{k: v for k, v in entry.items() if k != "input"} for entry in cluster] == one
    assert any(p["code"] == "illegal-move" for entry in one for p in entry["errors"])
