"""Raw streams io's buffered reader reads a source through, for the rarer ways ``check``
reads one: with a progress bar (``ReportingReader``), and once its first bytes were read to
tell its kind (``PrefixedReader``).

Subclasses of ``io.RawIOBase``, so Python classes whichever the build; this module is
loaded only where one is used, so that a plain ``check`` starts up without defining them.
Nothing here raises but what the stream underneath raises.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, BinaryIO

if TYPE_CHECKING:
    from notation.check.runner import ProgressSink
    from notation.inputs import InputFile


class ReportingReader(io.RawIOBase):
    """A source's decompressed bytes that report the stored bytes read to a progress sink
    (``reported``: how many so far)."""

    def __init__(self, source: InputFile, progress: ProgressSink):
        super().__init__()
        self._source = source
        self._progress = progress
        self.reported = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        data = self._source.binary.read1(len(buffer))
        buffer[: len(data)] = data
        position = self._source.position
        if position > self.reported:
            self._progress.advance(position - self.reported)
            self.reported = position
        return len(data)


class PrefixedReader(io.RawIOBase):
    """``prefix`` then the rest of ``stream``: a stream that was read a little and put back."""

    def __init__(self, prefix: bytes, stream: BinaryIO):
        self._prefix = memoryview(prefix)
        self._stream = stream

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if self._prefix:
            count = min(len(buffer), len(self._prefix))
            buffer[:count] = self._prefix[:count]
            self._prefix = self._prefix[count:]
            return count
        data = self._stream.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)
