"""JSON lines out, and the JSON functions the line loop calls per line.

``json_line`` writes one object as a compact line with ``notation.json_codec`` (the one
codec: orjson, or the standard library where orjson is missing). ``CODEC`` keeps the
functions ``json_codec.line_functions`` gives, looked up on first use (orjson is not
imported at start-up): per line they are called from here, compiled, not through
``json_codec.loads``/``dumps`` (interpreted). Raises what the codec raises (``TypeError``
for a value JSON cannot hold).
"""

from __future__ import annotations

import sys
from typing import Any, Final, TextIO

from notation import json_codec
from notation.json_codec import dumps


class LineCodec:
    """``json_codec.line_functions()``: orjson's ``loads`` and ``dumps`` and the option that
    ends a line (None, None and 0 where orjson is missing), looked up once (``load``)."""

    __slots__ = ("loaded", "loads", "dumps", "newline")

    def __init__(self) -> None:
        self.loaded = False
        self.loads: Any = None
        self.dumps: Any = None
        self.newline = 0

    def load(self) -> LineCodec:
        """This, with the functions looked up (once)."""
        if not self.loaded:
            found = json_codec.line_functions()
            if found is not None:
                self.loads, self.dumps, self.newline = found
            self.loaded = True
        return self


CODEC: Final = LineCodec()


def json_line(obj: dict[str, Any]) -> str:
    """``obj`` as one compact JSON line (``notation.json_codec``), its line break included."""
    fast = CODEC.load()
    if fast.dumps is not None:
        return fast.dumps(obj, None, fast.newline).decode()  # (obj, default, option)
    return dumps(obj) + "\n"


def write_json_line(obj: dict[str, Any], out: TextIO | None = None) -> None:
    """``obj`` as one compact JSON line (``notation.json_codec``) on ``out`` (default stdout)."""
    (out if out is not None else sys.stdout).write(json_line(obj))
