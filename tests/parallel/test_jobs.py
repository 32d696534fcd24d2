"""``--jobs`` on regular files: ``notation normalize`` and ``notation check`` write, report and
exit exactly as one process does, whatever the number of workers and the size of the pieces;
problems name the right file and line; signals leave no worker and no temporary file behind.

The databases are built from the fixture games with the damage real files carry: a byte
order mark, CRLF games, Latin-1 bytes, comments holding blank lines and tag-like lines,
illegal and unreadable set-ups, unknown variants, random corruption, a long stretch with
no game start. Pieces are made small (``notation.pgn.pieces`` sizes, set in a fresh
interpreter running the command) so that a file of a few hundred kilobytes is cut into
dozens of them.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import pathlib
import random
import signal
import subprocess
import sys
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples
from installed import installed_script
from test_normalize_properties import FIXTURES, GAMES, _corrupt

from notation.check.games import check_pgn_text
from notation.check.judge import PositionJudge
from notation.check.problem import ProblemLog
from notation.pgn import ranges
from notation.pgn.cuts import find_cut
from notation.pgn.splitter import iter_games
from notation.variants import DEFAULT_REGISTRY

pytestmark = [pytest.mark.slow]

WAIT_SECONDS = 120  # generous bound for every wait: the machine is shared and slow at times
ENCODING, ERRORS = "utf-8", "surrogateescape"

# Well-formed games (lichess's export), for tests that count lines.
CLEAN = [game.text for game in iter_games((FIXTURES / "lichess_variants.pgn").read_text(encoding="utf-8"))]
CLEAN = [text if text.endswith("\n\n") else text.rstrip("\n") + "\n\n" for text in CLEAN]

_RUN_WITH_PIECE_SIZES = (
    "import sys\n"
    "import notation.pgn.stream_jobs as stream_jobs\n"
    "import notation.pgn.pieces as pieces\n"
    "pieces.RANGE_BYTES = stream_jobs.CHUNK_CHARS = int(sys.argv[1])\n"
    "pieces.LONGEST_PIECE_BYTES = stream_jobs.LONGEST_CHUNK_CHARS = int(sys.argv[2])\n"
    "import notation.check.problem as problem\n"
    "problem.SPILL_EVENTS = 3  # check's workers write all but a few problems to their files\n"
    "from notation.cli.main import main\n"
    "sys.exit(main(sys.argv[3:]))\n"
)

BAD_SETUPS = [
    '[Event "bad fen"]\n[Variant "Crazyhouse"]\n[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0"]\n'
    '[SetUp "1"]\n\n1. e4 e5 *\n\n',
    '[Event "illegal"]\n[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]\n[SetUp "1"]\n\n*\n\n',
    '[Event "unknown variant"]\n[Variant "Kriegspiel Deluxe"]\n\n1. e4 *\n\n',
    '[Event "two kings"]\n[FEN "kk6/8/8/8/8/8/8/KK6 w - - 0 1"]\n\n1. Ka2 *\n\n',
]


def _tricky_database(size: int, seed: int, *, damaged_encoding: bool) -> bytes:
    """About ``size`` bytes of games with the damage of real files (see the module doc)."""
    rng = random.Random(seed)
    out = [b"\xef\xbb\xbf"]
    total = 0
    while total < size:
        roll = rng.random()
        text = rng.choice(BAD_SETUPS) if roll < 0.1 else rng.choice(GAMES)
        if rng.random() < 0.1:  # a comment with blank lines and a tag-like line inside
            text = text.replace("\n\n", '\n\n{ a note\n\n[Event "inside a comment"]\n\nends here }\n', 1)
        data = text.encode(ENCODING, ERRORS)
        if rng.random() < 0.15:
            data = data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
        if damaged_encoding and rng.random() < 0.03:
            data = data.replace(b'[Event "', b'[Event "Caf\xe9 ', 1)  # Latin-1, as old files have it
        if rng.random() < 0.05:
            data = _corrupt(data, rng)
        if rng.random() < 0.005:  # a long stretch without a game start: one piece, or a stream's own stretch
            data += b"1. e4 e5 2. Nf3 Nc6\n\n" * 4_000
        out.append(data)
        total += len(data)
    return b"".join(out)


def _run(piece_bytes: int, longest_bytes: int, *argv: str, cwd: pathlib.Path) -> tuple[int, bytes, bytes]:
    done = subprocess.run(
        [sys.executable, "-c", _RUN_WITH_PIECE_SIZES, str(piece_bytes), str(longest_bytes), *argv],
        capture_output=True, timeout=600, cwd=cwd,
    )
    return done.returncode, done.stdout, done.stderr


# -- normalize ------------------------------------------------------------------------------

@pytest.mark.parametrize("damaged_encoding", [False, True], ids=["utf8", "latin1-lines"])
def test_normalize_writes_the_same_bytes_whatever_the_jobs(tmp_path, damaged_encoding):
    source = tmp_path / "db.pgn"
    source.write_bytes(_tricky_database(600_000, 5, damaged_encoding=damaged_encoding))
    results = {}
    for jobs, piece in [(1, 4 << 20), (2, 4 << 20), (2, 9_000), (3, 9_000), (3, 2_000)]:
        name = f"{jobs}-{piece}"
        out, report, rejects = (tmp_path / f"{kind}-{name}" for kind in ("out.pgn", "report.jsonl", "rejects.pgn"))
        code, _, err = _run(piece, 4 * piece, "normalize", str(source), "-o", str(out), "--report", str(report),
                            "--reject-to", str(rejects), "--profile", "xboard", "--jobs", str(jobs),
                            "--progress", "never", "--summary", "json", cwd=tmp_path)
        assert code == 1, err  # problems are reported
        results[jobs, piece] = (out.read_bytes(), report.read_bytes(), rejects.read_bytes(), err)
    serial = results.pop((1, 4 << 20))
    assert serial[0] and serial[2] and serial[1].count(b"\n") > 20
    for key, result in results.items():
        assert result == serial, key


def test_normalize_report_names_the_line_of_each_bad_tag(tmp_path):
    """A bad FEN deep in a file cut into many pieces is reported at its line in the file."""
    games = [CLEAN[n % len(CLEAN)] for n in range(400)]
    bad = '[Event "late"]\n[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1"]\n[SetUp "1"]\n\n*\n\n'
    text = "".join(games[:300]) + bad + "".join(games[300:])
    source = tmp_path / "db.pgn"
    source.write_bytes(text.encode(ENCODING, ERRORS))
    fen_line = "".join(games[:300]).count("\n") + 2
    report = tmp_path / "report.jsonl"
    code, _, err = _run(5_000, 20_000, "normalize", str(source), "-o", str(tmp_path / "out.pgn"),
                        "--report", str(report), "--jobs", "2", "--progress", "never", cwd=tmp_path)
    assert code == 1, err
    entries = [json.loads(line) for line in report.read_text().splitlines()]
    late = [entry for entry in entries if entry["line"] == fen_line]
    assert late and late[0]["game"] == 301, entries


@pytest.mark.parametrize("damaged_encoding", [False, True], ids=["utf8", "latin1-lines"])
def test_normalize_with_jobs_reads_stdin_and_compressed_files_as_one_process(tmp_path, damaged_encoding):
    """Input that cannot be entered in the middle (a compressed file, standard input) is
    read by the parent and cut into chunks for the workers: the same bytes, report,
    rejects and summary as one process, whatever the chunk size (small ones put the long
    stretches without a game start on the parent's own path)."""
    data = _tricky_database(300_000, 9, damaged_encoding=damaged_encoding)
    packed = tmp_path / "db.pgn.gz"
    packed.write_bytes(gzip.compress(data))
    scratch = tmp_path / "scratch"  # nothing temporary may stay
    scratch.mkdir()
    results = {}
    for source, jobs, piece in [("gz", 1, 4 << 20), ("gz", 2, 4 << 20), ("gz", 2, 9_000), ("gz", 3, 2_000),
                                ("stdin", 2, 9_000), ("stdin", 3, 3_000)]:
        name = f"{source}-{jobs}-{piece}"
        out, report, rejects = (tmp_path / f"{kind}-{name}" for kind in ("out.pgn", "report.jsonl", "rejects.pgn"))
        argv = ["normalize", str(packed) if source == "gz" else "-", "-o", str(out), "--report", str(report),
                "--reject-to", str(rejects), "--profile", "xboard", "--jobs", str(jobs), "--progress", "never",
                "--summary", "json"]
        done = subprocess.run([sys.executable, "-c", _RUN_WITH_PIECE_SIZES, str(piece), str(4 * piece), *argv],
                              input=data if source == "stdin" else b"", capture_output=True, timeout=600,
                              cwd=tmp_path, env={**os.environ, "TMPDIR": str(scratch)})
        assert done.returncode == 1, done.stderr
        results[name] = (out.read_bytes(), report.read_bytes(), rejects.read_bytes(), done.stderr)
    serial = results.pop(f"gz-1-{4 << 20}")
    assert serial[0] and serial[2] and serial[1].count(b"\n") > 20
    for key, result in results.items():
        assert result == serial, key
    assert not list(scratch.iterdir())


# -- check ----------------------------------------------------------------------------------

def _check_tree(root: pathlib.Path) -> pathlib.Path:
    tree = root / "tree"
    (tree / "sub").mkdir(parents=True)
    (tree / "clean-encoding.pgn").write_bytes(_tricky_database(400_000, 21, damaged_encoding=False))
    (tree / "latin1.pgn").write_bytes(_tricky_database(400_000, 22, damaged_encoding=True))
    nul = bytearray(_tricky_database(200_000, 23, damaged_encoding=False))
    nul[150_000] = 0  # binary from here: one process stops reading there
    (tree / "sub" / "late-nul.pgn").write_bytes(bytes(nul))
    (tree / "sub" / "packed.pgn.gz").write_bytes(gzip.compress(_tricky_database(100_000, 24, damaged_encoding=True)))
    fens = ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "8/8/8/8/8/8/8/8 w - - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 # notation: ignore", "not a fen"]
    (tree / "sub" / "positions.fen").write_text("\n".join(fens * 50) + "\n")
    (tree / "sub" / "empty.pgn").write_text("\n\n")
    return tree


@pytest.mark.parametrize("output_format", ["text", "json", "sarif"])
def test_check_prints_the_same_whatever_the_jobs(tmp_path, output_format):
    _check_tree(tmp_path)
    results = {}
    for jobs, piece in [(1, 4 << 20), (2, 4 << 20), (2, 7_000), (3, 7_000), (3, 1_500)]:
        results[jobs, piece] = _run(piece, 4 * piece, "check", "tree", "--format", output_format,
                                    "--jobs", str(jobs), "--progress", "never", cwd=tmp_path)
    serial = results.pop((1, 4 << 20))
    assert serial[0] == 1 and serial[1].count(b"\n") > 50, serial[2]
    for key, result in results.items():
        assert result == serial, key


def test_check_names_the_file_and_line_of_a_problem_deep_in_a_cut_file(tmp_path):
    games = [CLEAN[n % len(CLEAN)] for n in range(400)]
    bad = '[Event "late"]\n[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1"]\n[SetUp "1"]\n\n*\n\n'
    text = "".join(games[:250]) + bad + "".join(games[250:])
    (tmp_path / "db.pgn").write_bytes(text.encode(ENCODING, ERRORS))
    fen_line = "".join(games[:250]).count("\n") + 2
    printed = {}
    for jobs in ("1", "2"):
        code, out, err = _run(5_000, 20_000, "check", "db.pgn", "--jobs", jobs, "--progress", "never",
                              cwd=tmp_path)
        assert code == 1, err
        printed[jobs] = out
    assert printed["1"] == printed["2"]
    assert f"db.pgn:{fen_line}:".encode() in printed["2"], printed["2"]


def test_check_of_lone_cr_line_ends_prints_what_line_feeds_print_whatever_the_jobs(tmp_path):
    """Games of an old Mac file (lines ended by a lone CR) among games ended by line feeds,
    with a bad FEN, a NUL-free line longer than any line may be, and a bad move after them:
    each problem at the line the same file with line feeds gives it, in one process or
    several, the reading layer's (``line-too-long``) too."""
    games = [CLEAN[n % len(CLEAN)] for n in range(300)]
    bad_fen = '[Event "late"]\n[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1"]\n[SetUp "1"]\n\n*\n\n'
    long_line = "[Event \"long\"]\n\n1. e4 {" + "x" * 1_100_000 + "} *\n\n"  # past MAX_LINE_BYTES
    bad_move = '[Event "bad move"]\n\n1. e4 e5 2. Qxh9 *\n\n'
    text = "".join(games[:120]) + bad_fen + "".join(games[120:200]) + long_line + "".join(games[200:]) + bad_move
    with_feeds = tmp_path / "feeds"
    with_crs = tmp_path / "crs"
    with_feeds.mkdir()
    with_crs.mkdir()
    (with_feeds / "db.pgn").write_bytes(text.encode(ENCODING, ERRORS))
    # two games in three with lone CRs (the blank lines between games keep their line feeds)
    mac = "\n\n[".join(game.replace("\n", "\r") if n % 3 else game for n, game in enumerate(text.split("\n\n[")))
    assert mac.count("\r") > 1000
    (with_crs / "db.pgn").write_bytes(mac.encode(ENCODING, ERRORS))
    printed = {}
    for directory in (with_feeds, with_crs):
        for jobs in ("1", "2"):
            code, out, err = _run(5_000, 20_000, "check", "db.pgn", "--jobs", jobs, "--progress", "never",
                                  cwd=directory)
            assert code == 1, err
            printed[directory.name, jobs] = out
    assert len(set(printed.values())) == 1, printed
    for code in (b"line-too-long", b"fen-syntax", b"bad-move-syntax"):
        assert code in printed["crs", "2"]


def test_check_jobs_must_be_positive_and_exclude_dask(tmp_path):
    (tmp_path / "a.pgn").write_text("")
    code, _, err = _run(1 << 20, 4 << 20, "check", "a.pgn", "--jobs", "0", cwd=tmp_path)
    assert code == 2 and b"--jobs must be at least 1" in err
    code, _, err = _run(1 << 20, 4 << 20, "check", "a.pgn", "--jobs", "2", "--dask", "local:1", cwd=tmp_path)
    assert code == 2 and b"--jobs" in err and b"Traceback" not in err


# -- the pieces themselves ------------------------------------------------------------------

def _cut_points(data: bytes) -> list[int]:
    text = data.decode(ENCODING, ERRORS)
    points, cut = [], find_cut(text, 0, False)
    while cut >= 0:
        points.append(len(text[:cut].encode(ENCODING, ERRORS)))
        cut = find_cut(text, cut - 1, False)
    return points


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 5_000), st.booleans())
def test_pieces_start_at_cut_points_and_know_their_first_line(seed, every, latin1):
    data = _tricky_database(20_000, seed, damaged_encoding=latin1)[: 20_000 + seed % 3_000]
    file = io.BytesIO(data)
    text_from = ranges.first_text(file)
    starts = ranges.nominal_starts(len(data), every)
    located = [ranges.locate_within(file, start, end, text_from) for start, end in zip(
        starts, [*starts[1:], len(data)], strict=True)]
    pieces = list(ranges.pieces(located, len(data)))
    assert pieces[0].start == 0 and pieces[-1].end == len(data)
    cuts = set(_cut_points(data))
    for before, after in zip(pieces, pieces[1:], strict=False):
        assert before.end == after.start and after.start in cuts
    for piece in pieces:
        head = data[: piece.start].decode(ENCODING, ERRORS)
        assert piece.first_line == 1 + _breaks(head)
    # each nominal range finds the first cut point within it, and only within it
    for start, end in zip(starts[1:], [*starts[2:], len(data)], strict=True):
        inside = [cut for cut in cuts if start <= cut < end and cut > text_from]
        assert ranges.find_start_before(file, start, end, text_from) == (min(inside) if inside else None)
    assert ranges.find_start_before(file, 0, len(data), text_from) == 0
    # without counting lines: the same bytes, cut at the same points
    cut_only = [ranges.find_start_before(file, start, end, text_from) for start, end in zip(
        starts, [*starts[1:], len(data)], strict=True)]
    assert [(span.start, span.end) for span in ranges.spans(cut_only, len(data))] == [
        (piece.start, piece.end) for piece in pieces]


def _breaks(text: str) -> int:
    return text.count("\n") + text.count("\r") - text.count("\r\n")


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 40), st.sampled_from(["", "\n", "\r", "\r\n", "\n\n", " \r"]))
def test_a_checked_text_counts_its_lines_as_the_splitter_numbers_them(seed, lone_crs, tail):
    # ``check --jobs`` numbers each piece from 1 and moves the next on by this count.
    rng = random.Random(seed)
    text = _tricky_database(6_000, seed, damaged_encoding=False).decode(ENCODING, ERRORS)
    for _ in range(lone_crs):  # old Mac line ends and stray CRs, inside games and between
        at = rng.randrange(len(text) + 1)
        text = text[:at] + "\r" + text[at:]
    text += tail
    blocks = [text[i:i + 997] for i in range(0, len(text), 997)]
    judge, standard = PositionJudge(DEFAULT_REGISTRY), DEFAULT_REGISTRY.find("standard")
    checked = check_pgn_text(blocks, judge, standard, ProblemLog("piece.pgn"), first_line=rng.randint(1, 50))
    assert checked.line_breaks == _breaks(text)
    assert check_pgn_text([], judge, standard, ProblemLog("empty.pgn")).line_breaks == 0


# -- signals --------------------------------------------------------------------------------

def _group_gone(pgid: int) -> bool:
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _drain_until_exit(fd: int, process: subprocess.Popen) -> bytes:
    """Read what the run still writes (its clean-up flushes into the pipe) until it ends;
    returns its standard error."""
    deadline = time.monotonic() + WAIT_SECONDS
    while process.poll() is None and time.monotonic() < deadline:
        try:
            os.read(fd, 1 << 16)
        except BlockingIOError:
            time.sleep(0.02)
    _, err = process.communicate(timeout=WAIT_SECONDS)
    return err


def _read_some(fd: int, process: subprocess.Popen) -> None:
    """Wait (bounded) until the run has written something to the pipe ``fd`` reads."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        try:
            if os.read(fd, 1):
                return
        except BlockingIOError:
            pass
        if process.poll() is not None:
            pytest.fail(f"notation ended (status {process.returncode}) before writing")
        time.sleep(0.05)
    pytest.fail("notation wrote nothing")


@pytest.mark.parametrize("signo", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP], ids=lambda s: s.name)
@pytest.mark.parametrize("to_group", [False, True], ids=["process", "group"])
def test_signal_to_normalize_with_jobs_leaves_no_worker_and_no_temporary(tmp_path, signo, to_group):
    """The output is a FIFO read once and then left full: the run waits there, mid-way, with
    its workers started; the signal then ends it all."""
    source = tmp_path / "db.pgn"
    source.write_bytes(_tricky_database(3_000_000, 3, damaged_encoding=False))
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    process = subprocess.Popen(
        [installed_script("notation"), "normalize", str(source), "-o", str(fifo), "--jobs", "2",
         "--report", str(tmp_path / "report.jsonl"), "--progress", "never"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
        env={**os.environ, "TMPDIR": str(scratch)},
    )
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        _read_some(reader, process)
        if to_group:
            os.killpg(process.pid, signo)
        else:
            process.send_signal(signo)
        err = _drain_until_exit(reader, process)
        assert _group_gone(process.pid), "a worker outlived the command"
    finally:
        os.close(reader)
        _kill_group(process.pid)
        process.kill()
        process.wait(WAIT_SECONDS)
    assert process.returncode == 128 + signo
    assert b"Traceback" not in err, err
    assert list(scratch.iterdir()) == []  # the workers' pieces are gone
    assert sorted(path.name for path in tmp_path.iterdir()) == ["db.pgn", "out.fifo", "scratch"]


def test_a_worker_lost_is_an_error_naming_it_not_an_internal_error(tmp_path, monkeypatch, capsys):
    # How the pool sees a worker die is tests/parallel/test_pool.py's; here, what the user reads.
    from notation.check import jobs
    from notation.cli.main import main
    from notation.parallel.fork_pool import WorkerLost

    def lost(*args, **kwargs):
        raise WorkerLost("worker process 4242 was killed by SIGKILL before the work was done")

    monkeypatch.setattr(jobs, "check_in_parallel", lost)
    (tmp_path / "games.pgn").write_text('[Event "?"]\n\n1. e4 *\n')
    assert main(["check", str(tmp_path / "games.pgn"), "--jobs", "2", "--progress", "never"]) == 3
    err = capsys.readouterr().err
    assert err == ("notation check: error: worker process 4242 was killed by SIGKILL before the work was done; "
                   "nothing more was written\n")


@pytest.mark.parametrize("signo", [signal.SIGTERM, signal.SIGINT], ids=lambda s: s.name)
def test_signal_to_check_with_jobs_leaves_no_worker_and_no_temporary(tmp_path, signo):
    """Many problems go to a pipe read once and then left full: the run waits there. The
    file's 24,000 problems are more than a worker holds: it wrote the first ones to a file."""
    games = "".join(BAD_SETUPS) * 6_000
    (tmp_path / "bad.pgn").write_text(games)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    read_end, write_end = os.pipe()
    os.set_blocking(read_end, False)
    process = subprocess.Popen(
        [installed_script("notation"), "check", "bad.pgn", "--jobs", "2", "--progress", "never"],
        stdout=write_end, stderr=subprocess.PIPE, start_new_session=True, cwd=tmp_path,
        env={**os.environ, "TMPDIR": str(scratch)},
    )
    os.close(write_end)
    try:
        _read_some(read_end, process)
        process.send_signal(signo)
        err = _drain_until_exit(read_end, process)
        assert _group_gone(process.pid), "a worker outlived the command"
    finally:
        os.close(read_end)
        _kill_group(process.pid)
        process.kill()
        process.wait(WAIT_SECONDS)
    assert process.returncode == 128 + signo
    assert b"Traceback" not in err, err
    assert list(scratch.iterdir()) == []  # the workers' spilled problems are gone
