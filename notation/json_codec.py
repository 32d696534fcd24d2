"""JSON in and out for the line-by-line front ends: orjson where it is installed (it is a
dependency), the standard library's ``json`` otherwise (a platform without an orjson wheel).

Per JSON line, orjson parses and writes several times faster than ``json``, which at a
few microseconds per FEN is a large share of ``notation convert --json``. orjson is
imported on first use (``orjson``, an attribute of this module: the module, or None where
it is missing), as it brings ``uuid``, ``platform`` and ``datetime`` with it: a command
that reads and writes no JSON starts up without them. Both paths give
the same objects and the same text: compact (no spaces after ``,`` and ``:``), UTF-8 as
is (no ``\\u`` escapes for non-ASCII).

``loads`` raises ``JSONDecodeError`` (``msg`` and 1-based ``colno`` say what and where)
for malformed JSON, nesting deeper than ``MAX_DEPTH``, ``NaN`` or ``Infinity``, and a
number too large to represent; orjson also refuses a lone surrogate escape (``"\\ud800"``),
which no FEN holds and no UTF-8 output could write back.
"""


import json
from collections.abc import Callable
from json import JSONDecodeError
from typing import Any, NamedTuple

__all__ = ["MAX_DEPTH", "JSONDecodeError", "LineFunctions", "dumps", "line_functions", "loads"]

MAX_DEPTH = 1024  # orjson's limit, enforced for the standard library too


def __getattr__(name: str) -> Any:
    """``orjson``: imported the first time it is asked for, then a plain module attribute."""
    if name != "orjson":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    try:
        import orjson as module
    except ImportError:  # pragma: no cover - orjson is a dependency; this is for odd platforms
        module = None  # type: ignore[assignment]
    globals()["orjson"] = module
    return module


def _orjson() -> Any:
    """The ``orjson`` module, or None (see ``__getattr__``)."""
    found = globals()
    return found["orjson"] if "orjson" in found else __getattr__("orjson")


class LineFunctions(NamedTuple):
    """orjson's own functions, for a caller that calls them per line and keeps them."""

    loads: Callable[[str | bytes], Any]  # as ``loads`` below; bytes are checked as UTF-8
    dumps: Callable[[Any, Any, int], bytes]  # called ``dumps(obj, None, newline)``: compact, UTF-8
    newline: int  # the option that ends the text with a line break


def line_functions() -> LineFunctions | None:
    """``LineFunctions`` where orjson is installed; None where it is missing (then call
    ``loads`` and ``dumps`` here). Imports orjson on first use."""
    orjson = _orjson()
    if orjson is None:
        return None
    return LineFunctions(orjson.loads, orjson.dumps, orjson.OPT_APPEND_NEWLINE)


def loads(text: str | bytes) -> Any:
    """The value of one JSON document; raises ``JSONDecodeError``."""
    orjson = _orjson()
    if orjson is not None:
        return orjson.loads(text)
    try:
        value = json.loads(text, parse_constant=_no_constant, object_pairs_hook=None)
    except RecursionError:
        raise JSONDecodeError("depth limit exceeded", text if isinstance(text, str) else "", 0) from None
    except ValueError as exc:
        if isinstance(exc, JSONDecodeError):
            raise
        raise JSONDecodeError(str(exc), text if isinstance(text, str) else "", 0) from None
    if isinstance(value, (list, dict)) and _deeper_than(value, MAX_DEPTH):
        # The parser's recursion limit refuses deep nesting too, but not at MAX_DEPTH, and
        # from Python 3.13 on not before several thousand levels.
        raise JSONDecodeError("depth limit exceeded", text if isinstance(text, str) else "", 0)
    return value


def _deeper_than(value: list | dict, limit: int) -> bool:
    """True when lists and objects nest in ``value`` more than ``limit`` levels deep."""
    level: list[Any] = [value]
    depth = 1
    while level:
        if depth > limit:
            return True
        level = [child for item in level for child in (item.values() if isinstance(item, dict) else item)
                 if isinstance(child, (list, dict))]
        depth += 1
    return False


def dumps(obj: Any) -> str:
    """``obj`` as compact JSON text (strings, numbers, booleans, None, lists and dicts with
    string keys only; anything else raises ``TypeError``)."""
    orjson = _orjson()
    if orjson is not None:
        return orjson.dumps(obj).decode("utf-8")
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")
