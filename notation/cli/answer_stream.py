"""When the answers of ``convert`` and ``validate`` reach standard output.

Answers are kept and written a batch at a time: before the command waits for more input
(``flush`` is the input's ``before_read``, run before each read of the input file or
standard input), before anything goes to standard error (so a warning follows the answer
it is about), when a batch reaches ``BATCH_CHARS``, and at the end. A program that writes
a line to the command and waits for its answer so gets it at once, whether Python
buffers standard output or not (``PYTHONUNBUFFERED``, ``python -u``), and a file or a
pipe full of lines is answered with one write per batch, not one per line. A terminal
gets each answer as it is written, as Python's line buffering gives it.

``write`` and ``flush`` raise what writing raises (``BrokenPipeError`` when the reader
has gone); the batch being written is then dropped.
"""

from __future__ import annotations

from typing import Final, TextIO

BATCH_CHARS: Final = 1 << 16  # written at once when a batch reaches this many characters


class AnswerStream:
    """Answers for ``stream`` (standard output), written in batches: see the module doc."""

    __slots__ = ("_stream", "_pending", "_size", "_direct")

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._pending: list[str] = []
        self._size = 0
        try:
            self._direct = stream.isatty()
        except (AttributeError, ValueError, OSError):  # no isatty, or closed: not a terminal
            self._direct = False

    def write(self, text: str) -> None:
        if self._direct:
            self._stream.write(text)
            return
        self._pending.append(text)
        self._size += len(text)
        if self._size >= BATCH_CHARS:
            self.flush()

    def flush(self) -> None:
        """Write the batch so far and flush the stream."""
        if self._pending:
            text = "".join(self._pending)
            self._pending = []
            self._size = 0
            self._stream.write(text)
        self._stream.flush()
