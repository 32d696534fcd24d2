"""``json``: ``{"problems": [{"path", "line", "column", "severity", "code", "message"}],
"summary": {"files", "games", "plies", "positions", "errors", "warnings", "suppressed",
"excluded", "unreadable"}}``.

Streamed: one problem object a line, so a long run never holds its output in memory; the
summary comes last, once everything is read.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, TextIO

from notation.check.problem import CheckProblem

if TYPE_CHECKING:
    from notation.check.runner import Summary


class JsonFormat:
    def __init__(self, out: TextIO):
        self._out = out
        self._count = 0

    def problem(self, problem: CheckProblem) -> None:
        lead = '{"problems": [\n' if self._count == 0 else ",\n"
        self._out.write(lead + "  " + json.dumps(problem.to_dict(), ensure_ascii=False))
        self._count += 1

    def finish(self, summary: Summary | None = None) -> None:
        tail = "" if summary is None else ', "summary": ' + json.dumps(summary.to_dict())
        self._out.write(('{"problems": []' if self._count == 0 else "\n]") + tail + "}\n")
        self._out.flush()
