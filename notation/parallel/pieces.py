"""Cutting input into pieces for the workers: a file's bytes into nominal ranges
(``nominal_starts``, ``byte_ranges``; ``tapered_ranges`` for processes that take them in
turn), a stream of text into blocks of a bounded size (``rejoined``, ``joined``).
Where a piece may really start (a game start) is the caller's rule: nothing here looks at
the text. ``nominal_starts`` raises ``ValueError`` for ``every`` below 1,
``tapered_ranges`` for ``most`` or ``jobs`` below 1.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

TAPER_FLOOR = 8  # the smallest tapered range is this part of the largest


def nominal_starts(size: int, every: int) -> list[int]:
    """Where the nominal ranges of ``every`` bytes of a file of ``size`` bytes start (one
    range, at 0, for an empty file); each ends where the next starts, the last at ``size``."""
    if every < 1:
        raise ValueError("every must be at least 1")
    return list(range(0, size, every)) or [0]


def tapered_ranges(size: int, most: int, jobs: int) -> list[tuple[int, int]]:
    """The nominal ranges, as ``(start, end)`` pairs, to cut a file of ``size`` bytes into
    for ``jobs`` processes that each take the next one when free: each a ``2 * jobs``-th
    of the bytes still left, at most ``most`` and at least ``most // TAPER_FLOOR`` (one
    byte at least), the last one what remains (guided self-scheduling). The first ranges
    are large, so their fixed cost (each piece's last game is looked for to its end) stays
    small; the last are small, so the processes finish close together even when one of
    them was slowed down (a busy machine, a piece of longer games): cut evenly, the last
    piece one process took after the others were done was a whole range of work. One
    range, ``(0, 0)``, for an empty file. Raises ``ValueError`` for ``most`` or ``jobs``
    below 1."""
    if most < 1 or jobs < 1:
        raise ValueError("most and jobs must be at least 1")
    least = max(1, most // TAPER_FLOOR)
    ranges: list[tuple[int, int]] = []
    start = 0
    while start < size:
        length = max(least, min(most, (size - start) // (2 * jobs)))
        ranges.append((start, min(size, start + length)))
        start += length
    return ranges or [(0, 0)]


def byte_ranges(size: int, every: int) -> list[tuple[int, int]]:
    """The nominal ranges of ``nominal_starts`` as ``(start, end)`` pairs."""
    starts = nominal_starts(size, every)
    return list(zip(starts, [*starts[1:], size], strict=True))


def rejoined(blocks: Iterable[str], at_least: int) -> Iterator[str]:
    """The text of ``blocks`` in blocks of ``at_least`` to ``5 * at_least`` characters (but
    the last): looking back for a cut point after each block costs no more than the block,
    and cutting a chunk off the text held copies no more than a few blocks."""
    return joined(_sliced(blocks, 4 * at_least), at_least)


def joined(pieces: Iterable[str], at_least: int) -> Iterator[str]:
    """Small ``pieces`` (lines) joined into blocks of at least ``at_least`` characters (but
    the last); a piece that long passes whole."""
    batch: list[str] = []
    length = 0
    for piece in pieces:
        batch.append(piece)
        length += len(piece)
        if length >= at_least:
            yield "".join(batch)
            batch, length = [], 0
    if batch:
        yield "".join(batch)


def _sliced(blocks: Iterable[str], most: int) -> Iterator[str]:
    """``blocks``, those longer than ``most`` characters cut into slices of ``most``."""
    for block in blocks:
        if len(block) <= most:
            yield block
        else:
            yield from (block[start:start + most] for start in range(0, len(block), most))
