"""A FEN placement <-> its 64 cells on 8x8, a1 first (rank ``"2pp4"`` <-> ``"..pp...."``).

Reading expands the digits of the whole placement with ``str.replace`` (at C speed, no
table: the ranks of real games are too varied for a cache of them to stay in the CPU's
caches); compiled, the reader takes ``checked_cells`` instead, which reads the placement a
byte at a time in machine integers, checks its letters on the way and writes each piece
into the board's bytes. Writing memoises
each rank in a bounded dictionary (``LIMIT`` entries, then it stops growing), though
``convert`` rarely needs it: a placement read in the form written is given back as it
is. Nothing here knows which letters a variant has: callers check the letters
themselves, or pass them to ``checked_cells``.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import TYPE_CHECKING, Final

from librt.strings import BytesWriter
from mypy_extensions import u8

from notation.geometry import Geometry
from notation.patterns import compiled

if TYPE_CHECKING:  # compiled, a machine integer; interpreted, never looked up (an int)
    from mypy_extensions import i64

LIMIT = 50_000

_DIGITS: Final = tuple((str(n), "." * n) for n in range(8, 0, -1))
_RUNS: Final = tuple(("." * n, str(n)) for n in range(8, 0, -1))
_SEPARATORS: Final = "/" * 7  # where an expanded placement of eight ranks of eight has its slashes


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


compress_rank = _Compressed().__getitem__


# The cells of the last placement read, that placement, and whether it is spelled as
# ``placement_of_cells`` writes it (each empty run one digit): ``_WRITTEN_SO``, ``_NOT_SO``
# or ``_UNSEEN`` (not looked at yet). ``convert`` reads a FEN and writes the same board
# straight back, and a placement already so spelled need not be compressed again.
# One tuple swapped whole, so concurrent callers never mix its parts.
# (In a list of one: compiled, a C static whose slot is swapped, not a global's dictionary entry.)
_WRITTEN_SO: Final = 1
_NOT_SO: Final = 0
_UNSEEN: Final = -1
_LAST_READ: Final[list[tuple[str, str, int]]] = [("", "", _NOT_SO)]
_DIGITS_AS_NINE: Final = bytes.maketrans(b"0123456789", b"9999999999")


def cells_of_placement(placement: str) -> str | None:
    """The 64 cells (a1 first) of a placement without ``~`` marks, or None if it is not
    eight ranks of eight squares. Letters are not checked."""
    expanded = placement
    for digit, run in _DIGITS:
        if digit in expanded:
            expanded = expanded.replace(digit, run)
    # 71 characters, a slash after each eighth and no other: eight ranks of eight squares.
    if len(expanded) != 71 or expanded[8::9] != _SEPARATORS or expanded.count("/") != 7:
        return None
    ranks = expanded.split("/")
    ranks.reverse()
    cells = "".join(ranks)
    _LAST_READ[0] = (cells, placement, _UNSEEN)
    return cells


def letter_table(letters: Collection[str]) -> bytes:
    """The table ``checked_cells`` takes: per byte, 1 for one of ``letters`` (ASCII), else 0."""
    table = bytearray(256)
    for letter in letters:
        if letter.isascii():
            table[ord(letter)] = 1
    return bytes(table)


# The 64 cells of an empty board: ``checked_cells`` writes each piece over its "."
_EMPTY_BOARD: Final = b"." * 64
# ``str.isascii`` bound once: compiled, ``text.isascii()`` looks the method up by name on
# each call (mypyc has no primitive for it), where this is one call of a C function.
_IS_ASCII: Final = str.isascii


def checked_cells(placement: str, letters: bytes) -> str | None:
    """``cells_of_placement`` of a placement holding only digits 1-8, slashes and the
    letters ``letters`` marks (a ``letter_table``), or None for any other placement (the
    caller's character-by-character reader then names the error). Compiled (mypyc), the
    placement is read a byte at a time in machine integers and each piece written into
    the board's bytes at its square (librt's ``BytesWriter``): a few instructions a
    character, where ``cells_of_placement`` makes a string per digit replaced.
    Interpreted, that is faster."""
    if not _IS_ASCII(placement) or len(placement) > 71:  # 71: eight ranks of eight letters
        return None
    text = placement.encode()
    board = BytesWriter()
    board.write(_EMPTY_BOARD)
    rank: i64 = 7
    file: i64 = 0
    written = _WRITTEN_SO  # no two digits in a row, as ``placement_of_cells`` writes it
    after_digit = False
    length: i64 = len(text)
    index: i64 = 0  # a machine word: ``for index in range(...)`` counts in Python ints
    while index < length:
        byte: i64 = text[index]
        index += 1
        if byte == 47:  # "/"
            if file != 8 or rank == 0:
                return None
            rank -= 1
            file = 0
            after_digit = False
        elif 49 <= byte <= 56:  # "1" to "8", each digit a run of its own ("11" is two squares)
            file += byte - 48
            if file > 8:
                return None
            if after_digit:
                written = _NOT_SO
            after_digit = True
        elif letters[byte] and file < 8:  # a ninth square would be the next rank's first
            board[rank * 8 + file] = u8(byte)
            file += 1
            after_digit = False
            if byte == 46:  # a "." cell (a variant whose letters hold one): not written so
                written = _NOT_SO
        else:
            return None
    if rank != 0 or file != 8:
        return None
    found = board.getvalue().decode()
    _LAST_READ[0] = (found, placement, written)
    return found


def placement_of_cells(cells: str) -> str:
    """The placement text of 64 cells (a1 first), ranks eight to one."""
    last = _LAST_READ[0]
    if last[0] is cells and (last[2] == _WRITTEN_SO or (last[2] == _UNSEEN and _as_written(last[1]))):
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
    searches: several times cheaper than a regular expression here. (``find``, not ``in``:
    ``bytes in bytes`` first asks whether the needle is an integer, and the TypeError it
    makes and drops costs more than the search.)"""
    if not placement.isascii() or "." in placement:
        return False
    return placement.encode().translate(_DIGITS_AS_NINE).find(b"99") < 0


_EMPTY_RUN = r"\.+"  # compiled on first use (``notation.patterns``): a board not 8x8


def _count_run(match: re.Match[str]) -> str:
    return str(len(match.group()))


def placement_of_board(cells: str, geometry: Geometry, marks: Collection[int] = ()) -> str:
    """The placement text of any board size: ranks from the last to the first, each run of
    empty squares as one number (``10`` on wide boards), ``~`` after the marked pieces."""
    ranks = []
    width = geometry.files
    empty_run = compiled(_EMPTY_RUN)
    for rank_start in range(geometry.size - width, -1, -width):
        row = cells[rank_start:rank_start + width]
        if marks:
            row = "".join(
                cell + "~" if rank_start + file in marks and cell != "." else cell for file, cell in enumerate(row)
            )
        ranks.append(empty_run.sub(_count_run, row))
    return "/".join(ranks)
