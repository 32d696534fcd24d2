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

Importing orjson costs a process more than 20 ms (what it brings), several hundred lines'
worth of the difference: ``starting_line_functions`` answers a run's first lines with the
standard library, exactly as orjson would (it hands orjson whatever it cannot vouch for),
and ``notation.cli.jsonl`` moves to orjson's own once a run proves long. (Compiled,
``convert --json`` and ``validate --json`` read their usual line and write its answer
without either: ``notation.cli.plain_json``.)

``loads`` raises ``JSONDecodeError`` (``msg`` and 1-based ``colno`` say what and where)
for malformed JSON, nesting deeper than ``MAX_DEPTH``, ``NaN`` or ``Infinity``, and a
number too large to represent; orjson also refuses a lone surrogate escape (``"\\ud800"``),
which no FEN holds and no UTF-8 output could write back.
"""


from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:  # at run time an attribute made on first use (``__getattr__``)
    from json import JSONDecodeError

__all__ = [
    "MAX_DEPTH",
    "JSONDecodeError",
    "LineFunctions",
    "dumps",
    "line_functions",
    "loads",
    "starting_line_functions",
]

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


class LineFunctions:
    """orjson's own functions, for a caller that calls them per line and keeps them.
    Read-only; a plain class, not a NamedTuple: every line command defines it at start-up
    (docs/architecture.md, "Start-up")."""

    __slots__ = ("loads", "dumps", "newline")

    def __init__(self, loads: Callable[[str | bytes], Any], dumps: Callable[[Any, Any, int], bytes],
                 newline: int) -> None:
        self.loads: Final = loads  # as ``loads`` below; bytes are checked as UTF-8
        self.dumps: Final = dumps  # called ``dumps(obj, None, newline)``: compact, UTF-8
        self.newline: Final = newline  # the option that ends the text with a line break


def line_functions() -> LineFunctions | None:
    """``LineFunctions`` where orjson is installed; None where it is missing (then call
    ``loads`` and ``dumps`` here). Imports orjson on first use."""
    orjson = _orjson()
    if orjson is None:
        return None
    return LineFunctions(orjson.loads, orjson.dumps, orjson.OPT_APPEND_NEWLINE)


def starting_line_functions() -> LineFunctions:
    """Functions called as ``line_functions()``'s are, answering exactly as they do (or as
    ``loads`` and ``dumps`` do where orjson is missing) without importing orjson: the
    standard library reads an object whose values are all strings and writes strings,
    whole numbers, booleans, None, lists and objects keyed by strings, the shapes a FEN
    line and a line command's answer take, for which the two agree to the byte
    (tests/core/test_json_codec.py holds them to it); anything else, a malformed line
    included, is handed to orjson, imported then, so its values and its messages are the
    ones given."""
    import json

    return LineFunctions(_StartingLoads(json.JSONDecoder()), _StartingDumps(json.JSONEncoder(
        ensure_ascii=False, separators=(",", ":"), allow_nan=False, check_circular=False)), _STARTING_NEWLINE)


_STARTING_NEWLINE = 1  # the starting ``dumps``'s own option: end the text with a line break


class _StartingLoads:
    """``loads`` for a run's first lines: the standard library's value where it is orjson's
    (an object of strings, read from text with no ``\\u`` escape, which could name a lone
    surrogate orjson refuses), orjson's value or error otherwise."""

    __slots__ = ("decode",)

    def __init__(self, decoder: Any) -> None:
        self.decode = decoder.decode

    def __call__(self, data: str | bytes) -> Any:
        try:
            text = data.decode("utf-8") if isinstance(data, bytes) else data
            if "\\u" not in text and (text.isascii() or _encodes(text)):
                value = self.decode(text)
                if type(value) is dict:
                    for item in value.values():
                        if type(item) is not str:
                            break
                    else:
                        return value
        except (ValueError, RecursionError):  # malformed, or not UTF-8: orjson's to say
            pass
        return _canonical_loads(data)


class _StartingDumps:
    """``dumps(obj, default, option)`` for a run's first lines: the standard library's text
    where ``obj`` holds only what both write alike, orjson's text (or its ``TypeError``)
    otherwise."""

    __slots__ = ("encode",)

    def __init__(self, encoder: Any) -> None:
        self.encode = encoder.encode

    def __call__(self, obj: Any, default: Any, option: int) -> bytes:
        try:
            if _written_alike(obj):
                text = self.encode(obj)
                # A lone surrogate fails here (UnicodeEncodeError): orjson's to refuse.
                return (text + "\n" if option else text).encode("utf-8")
        except (ValueError, RecursionError):  # NaN, nested past the stack: orjson's to say
            pass
        orjson = _orjson()
        if orjson is None:
            text = dumps(obj)
            return (text + "\n" if option else text).encode("utf-8")
        return orjson.dumps(obj, default, orjson.OPT_APPEND_NEWLINE if option else 0)


_WRITTEN_AS_IS = frozenset({str, bool, type(None)})  # UTF-8 aside, which the text's encoding checks
_INT_RANGE = range(-(2**63), 2**64)  # orjson writes 64-bit integers, signed or not, and refuses the rest


def _written_alike(value: Any) -> bool:
    """Whether orjson and the standard library write ``value`` to the same text (once it
    encodes as UTF-8): strings, integers orjson takes, booleans, None, and lists and
    dicts of them keyed by strings. A float's exponent is written differently, and a
    tuple, an enum or a subclass is not looked into."""
    pending = [value]
    while pending:
        item = pending.pop()
        kind = type(item)
        if kind in _WRITTEN_AS_IS:
            continue
        if kind is dict:
            for key in item:
                if type(key) is not str:
                    return False
            pending.extend(item.values())
        elif kind is list:
            pending.extend(item)
        elif kind is not int or item not in _INT_RANGE:
            return False
    return True


def _encodes(text: str) -> bool:
    """Whether ``text`` is UTF-8 writable (no lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _canonical_loads(data: str | bytes) -> Any:
    """orjson's ``loads`` (imported now), or ``loads`` of the UTF-8 text where orjson is
    missing; raises ``JSONDecodeError``, for bytes that are not UTF-8 too."""
    orjson = _orjson()
    if orjson is not None:
        return orjson.loads(data)
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            from json import JSONDecodeError

            raise JSONDecodeError(f"not UTF-8: {exc.reason}", "", exc.start) from None
    return loads(data)


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
