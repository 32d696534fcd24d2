"""Properties of normalising: stable, nothing lost, robust to damage, same result in parallel."""

from __future__ import annotations

import pathlib
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation.pgn.normalize import BadGamePolicy, NormalizeOptions, normalize, normalize_text
from notation.pgn.parallel import cut_chunks, normalize_blocks_parallel
from notation.pgn.reader import _is_tag_line, iter_games
from notation.pgn.streams import read_text

FIXTURES = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "pgn"
DATABASES = ["lichess_variants", "chesscom_crazyhouse", "xboard_engines", "fics_setup", "scid_crazyhouse", "malformed"]
PROFILES = ["lichess", "xboard", "chesscom", "python-chess", "scid", "fairy-stockfish", "cqli"]
GAMES = [g.text for name in DATABASES for g in iter_games(read_text(str(FIXTURES / f"{name}.pgn")))]
# the last game of a file may lack its final newline; give every sample one
GAMES = [g if g.endswith(("\n", "\r")) else g + "\n\n" for g in GAMES]

settings.register_profile("normalize", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SETTINGS = settings.get_profile("normalize")


def _movetext(game_text: str) -> list[str]:
    """The lines of a game that are not tag lines: movetext, comments, blank lines."""
    lines = game_text.splitlines(keepends=True)
    return [line for line in lines if not _is_tag_line(line.lstrip(" \t\ufeff"))]


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
    for game, result in zip(games, results):
        assert _movetext(result.text) == _movetext(game.text)
        if not result.changed:
            assert result.text == game.text
    assert sum(r.counted for r in results) == sum(1 for g in games if g.part == 0)


@SETTINGS
@given(databases, st.sampled_from(PROFILES))
def test_games_without_setup_tags_are_copied_byte_for_byte(text, profile):
    for game, result in zip(iter_games(text), normalize(text, NormalizeOptions.create(profile))):
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


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(databases, st.integers(0, 2**32), st.sampled_from(PROFILES), st.sampled_from(list(BadGamePolicy)))
def test_random_corruption_never_raises_and_loses_nothing(text, seed, profile, policy):
    data = _corrupt(text.encode("utf-8", "surrogateescape"), random.Random(seed))
    damaged = data.decode("utf-8", "surrogateescape")
    results = list(normalize(damaged, NormalizeOptions.create(profile, on_bad=policy)))
    assert all(r.report is not None for r in results)
    assert not any(code == "internal-error" for r in results for code in r.codes)
    unchanged = "".join(r.text for r in results if not r.changed)
    originals = "".join(g.text for g, r in zip(iter_games(damaged), results) if not r.changed)
    assert unchanged == originals
    assert len(results) == len(list(iter_games(damaged)))


def test_parallel_jobs_give_identical_results():
    rng = random.Random(5)
    text = "".join(rng.choice(GAMES) for _ in range(3000))
    options = NormalizeOptions.create("xboard", on_bad=BadGamePolicy.REJECT)
    single = list(normalize(text, options))
    parallel = list(normalize_blocks_parallel([text], options, jobs=2, chunk_chars=20_000))
    assert _essentials(parallel) == _essentials(single)


def _essentials(results):
    return [(r.number, r.part, r.start_line, r.text, r.changed, r.rejected, r.report, r.codes, r.counted) for r in results]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(databases, st.integers(0, 2**32), st.integers(1, 400), st.integers(1, 3000))
def test_chunked_parallel_equals_serial_even_on_damaged_input(text, seed, chunk_chars, block):
    """Cut points are game starts every splitter agrees on: numbers, lines, reports and
    texts come out as from one process, whatever the damage and the chunk size."""
    data = _corrupt((text * 3).encode("utf-8", "surrogateescape"), random.Random(seed))
    damaged = data.decode("utf-8", "surrogateescape")
    blocks = [damaged[i:i + block] for i in range(0, len(damaged), block)]
    assert "".join(cut_chunks(blocks, chunk_chars)) == damaged
    options = NormalizeOptions.create("lichess")
    single = list(normalize(damaged, options))
    parallel = list(normalize_blocks_parallel(blocks, options, jobs=2, chunk_chars=chunk_chars))
    assert _essentials(parallel) == _essentials(single)


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
        assert "".join(cut_chunks([text], size)) == text
        assert _essentials(list(normalize_blocks_parallel([text], options, jobs=2, chunk_chars=size))) == _essentials(single)
