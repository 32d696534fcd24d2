"""Games normalised elsewhere (a worker process, another piece of the input), handed to the
writer as one unit: ``Batch``.

A batch holds what the writer needs of its games and nothing per game: the output text,
the rejected games' text and the report entries (each in memory, or in a file a worker
wrote, so a piece of millions of tiny games holds nothing per game in any process), the
counts, and the number of its last game within its piece, so that ``numbered`` can put its
report's games after those of the pieces before it. The ``--jobs`` paths (``stream_jobs``
for streams, ``file_jobs`` for regular files) both yield batches, keeping report entries
only when the run writes a report (``ReportEntries``); raises nothing but what writing and
reading files raise (see ``Batch.write_text``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from notation.inputs import ENCODING, ERRORS
from notation.lean_enum import LeanEnum
from notation.pgn.normalize import GameResult, Summary
from notation.pgn.report_lines import entry_line, input_prefix, renumbered

_COPY_BYTES = 1 << 18  # the blocks a worker's output file is copied in
_ENCODE_CHARS = 1 << 18  # the pieces text is encoded in as it is written


class ReportEntries(LeanEnum):
    """Whether a run's games' report entries are kept (it writes ``--report``) or dropped
    where they are made: a worker sends back, or writes, none."""

    KEEP = "keep"
    DROP = "drop"


@dataclass
class Batch:
    """Games in input order, ready to write: their output text (see ``write_text``) and
    ``rejected`` for the rejects file (UTF-8 bytes; see ``write_rejected``), the report
    entries (numbered in the whole input once ``numbered``; see ``write_report``), the
    counts, and ``end``, the byte of a regular file read up to (0 where the input is a
    stream)."""

    text: bytes | str  # UTF-8 bytes as read, or text that ``write_text`` encodes piece by piece
    rejected: bytes
    report: list[dict[str, Any]]
    summary: Summary
    end: int
    last_game: int = 0  # the number of the last game, within its piece
    chars: int = 0  # characters of PGN these games hold
    text_path: str | None = None  # where a worker wrote the text instead (``text`` is empty)
    rejected_path: str | None = None  # where a worker wrote the rejected games (``rejected`` is empty)
    report_path: str | None = None  # a worker's report lines, games from 1 (``report`` is empty)
    game_offset: int = 0  # games before this batch's, added to those of ``report_path``

    def write_text(self, write: Callable[[memoryview], None]) -> None:
        """Hand the output text to ``write`` in blocks; a worker's file is removed after.
        Raises ``OSError`` reading that file."""
        if self.text_path is None:
            text = self.text
            if isinstance(text, str):
                # Encoded a piece at a time: a game part of megabytes is not held twice.
                for start in range(0, len(text), _ENCODE_CHARS):
                    write(memoryview(text[start:start + _ENCODE_CHARS].encode(ENCODING, ERRORS)))
            elif text:
                write(memoryview(text))
            return
        _copy_and_remove(self.text_path, write)
        self.text_path = None

    def write_rejected(self, write: Callable[[memoryview], None]) -> None:
        """Hand the rejected games' text to ``write`` (nothing when none was rejected); a
        worker's file is removed after. Raises ``OSError`` reading that file."""
        if self.rejected_path is None:
            if self.rejected:
                write(memoryview(self.rejected))
            return
        _copy_and_remove(self.rejected_path, write)
        self.rejected_path = None

    def write_report(self, write: Callable[[str], None], input_name: str | None) -> None:
        """Hand the report's lines (``report_lines``), each first naming ``input_name`` when
        it is given, to ``write``; a worker's file is removed after. Raises ``OSError``
        reading that file."""
        if self.report_path is None:
            for entry in self.report:
                write(entry_line(entry, input_name))
            return
        prefix = input_prefix(input_name)
        with open(self.report_path, encoding=ENCODING, errors=ERRORS, newline="") as lines:
            for line in lines:
                write(renumbered(line, self.game_offset, prefix))
        os.unlink(self.report_path)
        self.report_path = None


def _copy_and_remove(path: str, write: Callable[[memoryview], None]) -> None:
    block = bytearray(_COPY_BYTES)
    with open(path, "rb", buffering=0) as written:
        while count := written.readinto(block):
            write(memoryview(block)[:count])
    os.unlink(path)


def _nowhere() -> int:
    return 0


def batch_of(result: GameResult, end: int = 0) -> Batch:
    """One game's result as a batch (a game normalised in the parent, between batches)."""
    summary = Summary()
    summary.add(result)
    if result.rejected:
        return Batch(b"", result.text.encode(ENCODING, ERRORS), result.report, summary, end, result.number,
                     len(result.text))
    return Batch(result.text, b"", result.report, summary, end, result.number, len(result.text))


def numbered(batch: Batch, games_before: list[int]) -> Batch:
    """``batch`` with its report's games numbered after ``games_before[0]`` games; counts
    its games into ``games_before[0]``."""
    offset = games_before[0]
    _shift(batch.report, offset)
    batch.game_offset = offset
    games_before[0] = offset + batch.last_game
    return batch


def game_batches(results: Iterable[GameResult], games_before: list[int],
                 end: Callable[[], int] = _nowhere, entries: ReportEntries = ReportEntries.KEEP) -> Iterator[Batch]:
    """Each result (of games numbered from 1, normalised here one by one) as a batch, its
    report's games numbered after ``games_before[0]`` games, which counts them; ``end()``
    gives each batch's ``end``; ``entries`` DROP leaves their reports empty."""
    offset = games_before[0]
    for result in results:
        batch = batch_of(result, end())
        if entries is ReportEntries.DROP:
            batch.report = []
        _shift(batch.report, offset)
        games_before[0] = offset + result.number
        yield batch


def _shift(report: list[dict[str, Any]], offset: int) -> None:
    """Number the games of ``report`` after ``offset`` games."""
    if offset:
        for entry in report:
            entry["game"] += offset
