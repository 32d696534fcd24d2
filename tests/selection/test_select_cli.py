"""``notation select`` as a user runs it: a subprocess, files, pipes, compressed input,
several inputs, --jobs, bytes that are not UTF-8, the summary and the exit statuses."""

from __future__ import annotations

import gzip
import subprocess
import sys

import pytest
from paths import ROOT

pytestmark = [pytest.mark.slow]

DATABASE = ROOT / "fixtures" / "selection" / "database.pgn"
RUY = "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4"


def notation(*args: str, stdin: bytes = b"", cwd=None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "notation", *args], input=stdin, capture_output=True, timeout=300,
                          check=False, cwd=cwd)


def _games() -> list[bytes]:
    from notation.pgn.gameread import read_games

    return [game.raw.text.encode("utf-8", "surrogateescape") for game in read_games(DATABASE.read_text("utf-8"))]


def test_a_pipe_in_and_out_and_the_summary():
    games = _games()
    done = notation("select", "-", "--variant", "crazyhouse", stdin=DATABASE.read_bytes())
    assert done.returncode == 0, done.stderr
    assert done.stdout == games[7] + games[8]
    assert done.stderr.decode() == "notation select: 14 games read, 2 written (matching)\n"


def test_compressed_and_plain_inputs_one_after_another_into_a_file(tmp_path):
    games = _games()
    (tmp_path / "more.pgn.gz").write_bytes(gzip.compress(DATABASE.read_bytes()))
    (tmp_path / "plain").write_bytes(DATABASE.read_bytes())
    done = notation("select", "more.pgn.gz", "plain", "--reaches", RUY, "-o", "out.pgn", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out.pgn").read_bytes() == (games[0] + games[1]) * 2
    assert b"28 games read, 4 written" in done.stderr


@pytest.mark.parametrize(("source", "args"), [
    ("file", ["--tag", "Event~Open"]),
    ("pipe", ["--reaches", RUY, "--invert"]),
    ("gzip", ["--has-problem", "illegal-move", "--plies", "2:"]),
])
def test_jobs_write_what_one_process_writes(tmp_path, source, args):
    big = DATABASE.read_bytes() * 800  # 2.1 MB: three chunks for the workers
    path = tmp_path / ("big.pgn.gz" if source == "gzip" else "big.pgn")
    path.write_bytes(gzip.compress(big) if source == "gzip" else big)
    where = "-" if source == "pipe" else str(path)
    stdin = big if source == "pipe" else b""
    one = notation("select", where, *args, stdin=stdin)
    two = notation("select", where, *args, "--jobs", "2", stdin=stdin)
    assert one.returncode == two.returncode == 0, two.stderr
    assert one.stdout == two.stdout and one.stdout
    assert one.stderr == two.stderr


def test_bytes_that_are_not_utf8_are_written_as_they_were(tmp_path):
    game = b'[Event "Caf\xe9 Open"]\n[White "M\xfcller"]\n[Result "*"]\n\n1. e4 *\n\n'
    other = b'[Event "Club"]\n[Result "*"]\n\n1. d4 *\n\n'
    (tmp_path / "latin1.pgn").write_bytes(other + game + other)
    done = notation("select", "latin1.pgn", "--tag", "White=Müller", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == game


def test_no_game_matching_is_not_an_error():
    done = notation("select", str(DATABASE), "--tag", "White=Nobody")
    assert (done.returncode, done.stdout) == (0, b"")
    assert b"14 games read, 0 written" in done.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["missing.pgn"], b"missing.pgn"),
    (["broken.pgn.gz"], b"broken.pgn.gz"),
    (["database.pgn", "-o", "no/such/dir/out.pgn"], b"out.pgn"),
    (["database.pgn", "-o", "database.pgn"], b"is the input file"),
    (["-", "-"], b"only once"),
])
def test_input_and_output_errors_exit_2_without_a_traceback(tmp_path, args, message):
    refused(tmp_path, "select", args, message)


def refused(tmp_path, command: str, args: list[str], message: bytes) -> None:
    """``command`` run in ``tmp_path`` beside the database and a gzip file cut short exits 2
    with ``message`` and no traceback, the database untouched."""
    (tmp_path / "database.pgn").write_bytes(DATABASE.read_bytes())
    (tmp_path / "broken.pgn.gz").write_bytes(gzip.compress(DATABASE.read_bytes())[:200])
    done = notation(command, *args, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert message in done.stderr and b"Traceback" not in done.stderr
    assert (tmp_path / "database.pgn").read_bytes() == DATABASE.read_bytes()


def test_help_says_the_criteria_and_the_exit_statuses():
    done = notation("select", "--help")
    assert done.returncode == 0
    for word in (b"--tag NAME=VALUE", b"--reaches FEN", b"--has-problem CODE", b"--invert", b"Exit status"):
        assert word in done.stdout
