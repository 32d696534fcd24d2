"""Output formats of ``notation check``: one module each, all with the same shape.

A format is a class built on a text stream; ``problem(p)`` is called for each problem in
order and ``finish()`` once at the end. Formats that can stream write as they go.
"""

from __future__ import annotations

from typing import Protocol, TextIO

from notation.check.formats.github import GithubFormat
from notation.check.formats.json import JsonFormat
from notation.check.formats.sarif import SarifFormat
from notation.check.formats.text import TextFormat
from notation.check.problem import CheckProblem


class Format(Protocol):
    def __init__(self, out: TextIO) -> None: ...

    def problem(self, problem: CheckProblem) -> None: ...

    def finish(self) -> None: ...


FORMATS: dict[str, type[Format]] = {
    "text": TextFormat,
    "json": JsonFormat,
    "github": GithubFormat,
    "sarif": SarifFormat,
}
