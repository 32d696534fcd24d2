"""A rewrite's replacements in one text, kept as the text they make: ``TextEdits``.

A walk that rewrites a game's moves (``movewalk``) replaces spans of the game's text one
after another, in text order, never two that overlap. ``TextEdits`` keeps each as the
unchanged text before it and its new text (``pieces``, alternating) and the length it
replaces (``lengths``), so that the rewritten stretch is a join of the pieces. A rewrite
replaces nearly every move; kept as ``(start, end, new text)`` tuples, each made a tuple
and two integers that the rewrite then read back, sorted and merged.

Iterating gives the ``(start, end, new text)`` of each replacement in text order, for a
caller that merges them with changes of its own (``normalize``'s tag edits and repairs).

``replace`` does not check that a span starts at or after the last one's end, nor that it
lies inside the text: the walk's tokens come in text order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator


class TextEdits:
    """Replacements in ``source`` from offset ``origin`` on (``origin`` to ``done`` is the
    stretch they rewrite: ``source[origin:done]`` reads as ``"".join(pieces)``)."""

    __slots__ = ("source", "origin", "done", "pieces", "lengths")

    def __init__(self, source: str, origin: int) -> None:
        self.source = source
        self.origin = origin
        self.done = origin  # where the last replacement ends
        self.pieces: list[str] = []  # the text before each replacement, then its new text
        self.lengths: list[int] = []  # the length each replaces (a move's few characters)

    def replace(self, start: int, end: int, new: str) -> None:
        """``source[start:end]`` becomes ``new``; ``start`` is at or after the last one's end."""
        self.pieces.append(self.source[self.done:start])
        self.pieces.append(new)
        self.lengths.append(end - start)
        self.done = end

    def last_start(self) -> int:
        """Where the last replacement starts; -1 when there is none."""
        if not self.lengths:
            return -1
        return self.done - self.lengths[-1]

    def extend_last(self, end: int) -> None:
        """The last replacement reaches ``end`` too (at or after its end): what lies between
        goes with it. There must be one (``last_start`` is not -1)."""
        self.lengths[-1] += end - self.done
        self.done = end

    def spans(self) -> list[tuple[int, int, str]]:
        """``(start, end, new text)`` of each replacement, in text order."""
        found: list[tuple[int, int, str]] = []
        pieces = self.pieces
        at = self.origin
        for index, length in enumerate(self.lengths):
            start = at + len(pieces[2 * index])
            at = start + length
            found.append((start, at, pieces[2 * index + 1]))
        return found

    def __iter__(self) -> Iterator[tuple[int, int, str]]:
        return iter(self.spans())

    def __len__(self) -> int:
        return len(self.lengths)

    def __bool__(self) -> bool:
        return bool(self.lengths)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TextEdits):
            return NotImplemented
        return self.spans() == other.spans()

    def __repr__(self) -> str:
        return f"TextEdits({self.spans()!r})"

    def __reduce__(self) -> tuple[Callable[[str, int, list[tuple[int, int, str]]], TextEdits],
                                  tuple[str, int, list[tuple[int, int, str]]]]:
        return _restored, (self.source, self.origin, self.spans())


def _restored(source: str, origin: int, spans: list[tuple[int, int, str]]) -> TextEdits:
    """``TextEdits`` of ``source`` from ``origin`` with ``spans`` replaced (a pickle's copy)."""
    edits = TextEdits(source, origin)
    for start, end, new in spans:
        edits.replace(start, end, new)
    return edits


NO_EDITS = TextEdits("", 0)  # no replacement: a game kept as read (nothing is ever replaced in it)
