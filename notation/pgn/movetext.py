"""The tokens of PGN movetext, each with its exact span in the game's text.

``Scanner(text, start, budget)`` cuts the movetext of one game (from ``start``, where
``movetext_start`` says the tags end) into tokens, one per ``next()``: it returns the
token's kind as a small int (``T_MOVE``, ``T_NUMBER``, ...; ``T_END`` when none is left) and
leaves its span in ``scanner.start`` and ``scanner.end``, offsets into ``text``, so that a
rewrite replaces the spans of the moves it changes and copies every other character as it
was. Whitespace between tokens is not a token; nothing is dropped. ``scan(text, start,
budget)`` is the same as a list of ``Token(kind, start, end)`` (``kind`` a ``TokenKind``),
for tests and callers that want the list.

What it reads, as the PGN standard writes it and as real files bend it:

- ``MOVE``: any other run of characters up to a space, ``{ } ( ) ; $ ! ?``: SAN, LAN, UCI,
  Xiangqi's WXF and ICCS, OpenTafl records, null moves (``--``, ``Z0``), and anything
  unreadable (the move reader decides; it is a move here). Check marks stay on the move;
  annotation glyphs after it are tokens of their own (``e4!?`` is ``e4`` then ``!?``). A
  lone ``}``, or ``$`` without digits, is a move of one character.
- ``NUMBER``: move numbers ``12.``, ``12...``, ``12`` (no period: the standard's import
  format), ``12…``, also glued to their move (``1.e4``), and periods standing alone
  (``12. ... Nf6``). Digits with periods that end in one digit (``12.5``) are a move:
  Xiangqi's WXF numbers pieces from the front and some files write its ``=`` as ``.``.
  A number never starts with ``0`` (``0000`` is UCI's null move).
- ``COMMENT`` (``{...}``, verbatim, ``[%clk ...]`` and ``[%eval ...]`` included; one never
  closed runs to the end), ``LINE_COMMENT`` (``;`` to the end of its line), ``ESCAPE``
  (a line whose first character after spaces is ``%``; elsewhere ``%`` is part of a move).
- ``NAG`` (``$1``), ``GLYPH`` (``!``, ``?``, ``!!``, ``??``, ``!?``, ``?!``, and the
  evaluation signs some editors write: ``+-``, ``=``, ``+/=`` ...: ``GLYPHS``).
- ``OPEN`` and ``CLOSE``: ``(`` and ``)`` of a variation; ``RESULT``: ``1-0``, ``0-1``,
  ``1/2-1/2``, ``*``, each followed by a space, a delimiter or the end; also written with
  another dash (U+2010 to U+2015, U+2212: ``1–0``) or as ``½-½`` (``canonical_result``
  gives the standard's spelling; ``movewalk`` warns, ``result-spelling``).

Spaces are what Python's ``str.isspace`` calls spaces (Unicode's too); digits after a move
number's first are any decimal digits.

The budget (``Budget``) bounds the work on hostile input: at most ``max_tokens`` tokens and
variations nested at most ``max_depth`` deep; the scan stops at the first token past either
and says where (``Scanner.overflow``, ``Scan.overflow``). Nothing here raises on bad input,
nor judges whether parentheses pair up (``movewalk`` does).

Why a hand-written scanner: a database holds millions of games, and most of their
characters are movetext. This module is compiled with mypyc (pyproject.toml), where a loop
over the characters costs a few nanoseconds each and a token no object at all; a compiled
regular expression matched at each token, as this scanner was first written, costs about a
microsecond a token in the same build (each match makes a match object and each token a
tuple), and a pyparsing grammar of the same tokens eight. bench/bench_movetext.py measures
the scanner with the rest of the moves' reading.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final

from notation.lean_enum import LeanStrEnum
from notation.patterns import compiled
from notation.pgn.tags import TAG
from notation.records import Record

if TYPE_CHECKING:  # compiled, a machine integer; interpreted, never looked up (an int)
    from mypy_extensions import i64


class TokenKind(LeanStrEnum):
    """What a token is; the value is its name in fixtures and reports. ``KINDS[code]`` is
    the kind of the token code a ``Scanner`` returns."""

    MOVE = "move"
    NUMBER = "number"
    COMMENT = "comment"
    LINE_COMMENT = "line-comment"
    ESCAPE = "escape"
    NAG = "nag"
    GLYPH = "glyph"
    OPEN = "open"
    CLOSE = "close"
    RESULT = "result"


MOVE: Final = TokenKind.MOVE
NUMBER: Final = TokenKind.NUMBER
COMMENT: Final = TokenKind.COMMENT
LINE_COMMENT: Final = TokenKind.LINE_COMMENT
ESCAPE: Final = TokenKind.ESCAPE
NAG: Final = TokenKind.NAG
GLYPH: Final = TokenKind.GLYPH
OPEN: Final = TokenKind.OPEN
CLOSE: Final = TokenKind.CLOSE
RESULT: Final = TokenKind.RESULT

# The token codes a Scanner returns: plain ints, compared as machine integers when compiled
# (an enum member's hash and ``.value`` are Python code). KINDS maps them back.
T_END: Final = -1
T_MOVE: Final = 0
T_NUMBER: Final = 1
T_COMMENT: Final = 2
T_LINE_COMMENT: Final = 3
T_ESCAPE: Final = 4
T_NAG: Final = 5
T_GLYPH: Final = 6
T_OPEN: Final = 7
T_CLOSE: Final = 8
T_RESULT: Final = 9
KINDS: Final[tuple[TokenKind, ...]] = (MOVE, NUMBER, COMMENT, LINE_COMMENT, ESCAPE, NAG, GLYPH, OPEN, CLOSE, RESULT)


class Token(Record):
    """One token: its kind and its span ``text[start:end]`` in the game's text. A record
    (``notation.records``): it unpacks as ``kind, start, end``."""

    _NAMES: ClassVar = ("kind", "start", "end")

    def __init__(self, kind: TokenKind, start: int, end: int) -> None:
        self.kind: Final = kind
        self.start: Final = start
        self.end: Final = end


# Evaluation signs written as words (the NAG table's symbols, as editors print them); the
# suffix glyphs !, ?, !!, ??, !?, ?! are matched by the scanner itself.
GLYPHS: Final = frozenset({
    "+-", "-+", "+/-", "-/+", "+/=", "=/+", "+=", "=+", "=", "=/∞", "∞", "±", "∓", "⩲", "⩱", "□", "N",
    "→", "↑", "⇆", "⇄", "⟳", "↻", "⨀", "⊙", "⊕", "Δ", "∆", "⌓",  # attack, initiative, counterplay, ...
})

TOO_LONG: Final = "pgn-movetext-too-long"
TOO_DEEP: Final = "pgn-movetext-too-deep"


class Budget(Record):
    """How much one game's movetext may hold: tokens, and variations nested in variations."""

    _NAMES: ClassVar = ("max_tokens", "max_depth")

    def __init__(self, max_tokens: int = 100_000, max_depth: int = 100) -> None:
        self.max_tokens: Final = max_tokens
        self.max_depth: Final = max_depth


DEFAULT_BUDGET: Final = Budget()


class Overflow:
    """Where a scan stopped for its budget: ``code`` (``TOO_LONG`` or ``TOO_DEEP``), the
    offset of the first token not read, and a message. A read-only value, as
    ``notation.problem.Problem`` is (a NamedTuple's class costs every command that reads
    movetext ten times a plain one's at start-up)."""

    def __init__(self, code: str, offset: int, message: str) -> None:
        self.code: Final = code
        self.offset: Final = offset
        self.message: Final = message

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Overflow):
            return NotImplemented
        return self.code == other.code and self.offset == other.offset and self.message == other.message

    def __hash__(self) -> int:
        return hash((self.code, self.offset, self.message))

    def __repr__(self) -> str:
        return f"Overflow(code={self.code!r}, offset={self.offset!r}, message={self.message!r})"

    def __reduce__(self) -> tuple[type[Overflow], tuple[str, int, str]]:
        """Pickled and copied through ``__init__``."""
        return (Overflow, (self.code, self.offset, self.message))


class Scan(Record):
    """The tokens read, in order, and the overflow that stopped the scan (None: all read)."""

    _NAMES: ClassVar = ("tokens", "overflow")

    def __init__(self, tokens: list[Token], overflow: Overflow | None) -> None:
        self.tokens: Final = tokens
        self.overflow: Final = overflow


# The tag section of a game: leading lines that are blank or start with "[" (a byte order
# mark may come first).
_BOM: Final = 0xFEFF  # a byte order mark, which may come before a tag line's "["
_OPEN_BRACKET: Final = 91
_CLOSE_BRACKET: Final = 93

# Characters by code point: ( ) { } ; $ ! ? end a word, as spaces do.
_OPEN_PAREN: Final = 40
_CLOSE_PAREN: Final = 41
_OPEN_BRACE: Final = 123
_CLOSE_BRACE: Final = 125
_SEMICOLON: Final = 59
_DOLLAR: Final = 36
_BANG: Final = 33
_QUERY: Final = 63
_PERCENT: Final = 37
_STAR: Final = 42
_ZERO: Final = 48
_ONE: Final = 49
_HYPHEN: Final = 45
_SLASH: Final = 47
_HALF: Final = 0xBD  # ½
_CANONICAL_RESULTS: Final = ("1-0", "0-1", "1/2-1/2")
_PERIOD: Final = 46
_ELLIPSIS: Final = 0x2026
_LF: Final = 10
_CR: Final = 13
_UPPER_A: Final = 65
_UPPER_Z: Final = 90
_LOWER_A: Final = 97
_LOWER_Z: Final = 122
_NOVELTY: Final = 78  # N: Informator's novelty mark, a glyph when a word of its own


def movetext_start(text: str) -> int:
    """Where a game's movetext starts: after its leading tag lines and blank lines (a line
    of spaces, tabs and byte order marks, then a ``[`` and anything, or nothing, then its
    line end), or after the tags of a tag line that movetext follows; the text's end when
    its last line is a tag line without a line end."""
    return movetext_place(text)[0]


def movetext_place(text: str) -> tuple[int, int]:
    """``(movetext_start(text), the line breaks before it)``: the lines it steps over are
    counted on the way (``\r\n``, ``\n`` or a lone ``\r`` each), so that a ``Locator``
    need not count them again."""
    length = len(text)
    has_cr = "\r" in text
    line_start = 0
    breaks: i64 = 0  # compiled, a machine integer
    while line_start < length:
        pos = line_start
        char = ord(text[pos])
        while char == 32 or char == 9 or char == _BOM:
            pos += 1
            if pos >= length:
                return line_start, breaks  # spaces without a line end
            char = ord(text[pos])
        if char == _OPEN_BRACKET:
            line_end = text.find("\n", pos)
            if has_cr:
                line_end = _first_cr(text, pos, length if line_end < 0 else line_end, line_end)
            moves = _moves_after_tags(text, pos, length if line_end < 0 else line_end)
            if moves >= 0:
                return moves, breaks
            if line_end < 0:
                return length, breaks  # a last tag line without a line end: no movetext
        elif char == _LF or char == _CR:
            line_end = pos
        else:
            return line_start, breaks
        if ord(text[line_end]) == _CR and line_end + 1 < length and ord(text[line_end + 1]) == _LF:
            line_start = line_end + 2
        else:
            line_start = line_end + 1
        breaks += 1
    return line_start, breaks


def _moves_after_tags(text: str, start: int, end: int) -> int:
    """Where movetext begins after the tags of the tag line ``text[start:end]`` (import
    format: ``[Event "x"] 1. e4 *``), as the splitter reads it; -1 when the line holds none."""
    last = end - 1
    while last > start and (ord(text[last]) == 32 or ord(text[last]) == 9):
        last -= 1
    if ord(text[last]) == _CLOSE_BRACKET:
        return -1  # the usual tag line
    pos = start
    found = False
    while pos < end:
        match = compiled(TAG).match(text, pos, end)
        if match is None:
            break
        found = True
        pos = match.end()
        while pos < end and (ord(text[pos]) == 32 or ord(text[pos]) == 9):
            pos += 1
    if not found or pos >= end or text[pos] in '[]"\\{;':
        return -1
    return pos


def _first_cr(text: str, start: int, end: int, otherwise: int) -> int:
    """The first ``\r`` of ``text[start:end]``, or ``otherwise``."""
    found = text.find("\r", start, end)
    return otherwise if found < 0 else found


def _is_space(text: str, index: i64, char: i64) -> bool:
    """Whether ``char`` (``text[index]``'s code point) is a space, as ``\\s`` and
    ``str.isspace`` say."""
    if char < 128:
        return char == 32 or 9 <= char <= 13 or 28 <= char <= 31
    return text[index].isspace()


def _is_digit(text: str, index: i64, char: i64) -> bool:
    """Whether ``char`` (``text[index]``'s code point) is a decimal digit, as ``\\d`` says."""
    if char < 128:
        return 48 <= char <= 57
    return text[index].isdecimal()


def _is_delimiter(char: i64) -> bool:
    """Whether ``char`` ends a word without being a space: ``( ) { } ; $ ! ?``."""
    return (
        char == _OPEN_PAREN or char == _CLOSE_PAREN or char == _OPEN_BRACE or char == _CLOSE_BRACE
        or char == _SEMICOLON or char == _DOLLAR or char == _BANG or char == _QUERY
    )


def _ends_word(text: str, index: i64, length: i64) -> bool:
    """Whether a word may end before ``index``: the end, a space or a delimiter follows."""
    if index >= length:
        return True
    char = ord(text[index])
    return _is_delimiter(char) or _is_space(text, index, char)


def _word_end(text: str, index: i64, length: i64) -> i64:
    """The end of the run of word characters from ``index``."""
    while index < length:
        char = ord(text[index])
        if 42 <= char <= 122 and char != _SEMICOLON and char != _QUERY:
            index += 1  # "*" to "z" (digits, letters, "+", "#", "=", "-") but ";" and "?": a word's
            continue
        if _is_delimiter(char) or _is_space(text, index, char):
            return index
        index += 1
    return length


def _line_end(text: str, index: i64, length: i64) -> i64:
    """Where the line holding ``index`` ends (before its ``\\r`` or ``\\n``)."""
    while index < length:
        char = ord(text[index])
        if char == _LF or char == _CR:
            return index
        index += 1
    return length


def _at_line_start(text: str, offset: i64, floor: i64) -> bool:
    """Whether only spaces or tabs stand between ``offset`` and the line's start."""
    index = offset - 1
    while index >= floor:
        char = ord(text[index])
        if char == _LF or char == _CR:
            return True
        if char != 32 and char != 9:
            return False
        index -= 1
    if floor == 0:
        return True
    char = ord(text[floor - 1])
    return char == _LF or char == _CR


def _is_dash(char: i64) -> bool:
    """Whether ``char`` is a hyphen or another dash a result may be written with (U+2010 to
    U+2015, U+2212)."""
    return char == _HYPHEN or 0x2010 <= char <= 0x2015 or char == 0x2212


def _result_end(text: str, index: i64, length: i64, char: i64) -> i64:
    """The end of a result (``1-0``, ``0-1``, ``1/2-1/2``, ``*``; any dash of ``_is_dash``,
    and ``½-½``) at ``index`` followed by the end, a space or a delimiter; -1 if there is none."""
    if char == _STAR:
        end = index + 1
    elif char == _ONE or char == _ZERO:  # most words start otherwise: no string compared for them
        if index + 2 >= length:
            return -1
        second = ord(text[index + 1])
        if second == _HYPHEN and ord(text[index + 2]) == (_ZERO if char == _ONE else _ONE):
            end = index + 3
        elif second == _SLASH and char == _ONE and text.startswith("1/2-1/2", index):
            end = index + 7
        elif _is_dash(second) and ord(text[index + 2]) == (_ZERO if char == _ONE else _ONE):
            end = index + 3
        elif (second == _SLASH and char == _ONE and index + 6 < length and text.startswith("1/2", index)
              and _is_dash(ord(text[index + 3])) and text.startswith("1/2", index + 4)):
            end = index + 7
        else:
            return -1
    elif char == _HALF:
        if index + 2 >= length or not _is_dash(ord(text[index + 1])) or ord(text[index + 2]) != _HALF:
            return -1
        end = index + 3
    else:
        return -1
    return end if _ends_word(text, end, length) else -1


def canonical_result(word: str) -> str:
    """A result token (as ``_result_end`` reads it) in the PGN standard's spelling."""
    if word == "*" or word in _CANONICAL_RESULTS:
        return word
    if word[0] == "1" and len(word) == 3:
        return "1-0"
    if word[0] == "0":
        return "0-1"
    return "1/2-1/2"


def _number_end(text: str, index: i64, length: i64, char: i64) -> i64:
    """The end of a move number at ``index`` (``12.``, ``12...``, ``12…``, ``12`` before a
    space or a delimiter, periods alone); -1 if there is none (``12.5`` is a move)."""
    if char == _PERIOD or char == _ELLIPSIS:
        return _dots_end(text, index, length)
    if not 49 <= char <= 57:  # a number starts with 1-9
        return -1
    end = index + 1
    while end < length and _is_digit(text, end, ord(text[end])):
        end += 1
    if end < length:
        after = ord(text[end])
        if after == _PERIOD or after == _ELLIPSIS:
            dots = _dots_end(text, end, length)
            if dots < length and 49 <= ord(text[dots]) <= 57 and _ends_word(text, dots + 1, length):
                return -1  # digits, periods and one digit: a WXF move
            return dots
    return end if _ends_word(text, end, length) else -1


def _dots_end(text: str, index: i64, length: i64) -> i64:
    """The end of the run of periods and ellipses from ``index``."""
    while index < length:
        char = ord(text[index])
        if char != _PERIOD and char != _ELLIPSIS:
            return index
        index += 1
    return length


def _may_be_glyph(char: i64) -> bool:
    """Whether a word starting with ``char`` may be one of ``GLYPHS``."""
    return char == 43 or char == 45 or char == 61 or char == 78 or char >= 128  # + - = N, or a sign


_NO_LIMIT: Final = 1 << 62  # more tokens or depth than any text holds


class Scanner:
    """The tokens of ``text[start:]`` one at a time (see the module doc); never raises.

    ``next()`` returns the next token's code and sets ``start`` and ``end`` to its span;
    at the end of the text, or at the first token past the budget, it returns ``T_END``
    (then ``overflow`` says which budget, and where). ``count`` is the tokens returned;
    ``origin`` where the scan began."""

    __slots__ = ("text", "origin", "start", "end", "count", "overflow", "_pos", "_length", "_depth", "_max_tokens",
                 "_max_depth")

    text: str
    origin: i64
    start: i64
    end: i64
    count: i64
    overflow: Overflow | None
    # Machine integers when compiled: the scan's arithmetic and comparisons are then plain
    # instructions, with no check for a Python int at each step.
    _pos: i64
    _length: i64
    _depth: i64
    _max_tokens: i64
    _max_depth: i64

    def __init__(self, text: str, start: int = 0, budget: Budget = DEFAULT_BUDGET) -> None:
        length = len(text)
        start = max(0, min(start, length))  # before the text reads from its start, past it as its end
        self.text = text
        self.origin = start
        self.start = start
        self.end = start
        self.count = 0
        self.overflow = None
        self._pos = start
        self._length = length
        self._depth = 0
        # A budget past a machine word's range is no budget (and still fits one).
        self._max_tokens = max(0, min(budget.max_tokens, _NO_LIMIT))
        self._max_depth = max(0, min(budget.max_depth, _NO_LIMIT))

    def next(self) -> int:
        """The code of the next token (``T_END`` when there is none)."""
        text = self.text
        length = self._length
        index = self._pos
        char: i64 = 0
        while index < length:
            char = ord(text[index])
            if char != 32 and char != _LF and not _is_space(text, index, char):
                break
            index += 1
        if index >= length:
            self._pos = length
            return T_END
        begin = index
        end: i64
        if char == _OPEN_BRACE:
            end = text.find("}", index + 1)
            end = length if end < 0 else end + 1
            kind = T_COMMENT
        elif char == _OPEN_PAREN:
            self._depth += 1
            if self._depth > self._max_depth:
                return self._stop(TOO_DEEP, begin, f"variations nested more than {self._max_depth} deep")
            end = index + 1
            kind = T_OPEN
        elif char == _CLOSE_PAREN:
            if self._depth:
                self._depth -= 1
            end = index + 1
            kind = T_CLOSE
        elif char == _SEMICOLON:
            end = _line_end(text, index + 1, length)
            kind = T_LINE_COMMENT
        elif char == _PERCENT:
            if _at_line_start(text, index, self.origin):
                end = _line_end(text, index + 1, length)
                kind = T_ESCAPE
            else:  # "%" inside a line: a word like any other
                end = _word_end(text, index + 1, length)
                kind = T_MOVE
        elif char == _BANG or char == _QUERY:
            end = index + 1
            while end < length and (ord(text[end]) == _BANG or ord(text[end]) == _QUERY):
                end += 1
            kind = T_GLYPH
        elif char == _DOLLAR:
            end = index + 1
            while end < length and _is_digit(text, end, ord(text[end])):
                end += 1
            kind = T_NAG if end > index + 1 else T_MOVE
        elif char == _CLOSE_BRACE:
            end = index + 1
            kind = T_MOVE
        elif _LOWER_A <= char <= _LOWER_Z or _UPPER_A <= char <= _UPPER_Z:
            # A word starting with an ASCII letter (most moves): no result or move number
            # starts so, and of the glyphs only the novelty mark "N".
            end = _word_end(text, index + 1, length)
            kind = T_GLYPH if char == _NOVELTY and end == index + 1 else T_MOVE
        else:
            end = _result_end(text, index, length, char)
            kind = T_RESULT
            if end < 0:
                end = _number_end(text, index, length, char)
                kind = T_NUMBER
                if end < 0:
                    end = _word_end(text, index + 1, length)
                    kind = T_MOVE
                    if _may_be_glyph(char) and end - index <= 3 and text[index:end] in GLYPHS:
                        kind = T_GLYPH
        if self.count >= self._max_tokens:
            return self._stop(TOO_LONG, begin, f"movetext of more than {self._max_tokens} tokens")
        self.count += 1
        self.start = begin
        self.end = end
        self._pos = end
        return kind

    def _stop(self, code: str, offset: int, message: str) -> int:
        self.overflow = Overflow(code, offset, message)
        self._pos = self._length
        return T_END


def scan(text: str, start: int = 0, budget: Budget = DEFAULT_BUDGET) -> Scan:
    """The tokens of ``text[start:]`` as a list (see the module doc); never raises."""
    scanner = Scanner(text, start, budget)
    tokens: list[Token] = []
    kind = scanner.next()
    while kind != T_END:
        tokens.append(Token(KINDS[kind], scanner.start, scanner.end))
        kind = scanner.next()
    return Scan(tokens, scanner.overflow)


def first_move(text: str, start: int = 0, budget: Budget = DEFAULT_BUDGET) -> int:
    """The offset of the first move of ``text[start:]`` within the budget, or -1."""
    scanner = Scanner(text, start, budget)
    kind = scanner.next()
    while kind != T_END:
        if kind == T_MOVE:
            return scanner.start
        kind = scanner.next()
    return -1


def _occurrences(text: str, sought: str, start: int, end: int) -> int:
    """``text.count(sought, start, end)``, one search an occurrence: a search skips the
    text between at memory speed, where ``count`` steps through every character, and
    lines (a game's movetext is often one) are long beside the searches they take."""
    found = text.find(sought, start, end)
    occurrences = 0
    while found >= 0:
        occurrences += 1
        found = text.find(sought, found + len(sought), end)
    return occurrences


class Locator:
    """Line and column (1-based, in characters) of offsets in one game's text, lines
    counted as the splitter counts them (``\\r\\n``, ``\\n`` or a lone ``\\r``); the text's
    first character is at ``first_column`` (a game that starts mid-line). Offsets asked in
    increasing order are counted on from the last one, in place: no piece of the text is
    copied, and a text without ``\\r`` (most) is searched for ``\\n`` alone."""

    __slots__ = ("text", "first_line", "first_column", "_offset", "_line", "_has_cr")

    text: str
    first_line: int
    first_column: int

    def __init__(self, text: str, first_line: int, first_column: int = 1, known: tuple[int, int] = (0, 0)) -> None:
        """``known``: an offset (not between a ``\\r`` and its ``\\n``) and the line breaks
        before it (``movetext_place``'s), counted on from there; an offset before it is
        counted from the text's start."""
        self.text = text
        self.first_line = first_line
        self.first_column = first_column
        self._offset = known[0]
        self._line = first_line + known[1]
        self._has_cr = "\r" in text

    def place(self, offset: int) -> tuple[int, int]:
        """``(line, column)`` of ``offset`` (a token's start: never inside a ``\\r\\n``)."""
        text = self.text
        if offset < self._offset:
            self._offset, self._line = 0, self.first_line
        start = self._offset
        # notation.pgn.lines.line_breaks(text[start:offset]), counted where the text lies
        # (neither end is inside a "\r\n": each is a token's start or the text's)
        breaks = _occurrences(text, "\n", start, offset)
        line_start = text.rfind("\n", 0, offset)
        if self._has_cr:
            breaks += _occurrences(text, "\r", start, offset) - _occurrences(text, "\r\n", start, offset)
            line_start = max(line_start, text.rfind("\r", 0, offset))
        self._line += breaks
        self._offset = offset
        line_start += 1
        if line_start == 0:
            return self._line, offset + self.first_column
        return self._line, offset - line_start + 1
