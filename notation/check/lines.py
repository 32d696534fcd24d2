"""Streaming, bounded reading of lines from the decompressed bytes of a source.

``read_lines`` yields one line at a time (at most ``max_bytes`` held); ``read_blocks`` yields
blocks of whole lines, endings kept, for readers that split text themselves (PGN), which is
several times faster on large files. Both decode UTF-8 and report, as located problems
through ``report``:

- ``encoding`` (``read_lines`` only): the first undecodable line in full, then one summary of how many more
  lines were undecodable, made when the reading ends, at the second such line (the line
  is passed on with U+FFFD replacement characters); the summary goes to ``report_count``
  when given (``ProblemList.add_last``: it then goes out with the file's last problems,
  wherever the reading's blocks ended). ``read_blocks`` decodes with ``surrogateescape``
  instead: each byte that is not UTF-8 is passed on as a lone surrogate, which the PGN
  reader reads as Windows-1252 and reports once per game (``pgn-windows-1252``);
- ``line-too-long``: a line longer than ``max_bytes``; only its first and last
  ``KEPT_ENDS`` bytes are passed on (state ``DROPPED``), so a PGN splitter still sees how
  it starts (a tag, movetext) and ends (a result);
- ``binary-file``: a NUL byte (reading stops: the rest of the file is not text);
- ``decompress``: a corrupt or truncated compressed stream, or a read that failed
  (``notation.inputs.CorruptInput``; reading stops).

A UTF-8 byte order mark at the start of the file is dropped (it does not count towards the
first line's length). Both end lines at ``\\n``, ``\\r\\n`` or a lone ``\\r`` (an old
Mac file), as the PGN splitter does: ``read_lines`` (FEN and EPD lines) through
``notation.line_reader``, removing the line end; ``read_blocks`` (PGN) keeps the line ends,
and numbers lines by them (``line_ends``, ``LineEnds``). The streams come from
``notation.inputs.InputFile``; read errors are reported as ``decompress`` or
``binary-file`` problems, never raised.
"""


import re
from collections.abc import Callable, Generator, Iterator
from typing import Any, BinaryIO, Final

from notation.check.problem import Severity
from notation.inputs import CorruptInput
from notation.lean_enum import LeanEnum
from notation.line_reader import LineReader, ends_line

_BOM = b"\xef\xbb\xbf"
_LF: Final = 10
_CR: Final = 13
_LONE_CR: Final = rb"\r(?!\n)"  # a CR that ends a line alone (compiled by the first text holding a CR: re's cache)
KEPT_ENDS = 256
# line_feeds: the first bytes it looks at, and the line feeds among them past which lines are
# short enough (32 bytes on average) for bytes.count to be the faster.
_SAMPLE_BYTES = 1024
_DENSE_FEEDS = 32
# read_blocks' block: what a read asks for. A block this small is copied and decoded within
# the CPU's cache, and the memory of one block serves the next; copies of mebibyte blocks
# kept taking fresh pages from the system (a page fault each 4 KiB) and held more at once.
BLOCK_BYTES: Final = 1 << 16


class LineState(LeanEnum):
    """Whether a line's text can be trusted."""

    CLEAN = "clean"
    REPLACED = "replaced"  # undecodable bytes were replaced by U+FFFD
    DROPPED = "dropped"  # too long: ``text`` holds only both ends of the line


class Line:
    """One line of a source: its 1-based number, decoded text (no line end) and state.
    Read-only; a plain class, as ``notation.check.judge.Finding`` is."""

    __slots__ = ("number", "text", "state")

    def __init__(self, number: int, text: str, state: LineState = LineState.CLEAN) -> None:
        self.number: Final = number
        self.text: Final = text
        self.state: Final = state

    def __reduce__(self) -> "tuple[type[Line], tuple[Any, ...]]":
        """Pickled through ``__init__``: its fields are read-only (and compiled, it keeps
        no dictionary)."""
        return (Line, (self.number, self.text, self.state))

    def __repr__(self) -> str:
        return f"Line(number={self.number!r}, text={self.text!r}, state={self.state!r})"

# report(line, column, severity, code, message)
Report = Callable[[int, int, Severity, str, str], None]


_DECOMPRESS_ERRORS = (CorruptInput,)


NUL_MESSAGE = "NUL byte: the file is binary (or UTF-16), not UTF-8 text; not checked further"


class _EncodingTally:
    """Reports the first undecodable line in full, then one line counting the others."""

    def __init__(self, report: Report, report_count: Report | None = None):
        self._report = report
        self._report_count = report_count or report
        self._count = 0
        self._second = 0

    def bad(self, line: int, raw: bytes, start: int) -> None:
        self._count += 1
        if self._count == 1:
            self._report(
                line, _column(raw, start), Severity.ERROR, "encoding",
                f"byte 0x{raw[start]:02X} is not valid UTF-8 "
                "(is the file Latin-1 or Windows-1252? convert it to UTF-8)",
            )
        elif self._count == 2:
            self._second = line

    def finish(self) -> None:
        if self._count > 1:
            self._report_count(
                self._second, 1, Severity.ERROR, "encoding",
                f"{self._count - 1} more line(s) from here on are not valid UTF-8",
            )


def read_lines(stream: BinaryIO, report: Report, *, max_bytes: int,
               report_count: Report | None = None) -> Iterator[Line]:
    """Yield the lines of ``stream``; problems go to ``report``, the count of undecodable
    lines after the first to ``report_count`` if given (see the module doc)."""
    number = 0
    tally = _EncodingTally(report, report_count)
    readline = LineReader(stream).readline
    while True:
        try:
            # The first read holds a byte order mark more: it does not count towards the line.
            raw = readline(max_bytes + 1 if number else max_bytes + 1 + len(_BOM))
        except _DECOMPRESS_ERRORS as exc:
            report(number + 1, 1, Severity.ERROR, "decompress", f"cannot decompress: {_reason(exc)}")
            break
        if not raw:
            break
        number += 1
        if number == 1 and raw.startswith(_BOM):
            raw = raw[len(_BOM):]
            if not raw:  # nothing but a byte order mark
                number = 0
                continue
        if b"\0" in raw:
            report(number, _column(raw, raw.index(b"\0")), Severity.ERROR, "binary-file", NUL_MESSAGE)
            break
        if len(raw) > max_bytes and len(raw.rstrip(b"\n").rstrip(b"\r")) > max_bytes:
            report(number, 1, Severity.ERROR, "line-too-long", f"line longer than {max_bytes} bytes; not checked")
            if ends_line(raw):  # the first line, a few bytes too long, read whole
                tail: bytes | None = raw.rstrip(b"\r\n")[-KEPT_ENDS:]
            else:
                tail = _skip_rest_of_line(readline, max_bytes, raw, number, report)
            if tail is None:
                break
            ends = raw[: min(KEPT_ENDS, max_bytes)] + b" ... " + tail
            yield Line(number, ends.decode("utf-8", "replace"), LineState.DROPPED)
            continue
        raw = raw.rstrip(b"\n").rstrip(b"\r")  # LF, CR LF or CR
        try:
            yield Line(number, raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            tally.bad(number, raw, exc.start)
            yield Line(number, raw.decode("utf-8", "replace"), LineState.REPLACED)
    tally.finish()


def read_blocks(stream: BinaryIO, report: Report, *, max_bytes: int, block_bytes: int = BLOCK_BYTES) -> Iterator[str]:
    """Yield the text of ``stream`` in blocks of whole lines, line endings kept, bytes that
    are not UTF-8 as lone surrogates (``surrogateescape``: not reported here).

    Problems are those of ``read_lines`` but ``encoding``, at the same lines, where lines
    end at ``\\n``, ``\\r\\n`` or a lone ``\\r``, as ``read_lines``' lines do. A line
    longer than ``max_bytes`` is passed on as its two ends joined by `` ... ``.
    A line longer than a block is gathered in reads as long as what is held of it, so the
    bytes held double with each read (each byte is copied a few times, not once a block).
    """
    block_bytes = min(block_bytes, max_bytes)  # so only a block's first line can be too long
    lines_before = 0  # lines fully handed on
    pending = b""  # the start of a line not yet ended
    first = True
    while True:
        size = max(block_bytes, len(_BOM)) if first else max(block_bytes, min(len(pending), max_bytes))
        chunk, failure = _read_block(stream, size)
        if first:
            first = False
            if chunk.startswith(_BOM):
                chunk = chunk[len(_BOM):]
                if not chunk and failure is None:
                    continue
        if not chunk:
            yield from _end_of_stream(pending, failure, lines_before, max_bytes, report)
            break
        data = pending + chunk if pending else chunk
        kept = yield from _long_lines_and_nul(stream, data, lines_before, max_bytes, block_bytes, report)
        if kept is None:
            break
        data, lines_before = kept
        # After the last line end: a CR last of all waits, as a LF may follow it.
        last_cr = data.rfind(b"\r", 0, len(data) - 1)
        cut = max(data.rfind(b"\n"), last_cr) + 1
        if cut:
            lines = data[:cut]
            yield _decode_block(lines)
            lines_before += line_ends(lines) if last_cr >= 0 else line_feeds(lines)  # no CR: no search for one
        pending = data[cut:]
        if failure is not None:
            report(lines_before + 1, 1, Severity.ERROR, "decompress", f"cannot decompress: {_reason(failure)}")
            break


def line_feeds(data: bytes) -> int:
    """How many ``\\n`` bytes ``data`` holds.

    ``bytes.count`` tests the bytes one by one. Deleting the line feeds (``bytes.replace``)
    finds each with memchr instead, which skips a whole line of PGN (a tag, movetext) at a
    time: faster on such lines, the copy it makes included. On lines of a few bytes (a run
    of blank lines) memchr's start at each line costs more than testing the bytes, so where
    the first KiB holds many line feeds the bytes are counted."""
    if data.count(b"\n", 0, _SAMPLE_BYTES) > _DENSE_FEEDS:
        return data.count(b"\n")
    return len(data) - len(data.replace(b"\n", b""))


def line_ends(data: bytes) -> int:
    """How many lines ``data`` ends: its ``\\n`` bytes and its lone ``\\r`` bytes (a ``\\r``
    last of all counts as lone: ``LineEnds`` counts a stream cut anywhere)."""
    ends = line_feeds(data)
    # Most files hold no CR, or CR LF alone: one search each, where counting the CRs and
    # the CR LF pairs cost a CR LF file's reading several times what it cost before.
    if b"\r" in data and re.search(_LONE_CR, data) is not None:
        ends += data.count(b"\r") - data.count(b"\r\n")
    return ends


class LineEnds:
    """The lines ended so far in a stream of bytes fed in pieces cut anywhere (``count``),
    a ``\\r\\n`` cut between two pieces counted once."""

    __slots__ = ("count", "_after_cr")

    def __init__(self, count: int = 0, after_cr: bool = False) -> None:
        self.count = count
        self._after_cr = after_cr  # the last piece ended with a CR: a LF first in the next ends no line

    def __reduce__(self) -> "tuple[type[LineEnds], tuple[int, bool]]":
        """Pickled through ``__init__`` (compiled, it keeps no dictionary)."""
        return (LineEnds, (self.count, self._after_cr))

    def feed(self, data: bytes) -> None:
        if not data:
            return
        self.count += line_ends(data) - (1 if self._after_cr and data[0] == _LF else 0)
        self._after_cr = data[-1] == _CR


def _first_line_end(data: bytes) -> int:
    """Where the first line of ``data`` ends (the offset of its ``\\n``, or of its ``\\r``,
    alone or before a ``\\n``), or -1 without an end."""
    newline = data.find(b"\n")
    cr = data.find(b"\r", 0, newline if newline >= 0 else len(data))
    return cr if cr >= 0 else newline


def _next_line_start(data: bytes, end: int) -> int:
    """Where the line after the line end at ``end`` starts."""
    return end + 2 if data.startswith(b"\r\n", end) else end + 1


def _end_of_stream(pending: bytes, failure: BaseException | None, lines_before: int, max_bytes: int,
                   report: Report) -> Iterator[str]:
    """At the end of the stream: the last line (``pending``, as if it had its end), or the
    ``decompress`` error that ended it (the line being read then is incomplete: it is not
    passed on)."""
    if failure is not None:
        report(lines_before + 1, 1, Severity.ERROR, "decompress", f"cannot decompress: {_reason(failure)}")
    elif pending:
        data = pending + b"\n"
        nul = data.find(b"\0", 0, max_bytes + 1)
        if nul >= 0:
            report(lines_before + 1, _column(data, nul), Severity.ERROR, "binary-file", NUL_MESSAGE)
        else:
            yield _decode_block(data[:-1])


def _long_lines_and_nul(stream: BinaryIO, data: bytes, lines_before: int, max_bytes: int, block_bytes: int,
                        report: Report) -> Generator[str, None, tuple[bytes, int] | None]:
    """Yield ``data``'s first lines while they are too long (each as its two ends joined by
    `` ... ``, reading the rest of one from ``stream``), and the lines before a NUL byte;
    return the data left and the lines handed on before it, or None when reading stops
    (a NUL byte: ``binary-file``; the stream ended within a long line)."""
    while True:
        newline = _first_line_end(data)
        # A CR last of all ends the line, but a LF may follow it: where the next line starts
        # is not known yet (read_blocks holds the CR back; so does a long line's rest).
        cr_last = 0 <= newline == len(data) - 1 and data[newline] == _CR
        long_line = newline > max_bytes or (newline < 0 and len(data) > max_bytes)
        # As in read_lines: a NUL counts only within the first max_bytes + 1 bytes of a line.
        nul = data.find(b"\0", 0, max_bytes + 1 if long_line else len(data))
        if nul >= 0:
            start = max(data.rfind(b"\n", 0, nul), data.rfind(b"\r", 0, nul)) + 1
            if start:
                yield _decode_block(data[:start])
            line = lines_before + line_ends(data[:start]) + 1
            report(line, _column(data[start:], nul - start), Severity.ERROR, "binary-file", NUL_MESSAGE)
            return None
        if not long_line:
            return data, lines_before
        report(lines_before + 1, 1, Severity.ERROR, "line-too-long",
               f"line longer than {max_bytes} bytes; not checked")
        head = data[: min(KEPT_ENDS, max_bytes)]
        if newline >= 0 and not cr_last:
            tail, data = data[:newline][-KEPT_ENDS:], data[_next_line_start(data, newline):]
        else:
            rest = _rest_of_long_line(stream, block_bytes, data, lines_before + 1, report)
            if rest is None:
                return None
            tail, data = rest
        yield (head + b" ... " + tail).decode("utf-8", "replace") + "\n"
        lines_before += 1


def _read_block(stream: BinaryIO, size: int) -> tuple[bytes, BaseException | None]:
    """About ``size`` bytes (fewer at the end), and the error that stopped reading, if any.

    Reads in small steps so the bytes before a decompression error are not lost.
    """
    parts: list[bytes] = []
    total = 0
    read1 = getattr(stream, "read1", stream.read)
    while total < size:
        try:
            part = read1(size - total)
        except _DECOMPRESS_ERRORS as exc:
            return b"".join(parts), exc
        if not part:
            break
        parts.append(part)
        total += len(part)
    return b"".join(parts), None


def _decode_block(block: bytes) -> str:
    """Whole lines of PGN: bytes that are not UTF-8 kept as lone surrogates, for the reader."""
    return block.decode("utf-8", "surrogateescape")


def _rest_of_long_line(
    stream: BinaryIO, block_bytes: int, start: bytes, number: int, report: Report
) -> tuple[bytes, bytes] | None:
    """Skip to the end of a long line: (its last bytes, what follows its end), or None.
    ``start`` holds no line end but perhaps a CR last of all, whose line ends there."""
    tail = start[-KEPT_ENDS:]
    after_cr = tail.endswith(b"\r")  # the line ended at that CR; a LF first in the next bytes is its end's
    while True:
        chunk, failure = _read_block(stream, block_bytes)
        if after_cr and chunk:
            return tail[:-1][-KEPT_ENDS:], chunk[1:] if chunk[0] == _LF else chunk
        end = _first_line_end(chunk)
        if end >= 0 and (end + 1 < len(chunk) or chunk[end] == _LF):
            return (tail + chunk[:end])[-KEPT_ENDS:], chunk[_next_line_start(chunk, end):]
        if failure is not None:
            report(number, 1, Severity.ERROR, "decompress", f"cannot decompress: {_reason(failure)}")
            return None
        if not chunk:
            return tail.rstrip(b"\r"), b""
        tail = (tail + chunk)[-KEPT_ENDS:]
        after_cr = end >= 0  # the chunk's one line end is a CR last of all


def _skip_rest_of_line(
    readline: Callable[[int], bytes], max_bytes: int, last: bytes, number: int, report: Report
) -> bytes | None:
    """Read and forget the rest of a long line; its last bytes (no line end), or None when
    the stream ended badly."""
    while True:
        try:
            chunk = readline(max_bytes)
        except _DECOMPRESS_ERRORS as exc:
            report(number, 1, Severity.ERROR, "decompress", f"cannot decompress: {_reason(exc)}")
            return None
        if chunk:
            last = last[-KEPT_ENDS:] + chunk
        if not chunk or ends_line(chunk):
            return last.rstrip(b"\r\n")[-KEPT_ENDS:]


def _column(raw: bytes, offset: int) -> int:
    """1-based character column of byte ``offset`` in ``raw`` (decoded leniently)."""
    return len(raw[:offset].decode("utf-8", "replace")) + 1


def _reason(exc: BaseException) -> str:
    return exc.reason if isinstance(exc, CorruptInput) else (str(exc) or type(exc).__name__)
