"""A compressed input read once, by the command, and cut into chunks at game starts.

A compressed file (gzip, bzip2, zstd) cannot be entered in the middle. The command reads it
as one process does (``notation.inputs.InputFile``: the same decompressors, the same
bounds on memory), decodes it as ``notation.inputs`` does (UTF-8, ``surrogateescape``: the
bytes come back exactly), and cuts the text with ``notation.pgn.cuts.cut_chunks``, at
the points ``--jobs`` and the byte ranges of plain files are cut at, into ``Chunk``s of
about the partition size, each knowing the number of its first line. The text is read only
as the chunks are taken, so what the command holds is what the caller keeps of them.

A stretch with no cut point for longer than ``LONGEST_PARTITIONS`` partitions, and than
the text ``cut_chunks`` looks through at once (some hundreds of kilobytes: one huge game,
movetext with no tags), is a ``Stretch``: its text read lazily, to be handled where it
is read, in its turn, before the next chunk is asked for.

Errors: ``ClusterError`` (one line naming the file) when the file cannot be opened. Data
that is corrupt or ends early raises ``ClusterError`` where the reading reaches it
(``Failure.RAISE``: ``normalize`` stops there, as one process does) or ends the text there,
its reason kept on the last chunk or stretch (``Failure.KEEP``: ``check`` reports it at the
line where the reading broke, as one process does).
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from notation.cluster import ClusterError, files
from notation.inputs import ENCODING, ERRORS, CorruptInput, InputError, InputFile
from notation.lean_enum import LeanStrEnum
from notation.pgn import cuts
from notation.pgn.lines import LineCounter, line_breaks

LONGEST_PARTITIONS = 4  # a chunk is at most this many partition sizes (then a Stretch)
READ_BYTES = 1 << 20


class Failure(LeanStrEnum):
    """What corrupt or truncated compressed data does."""

    RAISE = "raise"  # ClusterError where the reading reaches it
    KEEP = "keep"  # the text ends there; the reason is kept on the last chunk


@dataclass(frozen=True)
class Chunk:
    """Text of a compressed input: whole games, lines numbered from ``first_line``;
    ``last``: the input's last chunk; ``failure``: why the reading stopped at its end
    (``Failure.KEEP``, the last chunk only)."""

    text: str
    first_line: int
    last: bool
    failure: str | None = None


class Stretch:
    """Text with no cut point for longer than a chunk may be: iterate over ``pieces()``
    once, then ask ``last()``, ``failure`` and ``line_breaks``."""

    def __init__(self, pieces: Iterator[str], first_line: int, following: _Peekable, reader: _Reader):
        self._counter = LineCounter(pieces)
        self.first_line = first_line
        self._following = following
        self._reader = reader

    def pieces(self) -> Iterator[str]:
        return iter(self._counter)

    @property
    def line_breaks(self) -> int:
        """The line breaks in the pieces read so far (``--jobs``'s count: a CR LF cut in two is one)."""
        return self._counter.breaks

    def last(self) -> bool:
        """Whether nothing follows (reads ahead to the next chunk: ask once ``pieces`` is done)."""
        return self._following.at_end()

    @property
    def failure(self) -> str | None:
        return self._reader.failure if self.last() else None


def chunks(name: str, path: str, partition_chars: int, failure: Failure) -> Iterator[Chunk | Stretch]:
    """The chunks (and stretches) of the compressed file at ``path``, in order; an empty
    file is one empty chunk. See the module doc."""
    reader = _Reader(name, path, failure)
    with reader:
        size = max(1, partition_chars)
        items = _Peekable(cuts.cut_chunks(reader.blocks(), size, LONGEST_PARTITIONS * size))
        first_line = 1
        any_item = False
        for item in items:
            any_item = True
            if isinstance(item, cuts.Stretch):
                stretch = Stretch(item.pieces, first_line, items, reader)
                yield stretch
                first_line += stretch.line_breaks
                continue
            last = items.at_end()
            yield Chunk(item, first_line, last, reader.failure if last else None)
            first_line += line_breaks(item)
        if not any_item:
            yield Chunk("", 1, True, reader.failure)


class _Reader:
    """The decompressed, decoded text of one file, in blocks; see ``Failure``."""

    def __init__(self, name: str, path: str, failure: Failure):
        self._name = name
        self._failure_mode = failure
        self.failure: str | None = None
        self._opened = files.open_binary(path)
        file = self._opened.__enter__()
        try:
            self._source = InputFile(name, raw=file)
        except InputError as exc:
            self._opened.__exit__(None, None, None)
            raise ClusterError(f"cannot read {name!r}: {exc.reason}", exc.reason) from None

    def blocks(self) -> Iterator[str]:
        decoder = codecs.getincrementaldecoder(ENCODING)(ERRORS)
        read1 = self._source.binary.read1
        while True:
            try:
                data = read1(READ_BYTES)
            except CorruptInput as exc:
                if self._failure_mode is Failure.RAISE:
                    raise ClusterError(f"cannot read {self._name!r}: {exc.reason}", exc.reason) from None
                self.failure, data = exc.reason, b""
            except OSError as exc:
                raise ClusterError(f"cannot read {self._name!r}: {files.reason(exc)}") from None
            text = decoder.decode(data, final=not data)
            if text:
                yield text
            if not data:
                return

    def __enter__(self) -> _Reader:
        return self

    def __exit__(self, *exc: Any) -> None:
        self._source.close()
        self._opened.__exit__(None, None, None)


_END = object()


class _Peekable:
    """An iterator that can say whether anything follows."""

    def __init__(self, items: Iterator[Any]):
        self._items = items
        self._next: Any = None
        self._held = False

    def __iter__(self) -> _Peekable:
        return self

    def __next__(self) -> Any:
        if self._held:
            self._held = False
            return self._next
        return next(self._items)

    def at_end(self) -> bool:
        if not self._held:
            self._next = next(self._items, _END)
            self._held = self._next is not _END
        return not self._held
