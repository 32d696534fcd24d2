"""One rank of a FEN placement <-> its cells (``"2pp4"`` <-> ``"..pp...."``).

Ranks repeat enormously across positions (``pppppppp``, ``8``, ``PPPP1PPP``), so both
directions are memoised in bounded dictionaries whose misses are computed at C speed with
``str.replace``. The caches hold at most ``LIMIT`` entries each (then stop growing), so
memory stays bounded whatever the input. Nothing here knows which letters a variant has:
callers check the letters themselves.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from notation.geometry import Geometry

LIMIT = 50_000
BAD_RANK = "!"  # what a rank that is not exactly eight cells expands to (never 8 long)

_DIGITS = tuple((str(n), "." * n) for n in range(8, 0, -1))
_RUNS = tuple(("." * n, str(n)) for n in range(8, 0, -1))


class _Expanded(dict[str, str]):
    """rank text -> eight cells, or ``BAD_RANK`` when the rank does not hold eight squares."""

    def __missing__(self, rank: str) -> str:
        cells = rank
        for digit, run in _DIGITS:
            if digit in cells:
                cells = cells.replace(digit, run)
        if len(cells) != 8:
            cells = BAD_RANK
        if len(self) < LIMIT:
            self[rank] = cells
        return cells


class _Compressed(dict[str, str]):
    """eight cells -> rank text."""

    def __missing__(self, cells: str) -> str:
        rank = cells
        for run, digit in _RUNS:
            if run in rank:
                rank = rank.replace(run, digit)
        if len(self) < LIMIT:
            self[cells] = rank
        return rank


expand_rank = _Expanded().__getitem__
compress_rank = _Compressed().__getitem__


# The cells of the last placement read, and that placement: ``convert`` reads a FEN and
# writes the same board straight back, and where the placement is already the one
# ``placement_of_cells`` writes (each empty run one digit) need not compress it again.
# One tuple swapped whole, so concurrent callers never mix its halves.
_last_read: tuple[str, str] = ("", "")
_DIGITS_AS_NINE = bytes.maketrans(b"0123456789", b"9999999999")


def cells_of_placement(placement: str) -> str | None:
    """The 64 cells (a1 first) of a placement without ``~`` marks, or None if it is not
    eight ranks of eight squares. Letters are not checked."""
    global _last_read
    ranks = placement.split("/")
    if len(ranks) != 8:
        return None
    cells = "".join(map(expand_rank, ranks[::-1]))
    if len(cells) != 64:
        return None
    _last_read = (cells, placement)
    return cells


def placement_of_cells(cells: str) -> str:
    """The placement text of 64 cells (a1 first), ranks eight to one."""
    last = _last_read
    if last[0] is cells and _as_written(last[1]):
        return last[1]  # the very cells just read, from a placement written this way
    return "/".join(
        map(
            compress_rank,
            (cells[56:64], cells[48:56], cells[40:48], cells[32:40],
             cells[24:32], cells[16:24], cells[8:16], cells[0:8]),
        )
    )


def _as_written(placement: str) -> bool:
    """Whether ``placement`` is spelled as ``placement_of_cells`` writes it: no ``.`` cells
    and no two digits in a row (each empty run one digit). A byte translation and two
    searches: several times cheaper than a regular expression here."""
    return placement.isascii() and "." not in placement and b"99" not in placement.encode().translate(_DIGITS_AS_NINE)


_EMPTY_RUN = re.compile(r"\.+")


def _count_run(match: re.Match[str]) -> str:
    return str(len(match.group()))


def placement_of_board(cells: str, geometry: Geometry, marks: Collection[int] = ()) -> str:
    """The placement text of any board size: ranks from the last to the first, each run of
    empty squares as one number (``10`` on wide boards), ``~`` after the marked pieces."""
    ranks = []
    width = geometry.files
    for rank_start in range(geometry.size - width, -1, -width):
        row = cells[rank_start:rank_start + width]
        if marks:
            row = "".join(
                cell + "~" if rank_start + file in marks and cell != "." else cell for file, cell in enumerate(row)
            )
        ranks.append(_EMPTY_RUN.sub(_count_run, row))
    return "/".join(ranks)
