"""Byte ranges of an uncompressed PGN file that begin at game starts, for other machines.

A file is cut into nominal ranges of a fixed number of bytes; each is moved on to the first
cut point at or after its nominal start: the points ``stream_jobs`` cuts chunks at
(``cuts.find_cut``: an empty line, then a well-formed tag line, after a line of movetext;
``locate`` reads a little before a nominal start to see that line). The splitter starts each
such range from a fresh state, so games split and normalised range by range, renumbered, are
those of one process reading the whole file.

Everything works on a seekable binary file (a local file, one opened by fsspec):

- ``first_text``: where the first character that is not white space starts (a cut point
  needs text before it that is not blank);
- ``locate``: a nominal range's cut point and the line breaks before it, so each range can
  number its lines as one process would (``RangeStart``);
- ``reader`` and ``read_text``: the bytes or decoded text of one range;
- ``locate_within`` and ``pieces``: a file cut where cut points fall within fixed nominal
  ranges, each range searched only as far as its own end (so the work of finding the
  pieces is one pass over the file, however far apart the cut points are), into
  ``Piece``s that know their first line: what ``normalize --jobs`` hands its workers;
- ``find_start_before`` and ``spans``: the same cuts without counting a line (``Span``s),
  for a caller that numbers each span's lines from its own start and shifts them after
  (``check --jobs``): counting the line breaks read every byte of the file once more;
- ``PositionalFile``: a file descriptor read with ``os.pread``, so processes that share it
  (forked workers) never move each other's position.

Offsets count bytes. Text is decoded as ``notation.inputs`` decodes it (UTF-8 with
``surrogateescape``); a range starts after a line break, where decoding is in step whatever
came before. Line breaks are counted as the splitter counts them (``\\r\\n``, ``\\n`` or a
lone ``\\r``); a ``\\r\\n`` belongs to the range holding its ``\\n``. Nothing here raises on
bad text; errors reading the file (``OSError``) propagate.
"""

from __future__ import annotations

import codecs
import io
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

from notation.parallel.pieces import nominal_starts  # noqa: F401 (ranges.nominal_starts: cluster's plans and tests)
from notation.pgn.cuts import find_cut, scan_from

ENCODING = "utf-8"
ERRORS = "surrogateescape"
READ_BYTES = 1 << 20
_FIRST_TEXT_BYTES = 1 << 16
_BEFORE_CUT = 3  # a cut point's "\n\r?\n" begins at most this many bytes before it
_LOOK_BEHIND = 1 << 14  # bytes read before that, for the line before the cut (cuts.find_cut looks at it)


@dataclass(frozen=True)
class RangeStart:
    """Where a nominal range's text begins, and the line breaks a file's lines are counted by.

    ``cut``: the first cut point at or after the nominal start (the file's size when none
    follows); ``breaks_to_cut``: line breaks from the nominal start up to ``cut``;
    ``breaks_in_range``: line breaks in the nominal range itself.
    """

    cut: int
    breaks_to_cut: int
    breaks_in_range: int


def _decoder() -> codecs.IncrementalDecoder:
    return codecs.getincrementaldecoder(ENCODING)(ERRORS)


def _encoded_length(text: str) -> int:
    return len(text.encode(ENCODING, ERRORS))


def first_text(file: BinaryIO) -> int:
    """Byte offset of the file's first character that is not white space (as
    ``str.strip`` sees it); the file's length when it is all white space."""
    file.seek(0)
    decoder = _decoder()
    before = 0  # bytes of the text already looked at
    while True:
        block = file.read(_FIRST_TEXT_BYTES)
        text = decoder.decode(block, final=not block)
        stripped = text.lstrip()
        if stripped:
            return before + _encoded_length(text[: len(text) - len(stripped)])
        before += _encoded_length(text)
        if not block:
            return before


def count_breaks(file: BinaryIO, start: int, end: int) -> int:
    """Line breaks ending in bytes ``start`` to ``end`` of the file (a ``\\r`` at ``end - 1``
    followed by ``\\n`` ends its line at the ``\\n``, beyond the range).

    The blocks are read into one buffer, again and again (``_Window.readinto``): a fresh
    block for each read cost more than the counting."""
    window = _Window(file, start, end)
    buffer = bytearray(min(READ_BYTES, max(0, end - start)))
    breaks = 0
    previous_cr = False
    while count := window.readinto(buffer):
        breaks += _breaks_in(buffer, count)
        if previous_cr and buffer[0] == _LF:
            breaks -= 1
        previous_cr = buffer[count - 1] == _CR
    if previous_cr:
        file.seek(start + window.read_so_far)
        if file.read(1) == b"\n":
            breaks -= 1
    return breaks


_LF, _CR = ord("\n"), ord("\r")


def _breaks_in(block: bytes | bytearray, end: int) -> int:
    """Line breaks in ``block[:end]``, a ``\\r\\n`` once (most files have no ``\\r``: one count)."""
    breaks = block.count(b"\n", 0, end)
    if block.find(b"\r", 0, end) >= 0:
        breaks += block.count(b"\r", 0, end) - block.count(b"\r\n", 0, end)
    return breaks


def find_start(file: BinaryIO, start: int, text_from: int) -> int:
    """The first cut point at or after byte ``start`` (0 for 0), or the file's length when
    none follows. ``text_from``: what ``first_text`` gives for this file."""
    found = _find_start(file, start, text_from, None)
    assert found is not None  # without a limit the file's end answers
    return found


def find_start_before(file: BinaryIO, start: int, limit: int, text_from: int) -> int | None:
    """The first cut point at or after byte ``start`` (0 for 0) and before ``limit``, or
    None when none is there; reads little more than bytes ``start`` to ``limit``."""
    found = _find_start(file, start, text_from, limit)
    return found if found is not None and found < limit else None


def _find_start(file: BinaryIO, start: int, text_from: int, limit: int | None) -> int | None:
    """``find_start``; with ``limit``, None once no cut point can begin before it."""
    if start <= 0:
        return 0
    begin = max(0, start - _BEFORE_CUT - _LOOK_BEHIND)
    file.seek(begin)
    decoder = _decoder()
    buffer = decoder.decode(file.read(max(0, start - _BEFORE_CUT - begin)))  # seen, not searched
    buffer_at = begin  # byte offset of buffer[0]
    scanned = len(buffer)
    step = _FIRST_TEXT_BYTES  # cut points are usually near: read a little first, then more
    while True:
        block = file.read(step)
        step = READ_BYTES
        buffer += decoder.decode(block, final=not block)
        cut = find_cut(buffer, scanned, True)
        while cut >= 0:
            at = buffer_at + _encoded_length(buffer[:cut])
            if limit is not None and at >= limit:
                return None
            if at >= start and at > text_from:
                return at
            cut = find_cut(buffer, cut - 1, True)  # the next cut point: its match begins later
        if not block:
            return None if limit is not None else buffer_at + _encoded_length(buffer)
        scanned = scan_from(len(buffer))
        buffer_at += _encoded_length(buffer[:scanned])
        buffer, scanned = buffer[scanned:], 0
        if limit is not None and buffer_at >= limit:  # every cut point still to come ends later
            return None


def locate(file: BinaryIO, start: int, end: int, text_from: int) -> RangeStart:
    """The ``RangeStart`` of the nominal range ``start`` to ``end``."""
    cut = find_start(file, start, text_from)
    return RangeStart(cut, count_breaks(file, start, cut), count_breaks(file, start, end))


class _Window(io.RawIOBase):
    """Bytes ``start`` to ``end`` of a seekable file, read from where the file is left."""

    def __init__(self, file: BinaryIO, start: int, end: int):
        super().__init__()
        self._file = file
        self._start = start
        self._position = start
        self._end = end

    @property
    def read_so_far(self) -> int:
        """Bytes read from the window's start."""
        return self._position - self._start

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        count = min(len(buffer), self._end - self._position)
        if count <= 0:
            return 0
        self._file.seek(self._position)
        readinto = getattr(self._file, "readinto", None)
        if readinto is not None:  # straight into the buffer: no copy
            got = readinto(memoryview(buffer)[:count]) or 0
        else:
            data = self._file.read(count)
            got = len(data)
            buffer[:got] = data
        self._position += got
        return got


def reader(file: BinaryIO, start: int, end: int, block_bytes: int = READ_BYTES) -> BinaryIO:
    """A buffered reader of bytes ``start`` to ``end`` of ``file``."""
    return io.BufferedReader(_Window(file, start, end), buffer_size=block_bytes)


def read_text(file: BinaryIO, start: int, end: int, block_bytes: int = READ_BYTES) -> Iterator[str]:
    """The decoded text of bytes ``start`` to ``end`` (a range from ``locate``), in blocks
    of about ``block_bytes``."""
    window = reader(file, start, end, block_bytes)
    decoder = _decoder()
    while True:
        block = window.read(block_bytes)
        text = decoder.decode(block, final=not block)
        if text:
            yield text
        if not block:
            return


@dataclass(frozen=True)
class Nominal:
    """What one nominal range of a file says for cutting it: ``cut``, the first cut point
    in the range (None: none is there); ``breaks_to_cut``, the line breaks from the range's
    start up to ``cut`` (0 without one); ``breaks_in_range``, the line breaks in the range."""

    cut: int | None
    breaks_to_cut: int
    breaks_in_range: int


def locate_within(file: BinaryIO, start: int, end: int, text_from: int) -> Nominal:
    """The ``Nominal`` of the range ``start`` to ``end``: its first cut point and its line
    breaks, reading the range about twice whatever the file holds around it."""
    cut = find_start_before(file, start, end, text_from)
    if cut is None:
        return Nominal(None, 0, count_breaks(file, start, end))
    before = count_breaks(file, start, cut)
    return Nominal(cut, before, before + count_breaks(file, cut, end))


@dataclass(frozen=True)
class Piece:
    """Bytes ``start`` to ``end`` of a file, from one cut point to the next (or the file's
    ends): whole games, whose first line is line ``first_line`` of the file."""

    start: int
    end: int
    first_line: int


@dataclass(frozen=True)
class Span:
    """Bytes ``start`` to ``end`` of a file, from one cut point to the next (or the file's
    ends): whole games, their first line not counted."""

    start: int
    end: int


def spans(cuts: Iterable[int | None], size: int) -> Iterator[Span]:
    """The spans between ``cuts`` (one item per nominal range, in order, as
    ``find_start_before`` gives them: None where a range holds no cut point), as soon as each
    span's end is known; empty spans are left out. The first starts at 0, the last ends at
    ``size``: the bytes of ``pieces`` over the same cut points."""
    start = 0
    for cut in cuts:
        if cut is not None and cut > start:
            yield Span(start, cut)
            start = cut
    if size > start:
        yield Span(start, size)


def pieces(located: Iterable[Nominal | RangeStart], size: int) -> Iterator[Piece]:
    """The pieces between the cut points ``located`` says (one item per nominal range, in
    order, as ``locate_within`` or ``locate`` give them), as soon as each piece's end is
    known; empty pieces are left out. The first piece starts at 0, the last ends at
    ``size``. Any set of cut points cuts the file into pieces that split as the whole does."""
    start, first_line = 0, 1
    breaks_before = 0  # line breaks before the current nominal range
    for item in located:
        if item.cut is not None and item.cut > start:
            yield Piece(start, item.cut, first_line)
            start, first_line = item.cut, 1 + breaks_before + item.breaks_to_cut
        breaks_before += item.breaks_in_range
    if size > start:
        yield Piece(start, size, first_line)


class PositionalFile(io.RawIOBase):
    """A file descriptor read with ``os.pread`` from a position of this object's own, so
    processes sharing the descriptor (forked workers) never move each other's. It does not
    close the descriptor. Errors reading propagate (``OSError``)."""

    def __init__(self, fd: int):
        super().__init__()
        self._fd = fd
        self._position = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        if whence == io.SEEK_SET:
            self._position = offset
        elif whence == io.SEEK_CUR:
            self._position += offset
        else:
            self._position = os.fstat(self._fd).st_size + offset
        return self._position

    def tell(self) -> int:
        return self._position

    def readinto(self, buffer) -> int:
        count = os.preadv(self._fd, [buffer], self._position)
        self._position += count
        return count

    def read(self, size: int = -1) -> bytes:
        """Up to ``size`` bytes (all that is left for -1) in one ``pread``, copied once."""
        if size < 0:
            size = max(0, os.fstat(self._fd).st_size - self._position)
        data = os.pread(self._fd, size, self._position)
        self._position += len(data)
        return data
