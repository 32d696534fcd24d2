"""The lines through two squares of the 8x8 board, as square-set words
(``notation.rules.square_set``): what the move generator (``notation.game.chess``) needs
for pins, check evasions and castling paths.

Apart from ``notation.rules.chess_attacks`` because only the generator reads them: two
tables of 64 x 64 words are built when it is first imported, not by every command that
reads a FEN. They are built here on words, walking each square's eight rays, rather than
converted from the plain ints of ``rules.attacks.Tables.line`` and ``between`` (the same
values, which a test holds them to): that took ten times the instructions, and a one-game
``check`` pays it at start-up. Nothing here raises for squares on the board.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from mypy_extensions import i64

from notation.rules.square_set import BIT, empty_table

if TYPE_CHECKING:
    from notation.rules.square_set import Table

# File and rank steps of the eight rays; a ray and its opposite are four apart. (A list:
# compiled, a constant tuple of tuples is a native one, boxed whole at each look-up.)
_STEPS: Final = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]


def _ray(sq: int, file_step: int, rank_step: int) -> list[int]:
    """The squares from ``sq`` (not included) to the board's edge, by these steps."""
    file, rank = sq % 8 + file_step, sq // 8 + rank_step
    found: list[int] = []
    while 0 <= file < 8 and 0 <= rank < 8:
        found.append(rank * 8 + file)
        file += file_step
        rank += rank_step
    return found


def _line_tables() -> tuple[tuple[Table, ...], tuple[Table, ...]]:
    """[a][b]: the whole line through ``a`` and ``b`` (0 if none); the squares strictly
    between them (0 if none or adjacent)."""
    lines = [empty_table(64) for _ in range(64)]
    betweens = [empty_table(64) for _ in range(64)]
    for a in range(64):
        rays = [_ray(a, file_step, rank_step) for file_step, rank_step in _STEPS]
        masks: list[i64] = []
        for ray in rays:
            mask: i64 = 0
            for sq in ray:
                mask |= BIT[sq]
            masks.append(mask)
        line, between = lines[a], betweens[a]
        for direction in range(8):
            full: i64 = masks[direction] | masks[(direction + 4) % 8] | BIT[a]
            inner: i64 = 0
            for b in rays[direction]:
                line[b] = full
                between[b] = inner
                inner |= BIT[b]
    return tuple(lines), tuple(betweens)


_TABLES: Final = _line_tables()
LINE: Final = _TABLES[0]
BETWEEN: Final = _TABLES[1]
