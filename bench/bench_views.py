"""Dark Chess views: how many views per second the pipeline makes and reads back.

make:   view_fen(full FEN)  read -> validate -> view_of -> write_view
read:   view_fen(view FEN)  read_view -> validate_view -> write_view

Positions come from seeded random standard games (every legal standard position is a
legal Dark Chess position); each is viewed from both sides. No target: figures only.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import best_of, positions  # noqa: E402

from notation.operations import view_fen  # noqa: E402
from notation.views import Viewer  # noqa: E402

COUNT = 2000
REPEATS = 5


def main() -> None:
    fens = positions("standard", COUNT)
    jobs = [(fen, viewer) for fen in fens for viewer in Viewer]
    views = [(view_fen(fen, "dark", viewer).fen, viewer) for fen, viewer in jobs]
    assert all(fen is not None for fen, _ in views)

    def make() -> None:
        for fen, viewer in jobs:
            view_fen(fen, "dark", viewer)

    def read() -> None:
        for fen, viewer in views:
            view_fen(fen or "", "dark", viewer)

    for title, work in (("make a view", make), ("read a view back", read)):
        seconds = best_of(REPEATS, work, time.process_time)
        print(f"{title:18} {len(jobs) / seconds:10.0f} views/s CPU  ({len(jobs)} views, best of {REPEATS})")


if __name__ == "__main__":
    main()
