"""Tag pairs: the ``Tag`` value, the patterns that read tag lines, and PGN's escapes.

Nothing here raises: a line the patterns do not match is left to the caller
(``state_machine`` reports it as ``pgn-tag-syntax``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass


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


# a tag name, and a quoted value (group: the value, still escaped)
NAME = r"[A-Za-z0-9_][A-Za-z0-9_+#=:.\-]*"
VALUE = r'"((?:[^"\\\r\n]|\\.)*)"'
TAG = re.compile(r"\[[ \t]*(" + NAME + r")[ \t]*" + VALUE + r"[ \t]*\]")
TAG_NAME = re.compile(r"\[[ \t]*([A-Za-z0-9_][A-Za-z0-9_+#=:.\-]*)")
WELL_FORMED_TAG_LINE = re.compile(
    r'[ \t]*\[[A-Za-z0-9_][A-Za-z0-9_+#=:.\-]*[ \t]+"(?:[^"\\\r\n]|\\.)*"\][ \t]*(?:\r\n|\r|\n)?\Z'
)
_UNESCAPE = re.compile(r"\\(.)")
TAG_START_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")


def unescape_tag_value(raw: str) -> str:
    """A tag value without its PGN escapes (``\\"`` and ``\\\\``)."""
    return _UNESCAPE.sub(r"\1", raw) if "\\" in raw else raw


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


def make_tag(match: re.Match, line_start: int, line: int, index: int, bracket: int, text: str) -> Tag:
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


def named_tag_line(names: str) -> re.Pattern:
    pattern = _NAMED_TAG_LINES.get(names)
    if pattern is None:
        pattern = re.compile(r"^[ \t]*\[[ \t]*(" + names + r")[ \t]*" + VALUE + r"[ \t]*\]", re.M)
        _NAMED_TAG_LINES[names] = pattern
    return pattern

