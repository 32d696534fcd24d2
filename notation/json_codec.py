"""JSON in and out for the line-by-line front ends: orjson where it is installed (it is a
dependency), the standard library's ``json`` otherwise (a platform without an orjson wheel).

Per JSON line, orjson parses and writes several times faster than ``json``, which at a
few microseconds per FEN is a large share of ``notation convert --json``. orjson is
imported on first use (``orjson``, an attribute of this module: the module, or None where
it is missing), as it brings ``uuid``, ``platform`` and ``datetime`` with it: a command
that reads and writes no JSON starts up without them. So is the standard library's ``json``
(``JSONDecodeError`` is an attribute made on first use: an ``except`` names it as
``json_codec.JSONDecodeError``, looked up only once something was raised). Both paths give
the same objects and the same text: compact (no spaces after ``,`` and ``:``), UTF-8 as
is (no ``\\u`` escapes for non-ASCII).

``loads`` raises ``JSONDecodeError`` (``msg`` and 1-based ``colno`` say what and where)
for malformed JSON, nesting deeper than ``MAX_DEPTH``, ``NaN`` or ``Infinity``, and a
number too large to represent; orjson also refuses a lone surrogate escape (``"\\ud800"``),
which no FEN holds and no UTF-8 output could write back.
"""


from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:  # at run time an attribute made on first use (``__getattr__``)
    from json import JSONDecodeError

__all__ = ["MAX_DEPTH", "JSONDecodeError", "LineFunctions", "dumps", "line_functions", "loads"]

MAX_DEPTH = 1024  # orjson's limit, enforced for the standard library too


def __getattr__(name: str) -> Any:
    """``orjson`` and ``JSONDecodeError``: imported the first time they are asked for, then
    plain module attributes."""
    found: Any
    if name == "JSONDecodeError":
        from json import JSONDecodeError as found
    elif name == "orjson":
        try:
            import orjson as found
        except ImportError:  # pragma: no cover - orjson is a dependency; this is for odd platforms
            found = None
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = found
    return found


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
    import json
    from json import JSONDecodeError

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
    import json

    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")
