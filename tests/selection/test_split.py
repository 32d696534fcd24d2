"""``notation split`` as a user runs it: every game in exactly one file, byte for byte, in
input order within each file; the files' names; a directory holding files of those names;
errors that leave the directory as it was."""

from __future__ import annotations

import gzip
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples
from paths import ROOT
from test_select_cli import refused

from notation.pgn.gameread import read_games
from notation.selection.split import SplitBy, Splitter, safe_name

pytestmark = [pytest.mark.slow]

DATABASE = ROOT / "fixtures" / "selection" / "database.pgn"
TEXT = DATABASE.read_bytes().decode("utf-8")
GAMES = [game.text for game in read_games(TEXT)]


def notation(*args: str, stdin: bytes = b"", cwd=None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "notation", *args], input=stdin, capture_output=True, timeout=120,
                          check=False, cwd=cwd)


def _files(directory) -> dict[str, str]:
    return {path.name: path.read_bytes().decode("utf-8") for path in sorted(directory.iterdir())}


def _each_game_once(files: dict[str, str]) -> None:
    """Every game of the database is in exactly one file, the files' games in input order:
    taking the files in the order of their first game and their games back in input order
    gives the database."""
    where = {}
    for name, text in files.items():
        games = [game.text for game in read_games(text)]
        assert "".join(games) == text
        for game in games:
            assert game not in where, "a game written twice"
            where[game] = name
        assert [GAMES.index(game) for game in games] == sorted(GAMES.index(game) for game in games)
    assert sorted(where, key=GAMES.index) == GAMES


def test_n_games_a_file_numbered_after_the_input_s_name(tmp_path):
    done = notation("split", str(DATABASE), "--games", "5", "-o", str(tmp_path / "parts"))
    assert done.returncode == 0, done.stderr
    files = _files(tmp_path / "parts")
    assert list(files) == ["database-0001.pgn", "database-0002.pgn", "database-0003.pgn"]
    assert "".join(files.values()) == TEXT
    assert files["database-0003.pgn"] == "".join(GAMES[10:])
    assert done.stderr.decode().startswith("notation split: 14 games into 3 files in ")


def test_one_file_a_variant(tmp_path):
    done = notation("split", str(DATABASE), "--by", "variant", "-o", str(tmp_path))
    assert done.returncode == 0, done.stderr
    files = _files(tmp_path)
    assert set(files) == {"standard.pgn", "chess960.pgn", "crazyhouse.pgn", "threecheck.pgn", "atomic.pgn",
                          "xiangqi.pgn", "tablut.pgn"}
    assert files["crazyhouse.pgn"] == GAMES[7] + GAMES[8]
    assert files["standard.pgn"] == "".join(GAMES[:6]) + GAMES[13]
    _each_game_once(files)


def test_one_file_a_tag_value_and_unknown_for_a_game_without_it(tmp_path):
    done = notation("split", "-", "--by", "Site", "-o", str(tmp_path), stdin=DATABASE.read_bytes())
    assert done.returncode == 0, done.stderr
    files = _files(tmp_path)
    assert files["unknown.pgn"] == GAMES[4] + GAMES[5] + GAMES[12] + GAMES[13]
    assert files["Hall_A.pgn"] == GAMES[0] + GAMES[1]
    assert "https_lichess.org_zh000001.pgn" in files
    _each_game_once(files)


def test_values_that_write_one_name_get_files_of_their_own(tmp_path):
    games = [f'[Event "{event}"]\n[Result "*"]\n\n1. e4 *\n\n' for event in
             ("a/b", "a_b", "A_B", "unknown", "a/b", "..hidden")]
    games.append('[Result "*"]\n\n1. d4 *\n\n')
    (tmp_path / "in.pgn").write_text("".join(games))
    done = notation("split", "in.pgn", "--by", "Event", "-o", "out", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    files = _files(tmp_path / "out")
    assert files == {"a_b.pgn": games[0] + games[4], "a_b-2.pgn": games[1], "A_B-3.pgn": games[2],
                     "unknown-2.pgn": games[3], "hidden.pgn": games[5], "unknown.pgn": games[6]}


@pytest.mark.parametrize(("value", "name"), [
    ("Spring Open", "Spring_Open"), ("2024.03.01", "2024.03.01"), ("????.??.??", "_._._"), ("", "_"),
    ("../../etc", "_.._etc"), ("Café / Open", "Caf_Open"), ("x" * 300, "x" * 100),
])
def test_safe_names(value, name):
    assert safe_name(value) == name


def test_compressed_input_plain_output(tmp_path):
    (tmp_path / "in.pgn.gz").write_bytes(gzip.compress(DATABASE.read_bytes()))
    done = notation("split", "in.pgn.gz", "--games", "100", "-o", "out", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out" / "in-0001.pgn").read_bytes() == DATABASE.read_bytes()


def test_files_of_the_same_names_are_refused_unless_force(tmp_path):
    (tmp_path / "crazyhouse.pgn").write_text("mine\n")
    (tmp_path / "notes.txt").write_text("kept\n")
    done = notation("split", str(DATABASE), "--by", "variant", "-o", str(tmp_path))
    assert done.returncode == 2
    assert b"crazyhouse.pgn" in done.stderr and b"--force" in done.stderr and b"Traceback" not in done.stderr
    assert sorted(path.name for path in tmp_path.iterdir()) == ["crazyhouse.pgn", "notes.txt"]  # nothing written
    forced = notation("split", str(DATABASE), "--by", "variant", "-o", str(tmp_path), "--force")
    assert forced.returncode == 0, forced.stderr
    assert (tmp_path / "crazyhouse.pgn").read_text() == GAMES[7] + GAMES[8]
    assert (tmp_path / "notes.txt").read_text() == "kept\n"


@pytest.mark.parametrize(("args", "message"), [
    (["database.pgn", "--games", "2", "-o", "database.pgn"], b"is not a directory"),
    (["missing.pgn", "--games", "2", "-o", "out"], b"missing.pgn"),
    (["broken.pgn.gz", "--games", "2", "-o", "out"], b"nothing was written"),
    (["database.pgn", "--games", "0", "-o", "out"], b"at least 1"),
    (["database.pgn", "--by", "Event[", "-o", "out"], b"--by"),
    (["database.pgn", "--games", "2", "--prefix", "../x", "-o", "out"], b"--prefix"),
    (["database.pgn", "-o", "out"], b"--games"),
])
def test_errors_exit_2_and_leave_no_files(tmp_path, args, message):
    refused(tmp_path, "split", args, message)
    out = tmp_path / "out"
    assert not out.exists() or list(out.iterdir()) == []


def _value(game, by: str, tag: str) -> str | None:
    if by == "variant":
        return None if game.variant is None else game.variant.key
    return game.tags.get(tag)


@settings(deadline=None, max_examples=examples(30))
@given(order=st.lists(st.integers(0, len(GAMES) - 1), max_size=30),
       how=st.sampled_from([("count", 1), ("count", 4), ("variant", ""), ("tag", "Event"), ("tag", "White")]))
def test_every_game_goes_to_one_file_in_input_order(order, how):
    """Any database of these games (repeated, reordered): each game goes to exactly one
    file, in input order; by count the files in name order are the input, N games each;
    by variant or tag, a file holds the games of one value and each value has one file."""
    by, key = how
    if by == "count":
        splitter = Splitter(SplitBy.COUNT, count=int(key), prefix="p")
    elif by == "variant":
        splitter = Splitter(SplitBy.VARIANT)
    else:
        splitter = Splitter(SplitBy.TAG, tag=str(key))
    text = "".join(GAMES[at] for at in order)
    files: dict[str, list[int]] = {}  # name -> positions in the database, in the order written
    for position, raw in enumerate(game.raw for game in read_games(text)):
        name = splitter.name(raw)
        assert name is not None
        files.setdefault(name, []).append(position)
    assert sorted(position for positions in files.values() for position in positions) == list(range(len(order)))
    assert all(positions == sorted(positions) for positions in files.values())
    if by == "count":
        assert [len(files[name]) for name in sorted(files)][:-1] == [int(key)] * (len(files) - 1)
        assert "".join(GAMES[order[position]] for name in sorted(files) for position in files[name]) == text
        return
    games = list(read_games(TEXT))
    values = {name: {_value(games[order[position]], by, str(key)) for position in positions}
              for name, positions in files.items()}
    assert all(len(found) == 1 for found in values.values())
    assert len({found.pop() for found in values.values()}) == len(files)
