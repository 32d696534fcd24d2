"""The lenient readings of chess moves as users meet them: `notation check` and `notation
normalize` run in a subprocess on real files, `--jobs 2` included, and ``read_games``:
hyphenated long algebraic, figurines, castling with other dashes, glued evaluation signs
and novelty marks, ``b8(Q)``, a NAG before the first move, and other languages' piece
letters under ``--piece-letters`` (fixtures/moves/chess/languages.json)."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
from typing import Any

import pytest
from paths import ROOT

from notation.errors import MoveError
from notation.move_options import MoveLanguage, MoveNotation
from notation.moves import write_move
from notation.moves.chess import read_move
from notation.pgn.gameread import read_games
from notation.playing import open_position

LANGUAGES = json.loads((ROOT / "fixtures" / "moves" / "chess" / "languages.json").read_text(encoding="utf-8"))
TIMEOUT = 120

# One game of each spelling, and the main line's moves in UCI each must read as.
SPELLINGS = [
    ("hyphenated long algebraic (pgn-extract -Whalg)", "1. e2-e4 e7-e5 2. g1-f3 b8-c6 3. f1-b5 a7-a6 4. e1-g1 g8-f6",
     "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 e1g1 g8f6", ["long-algebraic", "long-algebraic-without-piece"]),
    ("figurines and dashes", "1. e4 e5 2. ♘f3 ♞c6 3. ♗c4 ♝c5 4. O‑O ♘f6 5. d3 0–0 6. ♗g5 h6 7. ♗xf6 ♛xf6",
     "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 e1g1 g8f6 d2d3 e8g8 c1g5 h7h6 g5f6 d8f6",
     ["castling-dash", "castling-with-zeros", "figurine"]),
    ("signs glued and apart", "1. e4 e5 2. Nf3 Nc6 3. Bb5N a6 4. Ba4⩲ Nf6 5. O-O → Be7 6. Re1 b5∞ 7. Bb3 d6+=",
     "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 d7d6", ["glued-evaluation", "novelty-mark"]),
    ("a NAG before the first move", "$1 1. e4 {c} $2 e5", "e2e4 e7e5", []),
    ("a comment and a NAG before the first move", "{c} $2 1. d4 d5", "d2d4 d7d5", []),
]
PROMOTION = ('[Event "promotion"]\n[FEN "8/1P4P1/8/8/8/8/k7/4K3 w - - 0 1"]\n[SetUp "1"]\n[Result "*"]\n\n'
             "1. b8(Q) Ka3 2. g8/N Ka4 *\n")


def notation(*args: str, cwd: pathlib.Path) -> subprocess.CompletedProcess[str]:
    """The command as users run it, in a process of its own (the package this test imports)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    return subprocess.run([sys.executable, "-m", "notation", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=TIMEOUT, env=env)


def _games(rows: list[tuple[str, str]]) -> str:
    return "".join(f'[Event "{name}"]\n[Result "*"]\n\n{moves} *\n\n' for name, moves in rows)


def _uci_main_lines(pgn: str) -> list[str]:
    """Each game's main line in UCI as the rewrite writes it: its move tokens, numbers,
    NAGs, glyphs and comments left out."""
    lines = []
    for game in pgn.split('[Event "')[1:]:
        movetext = game.split("\n\n", 1)[1]
        words = [w for w in movetext.replace("{c}", "").split() if w[0].islower()]
        lines.append(" ".join(words))
    return lines


@pytest.fixture
def spellings_file(tmp_path: pathlib.Path) -> pathlib.Path:
    (tmp_path / "spellings.pgn").write_text(_games([(name, moves) for name, moves, _, _ in SPELLINGS]) + PROMOTION,
                                            encoding="utf-8")
    return tmp_path


@pytest.mark.slow
def test_check_reads_every_spelling_with_its_warning_and_no_error(spellings_file):
    done = notation("check", "spellings.pgn", "--format", "json", cwd=spellings_file)
    assert done.returncode == 0, done.stdout + done.stderr
    problems = json.loads(done.stdout)["problems"]
    assert {p["severity"] for p in problems} == {"warning"}
    expected = {code for *_, codes in SPELLINGS for code in codes} | {"promotion-separator"}
    assert {p["code"] for p in problems} == expected
    strict = notation("check", "spellings.pgn", "--strict", cwd=spellings_file)
    assert strict.returncode == 1  # a strict gate refuses the readings


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_normalize_writes_each_spelling_as_its_moves(spellings_file, jobs):
    done = notation("normalize", "spellings.pgn", "--moves", "uci", "--jobs", jobs, cwd=spellings_file)
    assert "rejected" in done.stderr and "0 rejected" in done.stderr, done.stderr
    lines = _uci_main_lines(done.stdout)
    assert lines[:len(SPELLINGS)] == [uci for _, _, uci, _ in SPELLINGS]
    assert lines[-1] == "b7b8q a2a3 g7g8n a3a4"
    assert "3. f1b5 $146 a7a6 4. b5a4 $14 g8f6 5. e1g1 → f8e7" in done.stdout  # glued signs apart, as NAGs


def test_the_library_reads_the_same_moves(spellings_file):
    games = list(read_games((spellings_file / "spellings.pgn").read_text(encoding="utf-8")))
    for game, (_, _, uci, codes) in zip(games, SPELLINGS, strict=False):
        assert not [p for p in game.problems if p.level.value == "error"]
        assert " ".join(m.uci for m in game.moves) == uci
        assert sorted({p.code for p in game.problems}) == sorted(codes)


@pytest.mark.parametrize("row", LANGUAGES["readings"], ids=lambda r: f"{r['language']}:{r['move']}")
def test_language_reading(row: dict[str, Any]) -> None:
    position = open_position(row["fen"], "standard")
    read = read_move(position, row["move"], MoveNotation.SAN, MoveLanguage(row["language"]))
    assert write_move(position, read.move, MoveNotation.UCI) == row["uci"]
    assert sorted(w.code for w in read.warnings) == sorted(row["warnings"])


@pytest.mark.parametrize("row", LANGUAGES["errors"], ids=lambda r: f"{r['language']}:{r['move']}")
def test_language_error(row: dict[str, Any]) -> None:
    position = open_position(row["fen"], "standard")
    with pytest.raises(MoveError) as caught:
        read_move(position, row["move"], MoveNotation.SAN, MoveLanguage(row["language"]))
    assert caught.value.problems[0].code == row["code"]
    assert caught.value.problems[0].extra["move"] == row["move"]


@pytest.fixture
def languages_file(tmp_path: pathlib.Path) -> pathlib.Path:
    for row in LANGUAGES["games"]:
        (tmp_path / f"{row['language']}.pgn").write_text(_games([(row["language"], row["moves"])]), encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("row", LANGUAGES["games"], ids=lambda r: r["language"])
def test_the_library_reads_each_language_under_its_option(row):
    text = _games([(row["language"], row["moves"])])
    games = list(read_games(text, piece_letters=row["language"]))
    assert " ".join(m.uci for m in games[0].moves) == LANGUAGES["uci"]
    assert [p.code for p in games[0].problems] == ["foreign-piece-letters"]
    english = next(iter(read_games(text)))  # not read unless asked: an error, where its moves end
    assert [p.code for p in english.problems if p.level.value == "error"] in (["bad-move-syntax"], ["illegal-move"])


# The commands, in processes of their own: German (B a pawn), French (R the king), Dutch (P the knight).
CLI_LANGUAGES = [row for row in LANGUAGES["games"] if row["language"] in ("de", "fr", "nl")]


@pytest.mark.slow
@pytest.mark.parametrize("row", CLI_LANGUAGES, ids=lambda r: r["language"])
def test_each_language_is_read_only_under_its_option(languages_file, row):
    name = f"{row['language']}.pgn"
    english = notation("check", name, cwd=languages_file)
    assert english.returncode == 1 and "bad-move-syntax" in english.stdout  # not read unless asked
    asked = notation("check", name, "--piece-letters", row["language"], cwd=languages_file)
    assert asked.returncode == 0, asked.stdout
    assert "foreign-piece-letters" in asked.stdout and " 0 error(s)" in asked.stderr
    rewritten = notation("normalize", name, "--piece-letters", row["language"], "--moves", "uci", "--jobs", "2",
                         cwd=languages_file)
    assert _uci_main_lines(rewritten.stdout) == [LANGUAGES["uci"]]


@pytest.mark.slow
def test_an_unknown_language_is_a_usage_error(languages_file):
    done = notation("check", "de.pgn", "--piece-letters", "xx", cwd=languages_file)
    assert done.returncode == 2 and "--piece-letters" in done.stderr


@pytest.mark.parametrize("mark", ["e.p.", "ep"])
def test_a_played_move_lists_its_en_passant_mark_written_apart(mark):
    text = f'[Event "x"]\n[Result "*"]\n\n1. e4 Nf6 2. e5 d5 3. exd6 {mark} (3. exd6{mark} e6) e6 *\n'
    game = next(iter(read_games(text)))
    capture = game.moves[4]
    assert capture.text == "exd6" and [w.code for w in capture.warnings] == ["en-passant-mark"]
    assert [w.code for w in capture.variations[0][0].warnings] == ["en-passant-mark"]  # glued, as before
    assert [m.uci for m in game.moves][4:] == ["e5d6", "e7e6"]
