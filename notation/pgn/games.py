"""The values the splitter hands on: ``RawGame`` (one game's text, tags and damage),
``PgnProblem`` and its stable codes, and the ``Limits`` that bound memory.

Nothing here reads PGN but the tags of a clean game, on demand (``RawGame.tags``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final

from notation.pgn.encodings import as_read
from notation.pgn.lines import split_lines
from notation.pgn.severity import severity_of
from notation.pgn.tags import NAME, Tag, clean_tag, clean_tag_name, is_named, verdict_of, verdicts_for
from notation.records import Record

if TYPE_CHECKING:
    from notation.pgn.tags import NameTest

# --- problem codes (stable) -------------------------------------------------------------
TAG_SYNTAX = "pgn-tag-syntax"
COMMENT_UNTERMINATED = "pgn-comment-unterminated"
COMMENT_TOO_LONG = "pgn-comment-too-long"
GAME_TOO_LARGE = "pgn-game-too-large"
JUNK = "pgn-junk"
NOT_UTF8 = "pgn-not-utf8"  # no longer found: such bytes are read as Windows-1252 (WINDOWS_1252)
WINDOWS_1252 = "pgn-windows-1252"  # a warning: bytes that are not UTF-8, read as Windows-1252
BOM = "pgn-bom"
MISSING_BLANK_LINE = "pgn-missing-blank-line"
MISSING_RESULT = "pgn-missing-result"
STRAY_TEXT = "pgn-stray-text"
NO_TAGS = "pgn-no-tags"
TOO_MANY_TAGS = "pgn-too-many-tags"

PROBLEM_CODES = (
    TAG_SYNTAX, COMMENT_UNTERMINATED, COMMENT_TOO_LONG, GAME_TOO_LARGE, JUNK,
    BOM, MISSING_BLANK_LINE, MISSING_RESULT, STRAY_TEXT, TOO_MANY_TAGS, WINDOWS_1252, NO_TAGS,
)


# A plain class, not a frozen dataclass: importing dataclasses (it imports inspect and ast)
# and compiling its generated methods from source at import would cost every check's
# start-up. Its attributes are ``Final``: a write is a type error, and in the compiled
# build an ``AttributeError``.
class PgnProblem:
    """Damage found in the PGN text: a stable ``code``, a message, and where (1-based).
    Read-only; equal when every field is."""

    __slots__ = ("code", "message", "line", "column", "tag")
    code: Final[str]
    message: Final[str]
    line: Final[int]
    column: Final[int | None]
    tag: Final[str | None]  # the tag concerned, when the problem is in a tag

    def __init__(self, code: str, message: str, line: int, column: int | None = None, tag: str | None = None) -> None:
        self.code = code
        self.message = message
        self.line = line
        self.column = column
        self.tag = tag

    def _fields(self) -> tuple[str, str, int, int | None, str | None]:
        return (self.code, self.message, self.line, self.column, self.tag)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PgnProblem):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (f"PgnProblem(code={self.code!r}, message={self.message!r}, line={self.line!r}, "
                f"column={self.column!r}, tag={self.tag!r})")

    @property
    def level(self) -> str:
        """``"error"`` or ``"warning"``, as every front end rates the code
        (``notation.pgn.severity``)."""
        return severity_of(self.code)

    def to_dict(self) -> dict:
        out: dict = {"code": self.code, "message": self.message}
        if self.column is not None:
            out["column"] = self.column
        return out

    def __reduce__(self) -> tuple[type[PgnProblem], tuple[str, str, int, int | None, str | None]]:
        """Pickled and copied through ``__init__``: compiled (mypyc), the default would set
        the read-only fields one by one and fail."""
        return (PgnProblem, self._fields())


class RawGame:
    """One game's text exactly as read, its tags, and the damage found in it.

    Games the fast path found clean keep only their text: ``lines`` and ``tags`` are
    worked out on first use, and ``problems`` is empty. Read-only once yielded.
    """

    __slots__ = (
        "number", "start_line", "start_column", "part", "continues", "_reading", "_pieces", "_text", "_lines", "_tags",
        "_problems", "_header_end", "_tags_end",
    )

    def __init__(self, number: int, start_line: int, *, part: int = 0, text: str | None = None,
                 header_end: int | None = None, start_column: int = 1):
        """A game from the fast path (``text``: whole and clean), or, without ``text``, one
        the state machine is about to read piece by piece (into ``_pieces``)."""
        self.number = number  # 1-based
        self.start_line = start_line  # 1-based line of the game's first line
        self.start_column = start_column  # 1-based column of its first character (> 1: it starts mid-line)
        self.part = part  # > 0 for the continuation of a game too large to hold at once
        self.continues = False  # True when a further part of this game follows
        self._reading = text is None  # the state machine is still adding pieces
        self._pieces: list[str] = []  # what the state machine has read so far, while reading
        self._text = "" if text is None else text  # set once read
        self._lines: list[str] | None = None
        self._tags: list[Tag] | None = None if text is not None else []
        self._problems: list[PgnProblem] = []
        self._header_end = header_end if header_end is not None else (len(text) if text is not None else 0)
        self._tags_end = 0 if header_end is None else header_end

    @property
    def read_as_windows_1252(self) -> bool:
        """True when the game holds bytes that are not UTF-8 (``pgn-windows-1252``): they are
        read as Windows-1252 (``encodings.as_read``) in ``read_text`` and the tag values."""
        for problem in self._problems:
            if problem.code == WINDOWS_1252:
                return True
        return False

    @property
    def read_text(self) -> str:
        """The text to read the game from: ``text`` with each byte that is not UTF-8 read
        as its Windows-1252 character (the same offsets, lines and columns)."""
        if self._problems and self.read_as_windows_1252:  # a clean game has none: no search
            return as_read(self.text)
        return self.text

    @property
    def tags_end(self) -> int:
        """An offset in ``text`` before which no movetext stands: where the tags end in a game
        the fast path found clean (its tag lines and the blank lines after them), 0 in the
        others (not worked out)."""
        return self._tags_end

    @property
    def clean(self) -> bool:
        """True when the reader found no damage in this game."""
        return not self._problems

    @property
    def text(self) -> str:
        """The game's text exactly as read."""
        if self._reading:
            return "".join(self._pieces)  # not cached: it still grows
        return self._text

    def _seal(self) -> None:
        """Called once the splitter hands the game on: its text will not change. The pieces
        it was read in are dropped (``lines`` splits the text again when asked)."""
        if self._reading:
            self._text = "".join(self._pieces)
            self._pieces = []
            self._reading = False
            if self._tags and self.read_as_windows_1252:
                self._tags = [_tag_as_read(tag) for tag in self._tags]

    @property
    def lines(self) -> list[str]:
        """The game's lines, each with its ending (``\\r\\n``, ``\\n`` or ``\\r``)."""
        if self._reading:
            return split_lines(self.text)  # not cached: it still grows
        if self._lines is None:
            self._lines = split_lines(self._text)
        return self._lines

    @property
    def tags(self) -> list[Tag]:
        """The game's tags in order (on a clean game from the fast path, read when first asked)."""
        if self._tags is None:
            self._tags = self.find_tags(NAME)  # a clean game: one well-formed tag a line
        return self._tags

    @property
    def problems(self) -> list[PgnProblem]:
        """The damage found in this game, in the order found."""
        return self._problems

    def tag(self, name: str) -> Tag | None:
        """The first tag with exactly this name, or None."""
        for tag in self.tags:
            if tag.name == name:
                return tag
        return None

    def find_tags(self, names: NameTest) -> list[Tag]:
        """Tags whose name ``names`` asks for (a regular expression matching the whole name,
        or a function of the name: ``notation.pgn.tags.NameTest``), in order.

        On a clean game this looks only for those tags, without reading the others.
        """
        if self._tags is not None:
            return [tag for tag in self._tags if is_named(names, tag.name)]
        text, header_end = self._text, self._header_end
        verdicts = verdicts_for(names)
        found = []
        line_start = index = 0
        while line_start < header_end:  # one well-formed tag a line, then blank lines
            line_end = text.find("\n", line_start, header_end)
            line_end = header_end if line_end < 0 else line_end + 1
            bracket, name = clean_tag_name(text, line_start, line_end)
            if bracket >= 0 and verdict_of(verdicts, names, name):
                found.append(clean_tag(text, line_start, line_end, bracket, name, self.start_line + index, index))
            line_start = line_end
            index += 1
        return found

    def may_have_tag(self, *names: str) -> bool:
        """False only when a clean game surely has none of these tags, their names written
        in any case (a quick look)."""
        if self._tags is not None:
            return True
        text, end = self._text, self._header_end
        if text.find("[ ", 0, end) >= 0 or text.find("[\t", 0, end) >= 0:
            return True
        if any(text.find("[" + name, 0, end) >= 0 for name in names):
            return True
        header = text[:end].lower()
        return any(("[" + name.lower()) in header for name in names)

    @property
    def fast(self) -> bool:
        """True for a clean game from the fast path whose tags have not been read yet."""
        return self._tags is None

    @property
    def is_blank(self) -> bool:
        """True for a stretch of blank lines that holds no game (an empty input)."""
        return self._reading and not self._tags and not "".join(self._pieces).strip()

    def __repr__(self) -> str:
        return f"RawGame(number={self.number}, part={self.part}, start_line={self.start_line}, chars={len(self.text)})"


def _tag_as_read(tag: Tag) -> Tag:
    """``tag`` with the bytes of its value that are not UTF-8 read as Windows-1252."""
    value = as_read(tag.value)
    if value is tag.value:
        return tag
    return Tag(tag.name, value, tag.line, tag.column, tag.index, tag.start, tag.end, tag.value_start, tag.value_end,
               tag.line_offset, tag.line_length)


# A record (``notation.records``), not a NamedTuple or a frozen dataclass: every check
# defines it at start-up. Pickled (to ``--jobs`` and Dask workers) through ``__init__``.
class Limits(Record):
    """Caps that keep memory bounded on hostile input (sizes in characters)."""

    _NAMES: ClassVar = ("max_game_chars", "max_comment_chars", "max_tags")

    def __init__(self, max_game_chars: int = 16 * 1024 * 1024, max_comment_chars: int = 1024 * 1024,
                 max_tags: int = 4096) -> None:
        self.max_game_chars: Final = max_game_chars
        self.max_comment_chars: Final = max_comment_chars
        self.max_tags: Final = max_tags  # tag lines of a game read into Tag objects; later ones stay text


DEFAULT_LIMITS = Limits()

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")  # what movetext ends with
