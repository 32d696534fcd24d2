"""Errors and problems of positions: what the FEN reader, the validator and the writer report.

``Problem`` is data (a stable ``code``, a message, and where in a FEN it was found;
defined in ``notation.problem``, compiled, and re-exported here). Exceptions carry
problems; ``Problem.describe`` is the one human-readable line. Codes are shared by every
front end, but where a problem sits differs by input, so two other types
carry the same ``code`` and ``message`` with their own place: ``notation.pgn.games.PgnProblem``
(a line and column of a PGN text, and the tag) and ``notation.check.problem.CheckProblem``
(a file, line and column, and a severity, for the CI gate's report).
"""

from __future__ import annotations

from typing import Any

from notation.problem import Problem

__all__ = ["FenSyntaxError", "IllegalSetupError", "MoveError", "NotationError", "Problem", "UnknownVariantError"]


class NotationError(Exception):
    """Base of every error this package raises on bad input. ``problems`` lists them all."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        found = self.problems
        # One problem is the usual case (a FEN's syntax error): its message, without a join.
        super().__init__(found[0].message if len(found) == 1 else "; ".join([p.message for p in found]))

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
    """A FEN that cannot be read. Code ``fen-syntax``; names the field and the 1-based column.
    ``str()`` of it is the message, however the fields were passed."""

    def __init__(self, message: str, field: str, column: int, expected: str | None = None):
        self.field = field
        self.column = column
        self.expected = expected
        # What NotationError.__init__ does for one problem, without its frame: this error is
        # made for every unreadable line. The compiled Problem takes its arguments by
        # position (from interpreted code, keywords are parsed on every call), and so may
        # this class (the reader's hot paths pass them so).
        self.problems = [Problem("fen-syntax", message, field, column, {"expected": expected} if expected else None)]
        # BaseException.__new__ set ``args`` to the positional arguments: the message alone
        # is kept, as Exception.__init__ would keep it (without that call's cost).
        if len(self.args) != 1:
            self.args = (message,)


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


class MoveError(NotationError):
    """A move that cannot be played in a position: unreadable, illegal or ambiguous.

    ``code`` is ``bad-move-syntax``, ``illegal-move``, ``ambiguous-move`` or
    ``game-over``; ``move`` is the text as given and ``fen`` the position before it (both
    also in the problem's ``extra``, as the JSON answers carry them).
    """

    def __init__(self, code: str, message: str, *, move: str, fen: str, candidates: list[str] | None = None):
        self.move = move
        self.fen = fen
        extra: dict[str, Any] = {"move": move, "fen": fen}
        if candidates:
            extra["candidates"] = candidates
        super().__init__([Problem(code, message, extra=extra)])
