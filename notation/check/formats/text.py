"""``text``: one problem a line, compiler style: ``path:line:column: code: message``."""

from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

from notation.check.problem import CheckProblem

if TYPE_CHECKING:
    from notation.check.runner import Summary


class TextFormat:
    def __init__(self, out: TextIO):
        self._out = out

    def problem(self, problem: CheckProblem) -> None:
        message = " ".join(problem.message.splitlines())
        self._out.write(f"{problem.path}:{problem.line}:{problem.column}: {problem.code}: {message}\n")

    def finish(self, summary: Summary | None = None) -> None:
        self._out.flush()  # the counts go to standard error (text) or nowhere
