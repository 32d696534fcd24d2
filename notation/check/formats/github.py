"""``github``: GitHub Actions workflow commands, which annotate the files of a pull request.

``::error file=P,line=L,col=C,title=CODE::MESSAGE`` (``::warning`` for warnings). Values are
escaped as the Actions runner expects: in the message ``%``, CR and LF; in properties also
``:`` and ``,``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

from notation.check.problem import CheckProblem

if TYPE_CHECKING:
    from notation.check.runner import Summary

_DATA = str.maketrans({"%": "%25", "\r": "%0D", "\n": "%0A"})
_PROPERTY = str.maketrans({"%": "%25", "\r": "%0D", "\n": "%0A", ":": "%3A", ",": "%2C"})


def escape_data(text: str) -> str:
    return text.translate(_DATA)


def escape_property(text: str) -> str:
    return text.translate(_PROPERTY)


class GithubFormat:
    def __init__(self, out: TextIO):
        self._out = out

    def problem(self, problem: CheckProblem) -> None:
        properties = ",".join(
            f"{name}={escape_property(value)}"
            for name, value in (
                ("file", problem.path),
                ("line", str(problem.line)),
                ("col", str(problem.column)),
                ("title", problem.code),
            )
        )
        self._out.write(f"::{problem.severity.value} {properties}::{escape_data(problem.message)}\n")

    def finish(self, summary: Summary | None = None) -> None:
        self._out.flush()  # the counts go to standard error (text) or nowhere
