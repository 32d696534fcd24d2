"""bench_fast_paths' FEN parts run on the library as it is: each part calls private
readers (``_Reader.read_placement`` and the like) to time a fast path beside the general
one, so a change of their shape would break ``make bench`` without a test failing. Here
each part's two ways run as the bench runs them (``--part NAME MODE FILE``, a process of
its own) over a small seeded mix of the whole-process benches' lines. What the bench
times, their cost, is never asserted here.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from paths import ROOT

pytest.importorskip("chess")  # the mixed workload is built from python-chess's games (dev extra)

BENCH = ROOT / "bench"
FEN_PARTS = ("fen", "fen-fields", "fen-errors", "placement", "plain-json")


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    lines = subprocess.run(
        [sys.executable, str(BENCH / "mixed_workload.py"), "300"], capture_output=True, text=True, check=True,
        timeout=120,
    ).stdout
    path = tmp_path_factory.mktemp("bench") / "mixed.jsonl"
    path.write_text(lines, encoding="utf-8")
    return path


@pytest.mark.parametrize("mode", ["fast", "general"])
@pytest.mark.parametrize("part", FEN_PARTS)
def test_each_fen_part_runs_each_way_as_the_bench_runs_it(part, mode, mixed):
    done = subprocess.run(
        [sys.executable, str(BENCH / "bench_fast_paths.py"), "--part", part, mode, str(mixed)],
        capture_output=True, text=True, timeout=120, cwd="/",
    )
    assert done.returncode == 0, done.stderr
    assert float(done.stdout.split()[-1]) >= 0  # the CPU seconds of the run, as the bench reads them
