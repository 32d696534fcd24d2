"""``normalize --duplicates`` and ``check --duplicates`` over several INPUT files, as users run
them (the command in a subprocess, real files, one of them compressed, standard input,
``--jobs``): a database spread over three files, each case of the duplicates table cut into
parts (its ``files``: how many of its games each file gets, in order), so that copies, games
cut short and the whole games they start fall in different files. Every answer is the
fixture table's, and the answer for the three files concatenated into one input, apart from
file names and lines."""

from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from paths import ROOT

CASES = [case for case in json.loads((ROOT / "fixtures" / "pgn" / "duplicates_cases.json").read_text(encoding="utf-8"))
         if "piece_letters" not in case]
FILES = 3
_KEPT = re.compile(r"game (\d+) \((.+), line (\d+)\)")


def _run(args: list[str], stdin: bytes = b"", cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "notation", *args], input=stdin, capture_output=True, env=env,
                          timeout=300, cwd=cwd)


class Database:
    """The three files (``names``, in ``folder``), their concatenation (``whole.pgn``), and
    where each case's game went: (file name, number in the file) and its number in the whole."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.names = [f"source-{index + 1}.pgn" for index in range(FILES)]
        parts: list[list[str]] = [[] for _ in range(FILES)]
        self.place: dict[tuple[int, int], tuple[str, int]] = {}
        for case_index, case in enumerate(CASES):
            game = 0
            for file_index, count in enumerate(case["files"]):
                for _ in range(count):
                    parts[file_index].append(case["games"][game])
                    game += 1
                    self.place[(case_index, game)] = (self.names[file_index], len(parts[file_index]))
        self.texts = ["".join(part) for part in parts]
        for name, text in zip(self.names, self.texts, strict=True):
            (folder / name).write_text(text, encoding="utf-8")
        (folder / "whole.pgn").write_text("".join(self.texts), encoding="utf-8")
        self.before = {name: sum(len(part) for part in parts[:index]) for index, name in enumerate(self.names)}
        self.before["whole.pgn"] = 0

    def whole_number(self, name: str, number: int) -> int:
        return self.before[name] + number

    def expected(self, key: str) -> set[tuple[int, int]]:
        """The table's pairs (copy, kept) under ``key`` (or two keys joined by +), numbered in the whole."""
        pairs = set()
        for case_index, case in enumerate(CASES):
            for part in key.split("+"):
                for copy, kept in case[part]:
                    pairs.add((self.whole_number(*self.place[(case_index, copy)]),
                               self.whole_number(*self.place[(case_index, kept)])))
        return pairs


@pytest.fixture(scope="module")
def database(tmp_path_factory) -> Database:
    return Database(tmp_path_factory.mktemp("across"))


def _report_pairs(database: Database, report: Path, default: str) -> set[tuple[int, int]]:
    """(copy, kept) of every duplicate-game in a normalize report, numbered in the whole."""
    pairs = set()
    for line in report.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        for warning in entry["warnings"]:
            if warning["code"] == "duplicate-game":
                first = warning["first"]
                pairs.add((database.whole_number(entry.get("input", default), entry["game"]),
                           database.whole_number(first["input"], first["game"])))
    return pairs


def _normalize(database: Database, inputs: list[str], *args: str, stdin: bytes = b"") -> tuple[bytes, Path, str]:
    label = "-".join(inputs).replace(".", "_") + "-".join(args).replace(" ", "")
    out, report = database.folder / f"{label}.out", database.folder / f"{label}.jsonl"
    done = _run(["normalize", *inputs, *args, "-o", str(out), "--report", str(report)], stdin, database.folder)
    assert done.returncode == 0, done.stderr
    return out.read_bytes(), report, done.stderr.decode()


@pytest.mark.parametrize(("by", "key"), [([], "duplicates"), (["--duplicates-by", "prefix"], "duplicates+prefixes")])
def test_mark_across_files_names_each_kept_game_as_one_input_does(database, by, key):
    several, several_report, several_err = _normalize(database, database.names, "--duplicates", "mark", *by)
    whole, whole_report, whole_err = _normalize(database, ["whole.pgn"], "--duplicates", "mark", *by)
    assert several == whole  # marked: every game kept
    assert _report_pairs(database, several_report, "") == _report_pairs(database, whole_report, "whole.pgn") \
        == database.expected(key)
    assert several_err.split("problems:")[1] == whole_err.split("problems:")[1]
    first = json.loads(several_report.read_text(encoding="utf-8").splitlines()[0])
    assert first["input"] in database.names  # several inputs: each entry names its own
    if by:
        _, jobs_report, _ = _normalize(database, database.names, "--duplicates", "mark", *by, "--jobs", "2")
        assert jobs_report.read_bytes() == several_report.read_bytes()


def test_drop_by_prefix_with_merged_tags_across_files_writes_what_one_input_writes(database):
    args = ["--duplicates", "drop", "--duplicates-by", "prefix", "--merge-tags"]
    several, several_report, several_err = _normalize(database, database.names, *args)
    whole, whole_report, whole_err = _normalize(database, ["whole.pgn"], *args)
    assert several == whole
    assert several_err == whole_err
    assert _report_pairs(database, several_report, "") == database.expected("duplicates+prefixes")
    # standard input, a compressed file and --jobs: the same bytes
    zipped = database.folder / "source-3.pgn.gz"
    zipped.write_bytes(gzip.compress(database.texts[2].encode("utf-8")))
    mixed, _, _ = _normalize(database, ["-", database.names[1], zipped.name], *args, "--jobs", "2",
                             stdin=database.texts[0].encode("utf-8"))
    assert mixed == whole
    kept_games = several.decode("utf-8").split("\n\n[")
    conflicts = [(json.loads(line).get("input"), json.loads(line)["game"], warning["tag"])
                 for line in several_report.read_text(encoding="utf-8").splitlines()
                 for warning in json.loads(line)["warnings"] if warning["code"] == "duplicate-tag-conflict"]
    for case_index, case in enumerate(CASES):
        for kept, tags, conflicting in case.get("merged", []):
            name, number = database.place[(case_index, kept)]
            moves = case["games"][kept - 1].split("\n\n")[1]
            [text] = [game for game in kept_games if moves in game]
            for tag, value in tags:
                assert f'[{tag} "{value}"]' in text and f'[{tag} "{value}"]' not in case["games"][kept - 1]
            assert sorted(tag for at, game, tag in conflicts if (at, game) == (name, number)) == sorted(conflicting)
    assert any(case.get("merged") for case in CASES)


def _check_pairs(database: Database, stdout: bytes) -> set[tuple[str, int, str, int]]:
    """(file, line, kept file, kept line) of every duplicate-game ``check --format json`` printed."""
    pairs = set()
    for problem in json.loads(stdout)["problems"]:
        if problem["code"] == "duplicate-game":
            kept = _KEPT.search(problem["message"])
            assert kept is not None, problem
            pairs.add((problem["path"], problem["line"], kept.group(2), int(kept.group(3))))
    return pairs


def test_check_by_prefix_across_files_reports_what_normalize_marks(database):
    args = ["--duplicates", "--duplicates-by", "prefix", "--format", "json"]
    one = _run(["check", *database.names, *args], cwd=database.folder)
    jobs = _run(["check", *database.names, *args, "--jobs", "2"], cwd=database.folder)
    assert one.returncode == 0, one.stdout
    assert (one.returncode, one.stdout) == (jobs.returncode, jobs.stdout)
    _, report, _ = _normalize(database, database.names, "--duplicates", "mark", "--duplicates-by", "prefix")
    marked = set()
    for line in report.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        for warning in entry["warnings"]:
            if warning["code"] == "duplicate-game":
                marked.add((entry["input"], entry["line"], warning["first"]["input"], warning["first"]["line"]))
    assert _check_pairs(database, one.stdout) == marked
    whole = _run(["check", "whole.pgn", *args], cwd=database.folder)
    messages = [p for p in json.loads(whole.stdout)["problems"] if p["code"] == "duplicate-game"]
    assert len(messages) == len(marked) == len(database.expected("duplicates+prefixes"))
    prefixes = [p for p in json.loads(one.stdout)["problems"] if "a prefix of game" in p["message"]]
    assert len(prefixes) == sum(len(case["prefixes"]) for case in CASES)


def test_check_names_the_same_first_game_by_prefix_as_without(database):
    """An exact copy whose set no longer game extends is named the same way, with its
    number as check counts games, whether prefixes are looked for or not."""
    same = _run(["check", *database.names, "--duplicates", "--format", "json"], cwd=database.folder)
    prefix = _run(["check", *database.names, "--duplicates", "--duplicates-by", "prefix", "--format", "json"],
                  cwd=database.folder)
    extended = {(path, line) for path, line, _, _ in _check_pairs(database, prefix.stdout)}
    same_pairs = _check_pairs(database, same.stdout)
    exact = {json.dumps(p) for p in json.loads(prefix.stdout)["problems"]
             if p["code"] == "duplicate-game" and "the same game as" in p["message"]}
    assert exact <= {json.dumps(p) for p in json.loads(same.stdout)["problems"]}
    assert {(path, line) for path, line, _, _ in same_pairs} <= extended


@pytest.mark.parametrize(("args", "stdin", "says"), [
    (["check", "-", "--duplicates", "--duplicates-by", "prefix"], b'[Event "a"]\n\n1. e4 *\n',
     "can be read only once"),
    (["check", "source-1.pgn", "--duplicates", "--duplicates-by", "prefix", "--variant", "crazyhouse"], b"",
     "--variant crazyhouse cannot go with it"),
    (["normalize", "source-1.pgn", "source-1.pgn", "--duplicates", "drop"], b"", "is named twice"),
    (["normalize", "source-1.pgn", "source-2.pgn", "--in-place"], b"", "--in-place rewrites one INPUT"),
    (["normalize", "source-1.pgn", "source-2.pgn", "-o", "source-2.pgn"], b"", "OUTPUT is the input file"),
    (["normalize", "source-1.pgn", "missing.pgn", "--duplicates", "mark"], b"", "cannot read 'missing.pgn'"),
    (["normalize", "source-1.pgn", "missing.pgn"], b"", "cannot read 'missing.pgn'"),
])
def test_what_still_cannot_work_says_why(database, args, stdin, says):
    done = _run(args, stdin, database.folder)
    assert done.returncode == 2, done.stderr
    err = done.stderr.decode()
    assert says in err and "Traceback" not in err and len(err.splitlines()) == 1, err
    assert not done.stdout  # refused before anything was written


@pytest.mark.slow
def test_dask_by_prefix_with_merged_tags_across_files_writes_what_one_input_writes(database):
    """``--dask local:2``: worker processes, each file cut into partitions; the parts in order
    are one input's output, and the report its verdicts."""
    args = ["--duplicates", "drop", "--duplicates-by", "prefix", "--merge-tags"]
    whole, _, whole_err = _normalize(database, ["whole.pgn"], *args)
    out = database.folder / "parts"
    done = _run(["normalize", *database.names, *args, "--dask", "local:2", "--partition-size", "600", "-o", str(out),
                 "--report", str(database.folder / "dask.jsonl")], cwd=database.folder)
    assert done.returncode == 0, done.stderr
    parts = sorted(out.glob("part-*.pgn"))
    assert len(parts) > FILES
    assert b"".join(part.read_bytes() for part in parts) == whole
    assert done.stderr.decode().split("problems:")[1] == whole_err.split("problems:")[1]
    assert _report_pairs(database, database.folder / "dask.jsonl", "") == database.expected("duplicates+prefixes")


@pytest.mark.slow
def test_dask_check_by_prefix_across_files_reports_what_one_process_reports(database):
    args = ["--duplicates", "--duplicates-by", "prefix", "--format", "json"]
    one = _run(["check", *database.names, *args], cwd=database.folder)
    dask = _run(["check", *database.names, *args, "--dask", "local:2", "--partition-size", "600"],
                cwd=database.folder)
    assert (dask.returncode, dask.stdout) == (one.returncode, one.stdout)
    assert len(_check_pairs(database, dask.stdout)) == len(database.expected("duplicates+prefixes"))
