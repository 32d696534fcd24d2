"""Tag pairs: the ``Tag`` value, the patterns that read tag lines (their sources, compiled
on first use), and PGN's escapes.

Nothing here raises: a line the patterns do not match is left to the caller
(``state_machine`` reports it as ``pgn-tag-syntax``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from notation.patterns import compiled

if TYPE_CHECKING:  # compiled, a machine integer; interpreted, never looked up (an int)
    from mypy_extensions import i64


class Tag:
    """One tag pair as found, read-only. Offsets index ``RawGame.lines[index]``.

    ``start``/``end`` span the whole ``[...]``; ``value_start``/``value_end`` span the
    escaped value between the quotes; ``value`` is unescaped. Equal when every field is;
    a plain class rather than a frozen dataclass, so the compiled build makes one for each
    tag of a database in a few machine instructions (its attributes are ``Final``: a write
    is a type error, and in the compiled build an ``AttributeError``).
    """

    __slots__ = ("name", "value", "line", "column", "index", "start", "end", "value_start", "value_end",
                 "line_offset", "line_length")

    def __init__(self, name: str, value: str, line: int, column: int, index: int, start: int, end: int,
                 value_start: int, value_end: int, line_offset: int = 0, line_length: int = 0) -> None:
        self.name: Final = name
        self.value: Final = value
        self.line: Final = line  # 1-based line in the input
        self.column: Final = column  # 1-based column of "["
        self.index: Final = index  # index of the line in RawGame.lines
        self.start: Final = start
        self.end: Final = end
        self.value_start: Final = value_start
        self.value_end: Final = value_end
        self.line_offset: Final = line_offset  # where the tag's line starts in the game's text
        self.line_length: Final = line_length  # the length of that line, its ending included

    def _fields(self) -> tuple[str, str, int, int, int, int, int, int, int, int, int]:
        return (self.name, self.value, self.line, self.column, self.index, self.start, self.end, self.value_start,
                self.value_end, self.line_offset, self.line_length)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tag):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __reduce__(self) -> tuple[type[Tag], tuple[str, str, int, int, int, int, int, int, int, int, int]]:
        return (Tag, self._fields())

    def __repr__(self) -> str:
        names = ("name", "value", "line", "column", "index", "start", "end", "value_start", "value_end",
                 "line_offset", "line_length")
        return "Tag(" + ", ".join(f"{name}={value!r}" for name, value in zip(names, self._fields(), strict=True)) + ")"


# a tag name, and a quoted value (group: the value, still escaped)
NAME = r"[A-Za-z0-9_][A-Za-z0-9_+#=:.\-]*"
VALUE = r'"((?:[^"\\\r\n]|\\.)*)"'
# Patterns' sources, compiled on first use (``notation.patterns``): a file of clean games
# needs none of them.
TAG = r"\[[ \t]*(" + NAME + r")[ \t]*" + VALUE + r"[ \t]*\]"
TAG_NAME = r"\[[ \t]*([A-Za-z0-9_][A-Za-z0-9_+#=:.\-]*)"
WELL_FORMED_TAG_LINE = r'[ \t]*\[[A-Za-z0-9_][A-Za-z0-9_+#=:.\-]*[ \t]+"(?:[^"\\\r\n]|\\.)*"\][ \t]*(?:\r\n|\r|\n)?\Z'
_UNESCAPE = r"\\(.)"
TAG_START_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")


def unescape_tag_value(raw: str) -> str:
    """A tag value without its PGN escapes (``\\"`` and ``\\\\``)."""
    return compiled(_UNESCAPE).sub(r"\1", raw) if "\\" in raw else raw


def escape_tag_value(value: str) -> str:
    """A value ready to sit between the quotes of a tag."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


def is_tag_line(stripped: str) -> bool:
    return len(stripped) > 1 and stripped[0] == "[" and stripped[1] in TAG_START_CHARS


def has_closing_quote(text: str) -> bool:
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


if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TypeAlias

    # Which tag names a caller asks for: a regular expression matched against the whole
    # name, or a function of the name (where the expression would be long to compile).
    NameTest: TypeAlias = str | Callable[[str], bool]
_NAME_VERDICTS: dict[NameTest, dict[str, bool]] = {}
_MAX_VERDICTS = 4096  # names remembered a pattern: a file of ever new names cannot grow memory


def is_named(names: NameTest, name: str) -> bool:
    """Whether ``name`` is one ``names`` asks for (see ``NameTest``): remembered, since a
    database repeats the same few tag names in every game."""
    return verdict_of(verdicts_for(names), names, name)


def verdicts_for(names: NameTest) -> dict[str, bool]:
    """The verdicts remembered for ``names``, each tag name's (``verdict_of`` adds to them):
    looked up once for a game's tags, not once a tag."""
    verdicts = _NAME_VERDICTS.get(names)
    if verdicts is None:
        verdicts = _NAME_VERDICTS[names] = {}
    return verdicts


def verdict_of(verdicts: dict[str, bool], names: NameTest, name: str) -> bool:
    """``is_named(names, name)``, ``verdicts`` being ``verdicts_for(names)``."""
    verdict = verdicts.get(name)
    if verdict is None:
        if len(verdicts) >= _MAX_VERDICTS:
            verdicts.clear()
        verdict = names(name) if callable(names) else re.fullmatch(names, name) is not None
        verdicts[name] = verdict
    return verdict


def clean_tag_name(text: str, line_start: int, line_end: int) -> tuple[int, str]:
    r"""On a well-formed tag line (``[ \t]*\[[ \t]*NAME[ \t]*"...``) of ``text``, where its
    ``[`` is and the tag's name; (-1, "") for a line with no ``[`` (a blank line). Not
    checked: that the line is well formed (the splitter's fast path has matched it)."""
    pos: i64 = line_start  # machine integers when compiled: no tagged arithmetic per character
    end: i64 = line_end
    while pos < end and _is_blank(ord(text[pos])):
        pos += 1
    if pos >= end or ord(text[pos]) != _OPEN_BRACKET:
        return -1, ""
    bracket = pos
    pos += 1
    while pos < end and _is_blank(ord(text[pos])):
        pos += 1
    name_start = pos
    while pos < end:
        char: i64 = ord(text[pos])
        if _is_blank(char) or char == _QUOTE:
            break
        pos += 1
    return bracket, text[name_start:pos]


def clean_tag(text: str, line_start: int, line_end: int, bracket: int, name: str, line: int, index: int) -> Tag:
    """The tag of a well-formed tag line of ``text`` (``line_end``: after its line break),
    whose ``[`` is at ``bracket`` and whose name is ``name``: the value is between the first
    quote after the name and the line's last quote. Not checked: that the line is well formed
    (the splitter's fast path has matched it; tests/pgn/test_pgn_header_reference.py holds the
    tags to those a regular expression finds)."""
    opening = text.find('"', bracket + 1 + len(name), line_end)
    closing = text.rfind('"', opening + 1, line_end)
    end = text.find("]", closing, line_end) + 1
    return Tag(
        name=name,
        value=unescape_tag_value(text[opening + 1:closing]),
        line=line,
        column=bracket - line_start + 1,
        index=index,
        start=bracket - line_start,
        end=end - line_start,
        value_start=opening + 1 - line_start,
        value_end=closing - line_start,
        line_offset=line_start,
        line_length=line_end - line_start,
    )


_OPEN_BRACKET: Final = 91
_QUOTE: Final = 34


def _is_blank(char: i64) -> bool:
    """A space or a tab, by code point."""
    return char == 32 or char == 9
