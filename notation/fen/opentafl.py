"""OpenTafl position records: the placement notation of the OpenTafl notation specification.

A record lists the board's rows between slashes, **rank 1 first**, file a first in each
row: ``/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/`` is Linnaeus' Tablut. Numbers
are runs of empty squares and may have several digits (``11`` on an 11x11 board); letters
are taflmen, **attackers lower case, defenders upper case**, ``k``/``K`` the king.

Our FEN-style form of a tafl variant follows FEN instead: upper case is White, the side
that moves first, which in Tablut is the attackers. So an OpenTafl letter is our letter with
its case swapped, and the ranks come in the opposite order; nothing else differs, and the
conversion is exact both ways. A record says nothing of the side to move or the move
counters: it is read as White (the first player) to move, halfmove 0, fullmove 1, and
writing a setup with anything else there says what was dropped (``lossy-turn``,
``lossy-counters``).

``parse_record`` raises ``FenSyntaxError`` (field ``placement``, 1-based column) for
anything that is not a record of the variant's board and letters; ``format_record`` raises
nothing. Neither judges the position (``notation.validation`` does).
"""

from __future__ import annotations

from typing import NoReturn

from notation.errors import FenSyntaxError, Problem
from notation.setup import BLACK, WHITE, Setup
from notation.variants import Variant

RECORD_START = "/"


def looks_like_record(text: str) -> bool:
    """Whether ``text`` is written as an OpenTafl record (its first non-blank character is
    ``/``, which no FEN placement starts with)."""
    return text.lstrip().startswith(RECORD_START)


def parse_record(text: str, variant: Variant) -> Setup:
    """The setup an OpenTafl position record of ``variant`` describes (White to move).

    Leading and trailing whitespace is ignored; columns in errors count from the start of
    ``text``. Raises ``FenSyntaxError`` for a missing leading or trailing ``/``, a row of the
    wrong width, the wrong number of rows, a letter that is no piece of the variant, a run
    of ``0`` or one that starts with ``0``, or anything after the last ``/``.
    """
    geometry = variant.geometry
    width, height = geometry.files, geometry.ranks
    letters = variant.board_letters
    offset = len(text) - len(text.lstrip())
    body = text.strip()
    if not body.startswith(RECORD_START):
        _fail("an OpenTafl position record starts with '/'", offset)
    cells = ["."] * geometry.size
    rank = 0
    file = 0
    index = 1
    row_start = 1
    length = len(body)
    while index < length:
        ch = body[index]
        if ch == "/":
            if file != width:
                _fail(f"row {rank + 1} has {file} squares; it must have {width}", offset + row_start)
            rank += 1
            file = 0
            row_start = index + 1
            if rank == height and index + 1 < length:
                _fail(f"unexpected {body[index + 1:]!r} after the last row (a board has {height} rows)",
                      offset + index + 1)
        elif ch.isdigit() and ch.isascii():
            empty, end = _empty_run(body, index, offset)
            file += empty
            if file > width:
                _fail(f"row {rank + 1} has more than {width} squares", offset + row_start)
            index = end - 1
        elif ch in letters:
            if file >= width:
                _fail(f"row {rank + 1} has more than {width} squares", offset + row_start)
            cells[rank * width + file] = ch.swapcase()
            file += 1
        else:
            allowed = "".join(sorted(set(variant.piece_letters)))
            _fail(
                f"{ch!r} is not a piece of {variant.name} (OpenTafl letters: {allowed}, "
                "attackers lower case, defenders upper case)",
                offset + index,
            )
        index += 1
    if body[-1] != "/":
        _fail("an OpenTafl position record ends with '/' after its last row", offset + length)
    if rank != height:
        _fail(f"only {rank} rows; a {geometry} board has {height}", offset + length)
    return Setup(cells="".join(cells), turn=WHITE, geometry=geometry)


def _empty_run(body: str, index: int, offset: int) -> tuple[int, int]:
    """The number of empty squares written at ``body[index]`` and where its digits end.
    Raises ``FenSyntaxError`` for a run of ``0`` or one that starts with ``0``."""
    end = index
    while end < len(body) and body[end].isdigit() and body[end].isascii():
        end += 1
    digits = body[index:end]
    if digits[0] == "0":
        _fail(f"{digits!r} in a row: empty squares are counted from 1, without leading zeros", offset + index)
    return int(digits), end


def format_record(setup: Setup, variant: Variant) -> tuple[str, list[Problem]]:
    """``setup`` as an OpenTafl position record, and a warning for each part of the setup
    the record cannot hold (side to move, move counters, castling rights, en passant)."""
    geometry = setup.geometry
    rows = []
    for rank in range(geometry.ranks):
        out: list[str] = []
        run = 0
        for cell in geometry.rank_cells(setup.cells, rank):
            if cell == ".":
                run += 1
                continue
            if run:
                out.append(str(run))
                run = 0
            out.append(cell.swapcase())
        if run:
            out.append(str(run))
        rows.append("".join(out))
    warnings: list[Problem] = []
    if setup.turn == BLACK:
        warnings.append(
            Problem("lossy-turn", "an OpenTafl position record has no side to move; Black to move was dropped",
                    field="turn")
        )
    if (setup.halfmove, setup.fullmove) != (0, 1):
        warnings.append(
            Problem(
                "lossy-counters",
                f"an OpenTafl position record has no move counters; halfmove {setup.halfmove} "
                f"and fullmove {setup.fullmove} were dropped",
                field="fullmove",
            )
        )
    if setup.castling or setup.ep_square is not None:
        warnings.append(
            Problem("lossy-castling", f"{variant.name} has no castling or en passant; they were dropped",
                    field="castling")
        )
    return RECORD_START + "/".join(rows) + RECORD_START, warnings


def _fail(message: str, index: int) -> NoReturn:
    raise FenSyntaxError(message, field="placement", column=index + 1)
