"""Reading zstd files as a stream, with bounded memory and truncation reported.

``zstandard``'s own stream reader ends quietly on a file cut short; a tool that promises
nothing is lost must say so instead. ``ZstdReader`` decompresses every frame in turn and
raises ``EOFError`` when the last one is incomplete. Compressed input is fed ``FEED``
bytes at a time, so a decompression bomb cannot expand by more than a few MiB per step.
"""

from __future__ import annotations

import io
from typing import BinaryIO


class ZstdReader(io.RawIOBase):
    """Decompressed bytes of a zstd stream (use inside ``io.BufferedReader``).

    Raises ``EOFError`` at the end of input if a frame is cut short, and ``zstandard.ZstdError``
    on corrupt data. Closing it closes ``raw``.
    """

    FEED = 4096

    def __init__(self, raw: BinaryIO):
        import zstandard

        self._raw = raw
        self._dctx = zstandard.ZstdDecompressor()
        self._obj = self._dctx.decompressobj()
        self._started = False
        self._input = b""
        self._output = memoryview(b"")

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # type: ignore[override]
        while not self._output:
            if not self._input:
                self._input = self._raw.read(1 << 16)
                if not self._input:
                    if self._started and not self._obj.eof:
                        raise EOFError("the last zstd frame is cut short (truncated file)")
                    return 0
            chunk, self._input = self._input[: self.FEED], self._input[self.FEED :]
            self._output = memoryview(self._decompress(chunk))
        count = min(len(buffer), len(self._output))
        buffer[:count] = self._output[:count]
        self._output = self._output[count:]
        return count

    def _decompress(self, data: bytes) -> bytes:
        out = []
        while data:
            if self._obj.eof:  # the next frame
                self._obj = self._dctx.decompressobj()
            self._started = True
            out.append(self._obj.decompress(data))
            data = self._obj.unused_data if self._obj.eof else b""
        return b"".join(out)

    def close(self) -> None:
        try:
            self._raw.close()
        finally:
            super().close()
