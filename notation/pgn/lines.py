"""Line endings: ``\\r\\n``, ``\\n`` or a lone ``\\r``, found, counted and cut after."""

from __future__ import annotations

from collections.abc import Iterator

from notation.patterns import compiled

# The state machine is fed lines of at most this many characters (their ending aside);
# longer ones are fed in pieces. ``cuts`` cuts only before tag lines no longer than this.
# Here, not in state_machine: the splitter's fast path measures lines by it without
# importing the state machine (a file of clean games never needs it). Read as
# ``lines.PIECE_CHARS`` at each use, so that tests may make it small.
PIECE_CHARS = 1 << 17

# Patterns' sources, compiled on first use (``notation.patterns``): text of ``\n`` line
# ends needs neither.
NEXT_BREAK = r"\r\n|\r|\n"
_LINE_SPLIT = r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+"

def split_lines(text: str) -> list[str]:
    """``text`` cut after each ``\r\n``, ``\n`` or lone ``\r``, endings kept."""
    if "\r" not in text or text.count("\r") == text.count("\r\n"):
        parts = text.split("\n")
        last = parts.pop()
        lines = [part + "\n" for part in parts]
        if last:
            lines.append(last)
        return lines
    return compiled(_LINE_SPLIT).findall(text)

def line_ending(line: str) -> str:
    """The line's ending (``\\r\\n``, ``\\n``, ``\\r``) or ``""``."""
    if line.endswith("\r\n"):
        return "\r\n"
    if line.endswith("\n"):
        return "\n"
    if line.endswith("\r"):
        return "\r"
    return ""


def line_breaks(text: str) -> int:
    """Line ends in ``text``: ``\\r\\n``, ``\\n`` or a lone ``\\r``. Most text has no
    ``\\r``: one count and one search then, not three counts (``normalize --jobs`` counts
    every chunk of a stream it hands out)."""
    breaks = text.count("\n")
    if "\r" in text:
        breaks += text.count("\r") - text.count("\r\n")
    return breaks


def first_break(text: str) -> int:
    """Where the first line of ``text`` ends (its ending excluded), or ``len(text)``."""
    found = compiled(NEXT_BREAK).search(text)
    return len(text) if found is None else found.start()


class LineCounter:
    """Passes pieces of text on, counting the line breaks in them as ``line_breaks`` does
    (a CR LF cut in two is one line break): ``breaks``, once the pieces are read. The
    stretches of ``--jobs`` (``notation.pgn.stream_jobs``) and of ``--dask``
    (``notation.cluster.chunks``) are counted with it."""

    def __init__(self, pieces: Iterator[str]):
        self.pieces = pieces
        self.breaks = 0

    def __iter__(self) -> Iterator[str]:
        last = ""
        for piece in self.pieces:
            self.breaks += line_breaks(piece)
            if last == "\r" and piece.startswith("\n"):
                self.breaks -= 1  # a CR LF cut in two is one line break
            if piece:
                last = piece[-1]
            yield piece
