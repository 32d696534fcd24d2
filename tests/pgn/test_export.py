"""``normalize --export full|reduced``: the PGN standard's export format (sections 8.1.1, 8.2).

- the table (fixtures/pgn/export_cases.json): games in several variants, each with its
  export written out whole, and the problems reported;
- every exported game of the table and of random games: the Seven Tag Roster first in its
  order, the other tags in ASCII order, movetext lines under 80 characters filled as far as
  they go, one space between tokens, no tabs; exporting it again changes nothing;
- random games (hypothesis) in every rule family, annotated, written in import format with
  white space anywhere: read back, the export has the same moves, variations, comments
  (their words), NAGs (glyphs as theirs), and `notation check` passes it; reduced keeps the
  moves alone;
- the command as a user runs it: sequential, ``--jobs 2`` on a file and on a stream give the
  same bytes, and ``notation check`` reads the output without a problem.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples
from paths import ROOT

import notation
from notation.fen.writer import write_fen
from notation.game.family import GamePosition
from notation.moves import default_notation, write_move
from notation.patterns import compiled
from notation.pgn.export import LINE_WIDTH, ROSTER, ExportFormat, export_game, glyph_nags
from notation.pgn.movetext import (
    CLOSE,
    COMMENT,
    ESCAPE,
    GLYPH,
    LINE_COMMENT,
    MOVE,
    NAG,
    OPEN,
    RESULT,
    movetext_start,
    scan,
)
from notation.pgn.normalize import NormalizeOptions, normalize_text
from notation.pgn.tags import TAG
from notation.start import start_setup

CASES = json.loads((ROOT / "fixtures" / "pgn" / "export_cases.json").read_text(encoding="utf-8"))["cases"]


def _options(options: dict) -> NormalizeOptions:
    return NormalizeOptions.create(options.get("profile"), moves=options.get("moves"), export=options["export"])


def _codes(report: list[dict]) -> list[str]:
    return sorted({p["code"] for entry in report for kind in ("errors", "warnings") for p in entry.get(kind, [])})


@pytest.mark.parametrize("case", CASES, ids=[case["description"][:60] for case in CASES])
def test_the_table(case):
    out, _, report = normalize_text(case["input"], _options(case["options"]))
    assert out == case["output"]
    assert _codes(report) == case["codes"]


EXPORTED = [case for case in CASES if case["output"] != case["input"]]


@pytest.mark.parametrize("case", EXPORTED, ids=[case["description"][:60] for case in EXPORTED])
def test_each_export_of_the_table_is_in_export_format_and_stable(case):
    options = _options(case["options"])
    _assert_export_layout(case["output"], ExportFormat(case["options"]["export"]))
    again, summary, _ = normalize_text(case["output"], options)
    assert again == case["output"]
    assert summary.changed == 0


@pytest.mark.parametrize("case", EXPORTED, ids=[case["description"][:60] for case in EXPORTED])
def test_each_export_of_the_table_reads_back_to_the_same_moves(case):
    (before,) = notation.read_games(case["input"])
    (after,) = notation.read_games(case["output"])
    assert after.ok
    if case["options"]["export"] == "reduced":
        assert [move.move for move in after.moves] == [move.move for move in before.moves]
        assert all(not move.variations for move in after.moves)
    else:
        assert _tree(after.moves) == _tree(before.moves)


def test_the_table_covers_what_it_says():
    outputs = "".join(case["output"] for case in CASES)
    for needle in ("12... Kb8", "(9... Nbd7)", "$146", "$18", "\u2192", "; not {this} one }", "\r\n", "P@d4",
                   "N@f6", "C2=5", "e2-c2", "e2e4", "[%clk 0:03:00]}"):
        assert needle in outputs, needle
    assert {case["options"]["export"] for case in CASES} == {"full", "reduced"}
    assert any("not-exported" in case["codes"] for case in CASES)
    assert any("illegal-move" in case["codes"] and case["output"] == case["input"] for case in CASES)


def test_export_game_leaves_text_between_games_alone():
    assert export_game("%escape line\n\n", ExportFormat.FULL) == "%escape line\n\n"


def test_a_tag_line_holding_more_than_tags_is_not_laid_out():
    assert export_game('[Event "x"] [Site\n\n1. e4 *\n', ExportFormat.FULL) is None


def test_glyph_nags_are_the_standards():
    nags = glyph_nags()
    assert [nags[g] for g in ("!", "?", "!!", "??", "!?", "?!")] == [1, 2, 3, 4, 5, 6]
    assert nags["N"] == 146 and nags["+-"] == 18


# -- the layout ---------------------------------------------------------------------------


def _assert_export_layout(text: str, form: ExportFormat) -> None:
    """``text`` (games) in export format: see the module doc."""
    for game in notation.read_games(text):
        body = game.text
        begin = movetext_start(body)
        head = body[:begin].splitlines()
        assert head[-1] == "" and all(head[:-1]), head  # one tag a line, one empty line after
        names = [compiled(TAG).fullmatch(line).group(1) for line in head[:-1]]
        assert names[:7] == list(ROSTER)
        rest = names[7:]
        assert rest == sorted(rest)
        if form is ExportFormat.REDUCED:
            assert set(rest) <= {"FEN", "SetUp", "Variant"}
        lines = body[begin:].splitlines()
        assert lines[-1] == "" and all(lines[:-1])  # one empty line after the movetext
        lines = lines[:-1]
        for index, line in enumerate(lines):
            assert "\t" not in line and line == line.strip() and "  " not in line
            assert len(line) <= LINE_WIDTH or " " not in line, line
            if index + 1 < len(lines) and not line.startswith((";", "%")) and ";" not in line:
                words = lines[index + 1].split(" ")
                taken = 1  # a comment's word starting with [ or % goes with the word before it
                while taken < len(words) and words[taken].startswith(("[", "%")):
                    taken += 1
                following = " ".join(words[:taken])
                if not following.startswith(("{", "(", "%", ";")):  # a comment kept whole moves as one
                    assert len(line) + 1 + len(following) > LINE_WIDTH, (line, following)
        result = game.tags.get("Result")
        if result in ("1-0", "0-1", "1/2-1/2", "*"):
            assert lines[-1].split(" ")[-1] == result


def _tree(moves) -> list:
    """The moves (``Move``), each with its variations, recursively."""
    return [(move.move, [_tree(line) for line in move.variations]) for move in moves]


def _annotations(text: str, reduced: bool = False) -> list:
    """The movetext's elements but move numbers and the result: moves, comments (their
    words), NAGs (glyphs as theirs), variations, escape lines."""
    nags = glyph_nags()
    out: list = []
    found = scan(text, movetext_start(text)).tokens
    for token in found:
        word = text[token.start:token.end]
        if token.kind is MOVE:
            out.append("move")
        elif token.kind is COMMENT:
            out.append(("comment", word[1:-1].split()))
        elif token.kind is LINE_COMMENT:
            out.append(("comment", word[1:].split()))
        elif token.kind is NAG:
            out.append(("nag", int(word[1:])))
        elif token.kind is GLYPH:
            out.append(("nag", nags.get(word, word)))
        elif token.kind is OPEN or token.kind is CLOSE:
            out.append(token.kind.value)
        elif token.kind is ESCAPE:
            out.append(("escape", word.strip()))
        elif token.kind is RESULT and out and out[-1] == "close":
            pass
    if reduced:
        depth = 0
        kept = []
        for item in out:
            if item == "open":
                depth += 1
            elif item == "close":
                depth -= 1
            elif depth == 0 and item == "move":
                kept.append(item)
        return kept
    return out


# -- random games -------------------------------------------------------------------------

VARIANTS = ["standard", "chess960", "crazyhouse", "three-check", "atomic", "xiangqi", "tablut"]
WORDS = ["good", "bad", "{", "[%clk", "0:01:02]", "[%eval", "0.25]", "idea:", "Nf3!?", "a", "very", "long",
         "explanation", "of", "the", "position", "%", "(sic)", "\u00e9l\u00e8ve"]
SPACES = [" ", " ", " ", "\n", "  ", "\t", "\r\n"]


class _Writer:
    """A random game in import format: tokens with random white space, move numbers given
    or not, glued or not, annotations and variations here and there."""

    def __init__(self, rng: random.Random, variant) -> None:
        self.rng = rng
        self.variant = variant
        self.notation = default_notation(variant)
        self.out: list[str] = []

    def space(self) -> str:
        return self.rng.choice(SPACES)

    def add(self, word: str) -> None:
        self.out.append(word)

    def line(self, position: GamePosition, plies: int, depth: int, first: bool) -> None:
        rng = self.rng
        for _ in range(plies):
            moves = position.legal_moves()
            if not moves or position.outcome() is not None:
                return
            move = rng.choice(moves)
            setup = position.to_setup()
            if setup.turn == "w" or first or rng.random() < 0.2:
                dots = "." if setup.turn == "w" else rng.choice(["...", ". ...", "..."])
                number = f"{setup.fullmove}{dots}"
                self.add(number if rng.random() < 0.7 else "")
            word = write_move(position, move, self.notation)
            self.add(word + (rng.choice(["!", "?", "!?", "?!", "!!", "??"]) if rng.random() < 0.1 else ""))
            first = False
            roll = rng.random()
            if roll < 0.1:
                self.add(f"${rng.randrange(0, 140)}")
            elif roll < 0.2:
                self.add("{" + self.space().join(rng.choice(WORDS[1:]) for _ in range(rng.randint(0, 30))) + "}")
            elif roll < 0.24:
                self.add(";" + " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 8))) + "\n")
            if depth < 2 and rng.random() < 0.12 and len(moves) > 1:
                self.add("(")
                self.line(position, rng.randint(1, 4), depth + 1, True)
                self.add(")")
                first = True
            position = position.play(move)

    def text(self) -> str:
        out = []
        for word in self.out:
            if word:
                out.append(word)
                out.append(self.space() if not word.endswith("\n") else "")
        return "".join(out)


def _random_game(seed: int, variant_name: str) -> str:
    rng = random.Random(seed)
    variant = notation.find_variant(variant_name)
    tags: list[tuple[str, str]] = [(name, f"v{rng.randrange(100)}") for name in ROSTER if rng.random() < 0.5]
    tags += [(rng.choice(["Annotator", "ECO", "WhiteElo", "TimeControl", "Zeta", "alpha", "PlyCount"]), "x y")
             for _ in range(rng.randint(0, 3))]
    fen = None
    if variant_name == "chess960":
        fen = write_fen(start_setup(variant, rng.randrange(960)), variant).fen
        tags += [("Variant", "Chess960"), ("FEN", fen), ("SetUp", "1")]
    elif variant_name != "standard":
        tags.append(("Variant", variant_name))
    rng.shuffle(tags)
    start = notation.open_position(fen, variant)
    writer = _Writer(rng, variant)
    writer.line(start, rng.randint(0, 60), 0, True)
    result = rng.choice(["*", "*", "1-0", "0-1", "1/2-1/2"])
    tags = [(name, result if name == "Result" else value) for name, value in tags]
    head = "".join(f'[{name} "{value}"]\n' for name, value in tags)
    return head + "\n" + writer.text() + " " + result + "\n\n"


@settings(max_examples=examples(60))
@given(st.integers(0, 2**32 - 1), st.sampled_from(VARIANTS), st.sampled_from(list(ExportFormat)[1:]))
def test_random_games_read_back_alike(seed, variant_name, form):
    text = _random_game(seed, variant_name)
    (before,) = notation.read_games(text)
    assert before.ok, (before.problems, text)
    out, _, report = normalize_text(text, NormalizeOptions.create(export=form))
    assert "not-exported" not in _codes(report)
    _assert_export_layout(out, form)
    (after,) = notation.read_games(out)
    assert after.ok, after.problems
    assert not after.damage, after.damage
    assert _tree(after.moves) == _tree(before.moves) if form is ExportFormat.FULL else \
        [m.move for m in after.moves] == [m.move for m in before.moves]
    assert _annotations(out) == _annotations(text, reduced=form is ExportFormat.REDUCED)
    again, summary, _ = normalize_text(out, NormalizeOptions.create(export=form))
    assert again == out and summary.changed == 0


# -- the command --------------------------------------------------------------------------


# ``notation`` with its input cut in pieces of a few kilobytes (``--jobs``: a file's byte
# ranges, a stream's blocks), so that two processes share even a small file.
_RUN_IN_SMALL_PIECES = (
    "import sys\n"
    "import notation.pgn.stream_jobs as stream_jobs\n"
    "import notation.pgn.pieces as pieces\n"
    "stream_jobs.CHUNK_CHARS = pieces.RANGE_BYTES = 20_000\n"
    "from notation.cli.main import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


def _run(*argv: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-c", _RUN_IN_SMALL_PIECES, *argv], input=stdin, capture_output=True,
                          timeout=300, check=False)


@pytest.mark.parametrize("form", ["full", "reduced"])
def test_the_command_gives_the_same_bytes_with_jobs_on_a_file_and_a_stream(tmp_path, form):
    games = [_random_game(seed, VARIANTS[seed % len(VARIANTS)]) for seed in range(120)]
    games += [case["input"] for case in CASES]
    source = tmp_path / "games.pgn"
    source.write_bytes("".join(games).encode())
    runs = {}
    for name, jobs, stdin in (("one", "1", None), ("file", "2", None), ("stream", "2", source.read_bytes())):
        out, report = tmp_path / f"{name}.pgn", tmp_path / f"{name}.jsonl"
        done = _run("normalize", "-" if stdin else str(source), "--export", form, "--jobs", jobs, "-o", str(out),
                    "--report", str(report), "--summary", "json", stdin=stdin)
        assert done.returncode == 1, done.stderr  # the table's bad games
        runs[name] = (out.read_bytes(), report.read_bytes(), done.stderr)
    assert runs["file"] == runs["one"]
    assert runs["stream"] == runs["one"]
    assert json.loads(runs["one"][2])["games"] == len(games)
    exported = tmp_path / "exported.pgn"
    exported.write_bytes(b"".join(
        normalize_text(game, NormalizeOptions.create(export=form))[0].encode() for game in games[:120]))
    check = _run("check", str(exported))
    assert check.returncode == 0, check.stdout + check.stderr


def test_the_help_names_the_choices():
    shown = subprocess.run([sys.executable, "-m", "notation", "normalize", "--help"], capture_output=True,
                           timeout=60, check=True)
    assert b"--export {keep,full,reduced}" in shown.stdout
