"""``file_jobs``: a worker's piece comes back holding nothing per game, and what its files
hold, written by the parent, is what one process writes.

Millions of tiny games (``*`` and a blank line, each with a ``pgn-no-tags`` warning) once
made every worker hold a report entry per game until its piece was done: gigabytes for a
10 MB file. The report and rejected games now go to the worker's files, as its output does.
"""

from __future__ import annotations

import os

import pytest

from notation.pgn.batch import ReportEntries
from notation.pgn.file_jobs import normalize_file_parallel
from notation.pgn.normalize import BadGamePolicy, NormalizeOptions, Summary, normalize
from notation.pgn.report_lines import entry_line

# Tagless one-token games, tagless games on one line, a game rejected, one kept; a piece
# starts only at a tag line, so each repetition is a piece or two.
DATABASE = (
    "*\n\n" * 200
    + "1. e4 * 1. d4 * 1. c4 *\n\n" * 20
    + '[Event "bad"]\n[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]\n\n*\n\n'
    + '[Event "good"]\n\n1. e4 e5 *\n\n'
) * 12


def _one_process(options: NormalizeOptions) -> tuple[bytes, bytes, str, Summary]:
    out, rejected, report = [], [], []
    summary = Summary()
    for result in normalize([DATABASE], options):
        summary.add(result)
        (rejected if result.rejected else out).append(result.text)
        report.extend(entry_line(entry) for entry in result.report)
    return "".join(out).encode(), "".join(rejected).encode(), "".join(report), summary


@pytest.fixture
def descriptor(tmp_path):
    path = tmp_path / "tiny.pgn"
    path.write_text(DATABASE)
    fd = os.open(path, os.O_RDONLY)
    yield fd
    os.close(fd)


@pytest.mark.parametrize("entries", list(ReportEntries))
def test_pieces_of_tiny_games_come_back_empty_and_write_what_one_process_writes(descriptor, entries):
    options = NormalizeOptions.create("lichess", on_bad=BadGamePolicy.REJECT)
    out, rejected, report = bytearray(), bytearray(), []
    summary = Summary()
    batches = 0
    for batch in normalize_file_parallel(descriptor, options, 2, entries, range_bytes=1_000):
        batches += 1
        assert batch.report == [] and batch.rejected == b""  # nothing per game crossed the pipe
        if entries is ReportEntries.DROP:
            assert batch.report_path is None
        summary.add_counts(batch.summary)
        batch.write_text(out.extend)
        batch.write_rejected(rejected.extend)
        batch.write_report(report.append, None)
        assert batch.text_path is batch.rejected_path is batch.report_path is None  # the files are gone
    expected_out, expected_rejected, expected_report, expected_summary = _one_process(options)
    assert batches >= 12
    assert (bytes(out), bytes(rejected), summary) == (expected_out, expected_rejected, expected_summary)
    assert "".join(report) == (expected_report if entries is ReportEntries.KEEP else "")
    assert expected_report.count("pgn-no-tags") > 2_000


def test_report_lines_name_the_input_when_asked(descriptor):
    options = NormalizeOptions.create("lichess")
    report: list[str] = []
    for batch in normalize_file_parallel(descriptor, options, 2, ReportEntries.KEEP, range_bytes=2_000):
        batch.write_text(lambda data: None)
        batch.write_report(report.append, "tiny.pgn")
    _, _, expected, _ = _one_process(options)
    assert report == [line.replace('{"game"', '{"input": "tiny.pgn", "game"', 1)
                      for line in expected.splitlines(keepends=True)]
