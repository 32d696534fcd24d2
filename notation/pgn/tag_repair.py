"""``--fix-tags``: tag values written as the PGN standard writes them, tag names in their case.

``tag_fixes(text, tags)`` lists the changes, each one a name or a value of one tag:

- **dates** (``Date``, ``UTCDate``, ``EventDate``, ``SourceDate``): the standard's
  ``YYYY.MM.DD`` (section 8.1.1.3), unknown parts as ``??`` (``????`` for the year):
  ``2024.1.5`` and ``2024/01/05`` and ``2024-01-05`` become ``2024.01.05``, ``2024.?.?``
  and ``2024`` become ``2024.??.??``, an ISO time stamp (``2024-01-05T10:00:00Z``) and a
  JavaScript date string (``Fri Jan 05 2024 10:00:00 GMT+0100 (...)``, or its UTC form
  ``Fri, 05 Jan 2024 10:00:00 GMT``) the date they give, as written (no time zone is
  applied); an empty value, ``?`` or ``-`` becomes ``????.??.??``. A month over 12 or a
  day over 31 is left as it is: it is no date to mend;
- **Elo** (``WhiteElo``, ``BlackElo``): a rating is an integer; no rating (``-``,
  ``unrated``, ``none``, ``n/a``, ``0``, an empty value) is written ``?``, the standard's
  sign of an unknown value and what lichess and pgn-extract write where a player has no
  rating (the standard gives no rule for Elo tags); spaces around a number are taken away;
- **Round** (section 8.1.1.4: ``?`` unknown, ``-`` not applicable, ``1.2`` a round's
  parts): an empty value becomes ``?``, ``Round 3``, ``R3``, ``Rd. 3`` and ``3.`` become
  ``3``, spaces around it are taken away;
- **names**: a standard tag (section 8.1.1 and 9) or a common one (``Variant``,
  ``WhiteFideId``, ...) written in another case takes its own (``white`` -> ``White``,
  ``EVENT`` -> ``Event``, ``fen`` -> ``FEN``, ``setup`` -> ``SetUp``, ``whiteelo`` ->
  ``WhiteElo``), unless the game holds that name already.

Other tags and everything else in a tag's line stay as they were. Not done here: the
``Result`` tag (``--fix-results``), and names of the ``Variant``, ``FEN`` and ``SetUp``
tags that ``normalize`` rewrites itself. Nothing here raises.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final, NamedTuple

from notation.pgn.tags import Tag

KNOWN_NAMES: Final = (
    # the Seven Tag Roster and the standard's supplemental tags (sections 8.1.1, 9)
    "Event", "Site", "Date", "Round", "White", "Black", "Result",
    "WhiteTitle", "BlackTitle", "WhiteElo", "BlackElo", "WhiteUSCF", "BlackUSCF", "WhiteNA", "BlackNA",
    "WhiteType", "BlackType", "EventDate", "EventSponsor", "Section", "Stage", "Board", "Opening", "Variation",
    "SubVariation", "ECO", "NIC", "Time", "UTCTime", "UTCDate", "TimeControl", "SetUp", "FEN", "Termination",
    "Annotator", "Mode", "PlyCount",
    # common ones: lichess, chess.com, FIDE databases, ChessBase
    "Variant", "WhiteFideId", "BlackFideId", "WhiteTeam", "BlackTeam", "WhiteRatingDiff", "BlackRatingDiff",
    "EventType", "EventRounds", "EventCountry", "EventCategory", "Source", "SourceDate", "StartTime", "EndTime",
    "EndDate", "Link", "TimeZone",
)
_BY_LOWER: Final = {name.lower(): name for name in KNOWN_NAMES}
DATE_TAGS: Final = frozenset({"Date", "UTCDate", "EventDate", "SourceDate", "EndDate"})
ELO_TAGS: Final = frozenset({"WhiteElo", "BlackElo"})
_SET_BY_NORMALIZE: Final = frozenset({"Variant", "FEN", "Result"})  # their values: normalize's own, --fix-results
_MONTHS: Final = {name: index + 1 for index, name in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"))}

_DOTTED = re.compile(r"(\d{4}|\?{1,4})(?:[./-](\d{1,2}|\?{1,2})(?:[./-](\d{1,2}|\?{1,2}))?)?")
_ISO_STAMP = re.compile(r"(\d{4})-(\d{2})-(\d{2})[T ]\d{1,2}:\d{2}.*")
_JS_DATE = re.compile(r"(?i:mon|tue|wed|thu|fri|sat|sun)[a-z]*\s+([A-Za-z]{3})[a-z]*\.?\s+(\d{1,2}),?\s+(\d{4})\b.*")
_UTC_DATE = re.compile(r"(?i:mon|tue|wed|thu|fri|sat|sun)[a-z]*,?\s+(\d{1,2})\s+([A-Za-z]{3})[a-z]*\.?\s+(\d{4})\b.*")
_NO_RATING: Final = frozenset({"", "-", "--", "?", "unrated", "none", "n/a", "na", "0", "nr", "unr", "unr."})
_ROUND_WORD = re.compile(r"(?i:round|rd|r)\.?\s*(\d+(?:\.\d+)*)\.?")
_ROUND_DOT = re.compile(r"(\d+(?:\.\d+)*)\.")


class TagFix(NamedTuple):
    """One change: ``text[start:end]`` (offsets in the game's text) becomes ``new``; ``old``
    was there (both unescaped for a value); ``part`` is ``"name"`` or ``"value"``."""

    tag: Tag
    part: str
    start: int
    end: int
    old: str
    new: str


def tag_fixes(text: str, tags: Iterable[Tag], *, setup_by_normalize: bool = False) -> list[TagFix]:
    """The changes ``--fix-tags`` makes to the ``tags`` of the game ``text``, in order;
    ``setup_by_normalize``: the game has a ``FEN`` tag, whose ``SetUp`` tag ``normalize``
    writes itself (its name is left to it)."""
    tags = list(tags)
    names = {tag.name for tag in tags}
    fixes: list[TagFix] = []
    for tag in tags:
        name = tag.name
        right = _BY_LOWER.get(name.lower())
        if right is not None and right != name and right not in names:
            if not (right == "SetUp" and setup_by_normalize):
                start = text.find(name, tag.line_offset + tag.start + 1)
                if start >= 0:
                    fixes.append(TagFix(tag, "name", start, start + len(name), name, right))
                    names.add(right)
            name = right
        if name in _SET_BY_NORMALIZE:
            continue
        value = fixed_value(name, tag.value)
        if value is not None and value != tag.value:
            fixes.append(TagFix(tag, "value", tag.line_offset + tag.value_start, tag.line_offset + tag.value_end,
                                tag.value, value))
    return fixes


def fixed_value(name: str, value: str) -> str | None:
    """The value of the tag ``name`` as it should be written, or None where there is no
    rule for it (or none that applies)."""
    if name in DATE_TAGS:
        return fixed_date(value)
    if name in ELO_TAGS:
        return fixed_elo(value)
    if name == "Round":
        return fixed_round(value)
    return None


def fixed_date(value: str) -> str | None:
    """A date as ``YYYY.MM.DD`` with ``?`` for unknown digits, or None (no date read)."""
    stripped = value.strip()
    if stripped in ("", "?", "-"):
        return "????.??.??"
    stamp = _ISO_STAMP.fullmatch(stripped)
    if stamp is not None:
        return _date(stamp.group(1), stamp.group(2), stamp.group(3))
    for pattern, year, month, day in ((_JS_DATE, 3, 1, 2), (_UTC_DATE, 3, 2, 1)):
        found = pattern.fullmatch(stripped)
        if found is not None:
            number = _MONTHS.get(found.group(month).lower())
            if number is None:
                return None
            return _date(found.group(year), str(number), found.group(day))
    dotted = _DOTTED.fullmatch(stripped)
    if dotted is not None:
        return _date(dotted.group(1), dotted.group(2) or "?", dotted.group(3) or "?")
    return None


def _date(year: str, month: str, day: str) -> str | None:
    if "?" in year:
        year = "????"
    month = "??" if "?" in month else month.zfill(2)
    day = "??" if "?" in day else day.zfill(2)
    if month != "??" and not 1 <= int(month) <= 12:
        return None
    if day != "??" and not 1 <= int(day) <= 31:
        return None
    return f"{year}.{month}.{day}"


def fixed_elo(value: str) -> str | None:
    """An Elo value: the integer, or ``?`` for no rating; None for another text."""
    stripped = value.strip()
    if stripped.lower() in _NO_RATING:
        return "?"
    if stripped.isdigit():
        return stripped
    return None


def fixed_round(value: str) -> str | None:
    """A Round value: ``?``, ``-`` or numbers joined by dots; None for another text."""
    stripped = value.strip()
    if not stripped:
        return "?"
    for pattern in (_ROUND_WORD, _ROUND_DOT):
        found = pattern.fullmatch(stripped)
        if found is not None:
            return found.group(1)
    return stripped
