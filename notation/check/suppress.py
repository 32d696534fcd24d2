"""Inline suppressions: ``notation: ignore`` comments that silence the check for one line
or one game.

- A FEN or EPD line ending in ``# notation: ignore`` or ``# notation: ignore[code, code]``:
  the comment is cut off before the line is judged, and that line's problems (all, or those
  codes) are not reported.
- A PGN game holding the comment ``{notation: ignore}`` or ``{notation: ignore[code]}``
  (or a ``;`` rest-of-line comment of the same text): that game's problems are not reported.

``Suppression`` says which codes (None: every code); nothing here reads files or judges.
Codes are not checked against the known ones: an unknown code silences nothing.
"""


import re
from typing import Any, Final

_CODES = r"(?:\[(?P<codes>[^\]\n]*)\])?"
# Patterns, not compiled ones: they are compiled (through ``re``'s own cache) by the first
# text that holds ``notation:``, not at every check's start-up.
LINE_MARKER = r"\s+#\s*notation:\s*ignore" + _CODES + r"\s*$"
GAME_MARKER = r"(?:\{\s*|;[ \t]*)notation:\s*ignore" + _CODES + r"(?:\s*\}|[ \t]*(?:\n|$))"


class Suppression:
    """Codes to silence on some lines; ``codes`` None silences every code. Read-only, equal
    to another with the same fields; a plain class, as ``Finding`` is."""

    __slots__ = ("first_line", "last_line", "codes")

    def __init__(self, first_line: int, last_line: int, codes: frozenset[str] | None) -> None:
        self.first_line: Final = first_line
        self.last_line: Final = last_line
        self.codes: Final = codes

    def __reduce__(self) -> "tuple[type[Suppression], tuple[Any, ...]]":
        """Pickled through ``__init__``: its fields are read-only (and compiled, it keeps
        no dictionary)."""
        return (Suppression, (self.first_line, self.last_line, self.codes))

    def covers(self, line: int, code: str) -> bool:
        return self.first_line <= line <= self.last_line and (self.codes is None or code in self.codes)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Suppression):
            return NotImplemented
        return (self.first_line, self.last_line, self.codes) == (other.first_line, other.last_line, other.codes)

    def __hash__(self) -> int:
        return hash((self.first_line, self.last_line, self.codes))

    def __repr__(self) -> str:
        return f"Suppression(first_line={self.first_line!r}, last_line={self.last_line!r}, codes={self.codes!r})"

def _codes(text: str | None) -> frozenset[str] | None:
    if text is None:
        return None
    return frozenset(code.strip() for code in text.split(",") if code.strip())


def split_line_marker(text: str, line: int) -> tuple[str, Suppression | None]:
    """``text`` without a trailing ``# notation: ignore[...]`` comment, and the suppression
    that comment asks for on ``line`` (None without one)."""
    found = re.search(LINE_MARKER, text) if "notation:" in text else None
    if found is None:
        return text, None
    return text[: found.start()], Suppression(line, line, _codes(found.group("codes")))


def game_suppression(text: str, first_line: int, movetext_from: int = 0) -> Suppression | None:
    """The suppression a game's text asks for, over its lines, or None. The marker is a
    comment, so it is sought from ``movetext_from`` on (where the game's tags end, when
    that is known: ``RawGame.tags_end``)."""
    # Every game is searched, so its rarest letter in movetext is sought first: memchr finds
    # a lowercase o at C speed, and SAN, move numbers, clocks and evaluations hold none
    # (where "notation:" itself was sought through each clock's colons).
    if text.find("o", movetext_from) < 0 or text.find("notation:", movetext_from) < 0:
        return None
    found = re.compile(GAME_MARKER).search(text, movetext_from)
    if found is None:
        return None
    codes = _codes(found.group("codes"))
    # the game's own lines: the blank lines after it end on the next game's first line
    return Suppression(first_line, first_line + text.rstrip().count("\n"), codes)
