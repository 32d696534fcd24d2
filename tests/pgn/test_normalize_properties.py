"""Properties of normalising: stable, nothing lost, robust to damage, same result in parallel."""

from __future__ import annotations

import contextlib
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples
from paths import ROOT

from notation.pgn import lines, splitter, stream_jobs
from notation.pgn.batch import ReportEntries
from notation.pgn.cuts import Stretch, cut_chunks
from notation.pgn.games import Limits
from notation.pgn.normalize import BadGamePolicy, NormalizeOptions, Summary, normalize, normalize_text
from notation.pgn.splitter import iter_games
from notation.pgn.state_machine import iter_games_slow
from notation.pgn.stream_jobs import normalize_blocks_parallel
from notation.pgn.streams import read_text
from notation.pgn.tags import is_tag_line

FIXTURES = ROOT / "fixtures" / "pgn"
DATABASES = ["lichess_variants", "chesscom_crazyhouse", "xboard_engines", "fics_setup", "scid_crazyhouse", "malformed"]
PROFILES = ["lichess", "xboard", "chesscom", "python-chess", "scid", "fairy-stockfish", "cqli"]
GAMES = [g.text for name in DATABASES for g in iter_games(read_text(str(FIXTURES / f"{name}.pgn")))]
# the last game of a file may lack its final newline; give every sample one
GAMES = [g if g.endswith(("\n", "\r")) else g + "\n\n" for g in GAMES]

SETTINGS = settings(max_examples=examples(60))


def _movetext(game_text: str) -> list[str]:
    """The lines of a game that are not tag lines: movetext, comments, blank lines."""
    lines = game_text.splitlines(keepends=True)
    return [line for line in lines if not is_tag_line(line.lstrip(" \t\ufeff"))]


databases = st.lists(st.sampled_from(GAMES), min_size=1, max_size=15).map("".join)


@SETTINGS
@given(databases, st.sampled_from(PROFILES))
def test_normalising_twice_changes_nothing_the_second_time(text, profile):
    options = NormalizeOptions.create(profile)
    once, _, _ = normalize_text(text, options)
    twice, summary, _ = normalize_text(once, options)
    assert twice == once
    assert summary.changed == 0


@SETTINGS
@given(databases, st.sampled_from(PROFILES))
def test_game_count_and_movetext_are_preserved(text, profile):
    games = list(iter_games(text))
    results = list(normalize(text, NormalizeOptions.create(profile)))
    assert len(results) == len(games)
    for game, result in zip(games, results, strict=True):
        assert _movetext(result.text) == _movetext(game.text)
        if not result.changed:
            assert result.text == game.text
    assert sum(r.counted for r in results) == sum(1 for g in games if g.part == 0)


@SETTINGS
@given(databases, st.sampled_from(PROFILES))
def test_games_without_setup_tags_are_copied_byte_for_byte(text, profile):
    for game, result in zip(iter_games(text), normalize(text, NormalizeOptions.create(profile)), strict=True):
        if not any(tag.name in ("Variant", "FEN") for tag in game.tags):
            assert result.text == game.text and not result.changed


def _corrupt(data: bytes, rng: random.Random) -> bytes:
    data = bytearray(data)
    for _ in range(rng.randint(1, 12)):
        action = rng.choice(["flip", "insert", "delete", "truncate", "brace", "bracket", "quote"])
        at = rng.randrange(len(data) + 1)
        if action == "flip":
            if data:
                data[min(at, len(data) - 1)] = rng.randrange(256)
        elif action == "insert":
            data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif action == "delete":
            del data[at:at + rng.randint(1, 40)]
        elif action == "truncate":
            del data[at:]
        else:
            data[at:at] = {"brace": b"{", "bracket": b"\n[", "quote": b'"'}[action]
    return bytes(data)


@pytest.mark.slow
@settings(max_examples=examples(80))
@given(databases, st.integers(0, 2**32), st.sampled_from(PROFILES), st.sampled_from(list(BadGamePolicy)))
def test_random_corruption_never_raises_and_loses_nothing(text, seed, profile, policy):
    data = _corrupt(text.encode("utf-8", "surrogateescape"), random.Random(seed))
    damaged = data.decode("utf-8", "surrogateescape")
    results = list(normalize(damaged, NormalizeOptions.create(profile, on_bad=policy)))
    assert all(r.report is not None for r in results)
    assert not any(code == "internal-error" for r in results for code in r.codes)
    unchanged = "".join(r.text for r in results if not r.changed)
    originals = "".join(g.text for g, r in zip(iter_games(damaged), results, strict=True) if not r.changed)
    assert unchanged == originals
    assert len(results) == len(list(iter_games(damaged)))


@pytest.mark.slow
def test_parallel_jobs_give_identical_results():
    rng = random.Random(5)
    text = "".join(rng.choice(GAMES) for _ in range(3000))
    options = NormalizeOptions.create("xboard", on_bad=BadGamePolicy.REJECT)
    single = list(normalize(text, options))
    parallel = list(normalize_blocks_parallel([text], options, jobs=2, chunk_chars=20_000))
    assert _batched(parallel) == _essentials(single)


def _essentials(results):
    """What one process's results write: output, rejects, report, counts, characters."""
    summary, written, rejected, report, chars = Summary(), [], [], [], 0
    for result in results:
        summary.add(result)
        (rejected if result.rejected else written).append(result.text)
        report.extend(result.report)
        chars += len(result.text)
    return ("".join(written).encode("utf-8", "surrogateescape"), "".join(rejected).encode("utf-8", "surrogateescape"),
            report, summary.to_dict(), chars)


def _batched(batches):
    """What ``normalize_blocks_parallel``'s batches write, as ``_essentials`` gives it."""
    summary, written, rejected, report, chars = Summary(), [], [], [], 0
    for batch in batches:
        summary.add_counts(batch.summary)
        batch.write_text(lambda view: written.append(bytes(view)))
        rejected.append(batch.rejected)
        report.extend(batch.report)
        chars += batch.chars
    return b"".join(written), b"".join(rejected), report, summary.to_dict(), chars


def test_a_chunk_comes_back_as_spans_of_the_text_the_parent_holds():
    """Games written as they were read cost the parent nothing per game: a run of them comes
    back from the worker as one span of the chunk; a changed game as its new text; a
    rejected one as neither (it goes to the rejects)."""
    same, other = '[Event "a"]\n\n1. e4 *\n\n', '[Event "c"]\n\n1. d4 *\n\n'
    renamed = '[Event "b"]\n[Variant "ZH"]\n\n1. e4 *\n\n'
    bad = '[Event "d"]\n[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]\n\n*\n\n'
    text = same * 2 + renamed + other * 3 + bad + same
    options = NormalizeOptions.create("lichess", on_bad=BadGamePolicy.REJECT)
    stream_jobs._init_worker(options, ReportEntries.KEEP)
    batch, spans, texts = stream_jobs._work(text, 1)
    first_run, after = 2 * len(same), 2 * len(same) + len(renamed)
    assert list(spans) == [0, first_run, -1, 0, after, after + 3 * len(other), len(text) - len(same), len(text)]
    assert texts == [renamed.replace('"ZH"', '"Crazyhouse"')]
    assert batch.rejected == bad.encode() and batch.last_game == 8 and batch.text == b""
    assert (batch.summary.changed, batch.summary.unchanged, batch.summary.rejected) == (1, 6, 1)
    assert [entry["game"] for entry in batch.report] == [7]
    # A run that writes no report: the worker sends back no entry, and the same counts.
    stream_jobs._init_worker(options, ReportEntries.DROP)
    dropped, _, _ = stream_jobs._work(text, 1)
    assert dropped.report == [] and dropped.summary == batch.summary


@pytest.mark.slow
@settings(max_examples=examples(40))
@given(databases, st.integers(0, 2**32), st.integers(1, 400), st.integers(1, 3000))
def test_chunked_parallel_equals_serial_even_on_damaged_input(text, seed, chunk_chars, block):
    """Cut points are game starts every splitter agrees on: numbers, lines, reports and
    texts come out as from one process, whatever the damage and the chunk size."""
    data = _corrupt((text * 3).encode("utf-8", "surrogateescape"), random.Random(seed))
    damaged = data.decode("utf-8", "surrogateescape")
    blocks = [damaged[i:i + block] for i in range(0, len(damaged), block)]
    assert _joined(cut_chunks(blocks, chunk_chars)) == damaged
    options = NormalizeOptions.create("lichess")
    single = list(normalize(damaged, options))
    parallel = list(normalize_blocks_parallel(blocks, options, jobs=2, chunk_chars=chunk_chars))
    assert _batched(parallel) == _essentials(single)


@pytest.mark.slow
def test_chunks_are_not_cut_at_a_malformed_tag_line_inside_a_comment():
    """Only a well-formed tag line after a blank line ends a comment; a chunk cut anywhere
    else would split a game the serial splitter keeps whole."""
    text = (
        '[Event "a"]\n\n1. e4 { a long comment\n\n[not a tag line\n still the comment } e5 1-0\n\n'
        '[Event "b"]\n[FEN "4k3/8/8/8/8/8/8/4K3 w - - 0 1"]\n\n1. Kd2 *\n\n'
    ) * 3
    options = NormalizeOptions.create("lichess")
    single = list(normalize(text, options))
    for size in range(1, len(text), 7):
        assert _joined(cut_chunks([text], size)) == text
        parallel = list(normalize_blocks_parallel([text], options, jobs=2, chunk_chars=size))
        assert _batched(parallel) == _essentials(single)


def _joined(chunks) -> str:
    return "".join("".join(chunk.pieces) if isinstance(chunk, Stretch) else chunk for chunk in chunks)


# -- damaged databases that once split differently in parallel (fixtures/pgn/parallel_cases.json)
def _parallel_cases() -> list[dict]:
    return json.loads((FIXTURES / "parallel_cases.json").read_text(encoding="utf-8"))


def _database(case: dict) -> str:
    """The case's text: fixture databases joined, with the damage applied."""
    texts = {name: read_text(str(FIXTURES / f"{name}.pgn")) for name in case["databases"]}
    for damage in case["damage"]:
        text, at = texts[damage["database"]], -1
        for _ in range(damage["occurrence"]):
            at = text.index(damage["find"], at + 1)
        texts[damage["database"]] = text[:at] + damage["replace"] + text[at + len(damage["find"]):]
    return case.get("prefix", "") + case.get("text", "") + "".join(texts[name] for name in case["databases"])


@pytest.mark.slow
@pytest.mark.parametrize("case", _parallel_cases(), ids=lambda case: case["name"])
def test_damaged_database_splits_the_same_in_parallel_at_every_chunk_size(case):
    text = _database(case)
    assert _signature(iter_games(text)) == _signature(iter_games_slow(text))
    options = NormalizeOptions.create("lichess")
    single = _essentials(normalize(text, options))
    for size in range(1, len(text) + 2, max(1, len(text) // 60)):
        assert _joined(cut_chunks([text], size)) == text
        assert _batched(normalize_blocks_parallel([text], options, jobs=2, chunk_chars=size)) == single, size


def _signature(games):
    return [(g.number, g.part, g.start_line, g.text, sorted((p.code, p.line, p.column) for p in g.problems))
            for g in games]


# -- stretches with no cut point: read in the parent, the same results ------------------------
@contextlib.contextmanager
def small_pieces() -> Iterator[None]:
    """Lines fed in pieces of 7 characters, blocks of 64, a fast-path window of 256: the
    cases that need megabytes at the real sizes, in a few hundred characters (the forked
    workers inherit the sizes)."""
    with mock.patch.object(lines, "PIECE_CHARS", 7), mock.patch.multiple(
        splitter, _BLOCK_CHARS=64, _FAST_WINDOW=256
    ):
        yield


@pytest.mark.slow
@settings(max_examples=examples(40))
@given(databases, st.integers(0, 2**32), st.integers(1, 300), st.integers(1, 600), st.integers(1, 200))
def test_parallel_equals_serial_with_long_lines_and_stretches(text, seed, chunk_chars, longest, block):
    with small_pieces():
        _check_parallel_equals_serial(text, seed, chunk_chars, longest, block)


def _check_parallel_equals_serial(text, seed, chunk_chars, longest, block):
    data = _corrupt(text.encode("utf-8", "surrogateescape"), random.Random(seed))
    damaged = data.decode("utf-8", "surrogateescape")
    blocks = [damaged[i:i + block] for i in range(0, len(damaged), block)]
    assert _signature(iter_games(blocks)) == _signature(iter_games_slow(damaged))
    assert _joined(cut_chunks(blocks, chunk_chars, longest)) == damaged
    options = NormalizeOptions.create("lichess")
    single = _essentials(normalize(damaged, options))
    parallel = normalize_blocks_parallel(blocks, options, jobs=2, chunk_chars=chunk_chars, longest_chunk_chars=longest)
    assert _batched(parallel) == single


@small_pieces()
def test_text_with_no_cut_point_comes_as_a_stretch():
    """Tag lines of at most 7 characters here (``[E "b"]``): longer ones are no cut points."""
    text = ('[E "a"]\n\n1. e4 {' + "x " * 500 + "}\n" + "1. d4 *\n" * 50
            + '\n[E "b"]\n\n1. e4 e5 *\n\n' + '[E "c"]\n\n*\n')
    kinds, texts = [], []
    for chunk in cut_chunks([text[i:i + 10] for i in range(0, len(text), 10)], 16, 100):
        kinds.append("stretch" if isinstance(chunk, Stretch) else "chunk")
        texts.append("".join(chunk.pieces) if isinstance(chunk, Stretch) else chunk)  # read before the next
    assert kinds == ["stretch", "chunk", "chunk"]
    assert texts[1:] == ['[E "b"]\n\n1. e4 e5 *\n\n', '[E "c"]\n\n*\n'] and "".join(texts) == text
    options = NormalizeOptions.create("lichess")
    assert _batched(normalize_blocks_parallel([text], options, jobs=2, chunk_chars=16, longest_chunk_chars=100)) \
        == _essentials(normalize(text, options))


@pytest.mark.slow
def test_a_stretch_normalised_in_the_parent_holds_no_more_than_one_process():
    """Movetext with no game start is normalised by the parent, a part (``max_game_chars``)
    at a time, and written as batches: the peak of memory traced here stays within 12% of
    one process writing the same parts (a batch holding its part encoded beside its text
    came to 22% more)."""
    import tracemalloc

    part = 4 << 20
    options = NormalizeOptions.create("lichess", limits=Limits(max_game_chars=part))
    unit = "1. e4 e5 " * 10_000

    def blocks():
        return (unit for _ in range(3 * part // len(unit)))

    tracemalloc.start()
    try:
        for batch in normalize_blocks_parallel(blocks(), options, jobs=2, longest_chunk_chars=1 << 20):
            batch.write_text(lambda view: None)
        parallel = tracemalloc.get_traced_memory()[1]
        tracemalloc.reset_peak()
        for result in normalize(blocks(), options):
            result.text.encode("utf-8", "surrogateescape")  # what writing the text does at once
        single = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert parallel < 1.12 * single, (parallel / part, single / part)


# -- the command: --jobs 2 writes the bytes --jobs 1 writes, whatever the chunk size ----------
_RUN_WITH_CHUNK_SIZE = (
    "import sys\n"
    "import notation.pgn.stream_jobs as stream_jobs\n"
    "stream_jobs.CHUNK_CHARS = int(sys.argv[1])\n"
    "import notation.pgn.pieces as pieces\n"
    "pieces.RANGE_BYTES = int(sys.argv[1])  # a regular file is cut into pieces of this size\n"
    "from notation.cli.main import main\n"
    "sys.exit(main(sys.argv[2:]))\n"
)


def _damaged_database(size: int, seed: int) -> bytes:
    """About ``size`` bytes of fixture games, every tenth one damaged."""
    rng = random.Random(seed)
    out, total = [], 0
    while total < size:
        game = rng.choice(GAMES).encode("utf-8", "surrogateescape")
        if rng.random() < 0.1:
            game = _corrupt(game, rng)
        out.append(game)
        total += len(game)
    return b"".join(out)


@pytest.mark.slow
def test_command_with_two_jobs_writes_what_one_job_writes(tmp_path):
    source = tmp_path / "damaged.pgn"
    source.write_bytes(_damaged_database(3_000_000, 11))
    outputs = {}
    for jobs, chunk in [(1, 1 << 20), (2, 1 << 20), (2, 100_000), (2, 7_000)]:
        out, report = tmp_path / f"out-{jobs}-{chunk}.pgn", tmp_path / f"report-{jobs}-{chunk}.jsonl"
        done = subprocess.run(
            [sys.executable, "-c", _RUN_WITH_CHUNK_SIZE, str(chunk), "normalize", str(source), "-o", str(out),
             "--report", str(report), "--profile", "lichess", "--jobs", str(jobs), "--progress", "never",
             "--summary", "json"],
            capture_output=True, timeout=600,
        )
        assert done.returncode == 1, done.stderr  # the damage is reported
        outputs[jobs, chunk] = (out.read_bytes(), report.read_bytes(), done.stderr)
    serial = outputs.pop((1, 1 << 20))
    assert serial[0] and serial[1].count(b"\n") > 100
    for key, result in outputs.items():
        assert result == serial, key
