"""Where ``notation normalize`` writes: through symbolic links, into FIFOs and devices,
``/dev/stdout``, never replacing what is not a regular file; compressed outputs carry a
checksum; what ``-o -`` holds after an error. The installed command, as users run it."""

from __future__ import annotations

import gzip
import os
import stat
import subprocess
import threading

import pytest
import zstandard
from hypothesis import given, settings
from hypothesis import strategies as st
from installed import installed_script
from paths import ROOT

from notation.inputs import CorruptInput, read_text
from notation.outputs import Delivery, Output, OutputError, delivery_for, write_text

FIXTURES = ROOT / "fixtures" / "pgn"
SOURCE = FIXTURES / "fics_setup.pgn"
TIMEOUT = 120


def normalize(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([installed_script("notation"), "normalize", *args, "--progress", "never"],
                          capture_output=True, timeout=TIMEOUT, **kwargs)


@pytest.fixture(scope="module")
def expected(tmp_path_factory) -> bytes:
    out = tmp_path_factory.mktemp("expected") / "out.pgn"
    assert normalize(str(SOURCE), "-o", str(out), "--profile", "lichess").returncode == 0
    return out.read_bytes()


@pytest.mark.slow
def test_output_through_a_symlink_rewrites_the_target_and_keeps_the_link(tmp_path, expected):
    target = tmp_path / "real" / "target.pgn"
    target.parent.mkdir()
    target.write_text("old\n")
    target.chmod(0o640)
    link = tmp_path / "link.pgn"
    link.symlink_to(target)
    result = normalize(str(SOURCE), "-o", str(link), "--profile", "lichess")
    assert result.returncode == 0, result.stderr
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_bytes() == expected
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert sorted(p.name for p in target.parent.iterdir()) == ["target.pgn"]  # no temporary left
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.pgn", "real"]


@pytest.mark.slow
def test_output_through_a_dangling_symlink_creates_its_target(tmp_path, expected):
    link = tmp_path / "link.pgn"
    link.symlink_to(tmp_path / "new.pgn")
    assert normalize(str(SOURCE), "-o", str(link), "--profile", "lichess").returncode == 0
    assert link.is_symlink() and (tmp_path / "new.pgn").read_bytes() == expected


@pytest.mark.slow
def test_in_place_on_a_symlink_edits_its_target(tmp_path, expected):
    target = tmp_path / "db.pgn"
    target.write_bytes(SOURCE.read_bytes())
    link = tmp_path / "link.pgn"
    link.symlink_to(target)
    result = normalize(str(link), "--in-place", "--profile", "lichess")
    assert result.returncode == 0, result.stderr
    assert link.is_symlink()
    assert target.read_bytes() == expected
    assert (tmp_path / "link.pgn.bak").read_bytes() == SOURCE.read_bytes()


@pytest.mark.slow
def test_output_into_a_fifo_streams_and_keeps_the_fifo(tmp_path, expected):
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    received: list[bytes] = []

    def read() -> None:
        with open(fifo, "rb") as reader:
            received.append(reader.read())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    result = normalize(str(SOURCE), "-o", str(fifo), "--profile", "lichess")
    reader.join(timeout=TIMEOUT)
    assert not reader.is_alive()
    assert result.returncode == 0, result.stderr
    assert received == [expected]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.fifo"]


@pytest.mark.slow
def test_output_to_a_device_writes_into_it():
    before = os.lstat("/dev/null")
    if not stat.S_ISCHR(before.st_mode):
        pytest.skip("this machine's /dev/null is not a device (something else replaced it)")
    result = normalize(str(SOURCE), "-o", "/dev/null", "--profile", "lichess")
    assert result.returncode == 0, result.stderr
    after = os.lstat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev and after.st_ino == before.st_ino


@pytest.mark.slow
def test_dev_stdout_is_written_through_not_replaced(tmp_path, expected):
    link_before = os.readlink("/dev/stdout")
    piped = normalize(str(SOURCE), "-o", "/dev/stdout", "--profile", "lichess")
    assert piped.returncode == 0 and piped.stdout == expected
    # stdout redirected to a file opened for appending (the shell's >>): kept and appended to
    existing = tmp_path / "log.pgn"
    existing.write_bytes(b"kept\n")
    with open(existing, "ab") as stdout:
        redirected = subprocess.run([installed_script("notation"), "normalize", str(SOURCE), "-o", "/dev/stdout",
                                     "--profile", "lichess", "--progress", "never"],
                                    stdout=stdout, stderr=subprocess.PIPE, timeout=TIMEOUT)
    assert redirected.returncode == 0, redirected.stderr
    assert existing.read_bytes() == b"kept\n" + expected
    assert os.readlink("/dev/stdout") == link_before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["log.pgn"]


def test_delivery_is_chosen_by_what_the_path_is(tmp_path):
    regular = tmp_path / "file.pgn"
    regular.write_text("x")
    link = tmp_path / "link.pgn"
    link.symlink_to(regular)
    fifo = tmp_path / "f.fifo"
    os.mkfifo(fifo)
    assert delivery_for(str(regular)) is Delivery.ATOMIC
    assert delivery_for(str(link)) is Delivery.ATOMIC
    assert delivery_for(str(tmp_path / "new.pgn")) is Delivery.ATOMIC
    assert delivery_for(str(fifo)) is Delivery.STREAM
    assert delivery_for("/dev/null") is Delivery.STREAM
    assert delivery_for("-") is Delivery.STREAM
    with pytest.raises(OutputError, match="directory"):
        delivery_for(str(tmp_path))


def test_an_exception_leaves_an_atomic_target_as_it_was(tmp_path):
    target = tmp_path / "out.pgn"
    target.write_text("before\n")
    with pytest.raises(RuntimeError):
        with Output(str(target)) as out:
            out.write("half")
            raise RuntimeError("stop")
    assert target.read_text() == "before\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.pgn"]


def test_the_temporary_file_sits_beside_its_target_new_and_private(tmp_path, monkeypatch):
    """Made with os.open, not tempfile: created exclusively, readable by its owner only,
    named after the target, listed for the signal handlers until it is put in place; a
    name already taken (another run's temporary) is passed over for a fresh one."""
    from notation import outputs

    target = tmp_path / "out.pgn"
    target.write_text("before\n")
    taken = tmp_path / ".out.pgn.000000000000.tmp"
    taken.write_text("another run's\n")
    draws = iter([bytes(6), bytes(6), bytes([1] * 6)])
    monkeypatch.setattr(outputs.os, "urandom", lambda size: next(draws))
    output = Output(str(target))
    temporary = tmp_path / ".out.pgn.010101010101.tmp"
    assert temporary.exists() and str(temporary) in outputs.TEMPORARY_FILES
    assert stat.S_IMODE(temporary.stat().st_mode) == 0o600
    output.write("after\n")
    output.commit()
    assert target.read_text() == "after\n"
    assert taken.read_text() == "another run's\n"  # never opened, never removed
    assert sorted(p.name for p in tmp_path.iterdir()) == [taken.name, "out.pgn"]
    assert str(temporary) not in outputs.TEMPORARY_FILES


def test_a_directory_without_a_free_temporary_name_is_an_output_error(tmp_path, monkeypatch):
    from notation import outputs

    (tmp_path / ".out.pgn.000000000000.tmp").write_text("")
    monkeypatch.setattr(outputs.os, "urandom", lambda size: bytes(size))
    with pytest.raises(OutputError, match="cannot write .*out.pgn"):
        Output(str(tmp_path / "out.pgn"))


_DISCARD_AND_EXIT = """
import sys
from notation.outputs import Output
for path in sys.argv[1:]:
    output = Output(path)
    output.write("[Event \\"x\\"]\\n" * 50)  # held in the layers' buffers, not yet written
    output.discard()
"""


@pytest.mark.slow
@pytest.mark.parametrize("suffix", ["", ".gz", ".bz2", ".zst"])
def test_a_discarded_output_leaves_nothing_to_write_at_exit(tmp_path, suffix):
    """What a signal or an error leaves: the interpreter's exit must not try to flush text
    into a closed file (Python 3.13 prints that as an ignored exception after a signal;
    ``-X dev`` prints it on every version)."""
    import sys

    target = str(tmp_path / f"out.pgn{suffix}")
    done = subprocess.run([sys.executable, "-X", "dev", "-c", _DISCARD_AND_EXIT, target, "-"],
                          capture_output=True, timeout=TIMEOUT, cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == b"", done.stderr.decode()
    assert list(tmp_path.iterdir()) == []


def test_zst_output_has_a_checksum_that_catches_flipped_bytes(tmp_path):
    path = tmp_path / "out.pgn.zst"
    text = SOURCE.read_text(encoding="utf-8") * 20
    write_text(str(path), text)
    params = zstandard.get_frame_parameters(path.read_bytes())
    assert params.has_checksum
    packed = bytearray(path.read_bytes())
    middle = len(packed) // 2
    packed[middle:middle + 4] = bytes(b ^ 0x55 for b in packed[middle:middle + 4])
    path.write_bytes(bytes(packed))
    with pytest.raises(CorruptInput):
        read_text(str(path))


@pytest.mark.slow
def test_stdout_after_an_error_holds_a_prefix_and_the_error_says_so(tmp_path, expected):
    """Documented: with -o - (a stream) what was written before the error stays written.
    It is a prefix of the full output, and the message says the output is incomplete."""
    many = SOURCE.read_text(encoding="utf-8") * 2000
    packed = gzip.compress(many.encode(), mtime=0)
    cut = tmp_path / "cut.pgn.gz"
    cut.write_bytes(packed[: len(packed) * 3 // 4])
    full = normalize("-", "--profile", "lichess", "--summary", "none", input=many.encode())
    assert full.returncode == 0
    result = normalize(str(cut), "-o", "-", "--profile", "lichess")
    assert result.returncode == 2
    err = result.stderr.decode()
    assert "ends early (truncated file)" in err and "standard output is incomplete" in err
    assert 0 < len(result.stdout) < len(full.stdout)
    assert full.stdout.startswith(result.stdout)
    # a file output, by contrast, is not created at all
    out = tmp_path / "out.pgn"
    assert normalize(str(cut), "-o", str(out)).returncode == 2
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cut.pgn.gz"]


@pytest.mark.slow
def test_in_place_needs_a_regular_file(tmp_path):
    fifo = tmp_path / "db.pgn"
    os.mkfifo(fifo)
    result = normalize(str(fifo), "--in-place")
    assert result.returncode == 2
    assert b"--in-place needs a regular file" in result.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


@pytest.mark.slow
def test_a_socket_is_not_an_output(tmp_path):
    import socket

    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(tmp_path / "out.sock"))
        result = normalize(str(SOURCE), "-o", str(tmp_path / "out.sock"))
    finally:
        server.close()
    assert result.returncode == 2 and b"it is a socket" in result.stderr


@pytest.mark.slow
@settings(max_examples=40, derandomize=True, deadline=None)
@given(st.text(max_size=300), st.sampled_from(["", ".gz", ".bz2", ".zst"]))
def test_written_text_reads_back_the_same(tmp_path_factory, text, suffix):
    path = tmp_path_factory.mktemp("round") / f"out.pgn{suffix}"
    write_text(str(path), text)
    assert read_text(str(path)) == text


def test_a_long_output_is_handed_to_writeback_as_it_is_written(tmp_path, monkeypatch):
    """Each range written is handed over once, in order, with the real call (the commit's
    ``fsync`` then waits for little); the file holds exactly what was written."""
    import notation.outputs as outputs

    handed: list[tuple[int, int]] = []
    real = os.posix_fadvise

    def recording(fd: int, offset: int, length: int, advice: int) -> None:
        assert advice == os.POSIX_FADV_DONTNEED
        handed.append((offset, length))
        real(fd, offset, length, advice)

    monkeypatch.setattr(outputs, "WRITEBACK_BYTES", 4096)
    monkeypatch.setattr(os, "posix_fadvise", recording)
    blocks = [bytes([65 + n % 26]) * (1000 + 37 * n) for n in range(60)]
    target = tmp_path / "out.pgn"
    with Output(str(target)) as out:
        for block in blocks:
            out.write_bytes(block)
    assert target.read_bytes() == b"".join(blocks)
    assert len(handed) >= 10
    ends = 0
    for offset, length in handed:
        assert offset == ends and length >= 4096
        ends = offset + length
    assert ends <= target.stat().st_size


def test_an_output_whose_writeback_advice_is_refused_is_written_whole(tmp_path, monkeypatch):
    import notation.outputs as outputs

    def refused(fd: int, offset: int, length: int, advice: int) -> None:
        raise OSError(22, "Invalid argument")

    monkeypatch.setattr(outputs, "WRITEBACK_BYTES", 1024)
    monkeypatch.setattr(os, "posix_fadvise", refused)
    text = "1. e4 e5 2. Nf3 Nc6 *\n" * 2000
    write_text(str(tmp_path / "out.pgn"), text)
    assert (tmp_path / "out.pgn").read_text() == text
