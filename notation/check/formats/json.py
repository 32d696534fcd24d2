"""``json``: ``{"problems": [{"path", "line", "column", "severity", "code", "message"}]}``.

Streamed: one problem object a line, so a long run never holds its output in memory.
"""

from __future__ import annotations

import json
from typing import TextIO

from notation.check.problem import CheckProblem


class JsonFormat:
    def __init__(self, out: TextIO):
        self._out = out
        self._count = 0

    def problem(self, problem: CheckProblem) -> None:
        lead = '{"problems": [\n' if self._count == 0 else ",\n"
        self._out.write(lead + "  " + json.dumps(problem.to_dict(), ensure_ascii=False))
        self._count += 1

    def finish(self) -> None:
        self._out.write('{"problems": []}\n' if self._count == 0 else "\n]}\n")
        self._out.flush()
