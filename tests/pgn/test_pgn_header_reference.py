"""The header scans written as loops (compiled with mypyc) against the regular expressions
they replaced, kept here as the reference with the Tag they built from a match: where the
movetext starts (``movetext_start``) and which tags of a clean game a pattern of names
picks (``RawGame.find_tags``), on any text, and on the games the splitter's fast path
hands on.

Also ``Tag``'s value semantics (equality, hashing, pickling, repr), which it kept when it
stopped being a frozen dataclass."""

from __future__ import annotations

import copy
import pickle
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples
from paths import ROOT

from notation.check.games import _KEY_TAGS, STANDARD_TAGS, _wanted_tag
from notation.pgn.games import RawGame
from notation.pgn.movetext import movetext_start
from notation.pgn.splitter import (
    _chars_clean,
    _comments_closed,
    _plain_line_feeds,
    header_end_by_codes,
    iter_games,
    usual_header_end,
)
from notation.pgn.tags import NAME, VALUE, Tag, unescape_tag_value

_HEADER_LINE = re.compile(r"[ \t\ufeff]*+(?:\[[^\r\n]*+)?(?:\r\n|\r|\n)")
# Tags, then movetext on their line (import format): the line does not end with "]".
_TAGS_THEN_MOVES = re.compile(
    r"[ \t\ufeff]*+(?:\[[ \t]*" + NAME + r"[ \t]*" + VALUE + r"[ \t]*\][ \t]*)+"
    r"(?=[^\[\]\"\\{;\s])(?![^\r\n]*\][ \t]*(?:[\r\n]|$))"
)


def reference_movetext_start(text: str) -> int:
    pos = 0
    while True:
        moves = _TAGS_THEN_MOVES.match(text, pos)
        if moves is not None:
            return moves.end()
        line = _HEADER_LINE.match(text, pos)
        if line is None:
            break
        pos = line.end()
    if text[pos:].lstrip(" \t\ufeff").startswith("["):
        return len(text)
    return pos


def make_tag(match: re.Match, line_start: int, line: int, index: int, bracket: int, text: str) -> Tag:
    """The tag a match of the reference pattern found, as the splitter's state machine makes one."""
    start = bracket - line_start
    line_end = text.find("\n", match.end())
    line_end = len(text) if line_end < 0 else line_end + 1
    return Tag(
        name=match.group(1),
        value=unescape_tag_value(match.group(2)),
        line=line,
        column=start + 1,
        index=index,
        start=start,
        end=match.end() - line_start,
        value_start=match.start(2) - line_start,
        value_end=match.end(2) - line_start,
        line_offset=line_start,
        line_length=line_end - line_start,
    )


def reference_find_tags(game: RawGame, names: str) -> list[Tag]:
    pattern = re.compile(r"^[ \t]*\[[ \t]*(" + names + r")[ \t]*" + VALUE + r"[ \t]*\]", re.M)
    text = game.text
    found = []
    for match in pattern.finditer(text, 0, game._header_end):
        line_start = match.start()
        index = text.count("\n", 0, line_start)
        found.append(make_tag(match, line_start, game.start_line + index, index, text.index("[", line_start), text))
    return found


_PIECES = st.sampled_from([
    "[", "]", '"', "\\", " ", "\t", "\ufeff", "\n", "\r\n", "\r", "\n\n", "Event", "FEN", "fen", "Setup", "SetUp",
    "Variant", "VARIANT", "Result", "Foo", '"x"', '[Event "x"]', '[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]', "1.", " e4",
    " *", "1-0", "{c}", "é", "%", ";", "[ Result \"*\" ]", "\t[Site\t\"?\"]\t",
])
_TEXTS = st.lists(_PIECES, max_size=30).map("".join)


@pytest.mark.slow
@settings(max_examples=examples(400))
@given(_TEXTS)
def test_movetext_start_agrees_with_the_regular_expression(text):
    assert movetext_start(text) == reference_movetext_start(text)


def test_movetext_start_on_plain_cases():
    assert movetext_start("") == 0
    assert movetext_start("  \t") == 0
    assert movetext_start('[A "1"]\r\n\r\n1. e4 *') == len('[A "1"]\r\n\r\n')
    assert movetext_start('[A "1"]\r[B "2"]\r\r1. e4') == len('[A "1"]\r[B "2"]\r\r')
    assert movetext_start(' \ufeff[A "1"]') == len(' \ufeff[A "1"]')
    assert movetext_start("\n\n1. e4") == 2


_TAG_LINES = st.builds(
    lambda lead, name, gap, value, trail, end: f'{lead}[{name}{gap}"{value}"]{trail}{end}',
    st.sampled_from(["", " ", "\t "]),
    st.sampled_from(["Event", "FEN", "fen", "Fen", "SetUp", "Setup", "SETUP", "Variant", "variant", "Result",
                     "result", "WhiteElo", "whiteelo", "Eventx", "FENs", "X_1", "a.b-c", "Opening"]),
    st.sampled_from([" ", "  ", "\t"]),
    st.sampled_from(["", "x", "8/8/8/8/8/8/8/8 w - - 0 1", 'say \\"hi\\"', "a\\\\b"]),
    st.sampled_from(["", " "]),
    st.sampled_from(["\n", "\r\n"]),
)
_GAMES = st.builds(
    lambda tags, blank, ending: "".join(tags) + blank + "1. e4 e5 " + ending,
    st.lists(_TAG_LINES, min_size=1, max_size=12),
    st.sampled_from(["\n", "\r\n", "\n\n", " \n"]),
    st.sampled_from(["1-0\n\n", "*\n\n", "0-1\r\n\r\n"]),
)


# What check reads of each game, as the regular expression it once was: its key tags, and
# a standard tag's name in another case (check's _wanted_tag is a function, quicker to make).
_WANTED_TAGS = (
    r"(?:" + "|".join(sorted(_KEY_TAGS)) + r")"
    r"|(?!(?:" + "|".join(STANDARD_TAGS) + r")(?:[ \t]*\"|\Z))(?i:" + "|".join(STANDARD_TAGS) + r")"
)
# (what find_tags is given, the regular expression it must agree with)
_NAME_PATTERNS = st.sampled_from(
    [(_wanted_tag, _WANTED_TAGS), (NAME, NAME), ("FEN|SetUp", "FEN|SetUp"), ("Result", "Result"),
     ("(?i:fen)", "(?i:fen)")]
)


@pytest.mark.slow
@settings(max_examples=examples(300))
@given(st.lists(_GAMES, min_size=1, max_size=4), _NAME_PATTERNS)
def test_find_tags_agrees_with_the_regular_expression(games, names):
    asked, expression = names
    found_fast = 0
    for game in iter_games("".join(games)):
        if game.fast:
            found_fast += 1
            assert game.find_tags(asked) == reference_find_tags(game, expression)
    assert found_fast  # the fast path took these clean games


@pytest.mark.parametrize(
    "name",
    [*STANDARD_TAGS, *(tag.lower() for tag in STANDARD_TAGS), *(tag.upper() for tag in STANDARD_TAGS),
     "Fen", "fen", "SETUP", "Setup", "variant", "result", "Foo", "EventX", "XEvent", "FENs", "", "Even", "Whiteelo"],
)
def test_the_tags_check_reads_are_those_of_the_regular_expression(name):
    assert _wanted_tag(name) is (re.fullmatch(_WANTED_TAGS, name) is not None)


def _tag(**changes) -> Tag:
    fields = dict(name="FEN", value="8/8", line=3, column=1, index=2, start=0, end=12, value_start=6, value_end=9,
                  line_offset=40, line_length=13)
    fields.update(changes)
    return Tag(**fields)


def test_tags_compare_hash_pickle_and_print_by_their_fields():
    tag = _tag()
    assert tag == _tag() and hash(tag) == hash(_tag())
    assert tag != _tag(line_length=14) and tag != _tag(name="Fen") and tag != "FEN"
    assert pickle.loads(pickle.dumps(tag)) == tag and copy.copy(tag) == tag
    assert repr(tag) == ("Tag(name='FEN', value='8/8', line=3, column=1, index=2, start=0, end=12, value_start=6, "
                         "value_end=9, line_offset=40, line_length=13)")
    assert Tag("A", "b", 1, 1, 0, 0, 7, 3, 4).line_offset == 0


def reference_comments_closed(movetext: str) -> bool:
    """Brace comments read as the PGN standard reads them, a character at a time: a ``{``
    opens one, the first ``}`` after it closes it, other braces are text or ignored."""
    in_comment = False
    for char in movetext:
        if in_comment:
            in_comment = char != "}"
        elif char == "{":
            in_comment = True
    return not in_comment


@pytest.mark.slow
@settings(max_examples=examples(400))
@given(st.lists(st.sampled_from(["{", "}", "a", " ", "{c}", "\n", "é"]), max_size=20).map("".join))
def test_comments_closed_agrees_with_reading_them_a_character_at_a_time(movetext):
    assert _comments_closed(movetext) == reference_comments_closed(movetext)


def test_nested_and_stray_braces_leave_a_game_on_the_fast_path_only_when_closed():
    assert _comments_closed("1. e4 { a { b } c } e5 *") and _comments_closed("} 1. e4 {x} *")
    assert not _comments_closed("1. e4 { a } e5 { open *") and not _comments_closed("{ a { b *")


def reference_plain_line_feeds(movetext: str) -> int:
    """The line feeds, or -1 when a line after the first opens with "[", "%", a tab, a space
    or "1.", found with patterns over the whole movetext."""
    if re.search(r"\n(?:[\[%\t ]|1\.)", movetext):
        return -1
    return movetext.count("\n")


@pytest.mark.slow
@settings(max_examples=examples(400))
@given(st.lists(st.sampled_from(["\n", "\r\n", "1.", "1", ".", "[", "%", "\t", " ", "e4", "{c}", "é"]),
                max_size=20).map("".join))
def test_plain_line_feeds_agrees_with_patterns_over_the_whole_movetext(movetext):
    assert _plain_line_feeds(movetext) == reference_plain_line_feeds(movetext)


def test_plain_line_feeds_counts_lines_and_refuses_those_the_state_machine_reads():
    assert _plain_line_feeds("1. e4 e5\n2. Nf3 *\n\n") == 3
    assert _plain_line_feeds("1. e4 *") == 0
    for opening in ("[Event", "%escape", "\t2. Nf3", " 2. Nf3", "1. d4"):
        assert _plain_line_feeds("1. e4 e5\n" + opening + " *\n") == -1
    assert _plain_line_feeds("1. e4 e5\n1-0\n") == 2  # "1" not followed by "." opens a plain line


def reference_chars_clean(text: str) -> bool:
    """No control character but tab, line ends and form feed, and no lone surrogate."""
    return re.search("[\x00-\x08\x0b\x0e-\x1f\x7f\ud800-\udfff]", text) is None


@pytest.mark.slow
@settings(max_examples=examples(400))
@given(st.text(st.characters(codec=None, exclude_categories=()), max_size=20))
def test_chars_clean_agrees_with_a_pattern_of_the_characters_refused(text):
    assert _chars_clean(text) == reference_chars_clean(text)


def test_chars_clean_refuses_control_characters_and_undecodable_bytes():
    assert _chars_clean("1. e4\te5\r\n\x0c*") and _chars_clean("[White \"Müller\"]\n")
    for junk in ("\x00", "\x07", "\x0b", "\x1b", "\x7f", "\udce9"):
        assert not _chars_clean("1. e4 " + junk + " *") and not _chars_clean("Ж " + junk)


# The usual layout's header, as the splitter's fast path matched it before it was read a
# character code at a time (``header_end_by_codes``): possessive quantifiers throughout.
_USUAL_HEADER = re.compile(
    r"(?:\[" + NAME + r"+ " + r'"[^"\\\r\n]*+(?:\\.[^"\\\r\n]*+)*+"' + r"\]\n)++\n++"
)


def reference_usual_header_end(text: str) -> int:
    match = _USUAL_HEADER.match(text)
    return match.end() if match is not None else -1


# Pieces of headers, whole and broken: names of every kind of character, values with
# escapes (of a quote, a backslash, a carriage return, a line feed), unclosed values, tags
# without their bracket or line feed, carriage returns, tabs, text after the header.
_HEADER_PIECES = st.sampled_from([
    "[", "]", '"', "\\", "\n", "\r", " ", "\t", "[Event ", '"x"', '"a\\"b"', '"\\\\"', '"\\\n"',
    '"\\\r"', "]\n", '[Site "?"]\n', '[White "Kasparov, G."]\n', '[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]\n',
    "[A+#=:.-_9 ", "[+x ", "[_ ", "[é ", '"é"', "1. e4 *", "\n\n", "[Round \"1\"]\n",
])
_HEADERS = st.lists(_HEADER_PIECES, max_size=25).map("".join)
_CLEAN_LINES = st.lists(
    st.builds(
        lambda name, value: f'[{name} "{value}"]\n',
        st.from_regex(r"[A-Za-z0-9_][A-Za-z0-9_+#=:.\-]{0,8}", fullmatch=True),
        st.text(st.characters(codec="utf-8", exclude_characters='"\\\r\n'), max_size=12),
    ),
    min_size=1,
    max_size=8,
).map("".join)


@pytest.mark.slow
@settings(max_examples=examples(600))
@given(_HEADERS)
def test_the_usual_header_read_by_codes_ends_where_the_pattern_does(text):
    assert header_end_by_codes(text) == reference_usual_header_end(text), repr(text)
    assert usual_header_end(text) == reference_usual_header_end(text), repr(text)


@pytest.mark.slow
@settings(max_examples=examples(300))
@given(_CLEAN_LINES, st.sampled_from(["", "\n", "\n\n\n", "\r\n", " \n"]), st.sampled_from(["", "1. e4 *\n"]))
def test_clean_headers_read_by_codes_end_where_the_pattern_does(lines, blank, moves):
    text = lines + blank + moves
    assert header_end_by_codes(text) == reference_usual_header_end(text), repr(text)
    for cut in range(len(text)):  # every prefix: a header cut anywhere
        assert header_end_by_codes(text[:cut]) == reference_usual_header_end(text[:cut]), repr(text[:cut])


@pytest.mark.parametrize("text", [
    '[Event "x"]\n\n1. e4 *\n',  # the usual header
    '[Event "x"]\n[Site "?"]\n\n\n1. e4 *\n',  # blank lines: all of them
    '[Event "x"]\n1. e4 *\n',  # no blank line after the tags
    '[Event "x"]\n',  # the text ends after the tags
    '[Event "x"]',  # and before a line feed
    '[Event "a\\\n"]\n\n',  # a backslash before a line feed escapes nothing
    '[Event "a\\\r"]\n\n',  # before a carriage return it does
    '[Event "a\\"b"]\n\n',  # an escaped quote
    '[Event "a\\\\"]\n\n',  # an escaped backslash, then the closing quote
    '[Event "a\\"]\n\n',  # the escape takes the quote: the value runs on, unclosed
    '[Event "a\rb"]\n\n',  # a carriage return in a value
    '[Event "x"]\r\n\r\n',  # line ends of two characters: the other layouts' pattern
    '[Event  "x"]\n\n',  # two spaces
    '[Event "x"] \n\n',  # a space after the bracket
    '[ Event "x"]\n\n',  # a space before the name
    '[-Event "x"]\n\n',  # a name may not start with "-"
    '[E-v+e#n=t:.9_ "x"]\n\n',  # but may hold it later
    '[Évent "x"]\n\n',  # a letter outside ASCII
    '[Event "x"]\n[Site "?\n\n',  # the second tag broken: the first stands
    '[Event "x"]\n[Site\n\n',
    '[Event "x"]\n[\n\n',
    '\n[Event "x"]\n\n',  # a line feed first
    "",
])
def test_header_edges_read_by_codes_end_where_the_pattern_does(text):
    assert header_end_by_codes(text) == reference_usual_header_end(text)
    assert usual_header_end(text) == reference_usual_header_end(text)


def test_the_headers_of_the_fixture_games_end_where_the_pattern_does():
    """Every game of the PGN fixtures (real files of several programs, damaged ones too),
    read from its first line."""
    texts = [path.read_text(encoding="utf-8", errors="surrogateescape")
             for path in sorted((ROOT / "fixtures" / "pgn").rglob("*.pgn"))]
    assert texts
    starts = 0
    for text in texts:
        for game in iter_games(text.splitlines(keepends=True)):
            joined = "".join(game.lines)
            assert header_end_by_codes(joined) == reference_usual_header_end(joined), joined[:200]
            starts += reference_usual_header_end(joined) > 0
    assert starts > 100  # most of them open with the usual header
