"""Board geometry: how many files and ranks a variant's board has, and how squares are named.

Squares are numbered rank by rank from the first rank, file a first: on a board of ``files``
files, square ``rank * files + file``. On the 8x8 board that is a1 = 0 .. h8 = 63, the
numbering ``notation.squares`` and the bitboards use. Files are lettered a-l, ranks numbered
1-12 (``a10``, ``l12``), so boards up to 12x12 are named. Nothing here knows pieces or rules;
``Geometry`` raises ``ValueError`` for a size outside 1..12, ``parse_square`` for a name
that is not a square of the board.
"""

from __future__ import annotations

from typing import Final

MAX_FILES: Final = 12
MAX_RANKS: Final = 12
FILE_LETTERS: Final = "abcdefghijkl"


class Geometry:
    """A rectangular board of ``files`` x ``ranks`` squares (or points, for Xiangqi).

    A value: equal to another of the same size, read-only (its fields are ``Final``: a
    write is a type error, and in the compiled build an ``AttributeError``).
    ``Geometry(files, ranks)`` raises ``ValueError`` for a size outside 1..12. A plain class
    rather than a frozen dataclass: every command defines it at start-up, where
    ``dataclasses`` (with ``inspect``) and the methods it compiles from source cost more than
    the class's whole use (docs/architecture.md, "Start-up"); compiled, a native one.
    """

    def __init__(self, files: int, ranks: int) -> None:
        if not (1 <= files <= MAX_FILES and 1 <= ranks <= MAX_RANKS):
            raise ValueError(f"a board has 1 to {MAX_FILES} files and 1 to {MAX_RANKS} ranks, not {files}x{ranks}")
        self.files: Final = files
        self.ranks: Final = ranks
        self.size: Final = files * ranks  # the number of squares
        self.file_names: Final = FILE_LETTERS[:files]
        # Whether this is the 8x8 board (the readers, writers and rules have fast paths for it).
        self.is_chess_board: Final = files == 8 and ranks == 8
        # The names' tables, made when first asked for (the 8x8 board's fast paths need none).
        self._square_names: tuple[str, ...] | None = None
        self._square_index: dict[str, int] | None = None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Geometry):
            return NotImplemented
        return self.files == other.files and self.ranks == other.ranks

    def __hash__(self) -> int:
        return hash((self.files, self.ranks))

    def __repr__(self) -> str:
        return f"Geometry(files={self.files}, ranks={self.ranks})"

    def __reduce__(self) -> tuple[type[Geometry], tuple[int, int]]:
        """Pickled and copied through ``__init__``: compiled, a class has no ``__dict__``
        for pickle's default to copy."""
        return (Geometry, (self.files, self.ranks))

    @property
    def square_names(self) -> tuple[str, ...]:
        """Every square's name, in square order (a1 first)."""
        names = self._square_names
        if names is None:
            names = self._square_names = tuple([f + str(r + 1) for r in range(self.ranks) for f in self.file_names])
        return names

    @property
    def square_index(self) -> dict[str, int]:
        """Square name -> square number."""
        index = self._square_index
        if index is None:
            index = self._square_index = {name: number for number, name in enumerate(self.square_names)}
        return index

    def square_name(self, sq: int) -> str:
        """``e4`` for a square number; raises ``IndexError`` outside the board."""
        return self.square_names[sq]

    def parse_square(self, name: str) -> int:
        """The number of a square name like ``e4`` or ``i10``; raises ``ValueError`` for
        anything that is not a square of this board."""
        try:
            return self.square_index[name]
        except KeyError:
            raise ValueError(f"not a square of a {self} board: {name!r}") from None

    def square(self, file: int, rank: int) -> int:
        """The number of the square on 0-based ``file`` and ``rank`` (not range-checked)."""
        return rank * self.files + file

    def file_of(self, sq: int) -> int:
        return sq % self.files

    def rank_of(self, sq: int) -> int:
        return sq // self.files

    def on_board(self, file: int, rank: int) -> bool:
        return 0 <= file < self.files and 0 <= rank < self.ranks

    def rank_cells(self, cells: str, rank: int) -> str:
        """The cells of one 0-based rank, file a first."""
        start = rank * self.files
        return cells[start : start + self.files]

    def __str__(self) -> str:
        return f"{self.files}x{self.ranks}"


CHESS_BOARD = Geometry(8, 8)
