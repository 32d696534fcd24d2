"""Errors and problems of positions: what the FEN reader, the validator and the writer report.

``Problem`` is data (a stable ``code``, a message, and where in a FEN it was found).
Exceptions carry problems; ``Problem.describe`` is the one human-readable line. Codes are
shared by every front end, but where a problem sits differs by input, so two other types
carry the same ``code`` and ``message`` with their own place: ``notation.pgn.games.PgnProblem``
(a line and column of a PGN text, and the tag) and ``notation.check.problem.CheckProblem``
(a file, line and column, and a severity, for the CI gate's report).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Problem:
    """One finding about an input, with a stable machine-readable ``code``.

    ``field`` names the FEN field concerned (``placement``, ``pockets``, ``turn``,
    ``castling``, ``en-passant``, ``checks``, ``halfmove``, ``fullmove``, ``promoted``) and
    ``column`` is 1-based within the FEN text, where known.
    """

    code: str
    message: str
    field: str | None = None
    column: int | None = None
    extra: dict[str, Any] = dataclasses.field(default_factory=dict, compare=False)

    def __init__(
        self, code: str, message: str, field: str | None = None, column: int | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        # Written out (the dataclass keeps it): the generated frozen ``__init__`` calls
        # ``object.__setattr__`` per field, twice the time; an illegal FEN has one or more.
        values = self.__dict__
        values["code"] = code
        values["message"] = message
        values["field"] = field
        values["column"] = column
        values["extra"] = {} if extra is None else extra

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.field is not None:
            out["field"] = self.field
        if self.column is not None:
            out["column"] = self.column
        out.update(self.extra)
        return out

    def describe(self, *, prefix: str = "") -> str:
        """One human line: ``prefix: code: message (field F, column C)`` (the parts known)."""
        where = []
        if self.field:
            where.append(f"field {self.field}")
        if self.column is not None:
            where.append(f"column {self.column}")
        suffix = f" ({', '.join(where)})" if where else ""
        head = f"{prefix}: " if prefix else ""
        return f"{head}{self.code}: {self.message}{suffix}"


class NotationError(Exception):
    """Base of every error this package raises on bad input. ``problems`` lists them all."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("; ".join(p.message for p in self.problems))

    @property
    def code(self) -> str:
        return self.problems[0].code

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (a worker process's error, sent to its parent) as its class, message and
        attributes: the default would call each subclass's ``__init__`` with the message
        alone, which none of them takes."""
        return (_restore_error, (type(self), self.args, self.__dict__))


def _restore_error(cls: type[NotationError], args: tuple[Any, ...], state: dict[str, Any]) -> NotationError:
    """``cls`` with its message ``args`` and attributes ``state``, without its ``__init__``."""
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(state)
    return error


class FenSyntaxError(NotationError):
    """A FEN that cannot be read. Code ``fen-syntax``; names the field and the 1-based column."""

    def __init__(self, message: str, *, field: str, column: int, expected: str | None = None):
        self.field = field
        self.column = column
        self.expected = expected
        extra = {"expected": expected} if expected else {}
        super().__init__([Problem("fen-syntax", message, field=field, column=column, extra=extra)])


class UnknownVariantError(NotationError):
    """A variant name that no registry entry or alias matches. Code ``unknown-variant``."""

    def __init__(self, name: str, suggestions: list[str]):
        self.name = name
        self.suggestions = suggestions
        hint = f"; did you mean {', '.join(suggestions)}?" if suggestions else ""
        super().__init__(
            [
                Problem(
                    "unknown-variant",
                    f"unknown variant {name!r}{hint}",
                    extra={"suggestions": suggestions},
                )
            ]
        )


class IllegalSetupError(NotationError):
    """A setup that was read but breaks its variant's rules; ``problems`` holds every one."""
