"""``notation.line_reader.LineReader``: lines ended by LF, CR LF or a lone CR, bounded,
from a stream read as the commands read theirs (a buffered reader's ``readline``), whatever
where the reads stop."""

from __future__ import annotations

import io
import os
import re
import threading

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from notation.line_reader import LineReader

_LINE = re.compile(rb"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


def _expected(data: bytes, limit: int) -> list[bytes]:
    """What ``readline(limit)`` hands out, call after call, its CR LFs as CRs (``_ends``):
    each line with its end, a line longer than ``limit`` in pieces of ``limit`` bytes."""
    pieces = []
    for line in _LINE.findall(data):
        line = _ends(line)
        while line:
            pieces.append(line[:limit])
            line = line[limit:]
    return pieces


def _ends(piece: bytes) -> bytes:
    """``piece`` with a CR LF at its end as its CR: the reader may hand one out either way
    (as its CR when the LF was not yet read: a CR ends its line at once)."""
    return piece[:-1] if piece.endswith(b"\r\n") else piece


def _read_all(stream, limit: int) -> list[bytes]:
    reader = LineReader(stream)
    pieces = []
    while piece := reader.readline(limit):
        pieces.append(piece)
    return pieces


EXAMPLES = [
    (b"", 8, []),
    (b"a\nb\n", 8, [b"a\n", b"b\n"]),
    (b"a\r\nb\r\n", 8, [b"a\r\n", b"b\r\n"]),
    (b"a\rb\rc", 8, [b"a\r", b"b\r", b"c"]),  # an old Mac file, its last line unended
    (b"a\r\rb\r", 8, [b"a\r", b"\r", b"b\r"]),  # a blank line between
    (b"a\n\rb\r\n", 8, [b"a\n", b"\r", b"b\r\n"]),  # LF then CR: two line ends, not one
    (b"abc\r\nd\n", 3, [b"abc", b"\r", b"d\n"]),  # a line of the limit, then its end
    (b"abc\r\nd\n", 4, [b"abc\r", b"d\n"]),  # the CR LF's LF past the limit: not a blank line
    (b"abcdefgh\rij\r", 3, [b"abc", b"def", b"gh\r", b"ij\r"]),  # a long line in pieces
    (b"defgh\r\n\nx", 3, [b"def", b"gh\r", b"\n", b"x"]),  # a CR LF cut at the limit, then a blank line
]


@pytest.mark.parametrize("data, limit, pieces", EXAMPLES)
def test_lines_end_at_lf_cr_lf_or_a_lone_cr(data, limit, pieces):
    for buffer_size in (1, 2, 4, 64):
        read = _read_all(io.BufferedReader(io.BytesIO(data), buffer_size=buffer_size), limit)
        assert [_ends(piece) for piece in read] == [_ends(piece) for piece in pieces]


class _LinesOnly:
    """A stream with ``readline`` alone (not a buffered reader): read a line at a time."""

    def __init__(self, data: bytes):
        self._stream = io.BytesIO(data)

    def readline(self, limit: int = -1) -> bytes:
        return self._stream.readline(limit)


_ENDS = st.sampled_from([b"\n", b"\r", b"\r\n", b""])


@st.composite
def _streams(draw) -> tuple[bytes, int]:
    """Bytes of lines whose lengths cluster about multiples of the limit (where the line end
    of a line or of a long line's last piece may fall just inside or just past it), and the
    limit."""
    limit = draw(st.one_of(st.integers(1, 3), st.integers(1, 24)))  # the smallest give the most cuts
    lengths = st.builds(lambda times, off: max(0, times * limit + off), st.integers(0, 3), st.integers(-2, 2))
    lines = draw(st.lists(st.tuples(lengths, _ENDS), max_size=12))
    return b"".join(b"x" * length + end for length, end in lines), limit


@given(_streams(), st.integers(1, 16))
@example(stream_and_limit=(b"\r\n\n", 1), buffer_size=1)  # found by the fuzz profile: a CR LF cut at the limit
def test_what_is_handed_out_is_each_line_bounded_whatever_the_reads(stream_and_limit, buffer_size):
    """Whatever the buffer (so wherever the stream's reads stop), and read a line at a time
    as well, each call hands out the next line or the next ``limit`` bytes of a long one,
    and nothing is lost: the pieces joined are the stream's bytes, but for a CR LF handed
    out as its CR."""
    data, limit = stream_and_limit
    for stream in (io.BufferedReader(io.BytesIO(data), buffer_size=buffer_size), _LinesOnly(data)):
        pieces = _read_all(stream, limit)
        assert [_ends(piece) for piece in pieces] == _expected(data, limit)
        assert all(0 < len(piece) <= limit for piece in pieces)


def _read_in_time(reader: LineReader) -> list[bytes]:
    """``[reader.readline(64)]``, or ``[]`` when it is still waiting after ten seconds."""
    got: list[bytes] = []
    thread = threading.Thread(target=lambda: got.append(reader.readline(64)), daemon=True)
    thread.start()
    thread.join(timeout=10)
    return got


def test_a_cr_last_read_ends_its_line_without_waiting_for_the_next_byte():
    """A writer sending lines with lone CRs down a pipe gets each line answered as it is
    sent: the reader does not wait for the byte after a CR to know whether it is a LF."""
    read_end, write_end = os.pipe()
    with open(read_end, "rb") as reading, open(write_end, "wb", buffering=0) as writing:
        reader = LineReader(reading)
        writing.write(b"first\r")
        assert _read_in_time(reader) == [b"first\r"], "the reader waited past the CR"
        writing.write(b"\nsecond\r")  # the CR LF's LF comes late: not a blank line
        assert reader.readline(64) == b"second\r"
        writing.close()
        assert reader.readline(64) == b""


@pytest.mark.parametrize("data, limit, pieces", EXAMPLES)
def test_a_stream_without_read1_is_read_by_its_readline(data, limit, pieces):
    read = _read_all(_LinesOnly(data), limit)
    assert [_ends(piece) for piece in read] == [_ends(piece) for piece in pieces]


def test_lines_ended_by_line_feeds_down_a_pipe_are_each_handed_out_as_written():
    read_end, write_end = os.pipe()
    with open(read_end, "rb") as reading, open(write_end, "wb", buffering=0) as writing:
        reader = LineReader(reading)
        for line in (b"first\n", b"second\r\n", b"third\n"):
            writing.write(line)
            assert _read_in_time(reader) == [line], "the reader waited for more than the line"
