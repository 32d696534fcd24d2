"""What the ``--dask`` normalize tests share: ``notation`` run in the test's process, and a
local cluster's parts, report and rejects held to one process's."""

from __future__ import annotations

import json
import pathlib

from notation.cli.main import main


def run_main(argv: list[str], capsys) -> int:
    """``notation ARGV`` in this process: its exit status (standard streams captured)."""
    capsys.readouterr()
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


def cluster_equals_one_process(tmp_path: pathlib.Path, capsys, common: list[str], status: int) -> list[dict]:
    """Normalise ``db.pgn`` in ``tmp_path`` with ``common`` options in one process and on a
    local cluster of two workers (several partitions), both exiting with ``status``; assert
    that the parts joined, the rejects and the report are the same, and return the report."""
    assert run_main(["normalize", "db.pgn", "-o", "one.pgn", "--report", "one.jsonl", "--reject-to",
                     "one-rejects.pgn", *common], capsys) == status
    assert run_main(["normalize", "db.pgn", "--dask", "local:2", "--partition-size", "20000", "-o", "parts",
                     "--report", "parts.jsonl", "--reject-to", "parts-rejects.pgn", *common], capsys) == status
    parts = sorted(path for path in (tmp_path / "parts").iterdir() if path.name.startswith("part-"))
    assert len(parts) > 2
    assert b"".join(path.read_bytes() for path in parts) == (tmp_path / "one.pgn").read_bytes()
    assert (tmp_path / "parts-rejects.pgn").read_bytes() == (tmp_path / "one-rejects.pgn").read_bytes()
    one = [json.loads(line) for line in (tmp_path / "one.jsonl").read_text().splitlines()]
    cluster = [json.loads(line) for line in (tmp_path / "parts.jsonl").read_text().splitlines()]
    assert [{k: v for k, v in entry.items() if k != "input"} for entry in cluster] == one
    return one
