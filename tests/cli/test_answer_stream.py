"""``convert``, ``validate`` and ``view`` answer a line as soon as they would wait for the next one,
and otherwise write their answers a batch at a time.

A program that keeps the command open and writes one FEN at a time (a variant server,
a GUI) must get each answer before it sends the next, whether Python buffers standard
output (``PYTHONUNBUFFERED`` unset, the usual case: it used to wait for ever) or not
(``PYTHONUNBUFFERED=1``, common in containers: it used to cost a write per line). Tested
on the installed command with real pipes and a named pipe, and on ``AnswerStream`` alone.
"""

from __future__ import annotations

import io
import json
import os
import select
import subprocess
import threading

import pytest
from installed import installed_script

from notation.cli.answer_stream import BATCH_CHARS, AnswerStream

pytestmark = [pytest.mark.slow]

STANDARD = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
NO_ROOK = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1"  # --repair drops K, with a warning
DARK_WHITE = "????????/????????/????????/????????/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1"  # what White sees of STANDARD
ANSWER_SECONDS = 30  # an answer that is coming comes in milliseconds; this only bounds a hang


class Recorder(io.StringIO):
    """A text stream that counts its writes and flushes, and says whether it is a terminal."""

    def __init__(self, tty: bool = False):
        super().__init__()
        self.tty = tty
        self.writes = 0
        self.flushes = 0

    def isatty(self) -> bool:
        return self.tty

    def write(self, text: str) -> int:
        self.writes += 1
        return super().write(text)

    def flush(self) -> None:
        self.flushes += 1
        super().flush()


def test_answers_wait_for_a_flush_and_go_out_in_one_write():
    stream = Recorder()
    out = AnswerStream(stream)
    for n in range(100):
        out.write(f"answer {n}\n")
    assert stream.getvalue() == "" and stream.writes == 0
    out.flush()
    assert stream.getvalue() == "".join(f"answer {n}\n" for n in range(100))
    assert stream.writes == 1 and stream.flushes == 1
    out.flush()  # nothing kept: no write, the stream is still flushed
    assert stream.writes == 1 and stream.flushes == 2


def test_a_full_batch_is_written_without_waiting():
    stream = Recorder()
    out = AnswerStream(stream)
    line = "x" * 99 + "\n"
    for _ in range(BATCH_CHARS // len(line) + 1):
        out.write(line)
    assert stream.writes == 1 and len(stream.getvalue()) >= BATCH_CHARS
    out.flush()
    assert stream.getvalue() == line * (BATCH_CHARS // len(line) + 1)


def test_a_terminal_gets_each_answer_as_it_is_written():
    stream = Recorder(tty=True)
    out = AnswerStream(stream)
    out.write("one\n")
    out.write("two\n")
    assert stream.getvalue() == "one\ntwo\n" and stream.writes == 2


def test_a_closed_stream_is_not_a_terminal_and_fails_only_when_written():
    stream = Recorder()
    stream.close()
    out = AnswerStream(stream)  # isatty() raises on a closed stream: taken as no terminal
    out.write("kept\n")  # kept, not written yet
    with pytest.raises(ValueError, match="closed"):
        out.flush()


def _environment(unbuffered: bool) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    return env


def _answer(process: subprocess.Popen[bytes]) -> bytes:
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], ANSWER_SECONDS)
    assert ready, "no answer while the command waits for the next line"
    return process.stdout.readline()


@pytest.mark.parametrize("unbuffered", [False, True], ids=["buffered", "PYTHONUNBUFFERED"])
@pytest.mark.parametrize(
    "argv", [["convert", "--json"], ["validate"], ["view", "--variant", "darkchess", "--side", "white"]], ids=" ".join
)
def test_a_program_gets_each_answer_before_it_writes_the_next_line(argv, unbuffered):
    process = subprocess.Popen(
        [installed_script("notation"), *argv], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, env=_environment(unbuffered),
    )
    try:
        assert process.stdin is not None
        for n in range(1, 4):
            text = json.dumps({"fen": STANDARD}) if "--json" in argv else STANDARD
            process.stdin.write(text.encode() + b"\n")
            process.stdin.flush()
            answer = _answer(process)
            if "--json" in argv:
                assert json.loads(answer) | {"ok": True, "line": n} == json.loads(answer)
            elif argv[0] == "view":
                assert answer == (DARK_WHITE + "\n").encode()
            else:
                assert answer == b"valid\n"
        process.stdin.close()
        assert process.wait(ANSWER_SECONDS) == 0
    finally:
        process.kill()
        process.wait()


def test_a_named_pipe_given_with_input_is_answered_line_by_line(tmp_path):
    fifo = tmp_path / "fens"
    os.mkfifo(fifo)
    process = subprocess.Popen(
        [installed_script("notation"), "convert", "--input", str(fifo), "--profile", "lichess"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_environment(False),
    )
    try:
        with open(fifo, "w") as writer:
            for n in range(1, 3):
                writer.write(STANDARD + "\n")
                writer.flush()
                assert _answer(process) == f"{fifo}:{n}: {STANDARD}\n".encode()
        assert process.wait(ANSWER_SECONDS) == 0
    finally:
        process.kill()
        process.wait()


def test_a_warning_follows_the_answer_it_is_about_on_a_shared_pipe():
    """Standard output and standard error into one pipe (``2>&1``): each answer, then the
    warnings about it, in input order."""
    lines = [STANDARD, NO_ROOK, STANDARD] * 3
    done = subprocess.run(
        [installed_script("notation"), "convert", "--repair"], input="\n".join(lines).encode() + b"\n",
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=_environment(False), timeout=ANSWER_SECONDS,
        check=False,
    )
    assert done.returncode == 0
    out = done.stdout.decode().splitlines()
    repaired = NO_ROOK.replace("KQkq", "Qkq")
    expected = []
    for n, line in enumerate(lines, start=1):
        expected.append(repaired if line == NO_ROOK else STANDARD)
        if line == NO_ROOK:
            expected.append(f"warning: line {n}: repaired-castling: dropped the castling right on h1: "
                            "no white rook on h1 (field castling)")
    assert out == expected


def test_a_slow_writer_is_answered_as_it_writes():
    """A writer that pauses between lines: every answer is out before the next line."""
    process = subprocess.Popen(
        [installed_script("notation"), "convert", "--json"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, env=_environment(False),
    )
    got: list[bytes] = []
    stop = threading.Event()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            got.append(line)
            stop.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert process.stdin is not None
        for n in range(1, 4):
            stop.clear()
            process.stdin.write(json.dumps({"fen": STANDARD}).encode() + b"\n")
            process.stdin.flush()
            assert stop.wait(ANSWER_SECONDS), f"line {n} unanswered while the writer waits"
            assert len(got) == n
        process.stdin.close()
        assert process.wait(ANSWER_SECONDS) == 0
    finally:
        process.kill()
        process.wait()
    reader.join(ANSWER_SECONDS)


def test_a_reader_gone_while_the_command_waits_ends_it_with_141_and_no_traceback():
    """The answers are written before each read of the input: a reader that has gone is
    found there, and the command ends as a closed pipe ends it anywhere else."""
    process = subprocess.Popen(
        [installed_script("notation"), "convert", "--json"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, env=_environment(False),
    )
    try:
        assert process.stdin is not None and process.stdout is not None and process.stderr is not None
        line = json.dumps({"fen": STANDARD}).encode() + b"\n"
        process.stdin.write(line)
        process.stdin.flush()
        assert _answer(process).startswith(b'{"ok":true')
        process.stdout.close()
        try:
            process.stdin.write(line)  # answered into a pipe nobody reads
            process.stdin.flush()
            process.stdin.close()
        except BrokenPipeError:
            pass  # the command already ended
        assert process.wait(ANSWER_SECONDS) == 141
        assert b"Traceback" not in process.stderr.read()
    finally:
        process.kill()
        process.wait()
