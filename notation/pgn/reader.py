"""Split a stream of PGN text into raw games, keeping every byte and noting the damage.

``iter_games(lines)`` reads lines (line endings included, as a file opened with
``newline=""`` yields them) and yields one ``RawGame`` per game, in order, such that
``"".join(line for g in games for line in g.lines)`` is the input exactly.

How lenient it is, item by item:

- A game starts at its first tag line. A tag line starts a new game once the current game
  has movetext, or once a blank line followed its tags. Text before the first tag line is
  a game of its own when it is not blank (python-chess reads such text as a game too);
  blank lines belong to the game before them.
- Tags: ``[Name "value"]``, several per line allowed, ``\\"`` and ``\\\\`` escapes.
  A line that starts like a tag but does not parse is kept as it is and reported
  (``pgn-tag-syntax``, with the tag's name when it can be seen).
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
  ``PIECE_CHARS`` is read in pieces cut at fixed places from its start (a tag line that
  long is reported, ``pgn-tag-syntax``, and its tags are not read); where the input's
  blocks were cut never matters.
- Work is linear in the input whatever it holds: runs of blank or plain movetext lines are
  taken many at a time, and the fast path (whole clean games matched by regular
  expressions) is not tried again over text where it found no game end.
- Control characters (``pgn-junk``), bytes that were not UTF-8 (``pgn-not-utf8``, seen as
  lone surrogates when decoded with ``errors="surrogateescape"``), a byte order mark
  (``pgn-bom``), missing blank lines (``pgn-missing-blank-line``) and movetext without a
  result at its end (``pgn-missing-result``) are reported, never repaired here.

Nothing here raises on bad input. Moves are not read: SAN, NAGs and variations pass as text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Iterator

# --- problem codes (stable) -------------------------------------------------------------
TAG_SYNTAX = "pgn-tag-syntax"
COMMENT_UNTERMINATED = "pgn-comment-unterminated"
COMMENT_TOO_LONG = "pgn-comment-too-long"
GAME_TOO_LARGE = "pgn-game-too-large"
JUNK = "pgn-junk"
NOT_UTF8 = "pgn-not-utf8"
BOM = "pgn-bom"
MISSING_BLANK_LINE = "pgn-missing-blank-line"
MISSING_RESULT = "pgn-missing-result"
STRAY_TEXT = "pgn-stray-text"
TOO_MANY_TAGS = "pgn-too-many-tags"

PROBLEM_CODES = (
    TAG_SYNTAX, COMMENT_UNTERMINATED, COMMENT_TOO_LONG, GAME_TOO_LARGE, JUNK, NOT_UTF8,
    BOM, MISSING_BLANK_LINE, MISSING_RESULT, STRAY_TEXT, TOO_MANY_TAGS,
)


@dataclass(frozen=True, slots=True)
class PgnProblem:
    """Damage found in the PGN text: a stable ``code``, a message, and where (1-based)."""

    code: str
    message: str
    line: int
    column: int | None = None
    tag: str | None = None  # the tag concerned, when the problem is in a tag

    def to_dict(self) -> dict:
        out: dict = {"code": self.code, "message": self.message}
        if self.column is not None:
            out["column"] = self.column
        return out


@dataclass(frozen=True, slots=True)
class Tag:
    """One tag pair as found. Offsets index ``RawGame.lines[index]``.

    ``start``/``end`` span the whole ``[...]``; ``value_start``/``value_end`` span the
    escaped value between the quotes; ``value`` is unescaped.
    """

    name: str
    value: str
    line: int  # 1-based line in the input
    column: int  # 1-based column of "["
    index: int  # index of the line in RawGame.lines
    start: int
    end: int
    value_start: int
    value_end: int
    line_offset: int = 0  # where the tag's line starts in the game's text
    line_length: int = 0  # the length of that line, its ending included


class RawGame:
    """One game's text exactly as read, its tags, and the damage found in it.

    Games the fast path found clean keep only their text: ``lines`` and ``tags`` are
    worked out on first use, and ``problems`` is empty. Read-only once yielded.
    """

    __slots__ = ("number", "start_line", "part", "continues", "_text", "_lines", "_tags", "_problems", "_header_end")

    def __init__(self, number: int, start_line: int, *, part: int = 0, text: str | None = None,
                 header_end: int | None = None):
        self.number = number  # 1-based
        self.start_line = start_line  # 1-based line of the game's first line
        self.part = part  # > 0 for the continuation of a game too large to hold at once
        self.continues = False  # True when a further part of this game follows
        self._text = text
        self._lines: list[str] | None = None if text is not None else []
        self._tags: list[Tag] | None = None if text is not None else []
        self._problems: list[PgnProblem] = []
        self._header_end = header_end if header_end is not None else (len(text) if text is not None else 0)

    @property
    def clean(self) -> bool:
        """True when the reader found no damage in this game."""
        return not self._problems

    @property
    def text(self) -> str:
        """The game's text exactly as read."""
        if self._text is None:
            return "".join(self._lines)  # still being read: not cached
        return self._text

    def _seal(self) -> None:
        """Called once the splitter hands the game on: its text will not change. The pieces
        it was read in are dropped (``lines`` splits the text again when asked)."""
        if self._text is None:
            self._text = "".join(self._lines)
            self._lines = None

    @property
    def lines(self) -> list[str]:
        """The game's lines, each with its ending (``\\r\\n``, ``\\n`` or ``\\r``)."""
        if self._lines is None:
            self._lines = split_lines(self._text)
        return self._lines

    @property
    def tags(self) -> list[Tag]:
        if self._tags is None:
            self._tags = _tags_of_clean_game(self)
        return self._tags

    @property
    def problems(self) -> list[PgnProblem]:
        return self._problems

    def tag(self, name: str) -> Tag | None:
        """The first tag with exactly this name, or None."""
        for tag in self.tags:
            if tag.name == name:
                return tag
        return None

    def find_tags(self, names: str) -> list[Tag]:
        """Tags whose name matches the regular expression ``names`` (whole name), in order.

        On a clean game this looks only for those tags, without reading the others.
        """
        if self._tags is not None:
            pattern = re.compile(names)
            return [tag for tag in self._tags if pattern.fullmatch(tag.name)]
        text = self._text
        found = []
        for match in _named_tag_line(names).finditer(text, 0, self._header_end):
            line_start = match.start()
            index = text.count("\n", 0, line_start)
            bracket = text.index("[", line_start)
            found.append(_make_tag(match, line_start, self.start_line + index, index, bracket, text))
        return found

    def may_have_tag(self, *names: str) -> bool:
        """False only when a clean game surely has none of these tags (a quick look)."""
        if self._tags is not None:
            return True
        text, end = self._text, self._header_end
        if text.find("[ ", 0, end) >= 0 or text.find("[\t", 0, end) >= 0:
            return True
        return any(text.find("[" + name, 0, end) >= 0 for name in names)

    @property
    def fast(self) -> bool:
        """True for a clean game from the fast path whose tags have not been read yet."""
        return self._tags is None

    @property
    def is_blank(self) -> bool:
        """True for a stretch of blank lines that holds no game (an empty input)."""
        return self._text is None and not self._tags and not "".join(self._lines or ()).strip()

    def __repr__(self) -> str:
        return f"RawGame(number={self.number}, part={self.part}, start_line={self.start_line}, chars={len(self.text)})"


@dataclass(frozen=True)
class Limits:
    """Caps that keep memory bounded on hostile input (sizes in characters)."""

    max_game_chars: int = 16 * 1024 * 1024
    max_comment_chars: int = 1024 * 1024
    max_tags: int = 4096  # tag lines of a game read into Tag objects; later ones stay text


DEFAULT_LIMITS = Limits()

_NAME = r"[A-Za-z0-9_][A-Za-z0-9_+#=:.\-]*"
_VALUE = r'"((?:[^"\\\r\n]|\\.)*)"'
_TAG = re.compile(r"\[[ \t]*(" + _NAME + r")[ \t]*" + _VALUE + r"[ \t]*\]")
_TAG_NAME = re.compile(r"\[[ \t]*([A-Za-z0-9_][A-Za-z0-9_+#=:.\-]*)")
_WELL_FORMED_TAG_LINE = re.compile(
    r'[ \t]*\[[A-Za-z0-9_][A-Za-z0-9_+#=:.\-]*[ \t]+"(?:[^"\\\r\n]|\\.)*"\][ \t]*(?:\r\n|\r|\n)?\Z'
)
_UNESCAPE = re.compile(r"\\(.)")
_JUNK = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")
_SURROGATE = re.compile(r"[\udc80-\udcff]")
_RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_TAG_START_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")


def unescape_tag_value(raw: str) -> str:
    """A tag value without its PGN escapes (``\\"`` and ``\\\\``)."""
    return _UNESCAPE.sub(r"\1", raw) if "\\" in raw else raw


def escape_tag_value(value: str) -> str:
    """A value ready to sit between the quotes of a tag."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


def line_ending(line: str) -> str:
    """The line's ending (``\\r\\n``, ``\\n``, ``\\r``) or ``""``."""
    if line.endswith("\r\n"):
        return "\r\n"
    if line.endswith("\n"):
        return "\n"
    if line.endswith("\r"):
        return "\r"
    return ""


def _is_tag_line(stripped: str) -> bool:
    return len(stripped) > 1 and stripped[0] == "[" and stripped[1] in _TAG_START_CHARS


class _Splitter:
    """The state machine behind ``iter_games``; one instance per input."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.number = 0
        self.line_no = 0
        self.game: RawGame | None = None
        self.size = 0
        self.has_movetext = False
        self.blank_since_tags = False
        self.has_tag_lines = False
        self.last_tag_line = 0
        self.prev_blank = True
        self.last_movetext: str | None = None  # last movetext line with the comment state after it
        self.last_movetext_line = 0
        self.in_comment = False
        self.comment_line = 0
        self.comment_column = 0
        self.comment_chars = 0
        self.pending_line = False  # the previous piece had no line ending (a split long line)
        self.last_piece_length = 0
        self.line_kind = "blank"  # what the current line is: "tag", "movetext", ...
        self.piece_offset = 0  # where the current piece starts in its line (0 but for long lines)
        self.game_pieces = 0  # pieces added to the current game (or part)
        self.compacted = 0  # of which the first ones are joined into bigger strings
        self.line_index = 0  # index of the current piece's line in the game's lines
        self.game_line_ends = 0  # line endings in the current game's text so far
        self.game_has_text = False  # some piece of the current game is not blank
        self.tag_lines = 0  # tag lines of the current game so far, all its parts

    def reset(self, number: int, line_no: int) -> None:
        """Start afresh after ``number`` games, before line ``line_no + 1`` (fast path hand-over)."""
        self.number = number
        self.line_no = line_no
        self.game = None
        self.has_movetext = False
        self.blank_since_tags = False
        self.has_tag_lines = False
        self.tag_lines = 0
        self.prev_blank = True
        self.last_movetext = None
        self.in_comment = False
        self.pending_line = False

    def fresh_game_started(self) -> bool:
        """True when the last line fed opened a new, so far undamaged game with a tag line."""
        game = self.game
        return (
            game is not None and game.part == 0 and self.game_pieces == 1 and bool(game.tags)
            and not game.problems and not self.in_comment and not self.pending_line
        )

    def take_back(self) -> None:
        """Forget the fresh game just opened (the fast path reads it again)."""
        self.game = None
        self.number -= 1
        self.line_no -= 1

    # -- game boundaries -----------------------------------------------------------------
    def _new_game(self, part: int = 0, start_line: int | None = None) -> RawGame | None:
        """Close the current game (returned) and open the next one (or the next part)."""
        done = self.game
        if done is not None and part == 0:
            self._close_checks(done)
        if part == 0:
            self.number += 1
            self.has_movetext = False
            self.blank_since_tags = False
            self.has_tag_lines = False
            self.tag_lines = 0
            self.last_movetext = None
        self.game = RawGame(self.number, self.line_no if start_line is None else start_line, part=part)
        self.size = 0
        self.game_pieces = 0
        self.compacted = 0
        self.game_line_ends = 0
        self.line_index = 0
        self.game_has_text = False
        return done

    def _close_checks(self, game: RawGame) -> None:
        if self.in_comment:
            self._report_unterminated_comment(game)
        if self.has_movetext:
            last = (self.last_movetext or "").rstrip()
            if not self.has_tag_lines and not last.endswith(_RESULTS):
                game.problems.append(
                    PgnProblem(STRAY_TEXT, "text outside any game (no tags before it, no result after it)",
                               game.start_line)
                )
            elif not last.endswith(_RESULTS):
                game.problems.append(
                    PgnProblem(MISSING_RESULT, "movetext does not end with a result (1-0, 0-1, 1/2-1/2 or *)",
                               self.last_movetext_line)
                )
        elif self.has_tag_lines:
            game.problems.append(
                PgnProblem(MISSING_RESULT, "game has tags but no movetext, not even a result", self.last_tag_line)
            )

    def _report_unterminated_comment(self, game: RawGame) -> None:
        game.problems.append(
            PgnProblem(COMMENT_UNTERMINATED, "comment opened with '{' is never closed",
                       self.comment_line, self.comment_column)
        )
        self.in_comment = False

    # -- one line ------------------------------------------------------------------------
    def feed(self, line: str) -> Iterator[RawGame]:
        continued = self.pending_line
        if continued:
            self.piece_offset += self.last_piece_length
        else:
            self.line_no += 1
            self.piece_offset = 0
        self.last_piece_length = len(line)
        self.pending_line = not line.endswith(("\n", "\r"))
        if self.line_no == 1 and not continued and line.startswith("\ufeff"):
            self._ensure_game()
            self.game.problems.append(PgnProblem(BOM, "byte order mark at the start of the input", 1, 1))
            body = line[1:]
        else:
            body = line
        stripped = body.lstrip(" \t")

        if continued:
            kind = "tag_rest" if self.line_kind == "tag" else "movetext"
        elif self.in_comment:
            if self.prev_blank and _WELL_FORMED_TAG_LINE.match(body):
                self._ensure_game()
                self._report_unterminated_comment(self.game)
                kind = "tag"
            else:
                kind = "comment"
        elif _is_tag_line(stripped):
            kind = "tag"
        elif not stripped.strip():
            kind = "blank"
        elif stripped[0] == "%":
            kind = "escape"
        else:
            kind = "movetext"

        if not continued:
            self.line_kind = kind
        if kind == "tag":
            game = self.game
            if game is None or self.has_movetext or (self.has_tag_lines and self.blank_since_tags) or (
                not self.has_tag_lines and self._has_text(game)
            ):
                if game is not None and self.has_movetext and not self.prev_blank:
                    game.problems.append(
                        PgnProblem(MISSING_BLANK_LINE, "no blank line between a game's movetext and the next tags",
                                   self.line_no)
                    )
                done = self._new_game()
                if done is not None:
                    yield done
            self._add_line(line)
            self.tag_lines += 1
            if self.tag_lines > self.limits.max_tags:
                self._too_many_tags(body, len(line) - len(body))
            elif self.pending_line and len(line) >= PIECE_CHARS:
                self._long_tag_line(body, len(line) - len(body))
            else:
                self._parse_tags(body, len(line) - len(body))
            self.has_tag_lines = True
            self.last_tag_line = self.line_no
            self.blank_since_tags = False
            self.prev_blank = False
        elif kind == "tag_rest":  # the rest of a tag line read in pieces (reported already)
            self._ensure_game()
            self._add_line(line)
            self.prev_blank = False
        else:
            self._ensure_game()
            self._add_line(line)
            if kind == "blank":
                if self.has_tag_lines:
                    self.blank_since_tags = True
                self.prev_blank = True
            else:
                if kind == "movetext" and not self.has_movetext and self.has_tag_lines and not self.blank_since_tags:
                    self.game.problems.append(
                        PgnProblem(MISSING_BLANK_LINE, "no blank line between the tags and the movetext", self.line_no)
                    )
                if kind in ("movetext", "comment"):
                    self.has_movetext = True
                    self._scan_movetext(body)
                    if body.strip():
                        self.last_movetext = body
                        self.last_movetext_line = self.line_no
                self.prev_blank = not body.strip()
        self._check_chars(line)
        if self.size > self.limits.max_game_chars:
            yield from self._split_large_game()

    def takes_plain_lines(self) -> bool:
        """True when ``feed_plain_lines`` may be used now (outside comments, between lines)."""
        return not self.in_comment and not self.pending_line and self.line_no > 0

    def feed_plain_lines(self, run: str) -> bool:
        """Take ``run``, whole lines found by ``_plain_lines_end``, as ``feed`` would take
        them one by one; False (nothing taken) when they would make the game too large.
        Plain lines are blank or movetext without braces, control characters or non-ASCII
        text, none starting with ``[`` or ``%``: all they change is counted here with string
        searches."""
        if self.size + len(run) > self.limits.max_game_chars:
            return False
        first = self.line_no + 1
        if self.game is None:
            self._new_game(start_line=first)
        breaks = _line_breaks(run)
        core = run.rstrip(" \t\x0c\r\n")  # up to the end of the last line that is not blank
        first_blank = not run[:_first_break(run)].strip()
        if core:
            if not self.has_movetext and self.has_tag_lines and not self.blank_since_tags and not first_blank:
                self.game.problems.append(
                    PgnProblem(MISSING_BLANK_LINE, "no blank line between the tags and the movetext", first)
                )
            start = max(core.rfind("\n"), core.rfind("\r")) + 1
            self.has_movetext = True
            self.last_movetext = core[start:]
            self.last_movetext_line = first + _line_breaks(run[:start])
        if self.has_tag_lines and not self.blank_since_tags and (
            not core or first_blank or _BLANK_LINE_AFTER_BREAK.search(run)
        ):
            self.blank_since_tags = True
        body = run[:len(run) - len(line_ending(run))]
        self.prev_blank = not body[max(body.rfind("\n"), body.rfind("\r")) + 1:].strip()
        self.line_no += breaks
        self._add_line(run)
        self.game_line_ends += breaks - 1  # _add_line counted one
        return True

    def _has_text(self, game: RawGame) -> bool:
        return self.game_has_text

    def _ensure_game(self) -> None:
        if self.game is None:
            self._new_game()

    def _add_line(self, line: str) -> None:
        game = self.game
        assert game is not None and game._lines is not None  # _ensure_game ran; the game is not sealed
        pieces = game._lines
        if self.game_pieces - self.compacted >= _COMPACT_PIECES:
            # many short lines: hold each run of them as one string, not as many small objects
            loose = len(pieces) - (self.game_pieces - self.compacted)
            pieces[loose:] = ["".join(pieces[loose:])]
            self.compacted = self.game_pieces
        pieces.append(line)
        self.size += len(line)
        self.game_pieces += 1
        self.line_index = self.game_line_ends
        if line.endswith(("\n", "\r")):
            self.game_line_ends += 1
        if not self.game_has_text and line.strip():
            self.game_has_text = True

    def _split_large_game(self) -> Iterator[RawGame]:
        game = self.game
        if game.part == 0:
            game.problems.append(
                PgnProblem(GAME_TOO_LARGE, f"game is larger than {self.limits.max_game_chars} characters; "
                           "it is passed on unchanged, in parts", game.start_line)
            )
        game.continues = True
        self._new_game(part=game.part + 1, start_line=self.line_no + (0 if self.pending_line else 1))
        yield game

    def _check_chars(self, line: str) -> None:
        if line.isascii():
            if _JUNK.search(line):
                self._junk_problem(JUNK, "control characters (binary data?) in the text", line, _JUNK)
        elif _SURROGATE.search(line):
            self._junk_problem(NOT_UTF8, "bytes that are not UTF-8 text", line, _SURROGATE)
        elif _JUNK.search(line):
            self._junk_problem(JUNK, "control characters (binary data?) in the text", line, _JUNK)

    def _junk_problem(self, code: str, message: str, line: str, pattern: re.Pattern) -> None:
        problems = self.game.problems
        if any(p.code == code for p in problems):
            return  # once per game is enough to point at the damage
        column = self.piece_offset + pattern.search(line).start() + 1
        problems.append(PgnProblem(code, message, self.line_no, column))

    # -- tags ----------------------------------------------------------------------------
    def _parse_tags(self, body: str, offset: int) -> None:
        game = self.game
        index = self.line_index
        line_length = len(game.lines[-1])
        line_offset = self.size - line_length
        text = body.rstrip("\r\n")
        pos = len(text) - len(text.lstrip(" \t"))
        while pos < len(text):
            match = _TAG.match(text, pos)
            if match is None:
                self._tag_problem(text, pos, offset)
                return
            start = offset + match.start()
            game.tags.append(
                Tag(
                    name=match.group(1),
                    value=unescape_tag_value(match.group(2)),
                    line=self.line_no,
                    column=start + 1,
                    index=index,
                    start=start,
                    end=offset + match.end(),
                    value_start=offset + match.start(2),
                    value_end=offset + match.end(2),
                    line_offset=line_offset,
                    line_length=line_length,
                )
            )
            pos = match.end()
            while pos < len(text) and text[pos] in " \t":
                pos += 1

    def _long_tag_line(self, body: str, offset: int) -> None:
        """A tag line read in pieces: reported, its tags not read (their line is not whole)."""
        pos = len(body) - len(body.lstrip(" \t"))
        name_match = _TAG_NAME.match(body, pos)
        self.game.problems.append(
            PgnProblem(TAG_SYNTAX, f"tag line longer than {PIECE_CHARS} characters; its tags are not read",
                       self.line_no, offset + pos + 1, name_match.group(1) if name_match else None)
        )

    def _too_many_tags(self, body: str, offset: int) -> None:
        """A tag line past ``Limits.max_tags``: kept as text, not read; reported once a game."""
        if self.tag_lines == self.limits.max_tags + 1:
            pos = len(body) - len(body.lstrip(" \t"))
            self.game.problems.append(
                PgnProblem(TOO_MANY_TAGS, f"game has more than {self.limits.max_tags} tag lines; "
                           "the rest are kept as they are but not read", self.line_no, offset + pos + 1)
            )

    def _tag_problem(self, text: str, pos: int, offset: int) -> None:
        name_match = _TAG_NAME.match(text, pos)
        name = name_match.group(1) if name_match else None
        rest = text[pos:]
        if name_match is None:
            why = f"unexpected text after the tags: {rest[:20]!r}"
        elif '"' not in rest[name_match.end() - pos:]:
            why = f"tag {name} has no quoted value"
        elif not _has_closing_quote(rest[name_match.end() - pos:]):
            why = f"tag {name}: value has no closing quote"
        else:
            why = f"tag {name}: expected ']' after the value (or an unescaped quote inside it)"
        self.game.problems.append(PgnProblem(TAG_SYNTAX, why, self.line_no, offset + pos + 1, name))

    # -- comments ------------------------------------------------------------------------
    def _scan_movetext(self, body: str) -> None:
        if not self.in_comment and "{" not in body:
            return
        pos = 0
        length = len(body)
        while pos < length:
            if self.in_comment:
                close = body.find("}", pos)
                if close < 0:
                    self.comment_chars += length - pos
                    if self.comment_chars > self.limits.max_comment_chars:
                        self.game.problems.append(
                            PgnProblem(COMMENT_TOO_LONG, f"comment longer than {self.limits.max_comment_chars} "
                                       "characters; treated as ended here", self.comment_line, self.comment_column)
                        )
                        self.in_comment = False
                    return
                self.in_comment = False
                pos = close + 1
            else:
                brace = body.find("{", pos)
                if brace < 0:
                    return
                semi = body.find(";", pos, brace)
                if semi >= 0:
                    return  # the rest of the line is a ";" comment
                self.in_comment = True
                self.comment_line = self.line_no
                self.comment_column = self.piece_offset + brace + 1
                self.comment_chars = 0
                pos = brace + 1

    def finish(self) -> Iterator[RawGame]:
        if self.game is not None:
            self._close_checks(self.game)
            yield self.game
            self.game = None


def _has_closing_quote(text: str) -> bool:
    i = text.find('"')
    i += 1
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == '"':
            return True
        i += 1
    return False


def _make_tag(match: re.Match, line_start: int, line: int, index: int, bracket: int, text: str) -> Tag:
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


_NAMED_TAG_LINES: dict[str, re.Pattern] = {}


def _named_tag_line(names: str) -> re.Pattern:
    pattern = _NAMED_TAG_LINES.get(names)
    if pattern is None:
        pattern = re.compile(r"^[ \t]*\[[ \t]*(" + names + r")[ \t]*" + _VALUE + r"[ \t]*\]", re.M)
        _NAMED_TAG_LINES[names] = pattern
    return pattern


_COMPACT_PIECES = 4096  # pieces of a game held apart before they are joined

_LINE_SPLIT = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")


def split_lines(text: str) -> list[str]:
    """``text`` cut after each ``\r\n``, ``\n`` or lone ``\r``, endings kept."""
    if "\r" not in text or text.count("\r") == text.count("\r\n"):
        parts = text.split("\n")
        last = parts.pop()
        lines = [part + "\n" for part in parts]
        if last:
            lines.append(last)
        return lines
    return _LINE_SPLIT.findall(text)


def _tags_of_clean_game(game: RawGame) -> list[Tag]:
    # the fast path took the game with its tag lines within the caller's max_tags: read all
    splitter = _Splitter(Limits(max_tags=len(game.text)))
    splitter.reset(game.number - 1, game.start_line - 1)
    for line in game.lines:
        for _ in splitter.feed(line):
            pass
    return splitter.game.tags if splitter.game is not None else []


# -- the fast path: whole clean games matched at C speed ------------------------------------
# A game ends after the blank lines that precede the next tag line.
_BOUNDARY = re.compile(r"\n(?:[ \t]*\r?\n)+(?=[ \t]*\[[A-Za-z0-9_])")
_VALUE_FAST = r'"[^"\\\r\n]*+(?:\\.[^"\\\r\n]*+)*+"'
_CLEAN_HEADER = re.compile(
    r"(?:[ \t]*+\[[ \t]*+" + _NAME + r"+[ \t]*+" + _VALUE_FAST + r"[ \t]*+\][ \t]*+\r?\n)++(?:[ \t]*+\r?\n)++"
)
_CLEAN_HEADER_LF = re.compile(r"(?:\[" + _NAME + r"+ " + _VALUE_FAST + r"\]\n)++\n++")  # the usual layout
_LINE_START_SPECIAL = re.compile(r"^[ \t]*[\[%]", re.M)
_SPECIAL_LINE_START = re.compile(r"\n[\[%\t ]")  # a quick look before _LINE_START_SPECIAL
_NOT_BRACES = bytes(i for i in range(256) if i not in b"{}")
_JUNK_BYTES = bytes(range(0, 9)) + b"\x0b" + bytes(range(0x0E, 0x20)) + b"\x7f"
_BLOCK_CHARS = 1 << 17  # small enough to stay in the CPU cache
# The state machine is fed lines of at most this many characters (their ending aside);
# longer ones are fed in pieces. ``parallel`` cuts only before tag lines no longer than this.
PIECE_CHARS = 1 << 17
_FAST_WINDOW = 4 << 20  # look this far for the end of a game before leaving it to the slow path


def _chars_clean(text: str) -> bool:
    """No control characters (tab, line ends and form feed aside) and no undecodable bytes."""
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates: bytes that were not UTF-8
        return False
    return len(data.translate(None, _JUNK_BYTES)) == len(data)


def _clean_header_end(text: str, limit: int, chars_checked: bool, max_tags: int) -> int:
    """Where the tags end if the slow path would find exactly one game in ``text`` and no
    damage; -1 otherwise."""
    if len(text) > limit or (len(text) > PIECE_CHARS and _has_long_line(text)):
        return -1
    header = _CLEAN_HEADER_LF.match(text) or _CLEAN_HEADER.match(text)
    if header is None or text.count("\n", 0, header.end()) > max_tags:  # blank lines too: erring safe
        return -1
    movetext = text[header.end():]
    if not movetext.rstrip().endswith(_RESULTS) or ";" in movetext or movetext.lstrip(" \t")[0] in "[%":
        return -1
    special = _SPECIAL_LINE_START.search(movetext)
    if special is not None and (special.group()[1] in "[%" or _LINE_START_SPECIAL.search(movetext)):
        return -1
    if "\r" in text and text.count("\r") != text.count("\r\n"):
        return -1
    if not chars_checked and not _chars_clean(text):
        return -1
    if ("{" in movetext or "}" in movetext) and not _braces_paired(movetext):
        return -1
    return header.end()


def _has_long_line(text: str) -> bool:
    """True when a line of ``text`` (its ending aside) is longer than ``PIECE_CHARS``: the
    state machine reads it in pieces, so the fast path leaves it to the state machine."""
    longest = PIECE_CHARS
    return any(len(line) > longest and len(line.rstrip("\r")) > longest for line in text.split("\n"))


def _braces_paired(movetext: str) -> bool:
    """True when braces come as ``{`` ``}`` pairs, none nested, none stray."""
    braces = movetext.encode("utf-8", "surrogateescape").translate(None, _NOT_BRACES)
    return braces == b"{}" * (len(braces) // 2)


def _blocks(pieces: Iterable[str]) -> Iterator[str]:
    """Join small pieces (lines) into blocks of about ``_BLOCK_CHARS``; big pieces pass."""
    batch: list[str] = []
    size = 0
    for piece in pieces:
        batch.append(piece)
        size += len(piece)
        if size >= _BLOCK_CHARS:
            yield "".join(batch)
            batch, size = [], 0
    if batch:
        yield "".join(batch)


def _pieces_of_line(line: str) -> Iterator[str]:
    """A line as the splitter is fed it: whole when its text (ending aside) is at most
    ``PIECE_CHARS`` long, else in pieces of ``PIECE_CHARS`` counted from the line's start,
    the ending with the last piece. Where a line is cut never depends on how it was read."""
    content = len(line) - len(line_ending(line))
    if content <= PIECE_CHARS:
        yield line
        return
    start = 0
    while content - start > PIECE_CHARS:
        yield line[start:start + PIECE_CHARS]
        start += PIECE_CHARS
    yield line[start:]


def iter_games_slow(lines: Iterable[str] | str, limits: Limits = DEFAULT_LIMITS) -> Iterator[RawGame]:
    """``iter_games`` without the fast path: every line through the state machine.

    Gives the same games, tags and problems (the tests hold the two together). Reads the
    whole text first: for tests and comparisons, not for large inputs.
    """
    text = lines if isinstance(lines, str) else "".join(lines)
    splitter = _Splitter(limits)
    for line in split_lines(text):
        for piece in _pieces_of_line(line):
            for game in splitter.feed(piece):
                game._seal()
                yield game
    for game in splitter.finish():
        game._seal()
        yield game


def iter_games(lines: Iterable[str] | str, limits: Limits = DEFAULT_LIMITS, *, first_line: int = 1) -> Iterator[RawGame]:
    """Yield the games of ``lines`` in order; never raises on bad input, never drops a byte.

    ``lines`` is any iterable of text pieces: lines with their endings (a text file opened
    with ``newline=""``), blocks cut anywhere (``iter(lambda: f.read(1 << 20), "")``), or
    one ``str`` holding the whole text. Lines end at ``\r\n``, ``\n`` or a lone ``\r``.
    ``first_line`` numbers the first line (for a piece cut from a larger text at a game
    start, as ``parallel`` does); games are numbered from 1 regardless.

    The result never depends on how the text is cut into pieces: the fast path takes only
    games the state machine would find clean and whole, and the state machine is fed each
    line as ``_pieces_of_line`` cuts it. Work is linear in the input: where the fast path
    found no game end in a stretch of text, it is not tried again before that stretch is
    read. Memory holds at most a game (``Limits.max_game_chars``) and ``_FAST_WINDOW``.
    """
    if isinstance(lines, str):
        blocks = iter([lines[i:i + _BLOCK_CHARS] for i in range(0, len(lines), _BLOCK_CHARS)])
    else:
        blocks = _blocks(lines)
    splitter = _Splitter(limits)
    limit = min(limits.max_game_chars, limits.max_comment_chars)
    buf = ""
    pos = 0
    base = 0  # characters dropped from the front of buf
    eof = False
    line_no = first_line - 1  # lines before pos
    number = 0  # games yielded (parts not counted)
    fast = True
    emitted_since_slow = False
    fast_again_at = 0  # the fast path found no game end before this offset: not worth a try
    plain_window = _PLAIN_WINDOW  # how far to look for a run of plain lines

    buf_chars_clean = True  # no junk anywhere in buf: the per-game check can be skipped
    buf_has_cr = False

    def refill(at_least: int = 0) -> bool:
        """Append the next block (blocks: at least ``at_least`` characters) to what is left."""
        nonlocal buf, pos, base, eof, buf_chars_clean, buf_has_cr
        block = next(blocks, None)
        if block is None:
            eof = True
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
        rest = buf[pos:]
        buf_chars_clean = (buf_chars_clean or _chars_clean(rest)) and _chars_clean(block)
        buf_has_cr = "\r" in rest or "\r" in block
        buf = rest + block
        base += pos
        pos = 0
        return True

    def next_boundary(start: int) -> int:
        """End of the game starting at ``start`` (after its trailing blank lines), or -1
        when none is seen in ``buf`` (none yet: the next tag line may not be whole)."""
        if not buf_has_cr:
            found = buf.find("\n\n[", start)
            while found >= 0 and found + 3 < len(buf) and buf[found + 3] not in _TAG_START_CHARS:
                found = buf.find("\n\n[", found + 1)  # "[" then no tag name: not a tag line
            if found >= 0 and found + 3 < len(buf):
                end = found + 2
                while buf.startswith("\n", end):
                    end += 1
                return end
            if found < 0 and "\n \n" not in buf and "\n\t" not in buf and "\n\n " not in buf:
                return -1
        match = _BOUNDARY.search(buf, start)
        return -1 if match is None else match.end()

    while True:
        if fast:
            end = next_boundary(pos)
            while end < 0 and not eof and len(buf) - pos < _FAST_WINDOW:
                # double what is held each time: every character is searched a few times at most
                if refill(len(buf) - pos):
                    end = next_boundary(pos)
            if end < 0 and pos >= len(buf) and eof:
                break
            found = end >= 0
            end = end if found else len(buf)
            candidate = buf[pos:end]
            header_end = _clean_header_end(candidate, limit, buf_chars_clean, limits.max_tags) if (found or eof) else -1
            if header_end >= 0:
                number += 1
                yield RawGame(number, line_no + 1, text=candidate, header_end=header_end)
                line_no += candidate.count("\n")
                pos = end
                continue
            if not found:
                fast_again_at = base + len(buf)
            fast = False
            splitter.reset(number, line_no)
            emitted_since_slow = False
        # slow path: one line (or piece of a long line) at a time until a clean game start
        if pos >= len(buf) and not refill():
            break
        if splitter.takes_plain_lines():
            end = _plain_lines_end(buf, pos, pos + min(plain_window, PIECE_CHARS))  # no line longer
            # look further while runs fill the window, briefly where lines are seldom plain
            plain_window = min(PIECE_CHARS, 2 * plain_window) if 2 * (end - pos) >= plain_window else _PLAIN_WINDOW
            if end > pos and splitter.feed_plain_lines(buf[pos:end]):
                pos = end
                continue
        window = pos + PIECE_CHARS + 2  # a line ending that starts by pos + PIECE_CHARS, whole
        newline = _NEXT_BREAK.search(buf, pos, window)
        while not eof and len(buf) < window and (
            newline is None or (newline.group() == "\r" and newline.end() == len(buf))
        ):
            refill()
            window = pos + PIECE_CHARS + 2
            newline = _NEXT_BREAK.search(buf, pos, window)
        if newline is not None and newline.start() <= pos + PIECE_CHARS:
            end = newline.end()
        else:
            end = min(pos + PIECE_CHARS, len(buf))
        line = buf[pos:end]
        for game in splitter.feed(line):
            if game.part == 0:
                number = game.number
            emitted_since_slow = True
            game._seal()
            yield game
        pos = end
        if emitted_since_slow and base + pos > fast_again_at and splitter.fresh_game_started():
            splitter.take_back()
            number = splitter.number
            line_no = splitter.line_no
            pos -= len(line)
            fast = True
    if not fast:
        for game in splitter.finish():
            game._seal()
            yield game


_NEXT_BREAK = re.compile(r"\r\n|\r|\n")
# Plain lines (see _Splitter.feed_plain_lines) hold only these characters, and none starts
# with "[" or "%" after spaces, tabs and form feeds.
_PLAIN_WINDOW = 256
_PLAIN_CHARS = bytes([9, 10, 12, 13]) + bytes(range(0x20, 0x7B)) + bytes(range(0x7C, 0x7F))
_NOT_PLAIN_CHAR = re.compile(r"[^\t\n\x0c\r -z|-~]")
_SPECIAL_LINE_AFTER_BREAK = re.compile(r"[\r\n][ \t\x0c]*+[\[%]")
_SPACED_LINE_STARTS = ("\n ", "\n\t", "\n\x0c", "\r ", "\r\t", "\r\x0c")
_SPECIAL_LINE_STARTS = ("\n[", "\n%", "\r[", "\r%")
_BLANK_LINE_AFTER_BREAK = re.compile(r"\n[ \t\x0c]*[\r\n]|\r[ \t\x0c]+[\r\n]|\r\r")


def _plain_lines_end(buf: str, start: int, limit: int) -> int:
    """The end of the run of whole plain lines at ``buf[start:limit]`` (``start``: none).
    A lone CR at ``limit`` is not taken: a LF may follow it. String searches, no loop per line."""
    window = buf[start:limit]
    end = max(window.rfind("\n"), window.rfind("\r", 0, len(window) - 1)) + 1
    if end == 0:
        return start
    window = window[:end]
    first = window.lstrip(" \t\x0c")
    if first[:1] in ("[", "%"):
        return start
    bad = end
    if not window.isascii() or len(window.encode("ascii").translate(None, _PLAIN_CHARS)):
        found = _NOT_PLAIN_CHAR.search(window)
        bad = found.start()
    if any(spaced in window for spaced in _SPACED_LINE_STARTS):
        found = _SPECIAL_LINE_AFTER_BREAK.search(window, 0, bad)
        if found is not None:
            bad = found.start()
    else:
        for special in _SPECIAL_LINE_STARTS:
            at = window.find(special, 0, bad)
            if at >= 0:
                bad = at
    if bad == end:
        return start + end
    # back to the start of the line holding the first character that is not plain
    cut = max(window.rfind("\n", 0, bad + 1), window.rfind("\r", 0, bad + 1)) + 1
    if 0 < cut < end and window[cut - 1] == "\r" and window[cut] == "\n":
        cut += 1
    return start + cut


def _line_breaks(text: str) -> int:
    """Line ends in ``text``: ``\\r\\n``, ``\\n`` or a lone ``\\r``."""
    return text.count("\n") + text.count("\r") - text.count("\r\n")


def _first_break(text: str) -> int:
    """Where the first line of ``text`` ends (its ending excluded), or ``len(text)``."""
    found = _NEXT_BREAK.search(text)
    return len(text) if found is None else found.start()
