"""JSON lines out, and the JSON functions the line loop calls per line.

``json_line`` writes one object as a compact line with ``notation.json_codec`` (the one
codec: orjson, or the standard library where orjson is missing). ``CODEC`` keeps the
functions a line is read and written with: for a run's first ``STARTING_USES`` uses
``json_codec.starting_line_functions``, which answer as orjson does without importing it
(more than 20 ms of a process, where a line costs some microseconds more without it), then
orjson's own (``json_codec.line_functions``). Per line they are called from here, compiled,
not through ``json_codec.loads``/``dumps`` (interpreted). Raises what the codec raises
(``TypeError`` for a value JSON cannot hold). ``convert`` and ``validate`` come here only
for a line or an answer ``notation.cli.plain_json`` leaves to the library.
"""

from __future__ import annotations

import sys
from typing import Any, Final, TextIO

from notation import json_codec
from notation.json_codec import dumps

# Uses (a line read, a line written) answered without orjson. Its import costs a process about
# as much as 700 lines read and answered with the standard library rather than with it (about
# 75 thousand instructions more a line): the first 100 lines, so that a short run saves most
# of the import and a long one pays well under a per cent for its start.
STARTING_USES: Final = 200


class LineCodec:
    """The functions a line is read and written with: ``loads``, ``dumps`` (called
    ``dumps(obj, None, newline)``, giving bytes) and ``newline``, the option that ends a
    line; once the run is past its start, both are None where orjson is missing (then
    call ``json_codec.loads`` on text and ``json_codec.dumps``).
    ``load`` counts a use and gives this, with the starting functions for the first
    ``STARTING_USES`` uses and orjson's after (both answer alike)."""

    __slots__ = ("uses", "loads", "dumps", "newline")

    def __init__(self) -> None:
        self.uses = 0
        self.loads: Any = None
        self.dumps: Any = None
        self.newline = 0

    def load(self) -> LineCodec:
        """This, its functions the ones the next use takes."""
        uses = self.uses
        if uses <= STARTING_USES:
            if uses == 0:
                self._take(json_codec.starting_line_functions())
            elif uses == STARTING_USES:
                found = json_codec.line_functions()
                if found is not None:
                    self._take(found)
                else:
                    self.loads, self.dumps, self.newline = None, None, 0
            self.uses = uses + 1
        return self

    def _take(self, functions: json_codec.LineFunctions) -> None:
        self.loads, self.dumps, self.newline = functions.loads, functions.dumps, functions.newline


CODEC: Final = LineCodec()


def json_line(obj: dict[str, Any]) -> str:
    """``obj`` as one compact JSON line (``notation.json_codec``), its line break included."""
    fast = CODEC.load()
    if fast.dumps is not None:
        # Typed as bytes: compiled, the decoding is a direct UTF-8 call, not a method look-up.
        data: bytes = fast.dumps(obj, None, fast.newline)  # (obj, default, option)
        return data.decode()
    return dumps(obj) + "\n"


def write_json_line(obj: dict[str, Any], out: TextIO | None = None) -> None:
    """``obj`` as one compact JSON line (``notation.json_codec``) on ``out`` (default stdout)."""
    (out if out is not None else sys.stdout).write(json_line(obj))
