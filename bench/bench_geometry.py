"""Read + validate + write on boards beyond 8x8, next to the same work on 8x8.

The positions: seeded random 8x8 positions of real games (as bench_validate), each copied
into the bottom-left corner of a 10x10 and a 12x12 board of the Standard pieces (kings,
pawns and castling rights move with it; the extra files and ranks stay empty). Figures
are CPU time per position; the 8x8 row is the reference the wider boards are read next to
(they use the generic attack tables and readers, no 8x8 fast paths).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import best_of, positions  # noqa: E402

from notation import find_variant, read_fen, write_fen  # noqa: E402
from notation.fen.profiles import PROFILES  # noqa: E402
from notation.geometry import Geometry  # noqa: E402
from notation.validation import validate  # noqa: E402

COUNT = 2000
REPEATS = 5


def widened(fen: str, files: int, ranks: int) -> str:
    """The 8x8 ``fen`` in the bottom-left corner of a ``files`` x ``ranks`` board."""
    placement, turn, castling, *_ = fen.split()
    pad = files - 8
    rows = [_pad(row, pad) for row in placement.split("/")]
    rows = [str(files)] * (ranks - 8) + rows
    rights = "".join(ch for ch in castling if ch in "KQkq") or "-"
    # Rook squares of the rights stay where they are; the black back rank moves up, so
    # castling is only kept on boards of eight ranks. En passant is dropped (it moves too).
    return f"{'/'.join(rows)} {turn} {rights if ranks == 8 else '-'} - 0 1"


def _pad(row: str, pad: int) -> str:
    """``row`` with ``pad`` empty squares after its last file (a trailing run grows)."""
    if not pad:
        return row
    if row[-1].isdigit():
        return row[:-1] + str(int(row[-1]) + pad)
    return row + str(pad)


def main() -> None:
    standard = find_variant("standard")
    options = PROFILES["python-chess"]
    fens = positions("standard", COUNT)
    print("read + validate + write by board size, CPU time (bench_geometry)")
    for files, ranks in ((8, 8), (10, 10), (12, 12)):
        geometry = Geometry(files, ranks)
        variant = standard if (files, ranks) == (8, 8) else standard.replace(
            key=f"standard-{geometry}", aliases=(), geometry=geometry, pgn_default=False,
            chess960_form=None, lichess_name=None, start_fen=widened(standard.start_fen, files, ranks),
        )
        board_fens = fens if (files, ranks) == (8, 8) else [widened(fen, files, ranks) for fen in fens]

        def work(board_fens=board_fens, variant=variant):
            for fen in board_fens:
                setup = read_fen(fen, variant).setup
                validate(setup, variant)
                write_fen(setup, variant, options)

        seconds = best_of(REPEATS, work, time.process_time)
        print(f"  {str(geometry):6s} {seconds / len(board_fens) * 1e6:8.2f} us/pos")


if __name__ == "__main__":
    main()
