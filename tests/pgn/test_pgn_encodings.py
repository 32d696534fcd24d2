"""PGN that is not UTF-8: each game holding such bytes is read as Windows-1252 (Latin-1) with
one ``pgn-windows-1252`` warning at its first such byte, never an error; its tags, comments
and moves are read from that text, and ``normalize`` keeps its bytes (or, with ``--encoding
utf-8``, writes it as UTF-8). The cases are fixtures/pgn/encodings.json: each file's parts
with the encoding its bytes are written in, and what is expected of each game.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from paths import ROOT

from notation.pgn.encodings import as_read
from notation.pgn.gameread import open_games, read_games
from notation.pgn.splitter import iter_games
from notation.pgn.state_machine import iter_games_slow

CASES = json.loads((ROOT / "fixtures" / "pgn" / "encodings.json").read_text(encoding="utf-8"))
IDS = [case["name"] for case in CASES]


def _bytes(case: dict) -> bytes:
    return b"".join(text.encode(encoding) for encoding, text in case["parts"])


def _notation(args: list[str], cwd: pathlib.Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "notation", *args], capture_output=True, env=env, cwd=cwd,
                          timeout=120)


@pytest.fixture(params=CASES, ids=IDS)
def case_file(request, tmp_path) -> tuple[dict, pathlib.Path]:
    path = tmp_path / "games.pgn"
    path.write_bytes(_bytes(request.param))
    return request.param, path


def _read(path: pathlib.Path) -> list[tuple]:
    """What a program reads of each game: tags, damage, problems and moves."""
    return [
        (game.tags, [(p.code, p.line, p.column) for p in game.damage],
         [(p.code, p.line, p.column) for p in game.problems], [move.uci for move in game.moves])
        for game in open_games(str(path))
    ]


def test_the_fixture_files_are_not_utf8_but_for_their_utf8_parts():
    for case in CASES:
        data = _bytes(case)
        with pytest.raises(UnicodeDecodeError):
            data.decode("utf-8")


def test_read_games_reads_tags_comments_and_moves_as_written(case_file):
    case, path = case_file
    read = _read(path)
    assert len(read) == len(case["games"])
    for (tags, damage, problems, uci), expected in zip(read, case["games"], strict=True):
        assert {name: tags[name] for name in expected["tags"]} == expected["tags"]
        assert damage == [tuple(warning) for warning in expected["warnings"]]
        assert problems == [tuple(error) for error in expected["errors"]]
        assert uci == expected["uci"]
    for game in open_games(str(path)):
        assert "\udce9" not in game.text and game.text == as_read(game.raw.text)


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [[], ["--jobs", "2"]], ids=["one-process", "jobs-2"])
def test_check_warns_once_a_game_and_finds_illegal_moves_where_they_are(case_file, jobs):
    case, path = case_file
    done = _notation(["check", path.name, "--format", "json", *jobs], path.parent)
    found = [(p["code"], p["line"], p["column"], p["severity"]) for p in json.loads(done.stdout)["problems"]]
    expected = sorted(
        [(code, line, column, "warning") for game in case["games"] for code, line, column in game["warnings"]]
        + [(code, line, column, "error") for game in case["games"] for code, line, column in game["errors"]],
        key=lambda p: (p[1], p[2]),
    )
    assert found == expected
    assert done.returncode == (1 if any(game["errors"] for game in case["games"]) else 0), done.stderr


@pytest.mark.slow
def test_normalize_keeps_every_byte_without_encoding(case_file):
    case, path = case_file
    for args in ([], ["--encoding", "keep", "--jobs", "2"]):
        done = _notation(["normalize", path.name, "-o", "out.pgn", *args], path.parent)
        assert b"Traceback" not in done.stderr and b"pgn-windows-1252" in done.stderr
        assert (path.parent / "out.pgn").read_bytes() == path.read_bytes()


@pytest.mark.slow
def test_normalize_to_utf8_writes_utf8_that_reads_the_same_games(case_file):
    case, path = case_file
    done = _notation(["normalize", path.name, "-o", "utf8.pgn", "--encoding", "utf-8"], path.parent)
    assert b"Traceback" not in done.stderr
    written = (path.parent / "utf8.pgn").read_bytes()
    text = written.decode("utf-8")  # raises if any byte is not UTF-8
    assert text == as_read(path.read_bytes().decode("utf-8", "surrogateescape"))
    again = _read(path.parent / "utf8.pgn")
    before = _read(path)
    assert [(tags, problems, uci) for tags, _, problems, uci in again] == \
        [(tags, problems, uci) for tags, _, problems, uci in before]
    assert all(code != "pgn-windows-1252" for _, damage, _, _ in again for code, _, _ in damage)
    parallel = _notation(["normalize", path.name, "-o", "jobs.pgn", "--encoding", "utf-8", "--jobs", "2"], path.parent)
    assert b"Traceback" not in parallel.stderr
    assert (path.parent / "jobs.pgn").read_bytes() == written


def test_normalize_rewrites_the_moves_of_a_latin1_game_and_keeps_its_comment():
    case = next(case for case in CASES if case["name"] == "latin1-names-and-comment")
    text = _bytes(case).decode("utf-8", "surrogateescape")
    from notation.pgn.normalize import NormalizeOptions, normalize_text

    kept, summary, _ = normalize_text(text, NormalizeOptions.create(moves="uci"))
    assert summary.problems == {"pgn-windows-1252": 1}
    assert "1. e2e4 {tr\udce8s jou\udce9} e7e5" in kept  # the comment's bytes as they were
    utf8, _, _ = normalize_text(text, NormalizeOptions.create(moves="uci", encoding="utf-8"))
    assert '[White "Müller, Jürgen"]' in utf8 and "1. e2e4 {très joué} e7e5" in utf8
    assert utf8 == as_read(kept)


def test_the_encoding_option_is_an_enum():
    from notation.pgn.normalize import NormalizeOptions

    with pytest.raises(ValueError):
        NormalizeOptions.create(encoding="latin-1")


def test_windows_1252_undefined_bytes_read_as_latin1_and_every_other_as_windows_1252():
    data = bytes(range(0x80, 0x100))
    read = as_read(data.decode("utf-8", "surrogateescape"))
    assert len(read) == len(data)
    for byte, char in zip(data, read, strict=True):
        if byte in (0x81, 0x8D, 0x8F, 0x90, 0x9D):
            assert char == chr(byte)
        else:
            assert char == bytes([byte]).decode("cp1252")


_damaged_game = st.builds(
    lambda name, comment: f'[Event "x"]\n[White "{name}"]\n[Result "*"]\n\n1. e4 {{{comment}}} e5 *\n\n',
    st.text(alphabet=st.sampled_from("abc \udce9\udcfc\udc93\udc96\udc81é"), max_size=8),
    st.text(alphabet=st.sampled_from("xy \udce8\udc94\udcff\udc9d–"), max_size=8),
)


@pytest.mark.slow
@settings(max_examples=80, derandomize=True, deadline=None)
@given(st.lists(_damaged_game, min_size=1, max_size=5))
def test_each_game_with_bytes_not_utf8_has_one_warning_and_reads_its_tags_as_windows_1252(games):
    text = "".join(games)
    fast = list(iter_games(text))
    slow = list(iter_games_slow(text))
    assert [(g.text, [(t.name, t.value) for t in g.tags], [(p.code, p.line, p.column) for p in g.problems])
            for g in fast] == \
        [(g.text, [(t.name, t.value) for t in g.tags], [(p.code, p.line, p.column) for p in g.problems])
         for g in slow]
    assert "".join(g.text for g in fast) == text  # nothing lost
    for game, source in zip(fast, games, strict=True):
        damaged = any("\udc80" <= char <= "\udcff" for char in source)
        assert [p.code for p in game.problems] == (["pgn-windows-1252"] if damaged else [])
        assert game.tag("White").value == as_read(source.split('"')[3])
    for read in read_games(text):
        assert [move.uci for move in read.moves] == ["e2e4", "e7e5"] and not read.problems
