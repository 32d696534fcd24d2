"""Output formats of ``notation check``: one module each, all with the same shape.

A format is a class built on a text stream; ``problem(p)`` is called for each problem in
order and ``finish(summary)`` once at the end. Formats that can stream write as they go.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, TextIO

from notation.check.problem import CheckProblem

if TYPE_CHECKING:
    from notation.check.runner import Summary


class Format(Protocol):
    def __init__(self, out: TextIO) -> None: ...

    def problem(self, problem: CheckProblem) -> None: ...

    def finish(self, summary: Summary | None = None) -> None:
        """The end of the output; ``summary``: the run's counts, for formats that carry them
        (json: ``summary``; sarif: the run's ``properties``)."""


FORMAT_NAMES: tuple[str, ...] = ("github", "json", "sarif", "text")


def format_class(name: str) -> type[Format]:
    """The class of the format ``name``, one of ``FORMAT_NAMES``; raises ``KeyError`` for
    another. Only the chosen format's module is imported: a run in the default text format
    starts without the others (and without the standard library's json)."""
    if name == "text":
        from notation.check.formats.text import TextFormat
        return TextFormat
    if name == "json":
        from notation.check.formats.json import JsonFormat
        return JsonFormat
    if name == "github":
        from notation.check.formats.github import GithubFormat
        return GithubFormat
    if name == "sarif":
        from notation.check.formats.sarif import SarifFormat
        return SarifFormat
    raise KeyError(name)
