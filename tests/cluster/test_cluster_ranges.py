"""Byte ranges cut at game starts (notation.pgn.ranges) and the partitions made of them: the
games, lines, reports, texts and check problems of one process, whatever the damage and
the range size.

No cluster here: each partition's worker function runs in this process on ``memory://``
or local files, and the client's ``Assembler`` (normalize) or ``FileMerge`` (check) puts
the results together, as ``--dask`` does. For check, damage the reading layer counts over
the whole file (bytes that are not UTF-8, NUL bytes, overlong lines, lone CRs) is found
piece by piece and merged: never read again.
"""

from __future__ import annotations

import io
import json
import pathlib
import random
import uuid

import fsspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples
from test_normalize_properties import GAMES, _corrupt, _database, _parallel_cases, databases

from notation.check import CheckOptions, run_check
from notation.check.problem import ProblemList
from notation.check.runner import Summary as CheckSummary
from notation.check.runner import counter
from notation.cluster.check import check_piece
from notation.cluster.damage import FileMerge
from notation.cluster.normalize import Assembler, InputNames, normalize_part
from notation.cluster.plan import Partition, Reading
from notation.inputs import Compression
from notation.pgn import ranges
from notation.pgn.cuts import find_cut
from notation.pgn.normalize import BadGamePolicy, NormalizeOptions, Summary, normalize
from notation.variants import DEFAULT_REGISTRY

pytestmark = [pytest.mark.slow]

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
    return [Partition(path, path, 0, piece.start, piece.end, piece.first_line, Reading.RANGE)
            for piece in ranges.pieces(located, len(data))]


def _spans(path: str, data: bytes, size: int) -> list[Partition]:
    """The pieces ``check --dask`` cuts (cut points only, lines numbered from 1 in each)."""
    file = io.BytesIO(data)
    text_from = ranges.first_text(file)
    starts = ranges.nominal_starts(len(data), size)
    cuts = [ranges.find_start_before(file, start, min(start + size, len(data)), text_from) for start in starts]
    spans = list(ranges.spans(cuts, len(data)))
    return [Partition(path, path, 0, span.start, span.end, 1, Reading.RANGE, index == len(spans) - 1)
            for index, span in enumerate(spans)]


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


_CHECK_OPTIONS = CheckOptions(variant=DEFAULT_REGISTRY.find("chess"), registry=DEFAULT_REGISTRY)


def _checked_whole(path: pathlib.Path, options: CheckOptions = _CHECK_OPTIONS) -> tuple[list, CheckSummary]:
    found: list = []
    summary = run_check([str(path)], options, found.append)
    return found, summary


def _checked_in_pieces(path: pathlib.Path, size: int,
                       options: CheckOptions = _CHECK_OPTIONS) -> tuple[list, CheckSummary]:
    """The file checked piece by piece (``check_piece``), merged (``FileMerge``) as the
    client merges them, with the summary ``run_check`` would give."""
    found: list = []
    summary = CheckSummary()
    merge = FileMerge(ProblemList(str(path), counter(options, summary, found.append)))
    for partition in _spans(str(path), path.read_bytes(), size):
        partition = Partition(str(path), str(path), 0, partition.start, partition.end, 1, Reading.RANGE,
                              partition.last)
        merge.add(check_piece(partition, options))
    merge.finish()
    summary.files = 1
    summary.suppressed = merge.suppressed
    summary.read.add(merge.problems.read)  # what was read, merged: as one process counts it
    return found, summary


def test_check_partitions_give_the_problems_of_one_process(tmp_path):
    """Partitions checked one by one, problems in order: as ``run_check`` on the whole file."""
    rng = random.Random(3)
    texts = [_database(case) for case in _parallel_cases()]
    text = "".join(rng.choice(texts) for _ in range(6))
    path = tmp_path / "games.pgn"
    path.write_bytes(text.encode(ENCODING, ERRORS))
    single = _checked_whole(path)
    data = path.read_bytes()
    for size in (97, 1000, len(data) // 3):
        assert _checked_in_pieces(path, size) == single, size
    assert single[0]  # damaged games: there are problems to compare


@settings(max_examples=examples(60))
@given(databases, st.integers(0, 2**32), st.integers(1, 5000))
def test_reading_damage_found_in_pieces_is_merged_as_one_process_reads_it(tmp_path_factory, text, seed, size):
    """Random bytes (not UTF-8, NULs, lone CRs) anywhere: the pieces' problems, merged,
    are those of one process, in its order, with its summary."""
    path = tmp_path_factory.mktemp("damage") / "games.pgn"
    path.write_bytes(_corrupt((text * 3).encode(ENCODING, ERRORS), random.Random(seed)))
    _assert_as_one_process(_checked_in_pieces(path, size), _checked_whole(path))


def _assert_as_one_process(pieces: tuple[list, CheckSummary], whole: tuple[list, CheckSummary]) -> None:
    """The same summary and the same problems in the same order: the count of undecodable
    lines after the first included (it goes out with the file's last problems, wherever
    the reading's blocks end: ``ProblemList.add_last``)."""
    assert pieces[1] == whole[1]
    assert pieces[0] == whole[0]


def _games(count: int, seed: int) -> bytes:
    rng = random.Random(seed)
    clean = [game for game in GAMES if game.encode(ENCODING, ERRORS).isascii() and "\0" not in game]
    return "".join(rng.choice(clean) for _ in range(count)).encode(ENCODING, ERRORS)


def _at_lines(data: bytes, damage: dict[int, bytes]) -> bytes:
    """``data`` with ``damage[n]`` put at the start of line n (1-based)."""
    lines = data.split(b"\n")
    for number, text in damage.items():
        lines[number - 1] = text + lines[number - 1]
    return b"\n".join(lines)


@pytest.mark.parametrize(("name", "damage"), [
    ("one bad byte", {400: b"\xff"}),
    ("two bad lines far apart", {30: b"\xe9", 900: b"\xe8"}),
    ("many bad lines", {line: b"caf\xe9 " for line in range(20, 1200, 37)}),
    ("a NUL in the middle", {150: b"\xe9", 600: b"a\0b", 900: b"\xff"}),
    ("an overlong line", {300: b"{" + b"x" * (1 << 20) + b"}"}),
    ("lone CRs before a bad byte", {50: b"a\rb\r", 51: b"\r", 700: b"\xff", 800: b"\xfe"}),
    ("a byte order mark", {1: b"\xef\xbb\xbf", 500: b"\xff"}),
])
def test_named_damage_in_pieces_is_that_of_one_process(tmp_path, name, damage):
    path = tmp_path / "games.pgn"
    path.write_bytes(_at_lines(_games(150, 7), damage))
    single = _checked_whole(path)
    assert any(problem.code in ("pgn-windows-1252", "binary-file", "line-too-long") for problem in single[0])
    for size in (500, 4000, 20_000):
        _assert_as_one_process(_checked_in_pieces(path, size), single)


def test_a_suppression_covers_a_games_windows_1252_warning_as_in_one_process(tmp_path):
    """Each game holding bytes that are not UTF-8 has its own ``pgn-windows-1252`` warning;
    a game asking ``{notation: ignore[pgn-windows-1252]}`` silences its own, in pieces as in
    one process."""
    data = _games(1500, 8)
    games = data.split(b"\n\n[")
    for index, comment in ((10, b"{caf\xe9}"), (30, b"{notation: ignore[pgn-windows-1252]}\n{\xe9t\xe9}"),
                           (50, b"{\xff}")):
        games[index] = games[index].replace(b"\n\n", b"\n\n" + comment + b"\n", 1)
    path = tmp_path / "games.pgn"
    path.write_bytes(b"\n\n[".join(games))
    single = _checked_whole(path)
    assert single[1].suppressed == 1
    assert [problem.code for problem in single[0]].count("pgn-windows-1252") == 2
    for size in (3000, 300_000, len(path.read_bytes())):
        _assert_as_one_process(_checked_in_pieces(path, size), single)


def test_bytes_that_are_not_utf8_are_one_warning_a_game_however_the_file_is_read(tmp_path, monkeypatch):
    """Latin-1 bytes in two games near the start of a file of some MiB with a warning in every
    game: each of the two has one ``pgn-windows-1252`` warning at its first such byte, in
    one process, ``--jobs`` (a whole file in a worker, and pieces read again by the parent)
    and pieces merged alike; nothing is an error."""
    from notation.pgn import pieces

    game = '[event "x"]\n[Result "*"]\n\n1. e4 *\n\n'
    games = [game] * 70_000
    games[3] = game.replace("e4 ", "e4 {caf\udce9} ")
    games[5] = game.replace("e4 ", "e4 {\udce9t\udce9} ")
    path = tmp_path / "games.pgn"
    path.write_bytes("".join(games).encode(ENCODING, ERRORS))
    assert path.stat().st_size > 2 << 20
    single = _checked_whole(path)
    problems = single[0]
    assert [(p.line, p.column) for p in problems if p.code == "pgn-windows-1252"] == [(3 * 5 + 4, 11), (5 * 5 + 4, 8)]
    assert single[1].errors == 0 and problems[-1].code == "miscased-tag"
    for size in (50_000, 1 << 20):
        _assert_as_one_process(_checked_in_pieces(path, size), single)
    for range_bytes in (pieces.RANGE_BYTES, 100_000):
        monkeypatch.setattr(pieces, "RANGE_BYTES", range_bytes)
        found: list = []
        summary = run_check([str(path)], _CHECK_OPTIONS, found.append, jobs=2)
        assert (found, summary) == single, range_bytes


class _Future:
    """A Dask future already done: its result, and whether it was released."""

    def __init__(self, value: object, log: list):
        self.value = value
        self.log = log

    def result(self) -> object:
        self.log.append(("result", self.value))
        return self.value

    def release(self) -> None:
        self.log.append(("release", self.value))


class _Client:
    def __init__(self) -> None:
        self.cancelled: list = []

    def cancel(self, futures: list) -> None:
        self.cancelled.extend(future.value for future in futures)


def test_the_cluster_window_takes_steps_in_order_with_at_most_its_limit_in_flight():
    """``window.InOrder`` on ``notation.parallel.ordered``: room is made before a task
    starts, actions run in their turn, each task's futures are released once its result
    is taken, and ``cancel`` cancels those still in flight."""
    from notation.cluster.window import InOrder

    log: list = []
    client = _Client()
    window = InOrder(client, 2)
    started: list = []

    def start(value):
        def run():
            started.append(value)
            return (_Future(value, log),)
        return run

    window.add(start(1), lambda result: log.append(("done", result)))
    window.then(lambda: log.append(("action", None)))
    window.add(start(2), lambda result: log.append(("done", result)))
    assert log == [] and started == [1, 2]
    window.add(start(3), lambda result: log.append(("done", result)))  # two in flight: the oldest taken first
    assert log == [("result", 1), ("release", 1), ("done", 1)] and started == [1, 2, 3]
    window.add(start(4), lambda result: log.append(("done", result)))  # the action in its turn, then task 2
    assert log[3:] == [("action", None), ("result", 2), ("release", 2), ("done", 2)] and started == [1, 2, 3, 4]
    window.cancel()
    assert client.cancelled == [3, 4]
    window.drain()
    assert len(log) == 7
