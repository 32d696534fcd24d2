"""Content codings of request bodies (RFC 9110 §8.4): which are accepted, and decoding one
as a stream whose pieces are bounded in size, so that the caller can stop a
decompression bomb at its limit before it expands any further.

Accepted: ``gzip`` (and its alias ``x-gzip``; several members in a row are read as one
body), ``deflate`` (the zlib format of RFC 1950; a raw deflate stream, which some clients
send instead, is recognised by its missing zlib header), ``zstd`` (several frames in a row
are read as one body; windows up to 8 MiB, as RFC 9659 has it) and ``identity`` (nothing to do). The coding names are
case-insensitive. One coding other than ``identity`` may be applied; stacked codings
(``gzip, zstd``) are refused like unknown ones.

Errors: ``UnsupportedCoding`` (415, with ``Accept-Encoding`` naming the accepted codings,
RFC 9110 §15.5.16) for a coding not in that list or for stacked codings; ``CorruptBody``
(400) for compressed data that is corrupt, cut short, or followed by stray bytes. The size
of the decoded body is not checked here (see ``service.bodies``).
"""

from __future__ import annotations

import enum
import zlib
from collections.abc import Generator, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from werkzeug.exceptions import BadRequest, UnsupportedMediaType

if TYPE_CHECKING:
    from _typeshed.wsgi import WSGIEnvironment

CHUNK = 1 << 16  # the largest piece of decoded bytes handed on at once


class Coding(str, enum.Enum):
    """A content coding the service decodes."""

    GZIP = "gzip"
    DEFLATE = "deflate"
    ZSTD = "zstd"


IDENTITY = "identity"
_NAMES = {"gzip": Coding.GZIP, "x-gzip": Coding.GZIP, "deflate": Coding.DEFLATE, "zstd": Coding.ZSTD}
ACCEPTED = (*_NAMES, IDENTITY)  # in the order they are listed to clients
ACCEPT_ENCODING = ", ".join(ACCEPTED)


class UnsupportedCoding(UnsupportedMediaType):
    """415 for a ``Content-Encoding`` the service cannot decode; sends ``Accept-Encoding``."""

    def get_headers(
        self, environ: WSGIEnvironment | None = None, scope: dict[str, Any] | None = None
    ) -> list[tuple[str, str]]:
        return [*super().get_headers(environ, scope), ("Accept-Encoding", ACCEPT_ENCODING)]


class CorruptBody(BadRequest):
    """400 for a body that is not valid data of its ``Content-Encoding``."""


def coding_of(header: str | None) -> Coding | None:
    """The coding a ``Content-Encoding`` value names (None: the body is not encoded).

    Raises ``UnsupportedCoding`` for a coding not in ``ACCEPTED`` or for more than one
    coding other than ``identity``. Empty list elements are ignored (RFC 9110 §5.6.1).
    """
    names = [name.strip().lower() for name in (header or "").split(",")]
    names = [name for name in names if name and name != IDENTITY]
    unknown = [name for name in names if name not in _NAMES]
    if unknown:
        raise UnsupportedCoding(
            f"the body's Content-Encoding {', '.join(unknown)} is not supported; send it as one of {ACCEPT_ENCODING}"
        )
    if len(names) > 1:
        raise UnsupportedCoding(
            f"the body has several content codings ({', '.join(names)}); send it with one of {ACCEPT_ENCODING}"
        )
    return _NAMES[names[0]] if names else None


def decoded(chunks: Iterable[bytes], coding: Coding) -> Iterator[bytes]:
    """The bytes of ``chunks`` decoded from ``coding``, in pieces of at most ``CHUNK`` bytes.

    Lazy: each input chunk is read only when the pieces it gives are wanted, so a caller
    that stops pulling stops the decompression. An empty body decodes to nothing. Raises
    ``CorruptBody``; nothing else is raised on bad data.
    """
    decoder = _ZstdDecoder() if coding is Coding.ZSTD else _ZlibDecoder(coding)
    for chunk in chunks:
        yield from decoder.feed(chunk)
    decoder.finish()


def _corrupt(coding: Coding, what: str) -> CorruptBody:
    return CorruptBody(f"the body is not valid {coding.value} data (Content-Encoding: {coding.value}): {what}")


class _ZlibDecoder:
    """gzip (members in a row) or deflate (zlib-wrapped or raw), output bounded per call."""

    def __init__(self, coding: Coding):
        self._coding = coding
        self._obj: zlib._Decompress | None = None
        self._head = b""  # deflate: the first byte, until the second tells zlib from raw
        self._streams = 0  # streams (gzip members) started

    def feed(self, data: bytes) -> Iterator[bytes]:
        if self._head:
            data, self._head = self._head + data, b""
        while data:
            if self._obj is None:
                if self._coding is Coding.DEFLATE:
                    if self._streams:
                        raise _corrupt(self._coding, f"{len(data)} stray bytes after the end of the stream")
                    if len(data) < 2:
                        self._head = data
                        return
                    self._obj = zlib.decompressobj(zlib.MAX_WBITS if _has_zlib_header(data) else -zlib.MAX_WBITS)
                else:
                    self._obj = zlib.decompressobj(16 + zlib.MAX_WBITS)
                self._streams += 1
            data = yield from self._drain(self._obj, data)
            if self._obj.eof:
                data = self._obj.unused_data
                self._obj = None

    def _drain(self, obj: zlib._Decompress, data: bytes) -> Generator[bytes, None, bytes]:
        """Decompress ``data`` in pieces of at most ``CHUNK``; returns what is left (after eof)."""
        while True:
            try:
                out = obj.decompress(data, CHUNK)
            except zlib.error as exc:
                raise _corrupt(self._coding, str(exc)) from None
            data = obj.unconsumed_tail
            if out:
                yield out
            if obj.eof or (not data and len(out) < CHUNK):
                return b""

    def finish(self) -> None:
        if self._head:
            raise _corrupt(self._coding, "the stream ends after its first byte")
        if self._obj is not None:
            raise _corrupt(self._coding, "the stream ends early (truncated)")


def _has_zlib_header(data: bytes) -> bool:
    """RFC 1950: method 8 (deflate) and a header that is a multiple of 31."""
    return data[0] & 0x0F == 8 and ((data[0] << 8) | data[1]) % 31 == 0


class _ZstdDecoder:
    """zstd frames in a row. ``zstandard``'s decompressor has no output limit per call, so
    input is fed ``FEED`` bytes at a time: a zstd block expands at most about 32768 times
    (an RLE block: 4 bytes for 128 KiB), so one step gives at most about 8 MiB. Frames
    that need a window over ``MAX_WINDOW`` are refused as corrupt: RFC 9659 limits the
    ``zstd`` content coding to 8 MiB windows, and a larger one would be memory the
    decoder allocates at the sender's word."""

    FEED = 256
    MAX_WINDOW = 8 << 20

    def __init__(self) -> None:
        import zstandard

        self._error = zstandard.ZstdError
        self._dctx = zstandard.ZstdDecompressor(max_window_size=self.MAX_WINDOW)
        self._obj: zstandard.ZstdDecompressionObj | None = None  # the frame being read

    def feed(self, data: bytes) -> Iterator[bytes]:
        view = memoryview(data)
        for start in range(0, len(view), self.FEED):
            piece: bytes | memoryview = view[start : start + self.FEED]
            while piece:
                frame = self._obj if self._obj is not None else self._dctx.decompressobj()
                self._obj = frame
                try:
                    out = frame.decompress(piece)
                except self._error as exc:
                    raise _corrupt(Coding.ZSTD, str(exc)) from None
                piece = frame.unused_data if frame.eof else b""
                if frame.eof:
                    self._obj = None
                for offset in range(0, len(out), CHUNK):
                    yield out[offset : offset + CHUNK]

    def finish(self) -> None:
        if self._obj is not None:
            raise _corrupt(Coding.ZSTD, "the last frame ends early (truncated)")
