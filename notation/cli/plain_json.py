"""JSON lines of plain text, read and written without a JSON library: the usual line of
``convert --json`` and ``validate --json`` in, and their usual answer out.

A plain string is printable ASCII without a quote or a backslash: JSON writes it as itself
between quotes, and every reader reads it so. ``read_fen_object`` reads a line that is one
object of ``fen`` and ``variant`` (each at most once) whose values are plain;
``answer_line`` writes a ``ConvertResult`` or ``ValidateResult`` whose strings are plain
(its problems' extra fields plain strings too). Each answers None for anything else, and the caller
takes the JSON library's path (``notation.cli.jsonl``), which reads and writes every line,
with its own errors: what both take, they give alike, to the byte
(tests/cli/test_plain_json.py holds them to it). With this path a run of plain lines
never imports a JSON library: orjson's import costs a process more than a thousand lines
(``notation.json_codec``).

Compiled, both walk the bytes in machine integers; interpreted, the line commands leave
this path alone (``USED``): there the JSON library's C code is the faster.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

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


def read_fen_object(data: bytes) -> tuple[str, str | None] | None:
    """``(fen, variant)`` of a JSON line ``data`` (its line end kept) that is one object
    of ``fen`` and maybe ``variant``, each once, with plain values, JSON's white space
    around its tokens; ``variant`` None where the object has none. None for any other
    line, well-formed or not: the JSON library reads those."""
    end: i64 = len(data)
    at = _after_space(data, 0, end)
    if at >= end or data[at] != 123:  # "{"
        return None
    fen: str | None = None
    variant: str | None = None
    at = _after_space(data, at + 1, end)
    while at < end and data[at] == _QUOTE:
        close = _plain_end(data, at + 1, end)
        if close < 0 or close == end:
            return None
        key = data[at + 1:close]
        at = _after_space(data, close + 1, end)
        if at >= end or data[at] != 58:  # ":"
            return None
        at = _after_space(data, at + 1, end)
        if at >= end or data[at] != _QUOTE:
            return None
        close = _plain_end(data, at + 1, end)
        if close < 0 or close == end:
            return None
        value = data[at + 1:close].decode()
        # Another key, or a key twice (the JSON library keeps the last): the library's to read.
        if key == _FEN and fen is None:
            fen = value
        elif key == _VARIANT and variant is None:
            variant = value
        else:
            return None
        at = _after_space(data, close + 1, end)
        if at < end and data[at] == 44:  # ","
            at = _after_space(data, at + 1, end)
            if at >= end or data[at] != _QUOTE:
                return None
        elif at < end and data[at] == 125:  # "}"
            if fen is None or _after_space(data, at + 1, end) != end:
                return None
            return fen, variant
        else:
            return None
    return None


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
    -1 where a byte before it is not plain."""
    while at < end:
        code: i64 = data[at]
        if code == _QUOTE:
            return at
        if code < 32 or code > 126 or code == _BACKSLASH:
            return -1
        at += 1
    return end


def is_plain(text: str) -> bool:
    """Whether ``text`` is plain: printable ASCII without a quote or a backslash."""
    try:
        data = text.encode()
    except UnicodeEncodeError:  # a lone surrogate: not ASCII
        return False
    end: i64 = len(data)
    return end == len(text) and _plain_end(data, 0, end) == end


def answer_line(result: ConvertResult | ValidateResult, line: int | None, source: str | None) -> str | None:
    """The JSON line (its line break included) of ``result`` answering the input at
    ``line`` (None for an argument) of ``source`` (an ``--input`` path, None for standard
    input or an argument): ``result.to_dict()`` with ``line`` and ``input`` as
    ``notation.cli.answers.located`` adds them. None where a string is not plain, or a
    problem's extra field is not a string or is named as one of its own."""
    errors = _problems(result.errors)
    warnings = _problems(result.warnings)
    detected = _DIALECTS.get(result.detected) if result.detected is not None else "null"
    variant = _string(result.variant)
    if errors is None or warnings is None or detected is None or variant is None:
        return None
    if isinstance(result, ConvertResult):
        fen = _string(result.fen)
        if fen is None:
            return None
        head = f'{{"ok":{"true" if result.ok else "false"},"fen":{fen},"variant":{variant}'
    else:
        head = f'{{"valid":{"true" if result.valid else "false"},"variant":{variant}'
    at = "null" if line is None else str(line)
    if source is None:
        tail = "}\n"
    else:
        path = _string(source)
        if path is None:
            return None
        tail = f',"input":{path}}}\n'
    return f'{head},"errors":{errors},"warnings":{warnings},"detected":{detected},"line":{at}{tail}'


def _string(text: str | None) -> str | None:
    """``text`` as JSON (``null`` for None); None where it is not plain."""
    if text is None:
        return "null"
    return f'"{text}"' if is_plain(text) else None


def _problems(problems: list[Problem]) -> str | None:
    """``problems`` as a JSON list of their ``to_dict`` forms; None where one is not plain."""
    if not problems:
        return "[]"
    written: list[str] = []
    for problem in problems:
        if not is_plain(problem.code) or not is_plain(problem.message):
            return None
        text = f'{{"code":"{problem.code}","message":"{problem.message}"'
        field = problem.field
        if field is not None:
            if not is_plain(field):
                return None
            text += f',"field":"{field}"'
        if problem.column is not None:
            text += f',"column":{problem.column}'
        for key, value in problem.extra.items():
            # ``to_dict`` writes a key of its own over the one before: the library's to write.
            if key in _PROBLEM_KEYS or not isinstance(value, str) or not is_plain(key) or not is_plain(value):
                return None
            text += f',"{key}":"{value}"'
        written.append(text + "}")
    return "[" + ",".join(written) + "]"


_PROBLEM_KEYS: Final = frozenset({"code", "message", "field", "column"})


def _dialect_text(dialect: Dialect) -> str | None:
    """``dialect.to_dict()`` as JSON; None where a value is not plain."""
    parts: list[str] = []
    for key, value in dialect.to_dict().items():
        if not is_plain(key):
            return None
        if value is None or isinstance(value, bool):
            shown = "null" if value is None else "true" if value else "false"
        elif isinstance(value, str) and is_plain(value):
            shown = f'"{value}"'
        else:
            return None
        parts.append(f'"{key}":{shown}')
    return "{" + ",".join(parts) + "}"


# Dialects are few and shared (the reader keeps one per combination): each written once.
_DIALECTS: Final[IdentityCache[Dialect, str | None]] = IdentityCache(_dialect_text)
