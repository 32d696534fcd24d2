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
import re
import subprocess
import uuid

import fsspec
import pytest
import zstandard
from distributed import Client, LocalCluster
from distributed.client import FutureCancelledError
from distributed.comm.core import CommClosedError
from installed import installed_script
from paths import ROOT
from test_normalize_properties import GAMES

from notation.check import CheckOptions, run_check
from notation.cli import cluster_cmd
from notation.cli.main import main
from notation.cli.usage import UsageError
from notation.cluster import ClusterError
from notation.cluster.check import check_on, discover
from notation.cluster.chunks import Chunk, Failure, chunks
from notation.cluster.normalize import InputNames, normalize_on
from notation.cluster.plan import Input, Numbering, byte_ranges, layout
from notation.fen.profiles import resolve_options
from notation.inputs import Compression
from notation.pgn.normalize import BadGamePolicy, NormalizeOptions, normalize
from notation.variants import DEFAULT_REGISTRY

pytestmark = [pytest.mark.slow]

FIXTURES = ROOT / "fixtures" / "pgn"
TIMEOUT = 300


@pytest.fixture(scope="module")
def client():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None,
                      scheduler_kwargs={"dashboard_address": "127.0.0.1:0"}) as cluster, \
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


def _ranges(client, path: str, size: int) -> list:
    item = Input(path, path)
    return list(byte_ranges(client, 0, item, layout(item, size), size, Numbering.LOCAL))


def test_normalize_on_two_workers_gives_one_process_output(client):
    """A plain input cut into many partitions and a gzip one cut into chunks as the client
    reads it; zstd parts; the parts joined are the two inputs' outputs one after the other,
    the report each input's."""
    root = f"memory://cluster-{uuid.uuid4().hex}"
    big, small = _database(400, 1), _database(200, 2)
    with fsspec.open(f"{root}/in/big.pgn", "wb") as out:
        out.write(big.encode("utf-8", "surrogateescape"))
    with fsspec.open(f"{root}/in/small.pgn.gz", "wb") as out:
        out.write(gzip.compress(small.encode("utf-8", "surrogateescape")))
    options = NormalizeOptions.create("xboard", on_bad=BadGamePolicy.REJECT)
    inputs = [Input("big.pgn", f"{root}/in/big.pgn"), Input("small.pgn.gz", f"{root}/in/small.pgn.gz")]
    assert len(_ranges(client, f"{root}/in/big.pgn", 20_000)) > 4
    assert len(list(chunks("small.pgn.gz", f"{root}/in/small.pgn.gz", 20_000, Failure.RAISE))) > 2
    report, rejects = _Sink(), _Sink()
    summary = normalize_on(client, inputs, options, f"{root}/out", 20_000, Compression.ZSTD, report, rejects,  # type: ignore[arg-type]
                           InputNames.INCLUDED)
    fs = fsspec.filesystem("memory")
    names = sorted(fs.ls(f"{root}/out", detail=False))
    assert len(names) > 7
    assert [name.rsplit("/", 1)[1] for name in names] == [f"part-{i:05d}.pgn.zst" for i in range(len(names))]
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
    """Big PGN files cut into partitions (one with bytes that are not UTF-8, merged piece by
    piece), a directory, a FEN file, a missing path: problems and summary as ``run_check``."""
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
    assert want.read.games > 300 and want.read.plies > 500 and want.read.positions == 2  # counted, and alike
    assert len(_ranges(client, str(tmp_path / "dir" / "games.pgn"), 7_000)) > 3  # cut, not read whole
    assert len(_ranges(client, str(tmp_path / "latin1.pgn"), 7_000)) > 3  # damaged: cut all the same


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
        layout(Input("memory://nowhere/x.pgn", "memory://nowhere/x.pgn"), 1000)


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
    (["normalize", "a.pgn", "b.pgn", "--in-place"], "--in-place rewrites one INPUT; several were given"),
    (["normalize", "a.pgn", "a.pgn", "--dask", "local:1", "-o", "out", "--duplicates", "drop"],
     "--duplicates: INPUT 'a.pgn' is named twice"),
    (["normalize", "a.pgn", "--dask", "local:1"], "--dask needs -o DIRECTORY"),
    (["normalize", "-", "--dask", "local:1", "-o", "out"], "--dask reads files, not standard input"),
    (["normalize", "a.pgn", "--dask", "local:1", "-o", "old"], "'old' already holds 1 part file(s)"),
    (["normalize", "a.pgn", "--dask", "local:1", "-o", "out", "--jobs", "2"], "--jobs and --dask exclude each other"),
    (["normalize", "a.pgn", "--dask", "local:1", "-o", "out", "--partition-size", "12q"], "--partition-size '12q'"),
    (["normalize", "x*.pgn", "--dask", "local:1", "-o", "out"], "no file matches 'x*.pgn'"),
    (["normalize", "a.pgn", "--dask", "local:0", "-o", "out"], "a local cluster needs at least one worker"),
    (["check", "-", "--dask", "local:1"], "--dask reads files, not standard input"),
    (["normalize", "a.pgn", "--dask", "foo://x", "-o", "out"], "--dask 'foo://x': not a scheduler's address"),
    (["normalize", "a.pgn", "--dask", "tcp://127.0.0.1:9", "--dask-dashboard", ":8787", "-o", "out"],
     "--dask-dashboard goes with --dask local[:N]"),
    (["check", "a.pgn", "--dask", "tcp://127.0.0.1:9", "--dask-dashboard", ":8787"],
     "--dask-dashboard goes with --dask local[:N]"),
    (["normalize", "a.pgn", "--dask-dashboard", "127.0.0.1:0", "-o", "out.pgn"],
     "--dask-dashboard goes with --dask local[:N]: without --dask no cluster is started"),
    (["check", "a.pgn", "--dask-dashboard", "127.0.0.1:0"],
     "--dask-dashboard goes with --dask local[:N]: without --dask no cluster is started"),
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
    assert len(_ranges(client, f"{root}/in/good.pgn", 10_000)) > 3
    # the client reads the gzip input while the first parts are being written: some may be done
    with pytest.raises(ClusterError, match=r"^cannot read 'cut.pgn.gz': the gz data ends early \(truncated file\) "
                                           r"\((no part was|\d+ part\(s\) had been) written to '[^']*/out'"):
        normalize_on(client, inputs, NormalizeOptions.create("lichess"), f"{root}/out", 10_000)
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


def test_auto_partitions_give_every_worker_thread_work_within_bounds():
    from notation.cluster.plan import Work, auto_chunk_bytes, auto_partition_bytes

    mib = 1 << 20
    assert auto_partition_bytes([(100_000_000, Compression.NONE)], 2) == 12_500_000  # 8 partitions
    assert auto_partition_bytes([(10 * mib, Compression.NONE)], 2) == 8 * mib  # never below 8 MiB
    assert auto_partition_bytes([(100_000_000, Compression.NONE)], 2, Work.HEAVY) == 12_500_000
    assert auto_partition_bytes([(40_000_000, Compression.NONE)], 2, Work.HEAVY) == 5_000_000  # moves read
    assert auto_partition_bytes([(20_000_000, Compression.NONE)], 2, Work.HEAVY) == 4 * mib  # never below 4 MiB
    assert auto_partition_bytes([(1000, Compression.NONE)], 64, Work.HEAVY) == 4 * mib
    assert auto_partition_bytes([(200 << 30, Compression.NONE)], 64) == 128 * mib  # nor above 128 MiB
    # a compressed input counts five times its size: (5 + 1) * 40 MB over 16 partitions
    assert auto_partition_bytes([(40_000_000, Compression.ZSTD), (40_000_000, Compression.NONE)], 4) == 15_000_000
    assert auto_partition_bytes([], 0) == 8 * mib
    assert auto_chunk_bytes(128 * mib) == 16 * mib and auto_chunk_bytes(8 * mib) == 8 * mib


def test_other_failures_are_not_taken_for_the_cluster_s():
    with pytest.raises(ZeroDivisionError), cluster_cmd.cluster_errors():
        raise ZeroDivisionError("a bug, to be seen as one")


def _compressed(data: bytes, codec: str) -> bytes:
    import bz2

    if codec == "gz":
        return gzip.compress(data)
    if codec == "bz2":
        return bz2.compress(data)
    if codec == "zst-frames":  # several frames, as pzstd and seekable zstd write them
        size = max(1, len(data) // 5)
        return b"".join(zstandard.ZstdCompressor().compress(data[at:at + size]) for at in range(0, len(data), size))
    return zstandard.ZstdCompressor().compress(data)


@pytest.mark.parametrize("codec", ["gz", "bz2", "zst", "zst-frames"])
def test_a_compressed_input_is_cut_into_chunks_and_gives_one_process_output(client, codec):
    """The client reads a compressed input once and hands its text out in chunks cut at game
    starts: many parts, which joined are one process's output; the report is one process's."""
    root = f"memory://chunks-{uuid.uuid4().hex}"
    text = _database(300, 9)
    suffix = codec.split("-")[0]
    with fsspec.open(f"{root}/in/db.pgn.{suffix}", "wb") as out:
        out.write(_compressed(text.encode("utf-8", "surrogateescape"), codec))
    options = NormalizeOptions.create("xboard")
    report = _Sink()
    summary = normalize_on(client, [Input("db", f"{root}/in/db.pgn.{suffix}")], options, f"{root}/out", 10_000,
                           report=report)  # type: ignore[arg-type]
    fs = fsspec.filesystem("memory")
    names = sorted(fs.ls(f"{root}/out", detail=False))
    assert len(names) > 5
    joined = b"".join(fs.cat_file(name) for name in names).decode("utf-8", "surrogateescape")
    results = list(normalize(text, options))
    assert joined == "".join(result.text for result in results)
    assert "".join(report.parts) == "".join(json.dumps(entry, ensure_ascii=False) + "\n"
                                            for result in results for entry in result.report)
    assert summary.games == sum(result.counted for result in results)


def _damaged(count: int, seed: int) -> bytes:
    """``count`` games with bytes that are not UTF-8 on several lines."""
    lines = _database(count, seed, clean=True).encode("utf-8").split(b"\n")
    for number in range(40, len(lines), 97):
        lines[number] = b"caf\xe9 " + lines[number]
    return b"\n".join(lines)


@pytest.mark.parametrize(("codec", "damage"), [
    ("gz", "bad bytes"), ("bz2", "a NUL"), ("zst", "truncated"), ("zst-frames", "bad bytes"), ("gz", "truncated"),
])
def test_a_compressed_pgn_is_checked_in_chunks_as_one_process_checks_it(client, tmp_path, codec, damage):
    """Bad bytes, a NUL and data that ends early in a compressed file: found chunk by chunk
    on the workers, merged, the problems and summary of one process."""
    data = _damaged(1500 if codec == "zst" else 300, 10)  # zstd blocks of 128 KiB: a few whole ones before the cut
    if damage == "a NUL":
        data = data[:len(data) // 2] + b"\0" + data[len(data) // 2:]
    stored = _compressed(data, codec)
    if damage == "truncated":
        stored = stored[: len(stored) * 2 // 3]
    path = tmp_path / f"games.pgn.{codec.split('-')[0]}"
    path.write_bytes(stored)
    assert len(list(chunks(str(path), str(path), 5_000, Failure.KEEP))) > 3
    options = CheckOptions(variant=DEFAULT_REGISTRY.find("chess"), registry=DEFAULT_REGISTRY)
    single: list = []
    want = run_check([str(path)], options, single.append)
    found: list = []
    summary = check_on(client, discover([str(path)]), options, found.append, 5_000)
    assert summary == want
    assert found == single
    codes = {problem.code for problem in single}
    assert "pgn-windows-1252" in codes and ({"binary-file", "decompress"} & codes if damage != "bad bytes" else True)


def test_chunks_number_their_lines_and_the_last_says_why_the_reading_broke(tmp_path):
    text = _database(120, 11)
    path = tmp_path / "db.pgn.gz"
    path.write_bytes(gzip.compress(text.encode("utf-8", "surrogateescape"))[:-30])
    found = list(chunks(str(path), str(path), 3_000, Failure.KEEP))
    assert all(isinstance(chunk, Chunk) for chunk in found) and len(found) > 3
    assert [chunk.last for chunk in found] == [False] * (len(found) - 1) + [True]
    assert found[-1].failure == "the gz data ends early (truncated file)"
    line = 1
    for chunk in found:
        assert chunk.first_line == line
        line += chunk.text.count("\n") + chunk.text.count("\r") - chunk.text.count("\r\n")
    assert text.startswith("".join(chunk.text for chunk in found))
    with pytest.raises(ClusterError, match="cannot read 'x': the gz data ends early"):
        list(chunks("x", str(path), 3_000, Failure.RAISE))


def test_a_stretch_with_no_game_start_is_read_by_the_command_in_its_turn(client, tmp_path):
    """A compressed input with one huge game (far longer than four chunks, no game start
    inside): the command handles that stretch itself, between the chunks before and after;
    normalize and check give one process's answers."""
    # longer than the text the cutter looks through for a game start (some 640 kB)
    huge = '[Event "huge"]\n\n1. e4 ' + "".join(f"{{caf\udce9 {'x' * 70}}}\n" for _ in range(12_000)) + "*\n\n"
    text = _database(40, 12) + huge + _database(40, 13)
    data = text.encode("utf-8", "surrogateescape")
    path = tmp_path / "db.pgn.zst"
    path.write_bytes(zstandard.ZstdCompressor().compress(data))
    from notation.cluster.chunks import Stretch

    assert any(isinstance(item, Stretch) for item in _consumed(chunks(str(path), str(path), 2_000, Failure.KEEP)))
    options = NormalizeOptions.create("xboard")
    report = _Sink()
    normalize_on(client, [Input("db", str(path))], options, str(tmp_path / "out"), 2_000,
                 report=report)  # type: ignore[arg-type]
    parts = sorted((tmp_path / "out").glob("part-*"))
    results = list(normalize(text, options))
    assert b"".join(part.read_bytes() for part in parts).decode("utf-8", "surrogateescape") == \
        "".join(result.text for result in results)
    assert "".join(report.parts) == "".join(json.dumps(entry, ensure_ascii=False) + "\n"
                                            for result in results for entry in result.report)
    check_options = CheckOptions(variant=DEFAULT_REGISTRY.find("chess"), registry=DEFAULT_REGISTRY)
    single: list = []
    want = run_check([str(path)], check_options, single.append)
    found: list = []
    assert check_on(client, discover([str(path)]), check_options, found.append, 2_000) == want
    assert found == single


def test_a_stretch_counts_its_line_breaks_as_the_splitter_numbers_lines():
    """A stretch's pieces, however cut (a CR LF in two, empty pieces), count the line breaks
    of their whole text; ``--jobs`` counts its stretches with the same counter."""
    from notation.cluster.chunks import Stretch
    from notation.pgn.lines import LineCounter, line_breaks

    text = "a\r\nb\rc\n\r\n\r\rd\n\n\r"
    for first in range(len(text) + 1):
        for second in range(first, len(text) + 1):
            pieces = [text[:first], "", text[first:second], text[second:]]
            stretch = Stretch(iter(pieces), 1, None, None)  # type: ignore[arg-type]
            assert "".join(stretch.pieces()) == text
            counter = LineCounter(iter(pieces))
            assert "".join(counter) == text
            assert stretch.line_breaks == counter.breaks == line_breaks(text) == 9, (first, second)


def _consumed(items):
    """The chunks and stretches of ``chunks``, each stretch read through as it comes."""
    from notation.cluster.chunks import Stretch

    for item in items:
        if isinstance(item, Stretch):
            for _ in item.pieces():
                pass
        yield item


def test_suppressed_problems_of_whole_files_are_counted_as_one_process_counts_them(client, tmp_path):
    (tmp_path / "positions.fen").write_text(
        "8/8/8/8/8/8/8/8 w - - 0 1  # notation: ignore\n4k3/8/8/8/8/8/8/4K2R w KQ - 0 1\n")
    options = CheckOptions(variant=DEFAULT_REGISTRY.find("chess"), registry=DEFAULT_REGISTRY)
    paths = [str(tmp_path / "positions.fen")]
    single: list = []
    want = run_check(paths, options, single.append)
    found: list = []
    assert check_on(client, discover(paths), options, found.append, 1_000) == want
    assert found == single and want.suppressed > 0


def _bokeh(monkeypatch, present: bool) -> None:
    """``importlib.util.find_spec`` says bokeh is (or is not) installed."""
    import importlib.util

    find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *rest: (find_spec("json") if present else None) if name == "bokeh"
                        else find_spec(name, *rest))


def test_a_dashboard_without_bokeh_is_refused_before_any_cluster_starts(tmp_path, monkeypatch, capsys):
    (tmp_path / "a.pgn").write_text('[Event "a"]\n\n1. e4 *\n')
    monkeypatch.chdir(tmp_path)
    _bokeh(monkeypatch, False)
    with pytest.raises(SystemExit) as exit_info:
        main(["normalize", "a.pgn", "--dask", "local:1", "--dask-dashboard", "127.0.0.1:0", "-o", "out"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "--dask-dashboard needs bokeh" in err and len(err.splitlines()) == 1, err
    assert not (tmp_path / "out").exists()


def test_a_dashboard_is_started_only_when_asked_and_said_where_it_is(tmp_path, monkeypatch, capsys):
    """``--dask local:1 --dask-dashboard ADDRESS``: the scheduler's HTTP server listens
    there and standard error says where (bokeh draws the pages: not installed here, it is
    only said to be); without the option nothing is said of a dashboard."""
    (tmp_path / "a.pgn").write_text('[Event "a"]\n\n1. e4 *\n')
    monkeypatch.chdir(tmp_path)
    assert main(["check", "a.pgn", "--dask", "local:1"]) == 0
    assert "dashboard" not in capsys.readouterr().err
    _bokeh(monkeypatch, True)
    assert main(["check", "a.pgn", "--dask", "local:1", "--dask-dashboard", "127.0.0.1:0"]) == 0
    err = capsys.readouterr().err
    assert re.search(r"^notation check: the Dask dashboard is at http://127\.0\.0\.1:\d+/status$", err, re.M), err
