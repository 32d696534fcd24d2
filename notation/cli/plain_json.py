"""JSON lines of plain text, read and written without a JSON library: the usual line of
``convert --json`` and ``validate --json`` in, and their usual answer out.

A plain string is printable ASCII without a quote or a backslash: JSON writes it as itself
between quotes, and every reader reads it so. ``read_fen_object`` reads a line that is one
object of ``fen`` and ``variant`` (each at most once) whose values are plain;
``answer_line`` writes a ``ConvertResult`` or ``ValidateResult`` whose strings are plain
(its problems' extra fields plain strings too). Each answers None for anything else, and
the caller takes the JSON library's path (``notation.cli.jsonl``), which reads and writes
every line, with its own errors: what both take, they give alike, to the byte
(tests/cli/test_plain_json.py holds them to it). With this path a run of plain lines
never imports a JSON library: orjson's import costs a process about what a thousand lines
do (``notation.json_codec``).

Compiled, a line is read in machine integers (a string eight bytes at a time, the rest
a byte at a time), and an answer's strings are checked by ``bytes.translate`` through a
table (a loop in C). Interpreted, the line commands leave this path alone (``USED``):
there the JSON library is the faster.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from librt.strings import read_i64_le

from notation.fen.dialect import Dialect
from notation.identity_cache import IdentityCache
from notation.operations import ConvertResult, ValidateResult
from notation.problem import Problem
from notation.setup import COMPILED

if TYPE_CHECKING:  # compiled, a machine integer; interpreted, never looked up (an int)
    from mypy_extensions import i64

USED: Final = COMPILED  # whether convert and validate take this path

_QUOTE: Final = 34
_BACKSLASH: Final = 92
_FEN: Final = b"fen"
_VARIANT: Final = b"variant"


_REFUSED: Final = (None, None)  # ``read_fen_object``'s answer to a line it leaves to the JSON library


def read_fen_object(data: bytes) -> tuple[str | None, str | None]:
    """``(fen, variant)`` of a JSON line ``data`` (its line end kept) that is one object
    of ``fen`` and maybe ``variant``, each once, with plain values, JSON's white space
    around its tokens; ``variant`` None where the object has none. ``(None, None)`` for
    any other line, well-formed or not: the JSON library reads those. (Always a pair:
    compiled, a pair returned is two values, where a pair or None is a tuple object made.)"""
    end: i64 = len(data)
    at = _after_space(data, 0, end)
    if at >= end or data[at] != 123:  # "{"
        return _REFUSED
    fen: str | None = None
    variant: str | None = None
    at = _after_space(data, at + 1, end)
    while at < end and data[at] == _QUOTE:
        close = _plain_end(data, at + 1, end)
        if close < 0 or close == end:
            return _REFUSED
        key_at: i64 = at + 1
        key_end: i64 = close
        at = _after_space(data, close + 1, end)
        if at >= end or data[at] != 58:  # ":"
            return _REFUSED
        at = _after_space(data, at + 1, end)
        if at >= end or data[at] != _QUOTE:
            return _REFUSED
        close = _plain_end(data, at + 1, end)
        if close < 0 or close == end:
            return _REFUSED
        # Another key, or a key twice (the JSON library keeps the last): the library's to read.
        if fen is None and _is_key(data, key_at, key_end, _FEN):
            fen = data[at + 1:close].decode()
        elif variant is None and _is_key(data, key_at, key_end, _VARIANT):
            variant = _variant_value(data, at + 1, close)
        else:
            return _REFUSED
        at = _after_space(data, close + 1, end)
        if at < end and data[at] == 44:  # ","
            at = _after_space(data, at + 1, end)
            if at >= end or data[at] != _QUOTE:
                return _REFUSED
        elif at < end and data[at] == 125:  # "}"
            if fen is None or _after_space(data, at + 1, end) != end:
                return _REFUSED
            return fen, variant
        else:
            return _REFUSED
    return _REFUSED


# The variant values met, each as bytes and decoded (a run meets a handful, again and
# again): the same str each time, its hash worked out once for the look-ups after.
_VARIANT_BYTES: Final[list[bytes]] = []
_VARIANT_VALUES: Final[list[str]] = []
_VARIANT_LIMIT: Final = 64  # kept at most, none longer than ``_QUOTED_LENGTH``


def _variant_value(data: bytes, at: i64, end: i64) -> str:
    """The bytes of ``data`` from ``at`` to ``end`` (plain) decoded: a value met before is
    found in place, compared byte by byte, without a slice or a new str."""
    for index in range(len(_VARIANT_BYTES)):
        if _is_key(data, at, end, _VARIANT_BYTES[index]):
            return _VARIANT_VALUES[index]
    raw = data[at:end]
    value = raw.decode()
    if len(_VARIANT_BYTES) < _VARIANT_LIMIT and end - at <= _QUOTED_LENGTH:
        _VARIANT_BYTES.append(raw)  # with its value next: no Python code runs between the two
        _VARIANT_VALUES.append(value)
    return value


def _is_key(data: bytes, at: i64, end: i64, key: bytes) -> bool:
    """Whether the bytes of ``data`` from ``at`` to ``end`` are ``key`` (compared in place:
    no slice made)."""
    if end - at != len(key):
        return False
    for index in range(len(key)):
        if data[at + index] != key[index]:
            return False
    return True


def _after_space(data: bytes, at: i64, end: i64) -> i64:
    """The index of the first byte at or after ``at`` that is not JSON white space."""
    while at < end:
        code: i64 = data[at]
        if code != 32 and code != 10 and code != 13 and code != 9:
            break
        at += 1
    return at


def _plain_end(data: bytes, at: i64, end: i64) -> i64:
    """The index of the first quote at or after ``at`` (``end`` where none is before it);
    -1 where a byte before it is not plain. Eight bytes are read at once while eight are
    left, as one word, and each half is passed whole when ``_all_plain`` finds every byte
    in it plain and none a quote; the half that is not, and the last few bytes, a byte at
    a time."""
    while at + 8 <= end:
        word: i64 = read_i64_le(data, at)
        if not _all_plain(word & 0xFFFFFFFF):
            break
        if not _all_plain(word >> 32 & 0xFFFFFFFF):
            at += 4
            break
        at += 8
    while at < end:
        code: i64 = data[at]
        if code == _QUOTE:
            return at
        if code < 32 or code > 126 or code == _BACKSLASH:
            return -1
        at += 1
    return end


_ONES: Final = 0x01010101  # 1 in each of four bytes
_HIGHS: Final = 0x80808080  # the high bit of each of four bytes
_SPACES: Final = 0x20202020  # 32, the first plain byte, in each
_QUOTES: Final = 0x22222222
_BACKSLASHES: Final = 0x5C5C5C5C


def _all_plain(four: i64) -> bool:
    """Whether each of the four bytes of ``four`` (0 to 2**32 - 1) is plain and no quote:
    from 32 to 126, neither 34 nor 92. The tests of Hacker's Delight, "find a byte": a
    byte's high bit is set in the sum or difference below exactly when the byte is under
    32 (``hasless``), over 126 (``hasmore``), or 0 once XOR-ed with a quote or backslash
    (``haszero``); a borrow or carry only ever follows a byte already found. No value
    reaches bit 63: machine words never overflow."""
    quote = four ^ _QUOTES
    backslash = four ^ _BACKSLASHES
    found = (four - _SPACES) & ~four  # a byte under 32
    found |= (four + _ONES) | four  # a byte over 126
    found |= (quote - _ONES) & ~quote
    found |= (backslash - _ONES) & ~backslash
    return found & _HIGHS == 0


# bytes.translate of a text through this table gives the very same object back (a loop
# in C, compiled or not) exactly when every byte is plain: a byte that is not maps to another.
_PLAIN_BYTES: Final = bytes(code if 32 <= code <= 126 and code not in (34, 92) else code ^ 1 for code in range(256))


def is_plain(text: str) -> bool:
    """Whether ``text`` is plain: printable ASCII without a quote or a backslash."""
    try:
        data = text.encode()
    except UnicodeEncodeError:  # a lone surrogate: not ASCII
        return False
    return data.translate(_PLAIN_BYTES) is data  # UTF-8 of anything else than ASCII: bytes past 127, not plain


def answer_line(result: ConvertResult | ValidateResult, line: int | None, source: str | None) -> str | None:
    """The JSON line (its line break included) of ``result`` answering the input at
    ``line`` (None for an argument) of ``source`` (an ``--input`` path, None for standard
    input or an argument): ``result.to_dict()`` with ``line`` and ``input`` as
    ``notation.cli.answers.located`` adds them. None where a string is not plain, or a
    problem's extra field is not a string or is named as one of its own."""
    errors = _problems(result.errors)
    warnings = _problems(result.warnings)
    detected = _DIALECTS.get(result.detected) if result.detected is not None else "null"
    variant = _quoted(result.variant)
    path = _quoted(source)
    if errors is None or warnings is None or detected is None or variant is None or path is None:
        return None
    at = "null" if line is None else str(line)
    tail = "}\n" if source is None else f',"input":{path}}}\n'
    if isinstance(result, ConvertResult):
        fen = result.fen
        if fen is None:
            written = "null"
        elif type(fen) is str and is_plain(fen):  # not kept: a FEN is rarely met twice
            written = f'"{fen}"'
        else:
            return None
        ok = "true" if result.ok else "false"
        return f'{{"ok":{ok},"fen":{written},{_middle(variant, errors, warnings, detected)}{at}{tail}'
    valid = "true" if result.valid else "false"
    return f'{{"valid":{valid},{_middle(variant, errors, warnings, detected)}{at}{tail}'


_MIDDLES: Final[dict[str, dict[str, str]]] = {}  # variant -> detected -> the middle of an answer without problems
_MIDDLE_LIMIT: Final = 256  # variants kept, and dialects kept a variant (a run meets a few dozen)


def _middle(variant: str, errors: str, warnings: str, detected: str) -> str:
    """The fields from ``variant`` to ``line``'s name of an answer. Those of an answer
    without problems (most) are kept, per variant and dialect, each pair met again and
    again: one look-up in place of joining seven strings (``_MIDDLE_LIMIT``)."""
    if errors != "[]" or warnings != "[]":
        return f'"variant":{variant},"errors":{errors},"warnings":{warnings},"detected":{detected},"line":'
    by_dialect = _MIDDLES.get(variant)
    if by_dialect is None:
        by_dialect = {}
        if len(_MIDDLES) < _MIDDLE_LIMIT:
            _MIDDLES[variant] = by_dialect
    found = by_dialect.get(detected)
    if found is None:
        found = f'"variant":{variant},"errors":[],"warnings":[],"detected":{detected},"line":'
        if len(by_dialect) < _MIDDLE_LIMIT:
            by_dialect[detected] = found
    return found


_QUOTED_LIMIT: Final = 4096  # strings kept by ``_quoted``, at most (then it stops keeping more)
_QUOTED_LENGTH: Final = 256  # and none longer than this
_NOT_PLAIN: Final = ""  # kept for a string that is not plain (a quoted string never is empty)
_QUOTED: Final[dict[str, str]] = {}


def _quoted(text: str | None) -> str | None:
    """``text`` as JSON (``null`` for None); None where it is not plain. The variant names,
    codes, fields, paths and messages of a run are few and met again and again: each is
    kept once checked."""
    if text is None:
        return "null"
    if type(text) is not str:  # a subclass (an enum's member) is the library's to write
        return None
    found = _QUOTED.get(text)
    if found is None:
        found = f'"{text}"' if is_plain(text) else _NOT_PLAIN
        if len(_QUOTED) < _QUOTED_LIMIT and len(text) <= _QUOTED_LENGTH:
            _QUOTED[text] = found
    return found if found else None


def _problems(problems: list[Problem]) -> str | None:
    """``problems`` as a JSON list of their ``to_dict`` forms; None where one is not plain."""
    if not problems:
        return "[]"
    pieces = ["["]
    for problem in problems:
        if len(pieces) > 1:
            pieces.append(",")
        head = _problem_head(problem)
        if head is None:
            return None
        pieces.append(head)
        for key, value in problem.extra.items():
            # ``to_dict`` writes a key of its own over the one before: the library's to write.
            name = _quoted(key)
            shown = _quoted(value) if type(value) is str else None
            if key in _PROBLEM_KEYS or name is None or shown is None:
                return None
            pieces.append(f",{name}:{shown}")
        pieces.append("}")
    pieces.append("]")
    return "".join(pieces)


# message -> (code, field, head without its column): found by the message alone (a str
# hashed once, where a tuple of the three made and hashed each time cost more), the rest
# compared. The column is left out of what is kept: a syntax error's message recurs at
# every column (``expected fullmove number, found the end of the FEN``).
_HEADS: Final[dict[str, tuple[str, str | None, str]]] = {}


def _problem_head(problem: Problem) -> str | None:
    """The JSON object of ``problem`` but for its extra fields and closing brace: its code,
    message, field and column; None where a string is not plain. Problems are met again
    and again in a run: each head but its column is kept once written (as many as
    ``_QUOTED_LIMIT``, each of a message no longer than ``_QUOTED_LENGTH``; one a message)."""
    message = problem.message
    column = problem.column
    keep = len(message) <= _QUOTED_LENGTH  # a line may be 64 KiB: a longer one is not looked for
    kept = _HEADS.get(message) if keep else None
    if kept is not None and kept[0] == problem.code and kept[1] == problem.field:
        head = kept[2]
    else:
        code, quoted = _quoted(problem.code), _quoted(message)
        field = "" if problem.field is None else _quoted(problem.field)
        if code is None or quoted is None or field is None:
            return None
        head = f'{{"code":{code},"message":{quoted}'
        if field:
            head += f',"field":{field}'
        if keep and len(_HEADS) < _QUOTED_LIMIT:
            _HEADS[message] = (problem.code, problem.field, head)
    return head if column is None else f'{head},"column":{column}'


_PROBLEM_KEYS: Final = frozenset({"code", "message", "field", "column"})


def _dialect_text(dialect: Dialect) -> str | None:
    """``dialect.to_dict()`` as JSON; None where a value is not plain."""
    parts: list[str] = []
    for key, value in dialect.to_dict().items():
        if not is_plain(key):
            return None
        if value is None or isinstance(value, bool):
            shown = "null" if value is None else "true" if value else "false"
        elif type(value) is str and is_plain(value):
            shown = f'"{value}"'
        else:
            return None
        parts.append(f'"{key}":{shown}')
    return "{" + ",".join(parts) + "}"


# Dialects are few and shared (the reader keeps one per combination): each written once.
_DIALECTS: Final[IdentityCache[Dialect, str | None]] = IdentityCache(_dialect_text)
