"""Tags set in one game's text: a value replaced in place, or a new tag line. No other byte
moves. Nothing here raises.

A new line ends as the tag line it follows does. Where the tags after the Seven Tag Roster
are in ASCII order (as the PGN standard's export format writes them, section 8.1.1), a new
tag goes to its place among them; otherwise after the last tag line (before it when
movetext follows the tag on its line), or at the start of a game without tags.
"""

from __future__ import annotations

from typing import Final

from notation.pgn.lines import line_ending
from notation.pgn.splitter import iter_games
from notation.pgn.tags import Tag, escape_tag_value

ROSTER: Final = ("Event", "Site", "Date", "Round", "White", "Black", "Result")


def unknown(value: str) -> bool:
    """A value that says nothing (``?``, ``????.??.??``, empty): a placeholder."""
    return not value.strip(" ?.-")


def set_tags(text: str, tags: tuple[tuple[str, str], ...], *, replace: bool = True) -> str:
    """``text`` (one game) with each of ``tags`` (name, value): the first tag of that name
    given the value (``replace``; else only where its value is ``unknown``), or a new line
    when there is none."""
    if not tags:
        return text
    games = list(iter_games(text))
    found = games[0].tags if games else []
    edits: list[tuple[int, int, str]] = []
    if _in_order(found):
        tags = tuple(sorted(tags))  # new lines in ASCII order among themselves too
    for name, value in tags:
        tag = next((tag for tag in found if tag.name == name), None)
        if tag is None:
            edits.append(_new_line(text, found, name, value))
        elif tag.value != value and (replace or unknown(tag.value)):
            at = tag.line_offset
            edits.append((at + tag.value_start, at + tag.value_end, escape_tag_value(value)))
    # from the end back; new lines at one place in the order given (the last one put in first)
    for _index, (start, end, replacement) in sorted(enumerate(edits), key=lambda e: (e[1][0], e[1][1], e[0]),
                                                    reverse=True):
        text = text[:start] + replacement + text[end:]
    return text


def _new_line(text: str, found: list[Tag], name: str, value: str) -> tuple[int, int, str]:
    """Where a new tag line goes, and the line."""
    if not found:
        ending = line_ending(text.split("\n", 1)[0] + "\n") or "\n"
        return 0, 0, f'[{name} "{escape_tag_value(value)}"]{ending}'
    others = [tag for tag in found if tag.name not in ROSTER]
    anchor = found[-1]
    if _in_order(found) and name not in ROSTER:
        later = next((tag for tag in others if tag.name > name), None)
        if later is not None:  # before the first tag after it in ASCII order
            line = text[later.line_offset:later.line_offset + later.line_length]
            ending = line_ending(line) or "\n"
            return later.line_offset, later.line_offset, f'[{name} "{escape_tag_value(value)}"]{ending}'
    line = text[anchor.line_offset:anchor.line_offset + anchor.line_length]
    ending = line_ending(line) or "\n"
    new = f'[{name} "{escape_tag_value(value)}"]{ending}'
    if line[anchor.end:].strip() or not line_ending(line):
        return anchor.line_offset, anchor.line_offset, new  # movetext (or the text's end) after the tag
    at = anchor.line_offset + anchor.line_length
    return at, at, new


def _in_order(found: list[Tag]) -> bool:
    """Whether the tags after the roster are in ASCII order (none or one are)."""
    names = [tag.name for tag in found if tag.name not in ROSTER]
    return names == sorted(names)
