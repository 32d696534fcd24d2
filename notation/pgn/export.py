"""One game written in the PGN standard's export format: ``export_game``.

``export_game(text, form, turn=..., fullmove=...)`` lays out one game's text (its tags and
its movetext, moves already written as they should be) in export format (the PGN standard,
sections 3.2, 8.1, 8.2), or in its reduced export format (section 3.2.4):

- tags: each on a line of its own as ``[Name "value"]``; the Seven Tag Roster first, in its
  order (section 8.1.1: Event, Site, Date, Round, White, Black, Result), a missing one
  written with its "unknown" value (``?``, ``????.??.??`` for Date; Result: the game's
  result), then the other tags in ASCII order of their names (``FEN`` before ``SetUp``
  before ``Variant``), a tag repeated keeping its place after the first; one empty line;
- movetext: tokens separated by one space, in lines of fewer than 80 characters, as many
  tokens on a line as fit (section 8.2.1); ``(`` and ``)`` written against the token they
  enclose (``(2... Nf6 3. d3)``); move numbers written anew (section 8.2.2.2): ``12.``
  before every move of the side to move first (White), ``12...`` before the other side's
  move only where it starts the game or a variation, or follows a comment or a variation's
  end (not after a NAG alone: python-chess and pgn-extract write none there); the suffix
  glyphs ``!`` ``?`` ``!!`` ``??`` ``!?`` ``?!`` as their NAGs ``$1`` to ``$6`` (section
  8.2.3.8), the evaluation signs of the NAG table as theirs (``+-`` ``$18``, ``N``
  ``$146``); a sign whose NAG depends on the side (``→``) is kept as written; the result
  last, equal to the ``Result`` tag (a Result tag that is none of the four results is kept,
  and the movetext's own result, else ``*``, ends the moves); one empty line after;
- comments (the standard leaves their export form open, section 5): a brace comment's
  words are kept in order, the white space between them (spaces, tabs, line breaks)
  becomes one space; a comment that fits on a line is never broken (it starts a new line
  when the current one is full), a longer one is broken between its words (a word starting
  with ``[`` or ``%`` stays on the line of the word before it, so no line of movetext
  starts as a tag or an escape line). A ``;`` comment becomes a brace comment of its text
  (``; good`` -> ``{good}``), unless its text holds a ``}``: then it stays a ``;`` comment,
  and the line ends after it. An escape line (``%`` first) stays a line of its own. A
  comment or NAG after the game's result is written before it.
- reduced (``ExportFormat.REDUCED``): the Seven Tag Roster and only those other tags the
  moves need to be read (``FEN``, ``SetUp``, ``Variant``, pgn-extract's choice for its
  ``-7``); no comments, escape lines, NAGs, glyphs or variations.

Returns None where the game cannot be laid out without losing text: a line of its tag
section that holds more than tags, a comment never closed, a scan stopped by its budget.
Nothing else is checked here (the caller has read and checked the moves); nothing raises.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from notation.lean_enum import LeanStrEnum
from notation.patterns import compiled
from notation.pgn.lines import split_lines
from notation.pgn.movetext import (
    DEFAULT_BUDGET,
    T_CLOSE,
    T_COMMENT,
    T_END,
    T_ESCAPE,
    T_GLYPH,
    T_LINE_COMMENT,
    T_MOVE,
    T_NAG,
    T_NUMBER,
    T_OPEN,
    T_RESULT,
    Budget,
    Scanner,
    canonical_result,
    movetext_start,
)
from notation.pgn.tags import TAG, escape_tag_value, unescape_tag_value

__all__ = ["ExportFormat", "ROSTER", "export_game"]


class ExportFormat(LeanStrEnum):
    """How ``normalize`` lays out games: as read, or in the standard's export format."""

    KEEP = "keep"  # the game's own layout (the default)
    FULL = "full"  # export format: every tag, comment, NAG and variation kept
    REDUCED = "reduced"  # reduced export format: the roster (and FEN, SetUp, Variant), the moves


# The Seven Tag Roster in its order, with the value a missing one is written with
# (section 8.1.1; Result's is the game's result).
ROSTER: Final[Mapping[str, str]] = MappingProxyType({
    "Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": "?", "Black": "?", "Result": "*",
})
# The tags reduced export keeps beyond the roster: those the moves cannot be read without.
_SETUP_TAGS: Final = frozenset({"FEN", "SetUp", "Variant"})
RESULTS: Final = ("1-0", "0-1", "1/2-1/2", "*")

LINE_WIDTH: Final = 79  # fewer than 80 characters a line (section 8.2.1), as ``gamewrite`` writes
# The suffix glyphs with their NAGs (section 8.2.3.8); the evaluation signs' are the move
# layer's (``glyph_nags``).
SUFFIX_NAGS: Final[Mapping[str, int]] = MappingProxyType({"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6})
_GLYPH_NAGS: dict[str, int] = {}

_PLAIN: Final = 0  # a unit laid out with the others
_LINE_END: Final = 1  # a ";" comment: the line ends after it
_OWN_LINE: Final = 2  # an escape line: a line of its own


_Unit = tuple[str, int]  # a unit of the layout: its text and how it is laid out (_PLAIN, ...)


def export_game(text: str, form: ExportFormat, *, turn: str = "w", fullmove: int = 1,
                budget: Budget = DEFAULT_BUDGET) -> str | None:
    """``text`` (one game) in export ``form``; ``turn`` (``"w"`` or ``"b"``) and
    ``fullmove`` are those of the game's start position. None where it cannot be laid out
    without losing text (see the module doc)."""
    begin = movetext_start(text)
    tags = _tags(text[:begin])
    if tags is None:
        return None
    moves = _Movetext(text, form is ExportFormat.REDUCED, turn == "b", fullmove)
    if not moves.read(Scanner(text, begin, budget)):
        return None
    if not tags and not moves.is_game:
        return text  # no game: text between games (an escape line), kept as it is
    said = next((value for name, value in tags if name == "Result"), None)
    result = said if said is not None and said in RESULTS else moves.result or "*"
    units = moves.units
    units.append((result, _PLAIN))
    ending = _ending(text)
    head = "".join(f'[{name} "{escape_tag_value(value)}"]{ending}'
                   for name, value in _ordered(tags, form, result))
    return head + ending + ending.join(_layout(units)) + ending + ending


def _tags(header: str) -> list[tuple[str, str]] | None:
    """The tags of a game's tag section, in order; None when a line holds other text."""
    tags: list[tuple[str, str]] = []
    for line in split_lines(header):
        pos = 0
        end = len(line)
        while True:
            while pos < end and (line[pos].isspace() or line[pos] == "\ufeff"):
                pos += 1
            if pos >= end:
                break
            match = compiled(TAG).match(line, pos)
            if match is None:
                return None
            tags.append((match.group(1), unescape_tag_value(match.group(2))))
            pos = match.end()
    return tags


def _ordered(tags: list[tuple[str, str]], form: ExportFormat, result: str) -> list[tuple[str, str]]:
    """The tags to write, in export order: the roster (each name's first tag, or its
    unknown value), then the rest sorted by name (reduced: only ``_SETUP_TAGS``)."""
    out: list[tuple[str, str]] = []
    taken: set[int] = set()
    for name, unknown in ROSTER.items():
        index = next((i for i, (tag_name, _) in enumerate(tags) if tag_name == name), -1)
        if index < 0:
            out.append((name, result if name == "Result" else unknown))
        else:
            out.append(tags[index])
            taken.add(index)
    rest = [tag for i, tag in enumerate(tags) if i not in taken]
    if form is ExportFormat.REDUCED:
        rest = [tag for tag in rest if tag[0] in _SETUP_TAGS]
    rest.sort(key=lambda tag: tag[0])  # stable: a repeated name keeps its order
    return out + rest


class _Movetext:
    """The units of a game's movetext (``read``): moves with their numbers written anew,
    comments, NAGs and escape lines (not in reduced export), parentheses glued on; the main
    line's ``result`` (canonical, None: none) left out, annotations after it put before it."""

    def __init__(self, text: str, reduced: bool, black_first: bool, fullmove: int) -> None:
        self.text = text
        self.reduced = reduced
        self.first_black = 1 if black_first else 0
        self.fullmove = fullmove
        self.units: list[_Unit] = []
        self.result: str | None = None
        self.is_game = False  # a move or a result was met

    def read(self, scanner: Scanner) -> bool:
        """Read the tokens ``scanner`` cuts; False for a comment never closed or a scan
        stopped by its budget."""
        text = self.text
        reduced = self.reduced
        units = self.units
        after_result: list[tuple[int, str]] = []  # annotations after the main result
        stack: list[tuple[int, int]] = []
        ply = 0  # moves played in the line
        previous_ply = 0  # moves played before the line's last move
        need_number = True
        opening = ""  # "(" waiting for the unit it opens
        skipping = 0  # reduced: depth inside a variation left out
        kind = scanner.next()
        while kind != T_END:
            if kind == T_NUMBER:  # the commonest token: move numbers are written anew
                kind = scanner.next()
                continue
            word = text[scanner.start:scanner.end]
            pieces: list[_Unit]
            if kind == T_MOVE and not skipping and self.result is None:
                self.is_game = True
                index = ply + self.first_black
                number = self.fullmove + index // 2
                if index % 2 == 0:
                    pieces = [(f"{number}.", _PLAIN), (word, _PLAIN)]
                elif need_number:
                    pieces = [(f"{number}...", _PLAIN), (word, _PLAIN)]
                else:
                    pieces = [(word, _PLAIN)]
                previous_ply = ply
                ply += 1
                need_number = False
            elif kind == T_OPEN:
                if reduced:
                    skipping += 1
                else:
                    stack.append((ply, previous_ply))
                    ply = previous_ply
                    opening += "("
                    need_number = True
                kind = scanner.next()
                continue
            elif kind == T_CLOSE:
                if reduced:
                    skipping = max(0, skipping - 1)
                else:
                    if stack:
                        ply, previous_ply = stack.pop()
                    _close(units)
                    need_number = True
                kind = scanner.next()
                continue
            elif skipping:
                kind = scanner.next()
                continue
            elif kind == T_RESULT:
                self.is_game = True
                if not stack and self.result is None:
                    self.result = canonical_result(word)
                    kind = scanner.next()
                    continue
                pieces = [(canonical_result(word), _PLAIN)]  # a result inside a variation
            elif self.result is not None:
                after_result.append((kind, word))
                kind = scanner.next()
                continue
            elif kind == T_COMMENT and not reduced:  # the next commonest (clocks, evaluations)
                if not word.endswith("}"):
                    return False
                pieces = _comment(word)
                need_number = True
            else:
                annotation = _annotation(word, kind, reduced)
                if annotation is None:
                    return False
                if not annotation:
                    kind = scanner.next()
                    continue
                pieces = annotation
                if kind != T_NAG and kind != T_GLYPH:
                    need_number = True
            if opening:
                first, first_kind = pieces[0]
                if first_kind == _OWN_LINE:
                    units.append((opening, _PLAIN))
                elif first_kind == _PLAIN:
                    pieces[0:1] = _fitted(opening + first)
                else:
                    pieces[0] = (opening + first, first_kind)
                opening = ""
            units.extend(pieces)
            kind = scanner.next()
        if scanner.overflow is not None:
            return False
        if opening:
            units.append((opening, _PLAIN))
        for after_kind, word in after_result:
            annotation = _annotation(word, after_kind, reduced)
            if annotation is None:
                return False
            units.extend(annotation)
        return True


def _annotation(word: str, kind: int, reduced: bool) -> list[_Unit] | None:
    """The units of a comment, escape line, NAG or glyph (none in reduced export, nor for
    a token of another kind); None for a comment never closed."""
    if reduced:
        return []
    if kind == T_COMMENT:
        return _comment(word) if word.endswith("}") else None
    if kind == T_NAG:
        return [(f"${int(word[1:])}", _PLAIN)]
    if kind == T_GLYPH:
        nag = glyph_nags().get(word)
        return [(word if nag is None else f"${nag}", _PLAIN)]
    if kind == T_LINE_COMMENT:
        return _line_comment(word)
    if kind == T_ESCAPE:
        return [(word.strip(), _OWN_LINE)]
    return []


def glyph_nags() -> Mapping[str, int]:
    """Each glyph the scanner reads with its NAG (section 10): the suffix glyphs, the
    evaluation signs of the move layer's table, ``N`` (a novelty, 146). Made on first use:
    a run that exports nothing does not import the move layer."""
    if not _GLYPH_NAGS:
        from notation.moves.chess import EVALUATION_NAGS, NOVELTY_NAG

        _GLYPH_NAGS.update(SUFFIX_NAGS)
        _GLYPH_NAGS.update(EVALUATION_NAGS)
        _GLYPH_NAGS["N"] = NOVELTY_NAG
    return _GLYPH_NAGS


def _close(units: list[_Unit]) -> None:
    """A ``)`` glued to the unit before it (alone after a ``;`` comment or an escape line)."""
    if units and units[-1][1] == _PLAIN:
        units[-1:] = _fitted(units[-1][0] + ")")
    else:
        units.append((")", _PLAIN))


def _comment(word: str) -> list[_Unit]:
    """A brace comment's units: itself with its white space made single spaces (``_fitted``)."""
    return _fitted(" ".join(word.split()))


def _fitted(text: str) -> list[_Unit]:
    """``text`` as one unit where it fits on a line or holds no space (a comment, with the
    parentheses glued to it), else its words, a word starting with ``[`` or ``%`` joined to
    the one before."""
    if len(text) <= LINE_WIDTH or " " not in text:
        return [(text, _PLAIN)]
    units: list[_Unit] = []
    for piece in text.split(" "):
        if units and piece[0] in "[%":
            units[-1] = (f"{units[-1][0]} {piece}", _PLAIN)
        else:
            units.append((piece, _PLAIN))
    return units


def _line_comment(word: str) -> list[_Unit]:
    """A ``;`` comment as a brace comment of its text, or, where its text holds a ``}``,
    as it is, ending its line."""
    body = word[1:].strip()
    if "}" in body:
        return [(word.rstrip(), _LINE_END)]
    return _comment("{" + body + "}")


def _layout(units: list[_Unit]) -> list[str]:
    """The units in lines of at most ``LINE_WIDTH`` characters, one space between (a unit
    longer than a line stands alone on its own)."""
    lines: list[str] = []
    current: list[str] = []
    width = -1  # the current line's length: its words and the spaces between them
    for text, kind in units:
        if kind == _OWN_LINE:
            if current:
                lines.append(" ".join(current))
            lines.append(text)
            current = []
            width = -1
            continue
        if current and width + 1 + len(text) > LINE_WIDTH:
            lines.append(" ".join(current))
            current = []
            width = -1
        current.append(text)
        width += 1 + len(text)
        if kind == _LINE_END:
            lines.append(" ".join(current))
            current = []
            width = -1
    if current:
        lines.append(" ".join(current))
    return lines


def _ending(text: str) -> str:
    """The line ending the game's text uses (its first), ``\\n`` where it has none."""
    for index, char in enumerate(text):
        if char == "\n":
            return "\n"
        if char == "\r":
            return "\r\n" if text.startswith("\n", index + 1) else "\r"
    return "\n"
