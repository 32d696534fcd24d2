"""Frames between the front end and a worker process over a Unix socket pair.

A frame is one type byte, a 4-byte big-endian length and that many bytes of payload.
Front end to worker: ``REQUEST`` (JSON: the request head and where its body is), then
``BODY`` (the body bytes, when they are sent inline), and ``CANCEL`` (empty) when the
request's client went away before its answer ended: the worker stops at its next piece of
answer (``BlockingChannel.cancel_requested``) and ends it with ``ABORT``. Worker to front end: ``READY`` once
(JSON ``{"pid"}``) after the app is built, then per request ``START`` (JSON ``{"status",
"headers"}``), any number of ``DATA`` and one ``END`` (empty, or JSON ``{"fens"}``: the FENs
the answer processed, for the metrics), or ``ABORT`` when the answer failed
after ``START`` (the front end then cuts the stream).

``BlockingChannel`` is the worker's side (blocking socket: a slow client makes ``send``
block, which is the backpressure); ``FrameBuffer`` (and ``read_frame``) the front end's
(asyncio streams). A frame longer than ``MAX_FRAME`` or of an unknown type raises
``WireError``; nothing here knows HTTP.
"""

from __future__ import annotations

import asyncio
import json
import socket
import struct
from typing import Any

import orjson

REQUEST, BODY, READY, START, DATA, END, ABORT, CANCEL = (ord(letter) for letter in "QBRSDEAC")
KNOWN_TYPES = frozenset({REQUEST, BODY, READY, START, DATA, END, ABORT, CANCEL})
CANCEL_FRAME = bytes((CANCEL, 0, 0, 0, 0))
HEADER = struct.Struct(">BI")
MAX_FRAME = 1 << 30
RECEIVE_BYTES = 1 << 16  # the worker reads at least this much at once (a frame's head and what follows)


class WireError(Exception):
    """A frame that breaks this module's framing (a bug or a dead peer, never user input)."""


def frame(kind: int, payload: bytes = b"") -> bytes:
    """The bytes of one frame; raises ``WireError`` if ``payload`` is longer than ``MAX_FRAME``."""
    if len(payload) > MAX_FRAME:
        raise WireError(f"frame of {len(payload)} bytes is over {MAX_FRAME}")
    return HEADER.pack(kind, len(payload)) + payload


def json_frame(kind: int, value: Any) -> bytes:
    try:
        payload = orjson.dumps(value)
    except TypeError:  # what only the standard encoder takes (a lone surrogate)
        payload = json.dumps(value, separators=(",", ":")).encode("utf-8")
    return frame(kind, payload)


def parse_json(payload: bytes) -> Any:
    try:
        return orjson.loads(payload)
    except orjson.JSONDecodeError:
        pass  # a lone surrogate escaped by the standard encoder
    try:
        return json.loads(payload)
    except ValueError as exc:
        raise WireError(f"frame is not JSON: {exc}") from None


def _check(kind: int, length: int) -> None:
    if kind not in KNOWN_TYPES:
        raise WireError(f"unknown frame type {kind}")
    if length > MAX_FRAME:
        raise WireError(f"frame of {length} bytes is over {MAX_FRAME}")


class BlockingChannel:
    """The worker's end of the socket pair. ``receive`` returns ``None`` at end of file."""

    def __init__(self, sock: socket.socket):
        self.sock = sock
        self._buffer = bytearray()  # received, not yet taken: a request and its body come in one read

    def send(self, kind: int, payload: bytes = b"") -> None:
        """Send one frame; blocks while the front end is not reading (raises ``OSError`` if it is gone)."""
        if len(payload) < 65536:
            self.sock.sendall(frame(kind, payload))
        else:
            self.sock.sendall(HEADER.pack(kind, len(payload)))
            self.sock.sendall(payload)

    def send_raw(self, frames: bytes) -> None:
        """Send frames already built with ``frame``; blocks like ``send``."""
        self.sock.sendall(frames)

    def send_json(self, kind: int, value: Any) -> None:
        self.sock.sendall(json_frame(kind, value))

    def cancel_requested(self) -> bool:
        """Whether the front end has sent ``CANCEL`` (or closed the socket) since the request
        began; never blocks. The ``CANCEL`` frame is taken; the front end sends nothing else
        while a request runs."""
        buffer = self._buffer
        if not buffer:
            try:
                chunk = self.sock.recv(RECEIVE_BYTES, socket.MSG_DONTWAIT)
            except (BlockingIOError, InterruptedError):
                return False
            if not chunk:
                return True  # the front end is gone: no one takes the rest
            buffer += chunk
        if len(buffer) >= HEADER.size and buffer[0] == CANCEL:
            del buffer[: HEADER.size]
        return True

    def receive(self) -> tuple[int, bytes] | None:
        """The next frame, or ``None`` if the front end closed the socket between frames."""
        buffer = self._buffer
        if len(buffer) < HEADER.size and not self._fill(HEADER.size, eof_ok=True):
            return None
        kind, length = HEADER.unpack_from(buffer)
        _check(kind, length)
        end = HEADER.size + length
        if len(buffer) < end:
            self._fill(end, eof_ok=False)
        with memoryview(buffer) as view:
            payload = bytes(view[HEADER.size : end])
        del buffer[:end]
        return kind, payload

    def _fill(self, size: int, *, eof_ok: bool) -> bool:
        """Receive until the buffer holds ``size`` bytes; False at end of file between frames."""
        buffer = self._buffer
        while len(buffer) < size:
            chunk = self.sock.recv(min(max(size - len(buffer), RECEIVE_BYTES), 1 << 20))
            if not chunk:
                if eof_ok and not buffer:
                    return False
                raise WireError("the peer closed the socket in the middle of a frame")
            buffer += chunk
        return True


class FrameBuffer:
    """The front end's reader of a worker's frames: it reads what has arrived in one go and
    takes every whole frame from it, so the frames of a one-write answer (START, DATA, END)
    cost one read between them, not two a frame."""

    def __init__(self, reader: asyncio.StreamReader):
        self.reader = reader
        self.pending = bytearray()

    async def next(self) -> tuple[int, bytes]:
        """The next frame; raises as ``read_frame``."""
        pending = self.pending
        while True:
            wanted = RECEIVE_BYTES
            if len(pending) >= HEADER.size:
                kind, length = HEADER.unpack_from(pending)
                _check(kind, length)
                end = HEADER.size + length
                if len(pending) >= end:
                    with memoryview(pending) as view:
                        payload = bytes(view[HEADER.size : end])  # one copy
                    del pending[:end]
                    return kind, payload
                wanted = max(wanted, end - len(pending))
            chunk = await self.reader.read(wanted)
            if not chunk:
                raise asyncio.IncompleteReadError(bytes(pending), None)
            pending += chunk


async def read_frame(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    """The next frame from a worker; raises ``WireError`` (or ``asyncio.IncompleteReadError``
    when the worker died)."""
    head = await reader.readexactly(HEADER.size)
    kind, length = HEADER.unpack(head)
    _check(kind, length)
    return kind, await reader.readexactly(length)
