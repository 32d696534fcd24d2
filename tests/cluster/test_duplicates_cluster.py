"""``normalize --duplicates --dask`` and ``check --duplicates --dask`` on a LocalCluster of two
workers: the parts, report, problems and summary one process gives for the inputs one after
another, copies found across them."""

from __future__ import annotations

import gzip
import json
import os
import uuid

import fsspec
import pytest
from distributed import Client, LocalCluster
from paths import ROOT

from notation.check import CheckOptions, run_check
from notation.cluster.check import check_on, discover, prefix_copies_on
from notation.cluster.normalize import InputNames, normalize_on
from notation.cluster.plan import Input
from notation.pgn.duplicate_jobs import with_copies
from notation.pgn.duplicates import DuplicateMatch, DuplicateSettings, DuplicatesPolicy, MergeTags
from notation.pgn.normalize import NormalizeOptions, normalize_text
from notation.variants import DEFAULT_REGISTRY

pytestmark = [pytest.mark.slow]

CASES = json.loads((ROOT / "fixtures" / "pgn" / "duplicates_cases.json").read_text(encoding="utf-8"))
GAMES = [game for case in CASES if "piece_letters" not in case for game in case["games"]]


class _Sink:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def write(self, text: str) -> None:
        self.parts.append(text)


def _on_cluster(client, big: str, small: str, options: NormalizeOptions):
    """``big`` as big.pgn and ``small`` as small.pgn.gz in a new memory:// folder, normalised
    on ``client`` in partitions of 3,000 bytes: the parts joined, the summary, the report."""
    root = f"memory://duplicates-{uuid.uuid4().hex}"
    with fsspec.open(f"{root}/in/big.pgn", "wb") as out:
        out.write(big.encode("utf-8"))
    with fsspec.open(f"{root}/in/small.pgn.gz", "wb") as out:
        out.write(gzip.compress(small.encode("utf-8")))
    inputs = [Input("big.pgn", f"{root}/in/big.pgn"), Input("small.pgn.gz", f"{root}/in/small.pgn.gz")]
    report = _Sink()
    summary = normalize_on(client, inputs, options, f"{root}/out", 3_000, report=report,  # type: ignore[arg-type]
                           input_names=InputNames.INCLUDED, chunk_bytes=3_000)
    fs = fsspec.filesystem("memory")
    names = sorted(fs.ls(f"{root}/out", detail=False))
    assert len(names) > 4  # several partitions of each input
    return b"".join(fs.cat_file(name) for name in names).decode("utf-8"), summary, report


@pytest.fixture(scope="module")
def client():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        yield client


@pytest.mark.parametrize("policy", [DuplicatesPolicy.DROP, DuplicatesPolicy.MARK])
def test_copies_across_a_plain_and_a_compressed_input_as_one_process_finds_them(client, policy):
    big, small = "".join(GAMES) * 3, "".join(reversed(GAMES))
    options = NormalizeOptions.create(duplicates=DuplicateSettings(policy))
    joined, summary, report = _on_cluster(client, big, small, options)
    # one process over the two inputs one after another (the second's copies name the first)
    want, want_summary, want_report = normalize_text(big + small, options)
    assert joined == want
    assert summary.problems == want_summary.problems
    found = [(e["input"], e["game"], w["first"]["input"], w["first"]["game"]) for line in report.parts
             for e in [json.loads(line)] for w in e["warnings"] if w["code"] == "duplicate-game"]
    games_big = sum(1 for _ in GAMES) * 3
    expected = []
    for entry in want_report:
        for warning in entry["warnings"]:
            if warning["code"] != "duplicate-game":
                continue
            first_game = warning["first"]["game"]
            where = ("big.pgn", entry["game"]) if entry["game"] <= games_big else ("small.pgn.gz",
                                                                                   entry["game"] - games_big)
            expected.append((where[0], where[1], "big.pgn" if first_game <= games_big else "small.pgn.gz",
                             first_game if first_game <= games_big else first_game - games_big))
    assert found == expected and found


def test_check_duplicates_on_two_workers_gives_one_process_problems(client, tmp_path):
    """A plain file cut into pieces and a gzip one cut into chunks: each worker records its
    games' keys, the client decides in input order, across the files, as one process."""
    (tmp_path / "a.pgn").write_text("".join(GAMES) * 2, encoding="utf-8")
    (tmp_path / "b.pgn.gz").write_bytes(gzip.compress("".join(reversed(GAMES)).encode("utf-8")))
    paths = [str(tmp_path / "a.pgn"), str(tmp_path / "b.pgn.gz")]
    options = CheckOptions(variant=DEFAULT_REGISTRY.find("chess"), registry=DEFAULT_REGISTRY,
                           duplicates=DuplicateSettings(DuplicatesPolicy.MARK))
    single: list = []
    want = run_check(paths, options, single.append)
    found: list = []
    summary = check_on(client, discover(paths), options, found.append, 2_000, 2_000)
    assert found == single
    assert summary == want
    copies = [problem for problem in single if problem.code == "duplicate-game"]
    assert len(copies) > len(GAMES) and any("a.pgn" in p.message for p in copies if p.path.endswith("b.pgn.gz"))


def _one_process(tmp_path, text: str, options: NormalizeOptions):
    """One process's answer for ``text`` as one input: the copies found first, then normalised."""
    path = tmp_path / "whole.pgn"
    path.write_text(text, encoding="utf-8")
    fd = os.open(path, os.O_RDONLY)
    try:
        found = with_copies(options, fd, 1)
    finally:
        os.close(fd)
    return normalize_text(text, found)


@pytest.mark.parametrize("policy", [DuplicatesPolicy.DROP, DuplicatesPolicy.MARK])
def test_prefixes_and_merged_tags_across_inputs_on_two_workers_as_one_process(client, tmp_path, policy):
    """By prefix, the longer game kept wherever it comes (the shorter in the first input, the
    longer in a later partition or the compressed input); with --merge-tags (drop) the kept
    games' new tags gathered on the workers: the parts are one process's output for the inputs
    one after another, and so are the report's verdicts."""
    short = "".join(reversed(GAMES))  # the cut-short games before the whole ones
    big, small = short + "".join(GAMES) * 2, "".join(GAMES)
    merge = MergeTags.MISSING if policy is DuplicatesPolicy.DROP else MergeTags.NONE
    options = NormalizeOptions.create(duplicates=DuplicateSettings(policy, match=DuplicateMatch.PREFIX, merge=merge))
    joined, summary, report = _on_cluster(client, big, small, options)
    want, want_summary, want_report = _one_process(tmp_path, big + small, options)
    assert joined == want
    assert summary.problems == want_summary.problems
    assert want_summary.problems["duplicate-game"] > len(GAMES) * 2
    if merge is MergeTags.MISSING:
        assert want_summary.problems["duplicate-tag-conflict"] > 0 and joined.count("[Annotator ") > 0
    games_big = len(GAMES) * 3

    def where(name: str | None, game: int) -> int:
        return game + (games_big if name == "small.pgn.gz" else 0)

    found = sorted((where(e["input"], e["game"]), where(w["first"]["input"], w["first"]["game"]), w.get("prefix"))
                   for line in report.parts for e in [json.loads(line)] for w in e["warnings"]
                   if w["code"] == "duplicate-game")
    expected = sorted((e["game"], w["first"]["game"], w.get("prefix")) for e in want_report for w in e["warnings"]
                      if w["code"] == "duplicate-game")
    assert found == expected and any(prefix for _, _, prefix in found)


def test_check_by_prefix_on_two_workers_gives_one_process_problems(client, tmp_path):
    """The copies found first on the workers (normalize's partitions), then checked in
    pieces: the games cut short in the plain file named as prefixes of the compressed one's."""
    short = [case["games"][copy - 1] for case in CASES if "piece_letters" not in case for copy, _ in case["prefixes"]]
    (tmp_path / "a.pgn").write_text("".join(short) * 4, encoding="utf-8")
    (tmp_path / "b.pgn.gz").write_bytes(gzip.compress("".join(GAMES).encode("utf-8")))
    paths = [str(tmp_path / "a.pgn"), str(tmp_path / "b.pgn.gz")]
    options = CheckOptions(variant=DEFAULT_REGISTRY.find("chess"), registry=DEFAULT_REGISTRY,
                           duplicates=DuplicateSettings(DuplicatesPolicy.MARK, match=DuplicateMatch.PREFIX))
    single: list = []
    want = run_check(paths, options, single.append)
    copies = prefix_copies_on(client, list(discover(paths)), options, 2_000, 2_000)
    found: list = []
    summary = check_on(client, discover(paths), options._replace(copies=copies), found.append, 2_000,
                       2_000)
    assert found == single
    assert summary == want
    prefixes = [p for p in single if "a prefix of game" in p.message]
    assert prefixes and any("b.pgn.gz" in p.message for p in prefixes if p.path.endswith("a.pgn"))
