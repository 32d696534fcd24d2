"""The PGN splitter: every byte kept, games found as a reader would, damage reported.

The fast path (whole clean games at C speed) and the line-by-line state machine must agree
on everything: the property tests feed both random mixtures of clean and damaged games.
"""

from __future__ import annotations

import json
import random
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples
from paths import ROOT

from notation.pgn import lines, splitter
from notation.pgn.games import Limits
from notation.pgn.lines import split_lines
from notation.pgn.splitter import iter_games
from notation.pgn.state_machine import iter_games_slow

FIXTURES = ROOT / "fixtures" / "pgn"

CLEAN = (
    '[Event "Rated Blitz game"]\n[Site "https://lichess.org/x"]\n[Variant "Crazyhouse"]\n[Result "1-0"]\n\n'
    "1. e4 { [%clk 0:03:00] } e5 2. Nf3 1-0\n\n"
)
FRAGMENTS = [
    CLEAN,
    CLEAN.replace("\n", "\r\n"),
    '[Event "a"]\n[FEN "8/8/8/8/8/8/8/K1k5 w - - 0 1"]\n[SetUp "1"]\n\n*\n\n',
    '[Event "two per line"][Site "?"]\n\n1. d4 d5 (1... Nf6 $1) 1/2-1/2\n\n',
    '[Event "unterminated comment"]\n\n1. e4 { oops\n\n',
    '[Event "no blank"]\n1. e4 *\n',
    '[Bad "value]\n[Event "x"]\n\n1. e4 0-1\n\n',
    '[Event "semi"]\n\n1. e4 ; a comment with { brace\n2. d4 *\n\n',
    "stray text before anything\n",
    "\x00\x01\x02binary junk\xff\n",
    "\udcff\udcfe not utf-8\n",
    "\ufeff",
    '[Event "lone CR"]\r\r1. e4 *\r\r',
    '   [Event "indented"]\n\n1. e4 *\n\n',
    "\n\n",
    '[Event "multi-line comment"]\n\n1. e4 {a\n[not a tag] b\n} 1-0\n\n',
    '%escape line\n',
    '[Event "tags only"]\n\n',
    '[Event "x"]\n\n1. e4 {\n',
    '[Event "esc \\"quoted\\" \\\\ back"]\n\n*\n\n',
    "1. e4 e5 *\n\n",
    '[Event "stray close brace"]\n\n1. e4 } e5 { x } *\n\n',
    '[Event "nested braces"]\n\n1. e4 { a { b } c } *\n\n',
    '[Event "indented movetext"]\n\n  1. e4\n\t[%clk] *\n\n',
    # a damaged tag line after a blank line: "[" then no tag name is movetext, no game start
    '[(vent "Casual Crazyhouse"]\n[Site "x"]\n\n1. e4 *\n\n',
    '[[Event "unterminated tag value]\n',
    '[Event "long line"]\n\n1. e4 {' + "a b " * 12 + "} *\n\n",
    '[Event "escaped CR"]\n\n1. e4 { open\n\n[Event "x\\\r"]\n\n*\n\n',
    # runs of plain lines (read many at a time): blank, movetext, lone CR, form feed
    "*\n\n" * 4,
    "\r\r\r",
    "1. e4\r1-0\r\r",
    '[Event "plain"]\n1. e4 e5\n2. d4\n\n  \n\x0c\n1-0\n',
    "\x0c1. e4 *\n \t\n",
    '[Event "runs"]\r\n\r\n1. e4 } e5\r\n2. Nf3 ; x\r\n\r\n',
    # comments closed on their line (plain), and near misses: ";" before "{", open, nested, not ASCII
    '[Event "comments"]\n\n{ a }\n1. e4 { b ; c } e5 ; { d }\n{ [%clk] }\n  { x } {}\n',
    "{ a } ; {\n{ b { c } }\n{ \u00e9 }\n{ \x01 }\n{ [%x]\n} *\n\n",
    "{ c }\n" * 5 + "{ c }\r{ c }\r\n[Event \"after\"]\n",
]


def _signature(games):
    return [
        (g.number, g.part, g.start_line, g.text,
         [(t.name, t.value, t.line, t.column, t.index, t.start, t.end, t.value_start, t.value_end, t.line_offset,
           t.line_length) for t in g.tags],
         sorted(((p.code, p.line, p.column, p.tag) for p in g.problems), key=_problem_order))
        for g in games
    ]


def _problem_order(problem):
    """A sort key for (code, line, column, tag), where a column or a tag may be None."""
    code, line, column, tag = problem
    return code, line, (column is not None, column or 0), (tag is not None, tag or "")


def _pieces(text: str, rng: random.Random) -> list[str]:
    cuts = sorted(rng.sample(range(len(text) + 1), min(len(text), rng.randint(0, 8))))
    out, last = [], 0
    for cut in cuts + [len(text)]:
        out.append(text[last:cut])
        last = cut
    return out


@pytest.mark.slow
@settings(max_examples=examples(300))
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=12), st.integers(0, 2**32))
def test_fast_path_agrees_with_state_machine(parts, seed):
    text = "".join(parts)
    rng = random.Random(seed)
    fast = list(iter_games(_pieces(text, rng)))
    assert "".join(g.text for g in fast) == text
    assert _signature(fast) == _signature(iter_games_slow(text))


# Text, then a blank line and a tagless game whose moves span lines, with every kind of line
# end: the game's "1." line starts it, after a lone CR as after a line feed (a run of plain
# lines read many at a time once took the "1." line and the text into one game).
FIRST_MOVE_AFTER_BLANK = [
    ("stray text before anything\n\r\r\r1. e4\r1-0\r\r", 5),
    ("hello\r\r1. e4\r1-0\r", 3),
    ("hello\r\r1. e4\re5 1-0\r", 3),
    ("hello\r\r \t1. e4\r1-0", 3),
    ("hello\n\r1. e4\r1-0\r\r", 3),
    ("hello\n\n1. e4\n1-0\n", 3),
    ("hello\r\n\r\n1. e4\r\n1-0\r\n", 3),
]


@pytest.mark.parametrize("text, game_line", FIRST_MOVE_AFTER_BLANK)
def test_a_first_move_line_after_a_blank_line_starts_a_game_whatever_the_line_ends(text, game_line):
    fast = list(iter_games(text))
    assert _signature(fast) == _signature(iter_games_slow(text))
    assert [game.start_line for game in fast] == [1, game_line]
    assert [sorted(p.code for p in game.problems) for game in fast] == [["pgn-stray-text"], ["pgn-no-tags"]]


@pytest.mark.slow
@settings(max_examples=examples(300))
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=12), st.integers(0, 2**32), st.integers(1, 40))
def test_fast_path_agrees_with_state_machine_on_long_lines(parts, seed, piece):
    """Lines longer than ``PIECE_CHARS`` are fed in pieces, cut at the same places however
    the text arrives; a short ``PIECE_CHARS`` makes every fragment have such lines."""
    text = "".join(parts)
    rng = random.Random(seed)
    with mock.patch.object(lines, "PIECE_CHARS", piece), mock.patch.multiple(
        splitter, _BLOCK_CHARS=rng.randint(1, 200), _FAST_WINDOW=rng.randint(1, 600)
    ):
        fast = list(iter_games(_pieces(text, rng)))
        assert "".join(g.text for g in fast) == text
        assert _signature(fast) == _signature(iter_games_slow(text))
        for game in fast:  # a tag's offsets cover its whole line
            for tag in game.tags:
                line = game.lines[tag.index]
                assert game.text[tag.line_offset:tag.line_offset + tag.line_length] == line
                assert line[tag.start:tag.end].startswith("[")


def test_tag_line_longer_than_a_piece_is_reported_and_not_read():
    text = '[Event "' + "v" * lines.PIECE_CHARS + '"]\n[Site "x"]\n\n1. e4 *\n\n[Event "next"]\n\n*\n'
    for pieces in ([text], [text[i:i + 5000] for i in range(0, len(text), 5000)]):
        games = list(iter_games(pieces))
        assert _signature(games) == _signature(iter_games_slow(text))
        assert [t.name for t in games[0].tags] == ["Site"]
        assert [(p.code, p.line, p.column, p.tag) for p in games[0].problems] == [("pgn-tag-syntax", 1, 1, "Event")]
        assert games[1].tag("Event").value == "next"


_TOKENS = list('[]{}";%\n\r\t "ab1-0*\x00\ufeff\udcff') + ["Event", '[Event "x"]\n', "\n\n"]


@settings(max_examples=examples(200))
@given(st.lists(st.sampled_from(_TOKENS), max_size=120))
def test_random_text_never_raises_and_keeps_every_character(tokens):
    text = "".join(tokens)
    games = list(iter_games(text))
    assert "".join(g.text for g in games) == text
    assert [g.number for g in games if g.part == 0] == list(range(1, 1 + sum(1 for g in games if g.part == 0)))
    assert _signature(games) == _signature(iter_games_slow(text))


@settings(max_examples=examples(100))
@given(st.binary(max_size=400), st.integers(0, 2**32))
def test_random_bytes_decoded_losslessly(data, seed):
    text = data.decode("utf-8", errors="surrogateescape")
    games = list(iter_games(_pieces(text, random.Random(seed))))
    assert "".join(g.text for g in games).encode("utf-8", errors="surrogateescape") == data


def test_runaway_comment_is_capped_and_later_games_survive():
    games_after = "".join(f'[Event "g{i}"]\n\n1. e4 *\n' for i in range(5))
    text = '[Event "runaway"]\n\n1. e4 {' + "x" * 5000 + "\n" + "words\n" * 2000 + games_after
    games = list(iter_games(text, Limits(max_comment_chars=1000)))
    codes = [p.code for p in games[0].problems]
    assert "pgn-comment-too-long" in codes
    assert [g.tag("Event").value for g in games[1:]] == [f"g{i}" for i in range(5)]
    assert "".join(g.text for g in games) == text


def test_unterminated_comment_ends_at_blank_line_and_tag():
    text = '[Event "a"]\n\n1. e4 {never closed\n\n[Event "b"]\n\n1. d4 *\n'
    games = list(iter_games(text))
    assert [g.tag("Event").value for g in games] == ["a", "b"]
    assert games[0].problems[0].code == "pgn-comment-unterminated"
    assert (games[0].problems[0].line, games[0].problems[0].column) == (3, 7)
    assert not games[1].problems


def test_huge_game_comes_in_parts_with_bounded_size():
    text = '[Event "big"]\n\n' + "1. e4 e5 " * 20000 + "\n" * 3 + '[Event "next"]\n\n*\n'
    games = list(iter_games(text, Limits(max_game_chars=10_000, max_comment_chars=10_000)))
    assert games[0].problems[0].code == "pgn-game-too-large"
    assert games[0].continues and games[1].number == 1 and games[1].part == 1
    assert games[-1].number == 2 and games[-1].tag("Event").value == "next"
    assert "".join(g.text for g in games) == text


def test_many_lines_without_boundary_are_split_into_parts():
    text = '[Event "big"]\n\n' + "1. e4 e5\n" * 5000 + "*\n"
    games = list(iter_games(text, Limits(max_game_chars=10_000, max_comment_chars=10_000)))
    assert len(games) > 3 and {g.number for g in games} == {1}
    assert [g.part for g in games] == list(range(len(games)))
    assert all(g.continues for g in games[:-1]) and not games[-1].continues
    assert games[0].problems[0].code == "pgn-game-too-large"
    assert "".join(g.text for g in games) == text


# Tag lines past ``Limits.max_tags`` (2 here) stay text: (input, tags read, problems)
TOO_MANY_TAGS_CASES = [
    ('[A "1"]\n[B "2"]\n\n*\n', {"A": "1", "B": "2"}, []),
    ('[A "1"]\n[B "2"]\n[C "3"]\n[D "4"]\n\n*\n', {"A": "1", "B": "2"}, [("pgn-too-many-tags", 3, 1)]),
    # bad tag lines past the limit are not read either: one report, whatever they hold
    ('[A "1"]\n[B "2"]\n  [C x]\n[D "\n\n*\n', {"A": "1", "B": "2"}, [("pgn-too-many-tags", 3, 3)]),
    # a line counts once, however many tags it holds
    ('[A "1"][B "2"][C "3"]\n[D "4"]\n[E "5"]\n\n*\n', {"A": "1", "B": "2", "C": "3", "D": "4"},
     [("pgn-too-many-tags", 3, 1)]),
    # the count starts again with each game
    ('[A "1"]\n[B "2"]\n[C "3"]\n\n*\n\n[D "4"]\n\n*\n', {"A": "1", "B": "2"}, [("pgn-too-many-tags", 3, 1)]),
]


@pytest.mark.parametrize(("text", "tags", "problems"), TOO_MANY_TAGS_CASES)
def test_tag_lines_past_the_limit_are_kept_as_text_and_reported_once(text, tags, problems):
    limits = Limits(max_tags=2)
    games = list(iter_games(text, limits))
    assert "".join(g.text for g in games) == text
    assert {t.name: t.value for t in games[0].tags} == tags
    assert [(p.code, p.line, p.column) for p in games[0].problems if p.code != "pgn-missing-result"] == problems
    assert _signature(games) == _signature(iter_games_slow(text, limits))
    assert all(not g.problems for g in games[1:])


def test_huge_header_holds_at_most_max_tags_tags_across_parts():
    """Millions of tag lines (an open comment cut at its limit turns the rest of a file into
    one game's header) are read into at most ``max_tags`` Tag objects, over every part."""
    text = '[Event "slow"]\n\n1. e4 {\n' + '[Event "x"]\n' * 3000
    limits = Limits(max_comment_chars=100, max_game_chars=5000, max_tags=50)
    games = list(iter_games(text, limits))
    assert "".join(g.text for g in games) == text
    assert len(games) > 2 and {g.number for g in games[1:]} == {2}
    assert sum(len(g.tags) for g in games[1:]) == 50
    assert [p.code for g in games for p in g.problems].count("pgn-too-many-tags") == 1
    assert _signature(games) == _signature(iter_games_slow(text, limits))


def test_default_tag_limit_is_in_the_thousands():
    header = '[Event "x"]\n' * (Limits().max_tags + 1)
    game = next(iter(iter_games(header + "\n*\n")))
    assert len(game.tags) == Limits().max_tags
    assert [p.code for p in game.problems] == ["pgn-too-many-tags"]


def test_split_lines_keeps_endings():
    assert split_lines("a\r\nb\rc\nd") == ["a\r\n", "b\r", "c\n", "d"]
    assert split_lines("a\nb\n") == ["a\n", "b\n"]


def _cases():
    return json.loads((FIXTURES / "reader_cases.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", _cases(), ids=lambda c: c["name"])
def test_reader_fixture(case):
    games = list(iter_games(case["text"]))
    assert "".join(g.text for g in games) == case["text"]
    got = [
        {
            "start_line": g.start_line,
            "tags": {t.name: t.value for t in g.tags},
            "problems": [[p.code, p.line] for p in g.problems],
        }
        for g in games
    ]
    assert got == case["games"]


def test_find_tags_on_a_clean_game_matches_the_full_tag_list():
    text = CLEAN * 3 + '[Event "x"]\n[Setup "1"]\n[FEN "8/8/8/8/8/8/8/K1k5 w - - 0 1"]\n\n*\n\n'
    for game in iter_games(text):
        quick = game.find_tags("Variant|FEN|[Ss]etup")
        assert game.fast or not quick
        full = [t for t in game.tags if t.name in ("Variant", "FEN", "Setup")]
        assert quick == full
        for tag in full:
            assert game.text[tag.line_offset + tag.start:tag.line_offset + tag.end].startswith("[" + tag.name)


def test_reading_is_streamed_not_slurped():
    consumed = 0

    def pieces():
        nonlocal consumed
        for i in range(100_000):
            consumed += 1
            yield f'[Event "g{i}"]\n\n1. e4 e5 *\n\n'

    games = iter_games(pieces())
    for _ in range(10):
        next(games)
    assert consumed < 20_000  # a block or two ahead, never the whole input
