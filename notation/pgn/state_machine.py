"""The line-by-line state machine that splits PGN text into games (see ``splitter`` for
what it finds), and ``iter_games_slow``, which feeds it every line.

``splitter.iter_games`` gives the same games faster: it takes whole clean games by regular
expressions and hands the rest to this machine; the tests hold the two together. Nothing
here raises on bad input.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from notation.patterns import compiled
from notation.pgn import lines as line_ends
from notation.pgn.encodings import byte_read
from notation.pgn.games import (
    BOM,
    COMMENT_TOO_LONG,
    COMMENT_UNTERMINATED,
    DEFAULT_LIMITS,
    GAME_TOO_LARGE,
    JUNK,
    MISSING_BLANK_LINE,
    MISSING_RESULT,
    NO_TAGS,
    RESULTS,
    STRAY_TEXT,
    TAG_SYNTAX,
    TOO_MANY_TAGS,
    WINDOWS_1252,
    Limits,
    PgnProblem,
    RawGame,
)
from notation.pgn.lines import first_break, line_breaks, line_ending, split_lines
from notation.pgn.tags import (
    TAG,
    TAG_NAME,
    WELL_FORMED_TAG_LINE,
    Tag,
    has_closing_quote,
    is_tag_line,
    unescape_tag_value,
)

# The tag patterns (tags.py keeps their sources) compiled with this module, which only
# text the splitter's fast path leaves over brings.
_TAG = compiled(TAG)
_TAG_NAME = compiled(TAG_NAME)
_WELL_FORMED_TAG_LINE = compiled(WELL_FORMED_TAG_LINE)
_JUNK = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")
_SURROGATE = re.compile(r"[\udc80-\udcff]")
_COMPACT_PIECES = 4096  # pieces of a game held apart before they are joined

# Plain lines (see Splitter.feed_plain_lines) hold only these characters, and none starts
# with "[" or "%" after spaces, tabs and form feeds. A brace comment opened and closed on
# its line, holding only these characters, counts as plain text too: it leaves the scanner
# outside any comment, as it found it.
_CLOSED_COMMENT = re.compile(r"\{[\t\x0c -z|~]*\}")
_CLOSED_COMMENT_ANY = re.compile(r"\{[^}]*\}")
_PLAIN_CHARS = bytes([9, 10, 12, 13]) + bytes(range(0x20, 0x7B)) + bytes(range(0x7C, 0x7F))
_NOT_PLAIN_CHAR = re.compile(r"[^\t\n\x0c\r -z|-~]")
_SPECIAL_LINE_AFTER_BREAK = re.compile(r"[\r\n][ \t\x0c]*+[\[%]")
_SPACED_LINE_STARTS = ("\n ", "\n\t", "\n\x0c", "\r ", "\r\t", "\r\x0c")
_SPECIAL_LINE_STARTS = ("\n[", "\n%", "\r[", "\r%")
_BLANK_LINE_AFTER_BREAK = re.compile(r"\n[ \t\x0c]*[\r\n]|\r[ \t\x0c]+[\r\n]|\r\r")
# What a run of plain lines never holds: a variation's parentheses, a ";" comment (either
# may hide or change a result's place), anything that may be a result token, or a line
# opening with White's first move (which may start a game: ``_FIRST_MOVE_LINE``), its line
# ended by a lone CR too (``^`` knows only the line feed).
_NOT_IN_PLAIN_RUN = re.compile(r"[();*]|1-0|0-1|1/2|(?:^|\r)[ \t]*1\.", re.M)
# After movetext and a blank line, a line that opens with White's first move starts a new
# game (python-chess and chessops end a game at a blank line after its movetext).
_FIRST_MOVE_LINE = re.compile(r"[ \t]*1\.(?!\.)")

# A result token (the PGN standard's four, any dash of U+2010..U+2015 and U+2212, "½-½"),
# standing as a word: after the start, a space, a parenthesis, a brace or "]", and before
# the end, a space or a delimiter (a "[" too: a result glued to the next game's tags).
_DASH = "\\-\u2010-\u2015\u2212"
RESULT_TOKEN = (r"(?:1[" + _DASH + r"]0|0[" + _DASH + r"]1|1/2[" + _DASH + r"]1/2|\u00bd[" + _DASH + r"]\u00bd|\*)")
_RESULT_WORD = r"(?<![^\s(){}\]])" + RESULT_TOKEN + r"(?=[\s(){};$!?\[]|$)"
# What the movetext scan stops at: a brace, a parenthesis, a ";" comment or a result.
_MOVETEXT_MARK = re.compile(r"[{}();]|" + _RESULT_WORD)
# What may follow a game's result on its line and still belong to the game.
_AFTER_RESULT = re.compile(r"(?:\s|\{[^}]*\})*(?:;[^\r\n]*)?\s*")
# Tagless text is a game (not stray text) when it holds a move number before a move.
_MOVE_NUMBER_AND_MOVE = re.compile(r"(?<![\w.])\d+\s*\.+\s*(?:[KQRBNP]?[a-h]?[1-8]?x?[a-h][1-8]|O-O|0-0)")
_BOM = "\ufeff"


def _holds_moves(text: str) -> bool:
    """Whether movetext lines hold text outside comments (closed on their lines) and ``;``
    comments: moves, numbers, results (a game's opening comment alone holds none)."""
    if "{" in text:
        text = _CLOSED_COMMENT_ANY.sub(" ", text)
    return any(line.split(";", 1)[0].split("{", 1)[0].strip() for line in text.splitlines())  # "{": opens one


def _as_plain_text(comment: re.Match[str]) -> str:
    return "c" * len(comment.group())


class Splitter:
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
        self.tag_names: set[str] = set()  # names of the open tag section's tags
        self.depth = 0  # variations open in the movetext so far (outside comments; < 0: stray ")")
        self.ended = False  # a result token at the movetext's top level ended the game
        self.has_moves = False  # the movetext holds text outside comments (not only comments)

    def reset(self, number: int, line_no: int) -> None:
        """Start afresh after ``number`` games, before line ``line_no + 1`` (fast path hand-over)."""
        self.number = number
        self.line_no = line_no
        self.game = None
        self.has_movetext = False
        self.blank_since_tags = False
        self.has_tag_lines = False
        self.tag_lines = 0
        self.tag_names = set()
        self.depth = 0
        self.ended = False
        self.has_moves = False
        self.prev_blank = True
        self.last_movetext = None
        self.in_comment = False
        self.pending_line = False

    def fresh_game_started(self) -> bool:
        """True when the last line fed opened a new, so far undamaged game with a tag line
        (at the line's start: not after a result on that line)."""
        game = self.game
        return (
            game is not None and game.part == 0 and self.game_pieces == 1 and bool(game.tags)
            and game.start_column == 1
            and not game.problems and not self.in_comment and not self.pending_line
        )

    def take_back(self) -> None:
        """Forget the fresh game just opened (the fast path reads it again)."""
        self.game = None
        self.number -= 1
        self.line_no -= 1

    # -- game boundaries -----------------------------------------------------------------
    def _open_game(self, part: int = 0, start_line: int | None = None) -> RawGame:
        """Open the next game (or the next part of this one) and return it; the caller has
        closed the one before (``_close_checks``) and hands it on."""
        if part == 0:
            self.number += 1
            self.has_movetext = False
            self.blank_since_tags = False
            self.has_tag_lines = False
            self.tag_lines = 0
            self.tag_names = set()
            self.depth = 0
            self.ended = False
            self.has_moves = False
            self.last_movetext = None
        column = self.piece_offset + 1 if start_line is None else 1  # > 1: after a result on its line
        game = RawGame(self.number, self.line_no if start_line is None else start_line, part=part,
                       start_column=column)
        self.game = game
        self.size = 0
        self.game_pieces = 0
        self.compacted = 0
        self.game_line_ends = 0
        self.line_index = 0
        self.game_has_text = False
        return game

    def _close_checks(self, game: RawGame) -> None:
        if self.in_comment:
            self._report_unterminated_comment(game)
        if self.has_movetext:
            if self.has_tag_lines:
                if not self._result_at_end():
                    game.problems.append(
                        PgnProblem(MISSING_RESULT, "movetext does not end with a result (1-0, 0-1, 1/2-1/2 or *)",
                                   self.last_movetext_line)
                    )
            elif self.ended or _MOVE_NUMBER_AND_MOVE.search(game.text):
                game.problems.append(
                    PgnProblem(NO_TAGS, "game without tags: the PGN standard's import format allows it, its export "
                               "format requires the Seven Tag Roster", game.start_line, game.start_column)
                )
                if not self._result_at_end():
                    game.problems.append(
                        PgnProblem(MISSING_RESULT, "movetext does not end with a result (1-0, 0-1, 1/2-1/2 or *)",
                                   self.last_movetext_line)
                    )
            else:
                game.problems.append(
                    PgnProblem(STRAY_TEXT, "text outside any game (no tags, no move number, no result)",
                               game.start_line, game.start_column)
                )
        elif self.has_tag_lines:
            game.problems.append(
                PgnProblem(MISSING_RESULT, "game has tags but no movetext, not even a result", self.last_tag_line)
            )

    def _result_at_end(self) -> bool:
        """Whether the movetext ends with a result: one that ended the game, or one that
        ends its last line (inside a variation left open: the moves' reader reports that)."""
        return self.ended or (self.last_movetext or "").rstrip().endswith(RESULTS)

    def _report_unterminated_comment(self, game: RawGame) -> None:
        game.problems.append(
            PgnProblem(COMMENT_UNTERMINATED, "comment opened with '{' is never closed",
                       self.comment_line, self.comment_column)
        )
        self.in_comment = False

    # -- one line ------------------------------------------------------------------------
    def feed(self, line: str) -> Iterator[RawGame]:
        """Take one line (or the next piece of a long one); yield the games it ends. A line
        may end a game and start the next (a result, then more text): the rest of it is
        read as a piece of its own, ``piece_offset`` characters into the line."""
        continued = self.pending_line
        if continued:
            self.piece_offset += self.last_piece_length
        else:
            self.line_no += 1
            self.piece_offset = 0
        self.pending_line = not line.endswith(("\n", "\r"))
        fresh = not continued  # the piece starts a line, or follows a result on its line
        while True:
            bom = fresh and line.startswith(_BOM)
            body = line[1:] if bom else line
            if continued and not fresh:
                kind = "tag_rest" if self.line_kind == "tag" else "movetext"
            else:
                kind = self._kind(body, at_line_start=self.piece_offset == 0)
                self.line_kind = kind
            cut = -1
            if kind == "tag":
                done = self._game_before_tags(body)
                if done is not None:
                    yield done
                game = self._ensure_game()
                if bom:
                    self._report_bom(game)
                game, cut = self._tag_line(line, body)
            elif kind == "tag_rest":  # the rest of a tag line read in pieces (reported already)
                game = self._ensure_game()
                self._add_line(game, line)
                self.prev_blank = False
            else:
                if kind == "movetext" and not self.in_comment and (
                    (self.ended and body.lstrip()[:1] not in ("{", ";"))
                    or (self.has_moves and self.prev_blank and self.piece_offset == 0
                        and _FIRST_MOVE_LINE.match(body) is not None)
                ):
                    done = self._game_before_movetext()
                    if done is not None:
                        yield done
                game = self._ensure_game()
                if bom:
                    self._report_bom(game)
                game, cut = self._other_line(kind, line, body)
            self._check_chars(game, line if cut < 0 else line[:cut])
            if cut < 0:
                break
            self.piece_offset += cut
            line = line[cut:]
            fresh = True
        self.last_piece_length = len(line)
        if self.size > self.limits.max_game_chars:
            yield from self._split_large_game(game)

    def _kind(self, body: str, *, at_line_start: bool) -> str:
        """What a line (or the rest of one after a result) is: "tag", "blank", "escape",
        "comment" (inside a brace comment) or "movetext"."""
        if self.in_comment:
            if self.prev_blank and at_line_start and _WELL_FORMED_TAG_LINE.match(body):
                self._report_unterminated_comment(self._ensure_game())  # the tag line ends it
                return "tag"
            return "comment"
        stripped = body.lstrip(" \t")
        if is_tag_line(stripped):
            return "tag"
        if not stripped.strip():
            return "blank"
        if stripped[0] == "%" and at_line_start:
            return "escape"
        return "movetext"

    def _report_bom(self, game: RawGame) -> None:
        """A byte order mark inside the text (files joined with ``cat``). One at the start
        of the input is the UTF-8 signature Windows programs write (the Unicode standard
        allows it), skipped without a word, as ``check`` and python-chess, chessops and
        scalachess skip it."""
        if self.line_no == 1 and self.piece_offset == 0:
            return
        game.problems.append(PgnProblem(BOM, "byte order mark inside the text (files joined?); skipped",
                                        self.line_no, self.piece_offset + 1))

    def _game_before_tags(self, body: str) -> RawGame | None:
        """Before a tag line: the game it ends, closed (then a new one is open), or None
        (the tag line belongs to the open game, or opens the first). A blank line inside
        the tag section does not end it; a tag the section already holds, after one, does."""
        done = self.game
        if done is None:
            self._open_game()
            return None
        if self.has_movetext or (not self.has_tag_lines and self.game_has_text) or (
            self.has_tag_lines and self.blank_since_tags and self._first_tag_name(body) in self.tag_names
        ):
            return self._next_game(done, "a game's movetext and the next tags", self.has_movetext)
        return None

    def _game_before_movetext(self) -> RawGame | None:
        """Before movetext that follows a game's result: that game, closed (a new one is open)."""
        done = self.game
        if done is None:
            return None
        return self._next_game(done, "a game's result and the next game", True)

    def _next_game(self, done: RawGame, between: str, blank_line_expected: bool) -> RawGame:
        """Close ``done`` (noting a missing blank line before what follows) and open the next game."""
        if blank_line_expected and not self.prev_blank:
            done.problems.append(
                PgnProblem(MISSING_BLANK_LINE, f"no blank line between {between}", self.line_no,
                           self.piece_offset + 1 if self.piece_offset else None)
            )
        self._close_checks(done)
        self._open_game()
        return done

    @staticmethod
    def _first_tag_name(body: str) -> str | None:
        found = _TAG_NAME.match(body, len(body) - len(body.lstrip(" \t")))
        return None if found is None else found.group(1)

    def _tag_line(self, line: str, body: str) -> tuple[RawGame, int]:
        """Add a tag line to the open game, its tags read (or reported); the game, and where
        in ``line`` movetext after the tags begins (-1: none)."""
        game = self.game
        assert game is not None, "_game_before_tags opened a game"
        self.tag_lines += 1
        offset = len(line) - len(body)
        cut = -1
        if self.tag_lines > self.limits.max_tags:
            self._add_line(game, line)
            self._too_many_tags(game, body, offset)
        elif self.pending_line and len(line) >= line_ends.PIECE_CHARS:
            self._add_line(game, line)
            self._long_tag_line(game, body, offset)
        else:
            cut = self._parse_tags(game, line, body, offset)
        self.has_tag_lines = True
        self.last_tag_line = self.line_no
        self.blank_since_tags = False
        self.prev_blank = False
        return game, cut

    def _other_line(self, kind: str, line: str, body: str) -> tuple[RawGame, int]:
        """Add a blank, escape, comment or movetext line to the open game; the game, and
        where in ``line`` the next game begins (-1: not in this line)."""
        game = self._ensure_game()
        if kind == "blank":
            self._add_line(game, line)
            if self.has_tag_lines:
                self.blank_since_tags = True
            self.prev_blank = True
            return game, -1
        if kind == "movetext" and not self.has_movetext and self.has_tag_lines and not self.blank_since_tags:
            game.problems.append(
                PgnProblem(MISSING_BLANK_LINE, "no blank line between the tags and the movetext", self.line_no,
                           self.piece_offset + 1 if self.piece_offset else None)
            )
        cut = -1
        if kind in ("movetext", "comment"):
            self.has_movetext = True
            look_for_moves = kind == "movetext" and not self.has_moves and not self.in_comment
            cut = self._scan_movetext(game, body)
            if cut >= 0:
                cut += len(line) - len(body)
                line, body = line[:cut], body[:cut - (len(line) - len(body))]
            if look_for_moves:  # in this game's part of the line only
                self.has_moves = _holds_moves(body)
            if body.strip():
                self.last_movetext = body
                self.last_movetext_line = self.line_no
        self._add_line(game, line)
        self.prev_blank = not body.strip()
        return game, cut

    @staticmethod
    def plain_lines_end(buf: str, start: int, limit: int) -> int:
        """``plain_lines_end`` below, reached through the instance: the splitter imports
        this module only where its fast path gives way."""
        return plain_lines_end(buf, start, limit)

    def takes_plain_lines(self) -> bool:
        """True when ``feed_plain_lines`` may be used now (outside comments, between lines)."""
        return not self.in_comment and not self.pending_line and self.line_no > 0 and not self.ended

    def feed_plain_lines(self, run: str) -> bool:
        """Take ``run``, whole lines found by ``plain_lines_end``, as ``feed`` would take
        them one by one; False (nothing taken) when they would make the game too large.
        Plain lines are blank or movetext without control characters, non-ASCII text or
        braces (but for comments closed on their line, which change nothing here), none
        starting with ``[`` or ``%``: all they change is counted here with string searches."""
        if self.size + len(run) > self.limits.max_game_chars:
            return False
        first = self.line_no + 1
        game = self.game if self.game is not None else self._open_game(start_line=first)
        breaks = line_breaks(run)
        core = run.rstrip(" \t\x0c\r\n")  # up to the end of the last line that is not blank
        first_blank = not run[:first_break(run)].strip()
        if core:
            if not self.has_movetext and self.has_tag_lines and not self.blank_since_tags and not first_blank:
                game.problems.append(
                    PgnProblem(MISSING_BLANK_LINE, "no blank line between the tags and the movetext", first)
                )
            start = max(core.rfind("\n"), core.rfind("\r")) + 1
            self.has_movetext = True
            if not self.has_moves:
                self.has_moves = _holds_moves(core)
            self.last_movetext = core[start:]
            self.last_movetext_line = first + line_breaks(run[:start])
        if self.has_tag_lines and not self.blank_since_tags and (
            not core or first_blank or _BLANK_LINE_AFTER_BREAK.search(run)
        ):
            self.blank_since_tags = True
        body = run[:len(run) - len(line_ending(run))]
        self.prev_blank = not body[max(body.rfind("\n"), body.rfind("\r")) + 1:].strip()
        self.line_no += breaks
        self._add_line(game, run)
        self.game_line_ends += breaks - 1  # _add_line counted one
        return True

    def _ensure_game(self) -> RawGame:
        """The game being read, opened first when there is none."""
        return self.game if self.game is not None else self._open_game()

    def _add_line(self, game: RawGame, line: str) -> None:
        pieces = game._pieces  # the game is being read: the splitter has not sealed it
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

    def _split_large_game(self, game: RawGame) -> Iterator[RawGame]:
        if game.part == 0:
            game.problems.append(
                PgnProblem(GAME_TOO_LARGE, f"game is larger than {self.limits.max_game_chars} characters; "
                           "it is passed on unchanged, in parts", game.start_line)
            )
        game.continues = True
        self._open_game(part=game.part + 1, start_line=self.line_no + (0 if self.pending_line else 1))
        yield game

    def _check_chars(self, game: RawGame, line: str) -> None:
        if line.isascii():
            if _JUNK.search(line):
                self._junk_problem(game, JUNK, "control characters (binary data?) in the text", line, _JUNK)
        else:
            found = _SURROGATE.search(line)
            if found is not None:
                self._junk_problem(game, WINDOWS_1252, f"byte {byte_read(found.group())} is not UTF-8: this game's "
                                   "bytes that are not UTF-8 are read as Windows-1252 (Latin-1)", line, _SURROGATE)
            if _JUNK.search(line):
                self._junk_problem(game, JUNK, "control characters (binary data?) in the text", line, _JUNK)

    def _junk_problem(self, game: RawGame, code: str, message: str, line: str, pattern: re.Pattern[str]) -> None:
        """Report ``code`` at the first match of ``pattern`` in ``line`` (the caller saw one)."""
        problems = game.problems
        found = pattern.search(line)
        if found is None or any(p.code == code for p in problems):
            return  # once per game is enough to point at the damage
        column = self.piece_offset + found.start() + 1
        problems.append(PgnProblem(code, message, self.line_no, column))

    # -- tags ----------------------------------------------------------------------------
    def _parse_tags(self, game: RawGame, line: str, body: str, offset: int) -> int:
        """Read the tags of a tag line and add it to the game: all of it, or, when movetext
        follows its last tag (``[Event "x"] 1. e4 *``, import format), up to that movetext,
        whose place in ``line`` is returned (-1: none)."""
        text = body.rstrip("\r\n")
        pos = len(text) - len(text.lstrip(" \t"))
        found: list[re.Match[str]] = []
        while pos < len(text):
            match = _TAG.match(text, pos)
            if match is None:
                break
            found.append(match)
            pos = match.end()
            while pos < len(text) and text[pos] in " \t":
                pos += 1
        cut = offset + pos if (
            found and pos < len(text) and text[pos] not in '[]"\\{;' and not text.rstrip(" \t").endswith("]")
        ) else -1  # movetext after the tags (the line does not end as a tag does)
        head = line if cut < 0 else line[:cut]
        self._add_line(game, head)
        index = self.line_index
        line_length = len(head)
        line_offset = self.size - line_length
        column = self.piece_offset + 1
        for match in found:
            start = offset + match.start()
            name = match.group(1)
            self.tag_names.add(name)
            game.tags.append(
                Tag(
                    name=name,
                    value=unescape_tag_value(match.group(2)),
                    line=self.line_no,
                    column=start + column,
                    index=index,
                    start=start,
                    end=offset + match.end(),
                    value_start=offset + match.start(2),
                    value_end=offset + match.end(2),
                    line_offset=line_offset,
                    line_length=line_length,
                )
            )
        if cut < 0 and pos < len(text):
            self._tag_problem(game, text, pos, self.piece_offset + offset)
        return cut

    def _long_tag_line(self, game: RawGame, body: str, offset: int) -> None:
        """A tag line read in pieces: reported, its tags not read (their line is not whole)."""
        pos = len(body) - len(body.lstrip(" \t"))
        name_match = _TAG_NAME.match(body, pos)
        game.problems.append(
            PgnProblem(TAG_SYNTAX, f"tag line longer than {line_ends.PIECE_CHARS} characters; its tags are not read",
                       self.line_no, self.piece_offset + offset + pos + 1, name_match.group(1) if name_match else None)
        )

    def _too_many_tags(self, game: RawGame, body: str, offset: int) -> None:
        """A tag line past ``Limits.max_tags``: kept as text, not read; reported once a game."""
        if self.tag_lines == self.limits.max_tags + 1:
            pos = len(body) - len(body.lstrip(" \t"))
            game.problems.append(
                PgnProblem(TOO_MANY_TAGS, f"game has more than {self.limits.max_tags} tag lines; "
                           "the rest are kept as they are but not read", self.line_no,
                           self.piece_offset + offset + pos + 1)
            )

    def _tag_problem(self, game: RawGame, text: str, pos: int, offset: int) -> None:
        name_match = _TAG_NAME.match(text, pos)
        name = name_match.group(1) if name_match else None
        rest = text[pos:]
        if name_match is None:
            why = f"unexpected text after the tags: {rest[:20]!r}"
        elif '"' not in rest[name_match.end() - pos:]:
            why = f"tag {name} has no quoted value"
        elif not has_closing_quote(rest[name_match.end() - pos:]):
            why = f"tag {name}: value has no closing quote"
        else:
            why = f"tag {name}: expected ']' after the value (or an unescaped quote inside it)"
        game.problems.append(PgnProblem(TAG_SYNTAX, why, self.line_no, offset + pos + 1, name))

    # -- comments ------------------------------------------------------------------------
    def _scan_movetext(self, game: RawGame, body: str) -> int:
        """Follow comments and variations through a movetext line; where in ``body`` the
        next game begins after a result token at the top level (-1: not in this line). A
        result followed on its line only by spaces and comments ends the game: the next
        movetext line begins the next game (``ended``)."""
        pos = 0
        length = len(body)
        while pos < length:
            if self.in_comment:
                close = body.find("}", pos)
                if close < 0:
                    self.comment_chars += length - pos
                    if self.comment_chars > self.limits.max_comment_chars:
                        game.problems.append(
                            PgnProblem(COMMENT_TOO_LONG, f"comment longer than {self.limits.max_comment_chars} "
                                       "characters; treated as ended here", self.comment_line, self.comment_column)
                        )
                        self.in_comment = False
                    return -1
                self.in_comment = False
                pos = close + 1
                continue
            mark = _MOVETEXT_MARK.search(body, pos)
            if mark is None:
                return -1
            char = body[mark.start()]
            pos = mark.end()
            if char == "{":
                self.in_comment = True
                self.comment_line = self.line_no
                self.comment_column = self.piece_offset + mark.start() + 1
                self.comment_chars = 0
            elif char == ";":
                return -1  # the rest of the line is a ";" comment
            elif char == "(":
                self.depth += 1
            elif char == ")":
                self.depth -= 1
            elif char != "}" and self.depth <= 0:  # a result ends the game
                self.ended = True
                after = _AFTER_RESULT.match(body, pos)
                if after is not None and after.end() == length:
                    return -1
                while body[pos] in " \t\x0c":
                    pos += 1
                return pos
        return -1

    def finish(self) -> Iterator[RawGame]:
        """Close and hand on the game being read, if any (at the end of the input)."""
        game = self.game
        if game is not None:
            self._close_checks(game)
            self.game = None
            yield game


def plain_lines_end(buf: str, start: int, limit: int) -> int:
    """The end of the run of whole plain lines at ``buf[start:limit]`` (``start``: none).
    A lone CR at ``limit`` is not taken: a LF may follow it. String searches, no loop per line."""
    window = buf[start:limit]
    end = max(window.rfind("\n"), window.rfind("\r", 0, len(window) - 1)) + 1
    if end == 0:
        return start
    window = window[:end]
    if "{" in window:  # closed comments are plain: see them as text of the same length
        window = _CLOSED_COMMENT.sub(_as_plain_text, window)
    first = window.lstrip(" \t\x0c")
    if first[:1] in ("[", "%"):
        return start
    bad = end
    mark = _NOT_IN_PLAIN_RUN.search(window)
    if mark is not None:
        bad = mark.start()
    if not window.isascii() or len(window.encode("ascii").translate(None, _PLAIN_CHARS)):
        not_plain = _NOT_PLAIN_CHAR.search(window)
        bad = min(bad, end if not_plain is None else not_plain.start())  # None: never, one was counted
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


def pieces_of_line(line: str) -> Iterator[str]:
    """A line as the splitter is fed it: whole when its text (ending aside) is at most
    ``lines.PIECE_CHARS`` long, else in pieces of that many characters counted from the
    line's start, the ending with the last piece. Where a line is cut never depends on how it was read."""
    content = len(line) - len(line_ending(line))
    if content <= line_ends.PIECE_CHARS:
        yield line
        return
    start = 0
    while content - start > line_ends.PIECE_CHARS:
        yield line[start:start + line_ends.PIECE_CHARS]
        start += line_ends.PIECE_CHARS
    yield line[start:]


def iter_games_slow(lines: Iterable[str] | str, limits: Limits = DEFAULT_LIMITS) -> Iterator[RawGame]:
    """``iter_games`` without the fast path: every line through the state machine.

    Gives the same games, tags and problems (the tests hold the two together). Reads the
    whole text first: for tests and comparisons, not for large inputs.
    """
    text = lines if isinstance(lines, str) else "".join(lines)
    splitter = Splitter(limits)
    for line in split_lines(text):
        for piece in pieces_of_line(line):
            for game in splitter.feed(piece):
                game._seal()
                yield game
    for game in splitter.finish():
        game._seal()
        yield game

