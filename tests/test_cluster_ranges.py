"""Byte ranges cut at game starts (notation.pgn.ranges) and the partitions made of them: the
games, lines, reports and texts of one process, whatever the damage and the range size.

No cluster here: each partition's worker function runs in this process on ``memory://``
files, and the client's ``Assembler`` puts the results together, as ``--dask`` does.
"""

from __future__ import annotations

import io
import json
import random
import uuid

import fsspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples
from test_normalize_properties import _corrupt, _database, _parallel_cases, databases

from notation.check import CheckOptions, run_check
from notation.check.sources import FileKind
from notation.cluster.check import check_part
from notation.cluster.normalize import Assembler, InputNames, normalize_part
from notation.cluster.plan import Input, Partition, cut_partitions
from notation.inputs import Compression
from notation.pgn import ranges
from notation.pgn.normalize import BadGamePolicy, NormalizeOptions, Summary, normalize
from notation.pgn.parallel import find_cut
from notation.variants import DEFAULT_REGISTRY

ENCODING, ERRORS = "utf-8", "surrogateescape"


def _cut_points(data: bytes) -> list[int]:
    """Every cut point of the whole text, as byte offsets, found by ``find_cut`` over it all."""
    text = data.decode(ENCODING, ERRORS)
    points, cut = [], find_cut(text, 0, False)
    while cut >= 0:
        points.append(len(text[:cut].encode(ENCODING, ERRORS)))
        cut = find_cut(text, cut - 1, False)
    return points


def _breaks(data: bytes) -> int:
    text = data.decode(ENCODING, ERRORS)
    return text.count("\n") + text.count("\r") - text.count("\r\n")


def _breaks_ending(data: bytes, start: int, end: int) -> int:
    """Line breaks whose last byte is in ``start`` to ``end``: a LF, or a CR with no LF after."""
    return sum(1 for at in range(start, end)
               if data[at:at + 1] == b"\n" or (data[at:at + 1] == b"\r" and data[at + 1:at + 2] != b"\n"))


def _partitions(path: str, data: bytes, size: int) -> list[Partition]:
    file = io.BytesIO(data)
    text_from = ranges.first_text(file)
    starts = list(range(0, len(data), size)) or [0]
    located = [ranges.locate(file, start, min(start + size, len(data)), text_from) for start in starts]
    return cut_partitions(0, Input(path, path), len(data), located)


def _memory_file(data: bytes) -> str:
    path = f"memory://ranges-{uuid.uuid4().hex}/db.pgn"
    with fsspec.open(path, "wb") as out:
        out.write(data)
    return path


def _single(text: str, options: NormalizeOptions) -> tuple[str, str, str, dict]:
    """Output, report, rejects and summary as ``notation normalize`` writes them."""
    output, report, rejects, summary = [], [], [], Summary()
    for result in normalize(text, options):
        summary.add(result)
        (rejects if result.rejected else output).append(result.text)
        report.extend(json.dumps(entry, ensure_ascii=False) + "\n" for entry in result.report)
    return "".join(output), "".join(report), "".join(rejects), summary.to_dict()


class _Collected:
    """A report or rejects sink that keeps what is written."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def write(self, text: str) -> None:
        self.parts.append(text)

    def text(self) -> str:
        return "".join(self.parts)


def _in_partitions(data: bytes, size: int, options: NormalizeOptions) -> tuple[str, str, str, dict]:
    path = _memory_file(data)
    try:
        return _normalized_in_partitions(path, data, size, options)
    finally:
        fsspec.filesystem("memory").rm(path.rsplit("/", 1)[0], recursive=True)


def _normalized_in_partitions(path: str, data: bytes, size: int,
                              options: NormalizeOptions) -> tuple[str, str, str, dict]:
    report, rejects = _Collected(), _Collected()
    assembler = Assembler(report, rejects, InputNames.OMITTED)  # type: ignore[arg-type]
    output = []
    for index, partition in enumerate(_partitions(path, data, size)):
        target = f"{path}.part-{index}"
        assembler.add(partition, normalize_part(partition, options, target, Compression.NONE))
        with fsspec.open(target, "rb") as part:
            output.append(part.read().decode(ENCODING, ERRORS))
    return "".join(output), report.text(), rejects.text(), assembler.summary.to_dict()


@settings(max_examples=examples(40))
@given(databases, st.integers(0, 2**32), st.integers(1, 3000))
def test_a_range_starts_at_the_first_cut_point_at_or_after_it(text, seed, size):
    data = _corrupt((text * 2).encode(ENCODING, ERRORS), random.Random(seed))
    points = _cut_points(data)
    file = io.BytesIO(data)
    text_from = ranges.first_text(file)
    for start in range(0, len(data) + 1, size):
        want = 0 if start == 0 else next((p for p in points if p >= start), len(data))
        end = min(start + size, len(data))
        located = ranges.locate(file, start, end, text_from)
        assert located.cut == want
        assert located.breaks_to_cut == _breaks_ending(data, start, want)
        assert located.breaks_in_range == _breaks_ending(data, start, end)
    partitions = _partitions("x", data, size)
    assert b"".join(data[p.start:p.end] for p in partitions) == data
    for partition in partitions:
        assert partition.first_line == 1 + _breaks(data[:partition.start])


@settings(max_examples=examples(30))
@given(databases, st.integers(0, 2**32), st.integers(1, 4000), st.sampled_from(list(BadGamePolicy)))
def test_partitions_give_the_output_report_and_summary_of_one_process(text, seed, size, policy):
    data = _corrupt((text * 3).encode(ENCODING, ERRORS), random.Random(seed))
    options = NormalizeOptions.create("xboard", on_bad=policy)
    assert _in_partitions(data, size, options) == _single(data.decode(ENCODING, ERRORS), options)


@pytest.mark.parametrize("case", _parallel_cases(), ids=lambda case: case["name"])
def test_damaged_databases_in_partitions_of_every_size(case):
    data = _database(case).encode(ENCODING, ERRORS)
    options = NormalizeOptions.create("lichess")
    single = _single(data.decode(ENCODING, ERRORS), options)
    for size in range(1, len(data) + 2, max(1, len(data) // 25)):
        assert _in_partitions(data, size, options) == single, size


def test_lines_end_as_the_splitter_ends_them_across_range_ends():
    """A CR LF cut by a range end is one line break, counted once."""
    data = b'[Event "a"]\r\n\r\n1. e4 *\r\n\r\n[Event "b"]\r\n\r\n1. d4 *\r\n\r\n[Event "c"]\r\r\r\n1. c4 *\r\n'
    options = NormalizeOptions.create("lichess")
    for size in range(1, len(data) + 1):
        for start in range(0, len(data), size):
            end = min(start + size, len(data))
            assert ranges.count_breaks(io.BytesIO(data), start, end) == _breaks_ending(data, start, end)
        assert _in_partitions(data, size, options) == _single(data.decode(), options)


class _ReadOnly:
    """A file that can only seek, tell and read (no ``readinto``), as some file-likes are."""

    def __init__(self, data: bytes):
        self._file = io.BytesIO(data)
        self.seek, self.tell, self.read = self._file.seek, self._file.tell, self._file.read


@pytest.mark.parametrize("block", [1, 2, 3, 5, 1 << 20])
def test_line_breaks_are_counted_across_read_blocks_and_without_readinto(monkeypatch, block):
    """``count_breaks`` reads in blocks of ``READ_BYTES``: a CR LF split by a block's end is
    one break, and a file without ``readinto`` gives the same counts."""
    monkeypatch.setattr(ranges, "READ_BYTES", block)
    data = b"a\r\nb\rc\n\r\n\r\rd\n\n\r" * 3 + b"e\r"
    for start in range(len(data) + 1):
        for end in range(start, len(data) + 1):
            expected = _breaks_ending(data, start, end)
            assert ranges.count_breaks(io.BytesIO(data), start, end) == expected, (start, end)
            assert ranges.count_breaks(_ReadOnly(data), start, end) == expected, (start, end)


def test_a_file_of_white_space_has_no_cut_point():
    data = b"\n\n  \n\n" * 50 + b'\n\n[Event "a"]\n\n1. e4 *\n'
    file = io.BytesIO(data)
    assert ranges.first_text(file) == data.index(b"[")
    assert ranges.find_start(file, 3, ranges.first_text(file)) == len(data)  # the cut at "[" has only blank before
    options = NormalizeOptions.create("lichess")
    assert _in_partitions(data, 7, options) == _single(data.decode(), options)


def test_check_partitions_give_the_problems_of_one_process(tmp_path):
    """Partitions checked one by one, problems in order: as ``run_check`` on the whole file."""
    rng = random.Random(3)
    texts = [_database(case) for case in _parallel_cases()]
    texts = [text for text in texts if "\0" not in text and text.encode("utf-8", "surrogatepass").isascii()]
    text = "".join(rng.choice(texts) for _ in range(6))
    path = tmp_path / "games.pgn"
    path.write_text(text, encoding="utf-8", newline="")
    options = CheckOptions(variant=DEFAULT_REGISTRY.find("chess"), registry=DEFAULT_REGISTRY)
    single: list = []
    run_check([str(path)], options, single.append)
    data = path.read_bytes()
    for size in (97, 1000, len(data) // 3):
        found = []
        for partition in _partitions(str(path), data, size):
            found.extend(check_part(partition, FileKind.PGN, options).problems)
        assert found == single, size
    assert single  # damaged games: there are problems to compare
