"""Byte ranges of an uncompressed PGN file that begin at game starts, for other machines.

A file is cut into nominal ranges of a fixed number of bytes; each is moved on to the first
cut point at or after its nominal start: the points ``parallel`` cuts chunks at
(``parallel.find_cut``: an empty line, then a well-formed tag line, with text that is not
blank before it). The splitter starts each such range from a fresh state, so games split
and normalised range by range, renumbered, are those of one process reading the whole file.

Everything works on a seekable binary file (a local file, one opened by fsspec):

- ``first_text``: where the first character that is not white space starts (a cut point
  needs text before it that is not blank);
- ``locate``: a nominal range's cut point and the line breaks before it, so each range can
  number its lines as one process would (``RangeStart``);
- ``reader`` and ``read_text``: the bytes or decoded text of one range.

Offsets count bytes. Text is decoded as ``notation.inputs`` decodes it (UTF-8 with
``surrogateescape``); a range starts after a line break, where decoding is in step whatever
came before. Line breaks are counted as the splitter counts them (``\\r\\n``, ``\\n`` or a
lone ``\\r``); a ``\\r\\n`` belongs to the range holding its ``\\n``. Nothing here raises on
bad text; errors reading the file (``OSError``) propagate.
"""

from __future__ import annotations

import codecs
import io
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

from notation.pgn.parallel import find_cut, scan_from

ENCODING = "utf-8"
ERRORS = "surrogateescape"
READ_BYTES = 1 << 20
_FIRST_TEXT_BYTES = 1 << 16
_BEFORE_CUT = 3  # a cut point's "\n\r?\n" begins at most this many bytes before it


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
    followed by ``\\n`` ends its line at the ``\\n``, beyond the range)."""
    file.seek(start)
    breaks = 0
    remaining = end - start
    previous_cr = False
    while remaining > 0:
        block = file.read(min(READ_BYTES, remaining))
        if not block:
            return breaks
        remaining -= len(block)
        breaks += block.count(b"\n") + block.count(b"\r") - block.count(b"\r\n")
        if previous_cr and block.startswith(b"\n"):
            breaks -= 1
        previous_cr = block.endswith(b"\r")
    if previous_cr and file.read(1) == b"\n":
        breaks -= 1
    return breaks


def find_start(file: BinaryIO, start: int, text_from: int) -> int:
    """The first cut point at or after byte ``start`` (0 for 0), or the file's length when
    none follows. ``text_from``: what ``first_text`` gives for this file."""
    if start <= 0:
        return 0
    begin = max(0, start - _BEFORE_CUT)
    file.seek(begin)
    decoder = _decoder()
    buffer = ""
    buffer_at = begin  # byte offset of buffer[0]
    scanned = 0
    while True:
        block = file.read(READ_BYTES)
        buffer += decoder.decode(block, final=not block)
        cut = find_cut(buffer, scanned, True)
        while cut >= 0:
            at = buffer_at + _encoded_length(buffer[:cut])
            if at >= start and at > text_from:
                return at
            cut = find_cut(buffer, cut - 1, True)  # the next cut point: its match begins later
        if not block:
            return buffer_at + _encoded_length(buffer)
        scanned = scan_from(len(buffer))
        buffer_at += _encoded_length(buffer[:scanned])
        buffer, scanned = buffer[scanned:], 0


def locate(file: BinaryIO, start: int, end: int, text_from: int) -> RangeStart:
    """The ``RangeStart`` of the nominal range ``start`` to ``end``."""
    cut = find_start(file, start, text_from)
    return RangeStart(cut, count_breaks(file, start, cut), count_breaks(file, start, end))


class _Window(io.RawIOBase):
    """Bytes ``start`` to ``end`` of a seekable file, read from where the file is left."""

    def __init__(self, file: BinaryIO, start: int, end: int):
        super().__init__()
        self._file = file
        self._position = start
        self._end = end

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        count = min(len(buffer), self._end - self._position)
        if count <= 0:
            return 0
        self._file.seek(self._position)
        data = self._file.read(count)
        buffer[: len(data)] = data
        self._position += len(data)
        return len(data)


def reader(file: BinaryIO, start: int, end: int) -> BinaryIO:
    """A buffered reader of bytes ``start`` to ``end`` of ``file``."""
    return io.BufferedReader(_Window(file, start, end), buffer_size=READ_BYTES)


def read_text(file: BinaryIO, start: int, end: int) -> Iterator[str]:
    """The decoded text of bytes ``start`` to ``end`` (a range from ``locate``), in blocks."""
    window = reader(file, start, end)
    decoder = _decoder()
    while True:
        block = window.read(READ_BYTES)
        text = decoder.decode(block, final=not block)
        if text:
            yield text
        if not block:
            return
