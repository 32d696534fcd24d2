"""``convert --jobs`` and ``validate --jobs``: the same bytes as one process, whatever N.

The installed command answers a few thousand lines (several chunks of
``notation.cli.line_jobs.CHUNK_ITEMS`` for each worker) mixing every registry variant's
start position, illegal and cut-short setups, positions --repair fixes with a warning,
JSON lines with ``auto``, and lines that cannot be used at all (not UTF-8, bad JSON,
longer than the line limit). Standard output, standard error and the exit status must
be those of ``--jobs 1``. A signal mid-way ends the run and every worker.
"""

from __future__ import annotations

import json
import signal
import subprocess

import pytest
from installed import installed_script
from test_jobs import WAIT_SECONDS, _group_gone, _kill_group

from notation import DEFAULT_REGISTRY
from notation.cli.input_lines import MAX_LINE_BYTES, RawInput
from notation.cli.line_jobs import CHUNK_BYTES, CHUNK_ITEMS, _chunks
from notation.inputs import InputError

pytestmark = [pytest.mark.slow]

STANDARD = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def mixed_lines(json_lines: bool) -> bytes:
    """About ``7 * CHUNK_ITEMS`` input lines of every kind, as bytes."""
    starts = [(variant.key, variant.start_fen) for variant in DEFAULT_REGISTRY]
    kinds = [
        ("standard", STANDARD),
        ("standard", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0"),  # cut short
        ("standard", "rnbqkbnk/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),  # two black kings
        ("standard", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1"),  # a right without its rook
        ("auto", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"),
        ("nosuchvariant", STANDARD),
    ]
    lines: list[bytes] = []
    number = 0
    while len(lines) < 7 * CHUNK_ITEMS:
        for variant, fen in [*starts, *kinds]:
            number += 1
            if json_lines:
                lines.append(json.dumps({"fen": fen, "variant": variant}).encode())
            else:
                lines.append(fen.encode())
            if number % 97 == 0:
                lines.append(b"")  # blank: skipped, but counted
            if number % 211 == 0:
                lines.append(b"\xff\xfe not UTF-8")
            if number % 307 == 0:
                lines.append(b'{"fen": ' if json_lines else b"junk with spaces in it")
            if number % 1009 == 0:
                lines.append(b"x" * (MAX_LINE_BYTES + 10))
    return b"\n".join(lines) + b"\n"


def run(argv: list[str], stdin: bytes) -> tuple[int, bytes, bytes]:
    done = subprocess.run(
        [installed_script("notation"), *argv], input=stdin, capture_output=True, timeout=WAIT_SECONDS, check=False
    )
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize("command", ["convert", "validate"])
@pytest.mark.parametrize("json_lines", [False, True], ids=["text", "json"])
def test_jobs_answer_as_one_process(command, json_lines):
    data = mixed_lines(json_lines)
    extra = ["--repair"] if command == "convert" else []
    mode = ["--json"] if json_lines else []
    one = run([command, *mode, *extra], data)
    assert one[0] == 1 and one[1].count(b"\n") > 6 * CHUNK_ITEMS  # some lines fail; every line answered
    if command == "convert":  # --repair reports what it dropped, on standard error or in the JSON
        assert b'"warnings":[{' in one[1] if json_lines else b"warning: " in one[2]
    for jobs in ("2", "3"):
        assert run([command, *mode, *extra, "--jobs", jobs], data) == one


def test_files_and_a_missing_file_are_answered_as_one_process(tmp_path):
    """Answers carry PATH:LINE; a missing second file stops the run after the first's
    answers, with status 2, as in one process."""
    first = tmp_path / "first.fen"
    first.write_bytes(mixed_lines(False))
    argv = ["convert", "-i", str(first), "-i", str(tmp_path / "missing.fen")]
    one = run(argv, b"")
    assert one[0] == 2 and b"missing.fen" in one[2] and one[1].count(b"\n") > 6 * CHUNK_ITEMS
    assert run([*argv, "--jobs", "2"], b"") == one


def test_a_bad_option_is_a_usage_error_before_any_worker(tmp_path):
    code, out, err = run(["validate", "--jobs", "2", "--accept", "no-such-code"], STANDARD.encode())
    assert (code, out) == (2, b"")
    assert b"--accept: unknown code(s) no-such-code" in err and b"Traceback" not in err
    code, _, err = run(["convert", "--jobs", "0"], STANDARD.encode())
    assert code == 2 and b"--jobs must be at least 1" in err


@pytest.mark.parametrize("signo", [signal.SIGTERM, signal.SIGINT], ids=lambda s: s.name)
def test_a_signal_mid_way_ends_the_run_and_its_workers(signo):
    """Standard input stays open after some lines: the run answers them and waits for more,
    its workers started; the signal then ends it all."""
    process = subprocess.Popen(
        [installed_script("notation"), "convert", "--jobs", "2"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
    )
    try:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write((STANDARD + "\n").encode() * (6 * CHUNK_ITEMS))
        process.stdin.flush()
        assert process.stdout.readline().decode().strip() == STANDARD  # answering, workers up
        process.send_signal(signo)
        _, err = process.communicate(timeout=WAIT_SECONDS)
        assert _group_gone(process.pid), "a worker outlived the command"
    finally:
        _kill_group(process.pid)
        process.kill()
        process.wait(WAIT_SECONDS)
    assert process.returncode == 128 + signo
    assert b"Traceback" not in err, err


def test_chunks_are_bounded_in_lines_and_bytes_and_keep_what_came_before_an_error():
    short = [RawInput(None, b"8/8/8/8/8/8/8/K6k w - - 0 1", n) for n in range(1, 2 * CHUNK_ITEMS + 2)]
    assert [len(chunk) for chunk in _chunks(short)] == [CHUNK_ITEMS, CHUNK_ITEMS, 1]
    long = [RawInput(None, b"x" * (MAX_LINE_BYTES - 1), n) for n in range(1, 40)]
    sizes = [sum(len(raw.data) for raw in chunk) for chunk in _chunks(long)]
    assert sum(sizes) == 39 * (MAX_LINE_BYTES - 1) and max(sizes) < CHUNK_BYTES + MAX_LINE_BYTES

    def failing():
        yield from short[:3]
        raise InputError("'b.fen'", "No such file or directory")

    chunks = _chunks(failing())
    assert next(chunks) == short[:3]
    with pytest.raises(InputError):
        next(chunks)


@pytest.mark.parametrize("command", [["convert"], ["validate"], ["check", "-"], ["normalize", "-"]])
def test_more_jobs_than_the_machine_can_use_is_a_usage_error_before_any_worker(command):
    """Each worker is a process: thousands of them would exhaust the machine. The limit
    (4 a core, 8 on any machine) is said, and nothing starts."""
    from notation.cli.limits import jobs_limit

    limit = jobs_limit()
    code, out, err = run([*command, "--jobs", str(limit + 1)], STANDARD.encode())
    assert (code, out) == (2, b"")
    assert f"--jobs {limit + 1} is more than this machine can use: at most {limit}".encode() in err
    assert b"Traceback" not in err
    code, _, err = run([*command, "--jobs", str(limit)], STANDARD.encode())
    assert code in (0, 1) and b"--jobs" not in err, err  # normalize: a FEN is stray text in PGN
