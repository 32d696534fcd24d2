"""``--dask`` on a LocalCluster of two workers: the parts, report and summary of one process.

The cluster runs in this process (two single-threaded workers) so ``memory://`` paths,
fsspec's in-memory file system, are the same on the client and the workers. The command's
own errors (no extra, leftover parts, options that exclude each other) are run as the
installed ``notation`` command.
"""

from __future__ import annotations

import gzip
import json
import os
import pathlib
import subprocess
import uuid

import fsspec
import pytest
import zstandard
from distributed import Client, LocalCluster
from distributed.client import FutureCancelledError
from distributed.comm.core import CommClosedError
from installed import installed_script
from test_normalize_properties import GAMES

from notation.check import CheckOptions, run_check
from notation.cli import cluster_cmd
from notation.cli.main import main
from notation.cli.usage import UsageError
from notation.cluster import ClusterError
from notation.cluster.check import check_on, discover
from notation.cluster.normalize import InputNames, normalize_on
from notation.cluster.plan import Input, plan
from notation.fen.profiles import resolve_options
from notation.inputs import Compression
from notation.pgn.normalize import BadGamePolicy, NormalizeOptions, normalize
from notation.variants import DEFAULT_REGISTRY

FIXTURES = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "pgn"
TIMEOUT = 300


@pytest.fixture(scope="module")
def client():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        yield client


def _database(count: int, seed: int, *, clean: bool = False) -> str:
    """``count`` games of the fixtures; ``clean``: only those that are valid UTF-8."""
    import random

    rng = random.Random(seed)
    games = [game for game in GAMES
             if not clean or game.encode("utf-8", "surrogateescape").decode("utf-8", "replace") == game]
    return "".join(rng.choice(games) for _ in range(count))


class _Sink:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def write(self, text: str) -> None:
        self.parts.append(text)


def test_normalize_on_two_workers_gives_one_process_output(client):
    """A plain input cut into many partitions and a gzip one read whole; zstd parts; the
    parts joined are the two inputs' outputs one after the other, the report each input's."""
    root = f"memory://cluster-{uuid.uuid4().hex}"
    big, small = _database(400, 1), _database(40, 2)
    with fsspec.open(f"{root}/in/big.pgn", "wb") as out:
        out.write(big.encode("utf-8", "surrogateescape"))
    with fsspec.open(f"{root}/in/small.pgn.gz", "wb") as out:
        out.write(gzip.compress(small.encode("utf-8", "surrogateescape")))
    options = NormalizeOptions.create("xboard", on_bad=BadGamePolicy.REJECT)
    inputs = [Input("big.pgn", f"{root}/in/big.pgn"), Input("small.pgn.gz", f"{root}/in/small.pgn.gz")]
    partitions = plan(client, inputs, 20_000)
    assert len(partitions) > 4 and partitions[-1].whole
    report, rejects = _Sink(), _Sink()
    summary = normalize_on(client, partitions, options, f"{root}/out", Compression.ZSTD, report, rejects,  # type: ignore[arg-type]
                           InputNames.INCLUDED)
    fs = fsspec.filesystem("memory")
    names = sorted(fs.ls(f"{root}/out", detail=False))
    assert [name.rsplit("/", 1)[1] for name in names] == [f"part-{i:05d}.pgn.zst" for i in range(len(partitions))]
    joined = b"".join(zstandard.ZstdDecompressor().decompressobj().decompress(fs.cat_file(name)) for name in names)

    want_output, want_report, want_rejects, games, problems = [], [], [], 0, 0
    for name, text in (("big.pgn", big), ("small.pgn.gz", small)):
        for result in normalize(text, options):
            (want_rejects if result.rejected else want_output).append(result.text)
            want_report.extend(json.dumps({"input": name, **entry}, ensure_ascii=False) + "\n"
                               for entry in result.report)
            games += result.counted
            problems += len(result.codes)
    assert joined.decode("utf-8", "surrogateescape") == "".join(want_output)
    assert "".join(report.parts) == "".join(want_report)
    assert "".join(rejects.parts) == "".join(want_rejects)
    assert (summary.games, sum(summary.problems.values())) == (games, problems)
    assert want_report and want_rejects  # the fixtures' damage is there to compare


def test_check_on_two_workers_gives_one_process_problems(client, tmp_path):
    """Big PGN files cut into partitions (one with bytes that are not UTF-8: checked again
    whole), a directory, a FEN file, a missing path: problems and summary as ``run_check``."""
    (tmp_path / "dir").mkdir()
    (tmp_path / "dir" / "games.pgn").write_text(_database(200, 3, clean=True), encoding="utf-8", newline="")
    (tmp_path / "dir" / "notes.txt").write_text("not checked\n")
    damaged = _database(150, 4, clean=True).encode("utf-8")
    (tmp_path / "latin1.pgn").write_bytes(damaged[:5000] + b"\xe9\xe8" + damaged[5000:])
    (tmp_path / "positions.fen").write_text(
        "8/8/8/8/8/8/8/8 w - - 0 1\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n")
    paths = [str(tmp_path / "dir"), str(tmp_path / "latin1.pgn"), str(tmp_path / "positions.fen"),
             str(tmp_path / "missing.pgn")]
    options = CheckOptions(variant=DEFAULT_REGISTRY.find("chess"), registry=DEFAULT_REGISTRY)
    single: list = []
    want = run_check(paths, options, single.append)
    found: list = []
    summary = check_on(client, discover(paths), options, found.append, 7_000)
    assert found == single
    assert summary == want
    assert want.unreadable and want.skipped == [] and want.files == 3 and single
    games = str(tmp_path / "dir" / "games.pgn")
    assert len(plan(client, [Input(games, games)], 7_000)) > 3  # cut into partitions, not read whole


def test_check_on_a_cluster_takes_accept_profile_and_exclude_as_one_process_does(client, tmp_path):
    """``--accept`` turns a code into a warning, ``--profile`` adds its mismatches and
    ``--exclude`` leaves a path out, on the cluster exactly as in one process."""
    (tmp_path / "games.pgn").write_text(_database(120, 5, clean=True), encoding="utf-8", newline="")
    (tmp_path / "skipped.pgn").write_text(_database(20, 6, clean=True), encoding="utf-8", newline="")
    (tmp_path / "positions.fen").write_text(
        "8/8/8/8/8/8/8/8 w - - 0 1\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\n")
    paths = [str(tmp_path / name) for name in ("games.pgn", "skipped.pgn", "positions.fen")]
    options = CheckOptions(
        variant=DEFAULT_REGISTRY.find("chess"),
        registry=DEFAULT_REGISTRY,
        accept=frozenset({"missing-king"}),
        profile=("lichess", resolve_options("lichess")),
        excluded=lambda path: path.endswith("skipped.pgn"),
    )
    single: list = []
    want = run_check(paths, options, single.append)
    found: list = []
    summary = check_on(client, discover(paths), options, found.append, 7_000)
    assert found == single
    assert summary == want
    codes = {(problem.code, problem.severity.value) for problem in single}
    assert ("missing-king", "warning") in codes and ("missing-king", "error") not in codes
    assert any(code == "profile-mismatch" for code, _ in codes)
    assert want.excluded == 1 and not any(problem.path.endswith("skipped.pgn") for problem in single)


def test_an_input_that_cannot_be_read_is_one_line(client):
    with pytest.raises(ClusterError, match="cannot read 'memory://nowhere/x.pgn': No such file or directory"):
        plan(client, [Input("memory://nowhere/x.pgn", "memory://nowhere/x.pgn")], 1000)


def _command(args: list[str], cwd: pathlib.Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([installed_script("notation"), *args], capture_output=True, text=True, cwd=cwd,
                          env={**os.environ, **(env or {})}, timeout=TIMEOUT)


def test_without_the_extra_the_error_names_it(tmp_path):
    blocker = tmp_path / "blocked"
    blocker.mkdir()
    (blocker / "distributed.py").write_text(
        "raise ModuleNotFoundError(\"No module named 'distributed'\", name='distributed')\n")
    (tmp_path / "a.pgn").write_text('[Event "a"]\n\n1. e4 *\n')
    for args in (["normalize", "a.pgn", "--dask", "local:2", "-o", "out"], ["check", "a.pgn", "--dask", "local"]):
        done = _command(args, tmp_path, {"PYTHONPATH": str(blocker)})
        assert done.returncode == 2, done.stderr
        assert "pip install 'notation[dask]'" in done.stderr and "distributed is not installed" in done.stderr
        assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(("args", "message"), [
    (["normalize", "a.pgn", "b.pgn", "-o", "out.pgn"], "several INPUTs are read only with --dask"),
    (["normalize", "a.pgn", "--dask", "local:1"], "--dask needs -o DIRECTORY"),
    (["normalize", "-", "--dask", "local:1", "-o", "out"], "--dask reads files, not standard input"),
    (["normalize", "a.pgn", "--dask", "local:1", "-o", "old"], "'old' already holds 1 part file(s)"),
    (["normalize", "a.pgn", "--dask", "local:1", "-o", "out", "--jobs", "2"], "--jobs and --dask exclude each other"),
    (["normalize", "a.pgn", "--dask", "local:1", "-o", "out", "--partition-size", "12q"], "--partition-size '12q'"),
    (["normalize", "x*.pgn", "--dask", "local:1", "-o", "out"], "no file matches 'x*.pgn'"),
    (["normalize", "a.pgn", "--dask", "local:0", "-o", "out"], "a local cluster needs at least one worker"),
    (["check", "-", "--dask", "local:1"], "--dask reads files, not standard input"),
])
def test_impossible_requests_exit_2_with_one_line_before_any_cluster_starts(tmp_path, monkeypatch, capsys, args,
                                                                          message):
    (tmp_path / "a.pgn").write_text('[Event "a"]\n\n1. e4 *\n')
    (tmp_path / "b.pgn").write_text('[Event "b"]\n\n1. d4 *\n')
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "part-00000.pgn").write_text("")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_info:
        main(args)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert not (tmp_path / "out").exists() and not (tmp_path / "out.pgn").exists()


def test_check_finds_and_reads_urls_as_it_does_local_paths(client, tmp_path):
    """A directory, a glob and a missing file behind a URL (fsspec's memory://): the same
    sources, problems and summary as the same files on disk."""
    root = f"memory://check-{uuid.uuid4().hex}"
    files = {"dir/b.pgn": _database(60, 5, clean=True), "dir/a.fen": "8/8/8/8/8/8/8/8 w - - 0 1\n",
             "dir/notes.txt": "not checked\n", "top.pgn": '[Event "x"]\n[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]\n\n*\n'}
    for name, text in files.items():
        with fsspec.open(f"{root}/{name}", "wb") as out:
            out.write(text.encode("utf-8"))
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8", newline="")
    options = CheckOptions(variant=DEFAULT_REGISTRY.find("chess"), registry=DEFAULT_REGISTRY)
    urls = [f"{root}/dir", f"{root}/t*.pgn", f"{root}/missing.pgn"]
    local = [str(tmp_path / "dir"), str(tmp_path / "top.pgn"), str(tmp_path / "missing.pgn")]
    found: list = []
    summary = check_on(client, discover(urls), options, found.append, 2_000)
    single: list = []
    want = run_check(local, options, single.append)
    assert [(p.path.removeprefix(root + "/"), p.line, p.column, p.code) for p in found] == \
        [(p.path.removeprefix(str(tmp_path) + "/"), p.line, p.column, p.code) for p in single]
    assert (summary.files, summary.errors, summary.warnings, len(summary.unreadable)) == \
        (want.files, want.errors, want.warnings, len(want.unreadable)) == (3, want.errors, want.warnings, 1)
    assert single


def test_a_corrupt_input_fails_the_run_and_its_parts_are_removed(client):
    """A truncated gzip input is an error naming it, as without --dask; the parts the other
    partitions wrote do not stay behind looking like a result."""
    root = f"memory://corrupt-{uuid.uuid4().hex}"
    good = _database(200, 6)
    with fsspec.open(f"{root}/in/good.pgn", "wb") as out:
        out.write(good.encode("utf-8", "surrogateescape"))
    with fsspec.open(f"{root}/in/cut.pgn.gz", "wb") as out:
        out.write(gzip.compress(good.encode("utf-8", "surrogateescape"))[:-20])
    inputs = [Input("good.pgn", f"{root}/in/good.pgn"), Input("cut.pgn.gz", f"{root}/in/cut.pgn.gz")]
    partitions = plan(client, inputs, 10_000)
    assert len(partitions) > 3
    with pytest.raises(ClusterError, match=r"cannot read 'cut.pgn.gz': the gz data ends early"):
        normalize_on(client, partitions, NormalizeOptions.create("lichess"), f"{root}/out")
    fs = fsspec.filesystem("memory")
    assert not [name for name in fs.find(f"{root}/out") if "part-" in name]


@pytest.mark.parametrize("error", [
    CommClosedError("in <TCP (closed) ConnectionPool.gather local=tcp://127.0.0.1:1 remote=tcp://127.0.0.1:2>"),
    FutureCancelledError(key="normalize_part-1", reason="scheduler-connection-lost", msg=None),
])
def test_a_cluster_that_fails_is_a_one_line_error(error):
    with pytest.raises(UsageError, match=r"^the Dask cluster failed: \w+: \S") as raised:
        with cluster_cmd.cluster_errors():
            raise error
    assert "\n" not in str(raised.value)


def test_other_failures_are_not_taken_for_the_cluster_s():
    with pytest.raises(ZeroDivisionError), cluster_cmd.cluster_errors():
        raise ZeroDivisionError("a bug, to be seen as one")
