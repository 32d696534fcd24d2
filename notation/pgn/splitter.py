"""Split a stream of PGN text into raw games, keeping every byte and noting the damage.

``iter_games(lines)`` reads lines (line endings included, as a file opened with
``newline=""`` yields them) and yields one ``RawGame`` per game, in order, such that
``"".join(line for g in games for line in g.lines)`` is the input exactly.

How lenient it is, item by item:

- A game starts at its first tag line. A tag line starts a new game once the current game
  has movetext, or when it follows text without tags; after a blank line inside the tag
  section (a ChessBase habit) it starts one only when its tag is already in the section.
  Blank lines belong to the game before them.
- A result token (``1-0``, ``0-1``, ``1/2-1/2``, ``*``; also with any dash of U+2010 to
  U+2015 or U+2212, and ``½-½``) at the movetext's top level (outside comments, ``;``
  comments and variations) ends the game: spaces and comments after it on its line stay
  with it; other text after it starts the next game, on that line (``start_column`` > 1)
  or a later one, with ``pgn-missing-blank-line`` where no blank line came between. After
  movetext, a blank line and a line opening with White's first move (``1. e4``) start the
  next game too (its predecessor without a result: ``pgn-missing-result``).
- A game may have no tags (``pgn-no-tags``, a warning: import format allows it) when it
  holds a move number before a move or a result; text with neither is ``pgn-stray-text``
  (prose: a title, a signature), and its moves are not read.
- Tags: ``[Name "value"]``, several per line allowed, ``\\"`` and ``\\\\`` escapes;
  movetext may follow the last tag on its line (``[Event "x"] 1. e4 *``, then
  ``pgn-missing-blank-line``). A line that starts like a tag but does not parse is kept as
  it is and reported (``pgn-tag-syntax``, with the tag's name when it can be seen).
- Brace comments may span lines. A comment that is never closed is reported
  (``pgn-comment-unterminated``) and ended at a blank line followed by a well-formed tag
  line, or at ``Limits.max_comment_chars`` (``pgn-comment-too-long``), so it cannot
  swallow the rest of the file. ``;`` comments end at the end of their line; lines
  starting with ``%`` are escape lines.
- A game's first ``Limits.max_tags`` tag lines are read into ``Tag`` objects; later ones
  are kept as text, not read, and reported once (``pgn-too-many-tags``), so memory does not
  grow with a header of millions of lines.
- A game larger than ``Limits.max_game_chars`` is handed on in parts (same ``number``,
  ``part`` 1, 2, ...), so memory stays bounded whatever the input. A line longer than
  ``lines.PIECE_CHARS`` is read in pieces cut at fixed places from its start (a
  tag line that long is reported, ``pgn-tag-syntax``, and its tags are not read); where
  the input's blocks were cut never matters.
- Work is linear in the input whatever it holds: runs of blank or plain movetext lines are
  taken many at a time, and the fast path (whole clean games matched by regular
  expressions) is not tried again over text where it found no game end.
- Control characters (``pgn-junk``), bytes that were not UTF-8 (``pgn-not-utf8``, seen as
  lone surrogates when decoded with ``errors="surrogateescape"``), a byte order mark at a
  line's start, anywhere in the text (``pgn-bom``; skipped: a tag line after it is read
  as one), missing blank lines (``pgn-missing-blank-line``) and movetext without a
  result at its end (``pgn-missing-result``) are reported, never repaired here.

Nothing here raises on bad input. Moves are not read: SAN, NAGs and variations pass as text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Final

from notation.parallel.pieces import joined
from notation.patterns import compiled
from notation.pgn import lines as line_ends
from notation.pgn.games import DEFAULT_LIMITS, RESULTS, Limits, RawGame
from notation.pgn.lines import NEXT_BREAK
from notation.pgn.tags import NAME, TAG_START_CHARS
from notation.setup import COMPILED

if TYPE_CHECKING:  # compiled, a machine integer; interpreted, never looked up (an int)
    from mypy_extensions import i64

    from notation.pgn.state_machine import Splitter

# -- the fast path: whole clean games matched at C speed ------------------------------------
# A game ends after the blank lines that precede the next tag line.
# (compiled on first use, ``notation.patterns``: the usual layout needs none of it)
_BOUNDARY = r"\n(?:[ \t]*\r?\n)+(?=[ \t]*\[[A-Za-z0-9_])"
_VALUE_FAST = r'"[^"\\\r\n]*+(?:\\.[^"\\\r\n]*+)*+"'
_CLEAN_HEADER = (  # any layout of clean tag lines (compiled on first use: the usual one is the next)
    r"(?:[ \t]*+\[[ \t]*+" + NAME + r"+[ \t]*+" + _VALUE_FAST + r"[ \t]*+\][ \t]*+\r?\n)++(?:[ \t]*+\r?\n)++"
)
# The usual layout: read by character code when compiled, the pattern (compiled on first use) when not
_CLEAN_HEADER_LF = r"(?:\[" + NAME + r"+ " + _VALUE_FAST + r"\]\n)++\n++"
_JUNK_CHARS = [chr(code) for code in (*range(0, 9), 0x0B, *range(0x0E, 0x20), 0x7F)]
# The blocks the window takes: lines joined to at least this, a whole text cut into blocks this
# long; the blocks of the readers (64 KiB) pass whole. The window, a block and the rest of
# the one before it, then stays below 128 KiB, where malloc hands out memory it has already
# touched: a larger string is mapped afresh and unmapped again (glibc's mmap threshold),
# a page fault each 4 KiB (bench_pgn_extract prints each side's page faults).
_BLOCK_CHARS = 1 << 15
_FAST_WINDOW = 4 << 20  # look this far for the end of a game before leaving it to the slow path
_PLAIN_WINDOW = 256  # where runs of plain lines are sought first (the window doubles while they fill it)
_BEFORE_RESULT = " \t\r\n\x0c(){}]"  # what may stand right before a game's final result
# A byte order mark, or a result's other spelling; compiled by the first movetext not ASCII (re's cache)
_UNUSUAL = "[\ufeff\u00bd\u2010-\u2015\u2212]"


def _chars_clean(text: str) -> bool:
    """No control characters (tab, line ends and form feed aside) and no undecodable bytes.
    Each control character is sought on its own (``in``: memchr, at C speed), which costs
    less than deleting them all from a copy (``bytes.translate``)."""
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # lone surrogates: bytes that were not UTF-8
            return False
    for junk in _JUNK_CHARS:
        if junk in text:
            return False
    return True


_NOT_CLEAN = (-1, 0)


def _clean_header_end(text: str, limit: int, chars_checked: bool, max_tags: int) -> tuple[int, int]:
    """Where the tags end and how many line feeds ``text`` holds, if the slow path would
    find exactly one game in ``text`` and no damage; ``(-1, 0)`` otherwise."""
    if len(text) > limit or (len(text) > line_ends.PIECE_CHARS and _has_long_line(text)):
        return _NOT_CLEAN
    header_end = usual_header_end(text)
    if header_end < 0:
        header = compiled(_CLEAN_HEADER).match(text)
        if header is None:
            return _NOT_CLEAN
        header_end = header.end()
    header_feeds = text.count("\n", 0, header_end)
    if header_feeds > max_tags:  # blank lines counted too: erring safe
        return _NOT_CLEAN
    movetext = text[header_end:]
    if not _final_result_alone(movetext) or ";" in movetext or movetext.lstrip(" \t")[0] in "[%":
        return _NOT_CLEAN
    movetext_feeds = _plain_line_feeds(movetext)
    if movetext_feeds < 0:
        return _NOT_CLEAN
    if "\r" in text and text.count("\r") != text.count("\r\n"):
        return _NOT_CLEAN
    if not chars_checked and not _chars_clean(text):
        return _NOT_CLEAN
    if not _comments_closed(movetext):
        return _NOT_CLEAN
    return header_end, header_feeds + movetext_feeds


# Character codes the usual header's reader compares (Final: compiled, C constants).
_LF: Final = 10
_CR: Final = 13
_SPACE: Final = 32
_QUOTE: Final = 34
_OPEN_BRACKET: Final = 91
_BACKSLASH: Final = 92
_CLOSE_BRACKET: Final = 93


def usual_header_end(text: str) -> int:
    """Where the tags of the usual layout and the blank lines after them end: one or more
    lines ``[Name "value"]`` from the text's start, each ended by a line feed (a name of
    ``NAME``'s characters, one space, a value whose backslash escapes any character but a
    line feed and which holds no line end), then one or more line feeds; -1 where ``text``
    does not open so: what ``_CLEAN_HEADER_LF`` matches. Compiled (mypyc), the header is
    read a character code at a time (``header_end_by_codes``) in machine integers, where
    the pattern's engine spent more on each character and made a match object per game.
    Interpreted, the pattern is the faster."""
    if COMPILED:
        return header_end_by_codes(text)
    header = compiled(_CLEAN_HEADER_LF).match(text)
    return header.end() if header is not None else -1


def header_end_by_codes(text: str) -> int:
    """``usual_header_end`` read a character code at a time, as ``_CLEAN_HEADER_LF`` reads
    it (its quantifiers are possessive: there is nothing to backtrack);
    tests/pgn/test_pgn_header_reference.py holds the two to the same answer."""
    length: i64 = len(text)
    tags_end: i64 = -1
    pos: i64 = 0
    while pos < length and ord(text[pos]) == _OPEN_BRACKET:
        line_end = _tag_line_end(text, pos + 1, length)
        if line_end < 0:
            break  # the tag lines end with the last one read whole
        pos = tags_end = line_end
    if tags_end < 0 or tags_end >= length or ord(text[tags_end]) != _LF:
        return -1
    pos = tags_end
    while pos < length and ord(text[pos]) == _LF:
        pos += 1
    return pos


def _tag_line_end(text: str, index: i64, length: i64) -> i64:
    """Past the line feed of the tag line whose ``[`` stands before ``index``: its
    ``Name "value"]`` and line feed read; -1 where the line is not one."""
    if index >= length or not _is_name_start(ord(text[index])):
        return -1
    index += 1
    while index < length:  # the name's later characters, tested here: a call a character costs more
        char: i64 = ord(text[index])
        if (65 <= char <= 90 or 97 <= char <= 122 or 48 <= char <= 57 or char == 95  # [A-Za-z0-9_]
                or char == 43 or char == 35 or char == 61 or char == 58 or char == 46 or char == 45):  # +#=:.-
            index += 1
        else:
            break
    if index + 1 >= length or ord(text[index]) != _SPACE or ord(text[index + 1]) != _QUOTE:
        return -1
    index += 2
    while index < length:
        char = ord(text[index])
        if char == _QUOTE:
            break
        if char == _BACKSLASH:  # escapes the next character, a line feed aside
            if index + 1 >= length or ord(text[index + 1]) == _LF:
                return -1
            index += 2
        elif char == _LF or char == _CR:
            return -1
        else:
            index += 1
    if index + 2 >= length or ord(text[index + 1]) != _CLOSE_BRACKET or ord(text[index + 2]) != _LF:
        return -1  # no closing quote (the text ended), or no "]" and line feed right after it
    return index + 3


def _is_name_start(char: i64) -> bool:
    """``[A-Za-z0-9_]``: the first character of ``NAME``."""
    return 65 <= char <= 90 or 97 <= char <= 122 or 48 <= char <= 57 or char == 95


def _plain_line_feeds(movetext: str) -> int:
    """The line feeds in ``movetext``, or -1 when a line after its first opens with ``[``,
    ``%``, a tab or a space (a tag, an escape line, white space: the state machine's to
    read) or with ``1.`` (a later game's first move). One search a line (memchr), where a
    pattern, a search for ``\\n1.`` and a count each read the whole movetext."""
    feeds = 0
    feed = movetext.find("\n")
    while feed >= 0:
        feeds += 1
        start = feed + 1
        if start < len(movetext):
            opening = movetext[start]
            if opening in "[%\t " or (opening == "1" and movetext.startswith(".", start + 1)):
                return -1
        feed = movetext.find("\n", start)
    return feeds


def _final_result_alone(movetext: str) -> bool:
    """True when ``movetext`` ends with a result and the state machine would surely see no
    game end before it: nothing result-like earlier (``*``, a hyphen between a ``1`` and a
    ``0`` either way round, ``1/2``), no byte order mark, no other spelling of a result.
    Castling written with zeros (``0-0``, ``0-0-0``) is no result to the state machine
    either, so it stays on the fast path. Single characters are sought (``str.find`` at C
    speed): no copy of the movetext is made."""
    end = len(movetext.rstrip(" \t\r\n"))
    if not movetext.endswith(RESULTS, 0, end):
        return False
    end -= 1 if movetext[end - 1] == "*" else (7 if movetext.startswith("1/2-1/2", end - 7, end) else 3)
    if end and movetext[end - 1] not in _BEFORE_RESULT:
        return False
    if movetext.find("*", 0, end) >= 0:
        return False
    hyphen = movetext.find("-", 0, end)
    while hyphen > 0:
        after = movetext[hyphen + 1]
        if after in "01":  # first: after most hyphens (``g1-f3``) is a file's letter
            before = movetext[hyphen - 1]
            if before in "01" and before != after:
                return False
        hyphen = movetext.find("-", hyphen + 1, end)
    slash = movetext.find("/", 0, end)
    while slash > 0:
        if movetext.startswith("1/2", slash - 1):
            return False
        slash = movetext.find("/", slash + 1, end)
    return movetext.isascii() or re.search(_UNUSUAL, movetext) is None


def _has_long_line(text: str) -> bool:
    """True when a line of ``text`` (its ending aside) is longer than
    ``lines.PIECE_CHARS``: the state machine reads it in pieces, so the fast path
    leaves it to the state machine."""
    longest = line_ends.PIECE_CHARS
    return any(len(line) > longest and len(line.rstrip("\r")) > longest for line in text.split("\n"))


def _comments_closed(movetext: str) -> bool:
    """True when no brace comment is left open at the end: the last ``{`` has a ``}`` after
    it. That is all of the braces a split depends on: a ``{`` inside a comment is text and
    the first ``}`` closes it, and a ``}`` outside one is ignored, by the state machine as by
    the PGN standard (section 5), so nested and stray braces are the walk's to report. Two
    searches from the end, where pairing every brace took a copy of the whole movetext."""
    opening = movetext.rfind("{")
    return opening < 0 or movetext.find("}", opening) >= 0


def _blank_line_then_tag(text: str, start: int) -> int:
    """Where ``"\\n\\n["`` first stands in ``text`` from ``start`` with a tag name's first
    character after its ``[`` (or nothing yet: the end of ``text``), or -1. One search a
    line (memchr), where a search for the three characters steps through the movetext and
    stops at each ``[`` of its clock comments (``{ [%clk 0:03:00] }``, twice a move)."""
    length = len(text)
    feed = text.find("\n", start)
    while feed >= 0:
        after = feed + 1
        if after + 1 < length and text[after] == "\n" and text[after + 1] == "[":
            if after + 2 >= length or text[after + 2] in TAG_START_CHARS:
                return feed
        feed = text.find("\n", after)
    return -1


def iter_games(
    lines: Iterable[str] | str, limits: Limits = DEFAULT_LIMITS, *, first_line: int = 1
) -> Iterator[RawGame]:
    """Yield the games of ``lines`` in order; never raises on bad input, never drops a byte.

    ``lines`` is any iterable of text pieces: lines with their endings (a text file opened
    with ``newline=""``), blocks cut anywhere (``iter(lambda: f.read(1 << 20), "")``), or
    one ``str`` holding the whole text. Lines end at ``\r\n``, ``\n`` or a lone ``\r``.
    ``first_line`` numbers the first line (for a piece cut from a larger text at a game
    start, as ``stream_jobs`` does); games are numbered from 1 regardless.

    The result never depends on how the text is cut into pieces: the fast path takes only
    games the state machine would find clean and whole (nothing result-like before the
    final result, tags and movetext on lines of their own), and the state machine is fed each
    line as ``pieces_of_line`` cuts it. Work is linear in the input: where the fast path
    found no game end in a stretch of text, it is not tried again before that stretch is
    read. Memory holds at most a game (``Limits.max_game_chars``) and ``_FAST_WINDOW``.
    """
    if isinstance(lines, str):
        blocks = iter([lines[i:i + _BLOCK_CHARS] for i in range(0, len(lines), _BLOCK_CHARS)])
    else:
        blocks = joined(lines, _BLOCK_CHARS)  # small pieces (lines) joined; big ones pass
    piece_chars = line_ends.PIECE_CHARS
    splitter: Splitter | None = None  # the state machine, made where the fast path first gives way
    limit = min(limits.max_game_chars, limits.max_comment_chars)
    text = _Window(blocks)
    line_no = first_line - 1  # lines before text.pos
    number = 0  # games yielded (parts not counted)
    fast = True
    emitted_since_slow = False
    fast_again_at = 0  # the fast path found no game end before this offset: not worth a try
    plain_window = _PLAIN_WINDOW  # how far to look for a run of plain lines

    while True:
        if fast:
            taken = text.candidate()
            if taken is None:
                break
            candidate, found = taken
            header_end, feeds = (_clean_header_end(candidate, limit, text.chars_clean, limits.max_tags)
                                 if (found or text.eof) else _NOT_CLEAN)
            if header_end >= 0:
                number += 1
                yield RawGame(number, line_no + 1, text=candidate, header_end=header_end)
                line_no += feeds
                text.pos += len(candidate)
                continue
            if not found:
                fast_again_at = text.base + len(text.buf)
            fast = False
            if splitter is None:
                splitter = _state_machine(limits)
            splitter.reset(number, line_no)
            emitted_since_slow = False
        # slow path: one line (or piece of a long line) at a time until a clean game start
        assert splitter is not None  # made above, when the fast path gave way
        if text.pos >= len(text.buf) and not text.refill():
            break
        pos = text.pos
        if splitter.takes_plain_lines():
            end = splitter.plain_lines_end(text.buf, pos, pos + min(plain_window, piece_chars))  # no line longer
            # look further while runs fill the window, briefly where lines are seldom plain
            plain_window = _PLAIN_WINDOW if 2 * (end - pos) < plain_window else min(piece_chars, 2 * plain_window)
            if end > pos and splitter.feed_plain_lines(text.buf[pos:end]):
                text.pos = end
                continue
        end = text.piece_end(piece_chars)
        line = text.buf[text.pos:end]
        for game in splitter.feed(line):
            if game.part == 0:
                number = game.number
            emitted_since_slow = True
            game._seal()
            yield game
        text.pos = end
        if emitted_since_slow and text.base + end > fast_again_at and splitter.fresh_game_started():
            splitter.take_back()
            number = splitter.number
            line_no = splitter.line_no
            text.pos = end - len(line)
            fast = True
    if splitter is not None and not fast:
        for game in splitter.finish():
            game._seal()
            yield game


def _state_machine(limits: Limits) -> Splitter:
    """The state machine, imported where a text first needs it: a file of clean games (a
    one-game ``check`` too) is split without it, nor its patterns compiled at import."""
    from notation.pgn.state_machine import Splitter

    return Splitter(limits)


class _Window:
    """The text held while splitting: ``buf[pos:]`` is still to read, ``base`` characters
    were dropped before ``buf``; ``chars_clean``: no junk anywhere in ``buf`` (the per-game
    check can be skipped); ``has_cr``: a CR in it."""

    __slots__ = ("blocks", "buf", "pos", "base", "eof", "chars_clean", "has_cr")

    def __init__(self, blocks: Iterator[str]) -> None:
        self.blocks = blocks
        self.buf = ""
        self.pos = 0
        self.base = 0
        self.eof = False
        self.chars_clean = True
        self.has_cr = False

    def refill(self, at_least: int = 0) -> bool:
        """Append the next block (blocks: at least ``at_least`` characters) to what is left;
        False at the end of the input."""
        blocks = self.blocks
        block = next(blocks, None)
        if block is None:
            self.eof = True
            return False
        if len(block) < at_least:
            more = [block]
            length = len(block)
            while length < at_least:
                piece = next(blocks, None)
                if piece is None:
                    break  # eof is noted by the next call
                more.append(piece)
                length += len(piece)
            block = "".join(more)
        rest = self.buf[self.pos:]
        self.chars_clean = (self.chars_clean or _chars_clean(rest)) and _chars_clean(block)
        self.has_cr = "\r" in rest or "\r" in block
        self.buf = rest + block
        self.base += self.pos
        self.pos = 0
        return True

    def candidate(self) -> tuple[str, bool] | None:
        """The text of the game at ``pos`` for the fast path, up to its end (after its
        trailing blank lines) and True, or all that is held and False when no end is seen
        within ``_FAST_WINDOW`` characters (reading on, doubling what is held each time:
        every character is searched a few times at most); None at the end of the input."""
        end = self.next_boundary(self.pos)
        while end < 0 and not self.eof and len(self.buf) - self.pos < _FAST_WINDOW:
            if self.refill(len(self.buf) - self.pos):
                end = self.next_boundary(self.pos)
        if end < 0:
            if self.pos >= len(self.buf) and self.eof:
                return None
            return self.buf[self.pos:], False
        return self.buf[self.pos:end], True

    def next_boundary(self, start: int) -> int:
        """End of the game starting at ``start`` (after its trailing blank lines), or -1
        when none is seen in ``buf`` (none yet: the next tag line may not be whole)."""
        buf = self.buf
        if not self.has_cr:
            found = _blank_line_then_tag(buf, start)
            if found >= 0 and found + 3 < len(buf):
                return found + 2  # the tag line's "["
            if found < 0 and buf.find("\n \n", start) < 0 and buf.find("\n\t", start) < 0 and (
                buf.find("\n\n ", start) < 0
            ):
                return -1  # nor could _BOUNDARY find one from ``start``
        match = compiled(_BOUNDARY).search(buf, start)
        return -1 if match is None else match.end()

    def piece_end(self, piece_chars: int) -> int:
        """Where the line at ``pos`` ends (its line break included), reading on as needed;
        a line longer than ``piece_chars`` is cut there (its next piece follows)."""
        pos = self.pos
        window = pos + piece_chars + 2  # a line ending that starts by pos + piece_chars: whole
        next_break = compiled(NEXT_BREAK)
        newline = next_break.search(self.buf, pos, window)
        while not self.eof and len(self.buf) < window and (
            newline is None or (newline.group() == "\r" and newline.end() == len(self.buf))
        ):
            self.refill()
            pos = self.pos
            window = pos + piece_chars + 2
            newline = next_break.search(self.buf, pos, window)
        if newline is not None and newline.start() <= pos + piece_chars:
            return newline.end()
        return min(pos + piece_chars, len(self.buf))
