"""Tags set in one game's text: a value replaced in place, or a new tag line after the last
one, ending as that line does (before it when movetext follows the tag on its line; at the
start when the game has no tags). No other byte moves. Nothing here raises."""

from __future__ import annotations

from notation.pgn.lines import line_ending
from notation.pgn.splitter import iter_games
from notation.pgn.tags import escape_tag_value


def set_tags(text: str, tags: tuple[tuple[str, str], ...], *, replace: bool = True) -> str:
    """``text`` (one game) with each of ``tags`` (name, value): the first tag of that name
    given the value (``replace``; else left as it is), or a new line when there is none."""
    if not tags:
        return text
    games = list(iter_games(text))
    found = games[0].tags if games else []
    edits: list[tuple[int, int, str]] = []
    new: list[tuple[str, str]] = []
    for name, value in tags:
        tag = next((tag for tag in found if tag.name == name), None)
        if tag is None:
            new.append((name, value))
        elif replace and tag.value != value:
            at = tag.line_offset
            edits.append((at + tag.value_start, at + tag.value_end, escape_tag_value(value)))
    if new:
        edits.append(_new_lines(text, found, new))
    for start, end, replacement in sorted(edits, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text


def _new_lines(text: str, found: list, new: list[tuple[str, str]]) -> tuple[int, int, str]:
    if not found:
        ending = line_ending(text.split("\n", 1)[0] + "\n") or "\n"
        return 0, 0, "".join(f'[{name} "{escape_tag_value(value)}"]{ending}' for name, value in new)
    last = found[-1]
    line = text[last.line_offset:last.line_offset + last.line_length]
    ending = line_ending(line) or "\n"
    lines = "".join(f'[{name} "{escape_tag_value(value)}"]{ending}' for name, value in new)
    if line[last.end:].strip() or not line_ending(line):
        return last.line_offset, last.line_offset, lines  # movetext (or the text's end) after the tag
    at = last.line_offset + last.line_length
    return at, at, lines
