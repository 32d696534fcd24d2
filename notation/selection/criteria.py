"""What ``notation select`` asks of a game: ``Criteria`` and the tests it is made of.

- ``TagTest``: ``NAME=VALUE`` (the tag's value, unescaped, equal to VALUE) or
  ``NAME~REGEX`` (Python's ``re.search`` finds REGEX in the value). Tag names are matched
  exactly, case and all, as pgn-extract matches them and the PGN standard spells them
  (section 8.1.1: tag names are case sensitive); a game's first tag of a name is the one
  judged, and a game without the tag fails both forms.
- ``PlyRange``: ``MIN:MAX`` plies on the main line, either bound may be left out
  (``40:``, ``:10``); a lone ``N`` is ``N:N``.
- ``Criteria``: all of its tests must hold (the tag tests all; ``variants``,
  ``reaches`` and ``problems`` each any of theirs); ``keep`` says whether the games that
  pass are kept or those that fail (``--invert``).

``parse_tag_test`` and ``parse_plies`` raise ``ValueError`` with a message for a user;
nothing else here raises.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from notation.lean_enum import LeanStrEnum

# A tag name as the PGN standard forms it (section 8.1.1: letters, digits and underscores).
_TAG_NAME = re.compile(r"[A-Za-z0-9_]+")


class Keep(LeanStrEnum):
    """Which games a selection writes."""

    MATCHING = "matching"  # the games that meet every criterion (the default)
    OTHERS = "others"  # the games that do not (``--invert``)


@dataclass(frozen=True)
class TagTest:
    """One ``--tag`` test: ``value`` compared exactly, or ``pattern`` searched for."""

    name: str
    value: str | None = None
    pattern: re.Pattern[str] | None = None

    def holds(self, found: str | None) -> bool:
        """Whether a game whose tag has the value ``found`` (None: no such tag) passes."""
        if found is None:
            return False
        if self.pattern is not None:
            return self.pattern.search(found) is not None
        return found == self.value

    def __str__(self) -> str:
        if self.pattern is not None:
            return f"{self.name}~{self.pattern.pattern}"
        return f"{self.name}={self.value}"


def parse_tag_test(text: str) -> TagTest:
    """``NAME=VALUE`` or ``NAME~REGEX`` as a ``TagTest``; raises ``ValueError`` for another
    form or a regular expression Python cannot compile."""
    name = _TAG_NAME.match(text)
    end = 0 if name is None else name.end()
    if name is None or end >= len(text) or text[end] not in "=~":
        raise ValueError(f"--tag {text!r}: write NAME=VALUE (the exact value) or NAME~REGEX (a regular expression "
                         "searched for), NAME of letters, digits and underscores")
    value = text[end + 1:]
    if text[end] == "=":
        return TagTest(name.group(), value=value)
    try:
        return TagTest(name.group(), pattern=re.compile(value))
    except re.error as exc:
        raise ValueError(f"--tag {text!r}: the regular expression {value!r} is not valid: {exc}") from None


@dataclass(frozen=True)
class PlyRange:
    """Plies of the main line from ``least`` to ``most`` (None: unbounded), both included."""

    least: int | None = None
    most: int | None = None

    def holds(self, plies: int) -> bool:
        return (self.least is None or plies >= self.least) and (self.most is None or plies <= self.most)


def parse_plies(text: str) -> PlyRange:
    """``MIN:MAX`` (either may be empty) or ``N`` as a ``PlyRange``; raises ``ValueError``
    for anything else, a negative count, or MIN above MAX."""
    low, colon, high = text.strip().partition(":")
    if not colon:
        high = low

    def bound(part: str) -> int | None:
        part = part.strip()
        if not part:
            return None
        if not part.isdigit():
            raise ValueError(f"--plies {text!r}: write MIN:MAX with whole numbers of plies (either may be left "
                             "out: 40: or :10), or N")
        return int(part)

    least, most = bound(low), bound(high)
    if not colon and least is None:
        raise ValueError(f"--plies {text!r}: write MIN:MAX (either may be left out) or N")
    if least is not None and most is not None and least > most:
        raise ValueError(f"--plies {text!r}: MIN is more than MAX, so no game could match")
    return PlyRange(least, most)


@dataclass(frozen=True)
class Criteria:
    """What a game must meet to be selected (see the module doc): ``tags`` all hold;
    ``variants`` (registry keys) holds the game's variant, if given; its main line reaches
    one of ``reaches`` (FENs), if given; its main line's plies are within ``plies``; it has
    a problem with one of the codes in ``problems``, if given, as ``notation check`` finds
    them. Empty criteria select every game."""

    tags: tuple[TagTest, ...] = ()
    variants: frozenset[str] = frozenset()
    reaches: tuple[str, ...] = ()
    plies: PlyRange | None = None
    problems: frozenset[str] = frozenset()
    keep: Keep = Keep.MATCHING

    @property
    def reads_moves(self) -> bool:
        """Whether a game's moves must be read to judge it (not for tags and variants)."""
        return bool(self.reaches) or self.plies is not None or bool(self.problems)

    @property
    def reads_game(self) -> bool:
        """Whether more than the tags is judged (the variant, the start, the moves)."""
        return bool(self.variants) or self.reads_moves
