"""bench_fast_paths' FEN parts run on the library as it is: each part calls private
readers (``_Reader.read_placement`` and the like) to time a fast path beside the general
one, so a change of their shape breaks ``make bench`` without a test failing. Here each
part's two ways run over a small seeded mix of the whole-process benches' lines, and those
that count what they read give the same count (what the bench times is their cost, never
here).
"""

from __future__ import annotations

import sys

import pytest
from paths import ROOT

pytest.importorskip("chess")  # the mixed workload is built from python-chess's games (dev extra)
sys.path.insert(0, str(ROOT / "bench"))

import bench_fast_paths  # noqa: E402
from mixed_workload import lines  # noqa: E402

COUNTED_ALIKE = ("fen-errors", "placement")  # both ways answer with the same count
RUN_ONLY = ("fen", "fen-fields", "plain-json")  # each way answers in its own terms


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    path = tmp_path_factory.mktemp("bench") / "mixed.jsonl"
    path.write_text("\n".join(lines(300)) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("part", COUNTED_ALIKE)
def test_a_counting_part_counts_alike_both_ways(part, mixed):
    ways = bench_fast_paths.PARTS[part](mixed)
    assert set(ways) == {"fast", "general"}
    assert ways["fast"]() == ways["general"]()


@pytest.mark.parametrize("part", RUN_ONLY)
def test_the_other_fen_parts_run_both_ways(part, mixed):
    ways = bench_fast_paths.PARTS[part](mixed)
    assert set(ways) == {"fast", "general"}
    for way in ways.values():
        way()
