"""``Problem``: one finding about an input, with a stable code (re-exported by
``notation.errors``, whose exceptions carry problems).

Compiled with the hot modules: the reader, the validators and the writer make problems,
and the front ends turn them into JSON, on every illegal or unreadable FEN. Nothing here
raises; ``to_dict`` and ``describe`` are the JSON and the human forms.
"""

from __future__ import annotations

from typing import Any, Final


class Problem:
    """One finding about an input, with a stable machine-readable ``code``.

    ``field`` names the FEN field concerned (``placement``, ``pockets``, ``turn``,
    ``castling``, ``en-passant``, ``checks``, ``halfmove``, ``fullmove``, ``promoted``) and
    ``column`` is 1-based within the FEN text, where known. ``extra`` holds more JSON fields
    (``to_dict``); it takes no part in equality.

    A value, equal to another with the same code, message, field and column, and read-only:
    its fields are ``Final`` (a write is a type error, and in the compiled build an
    ``AttributeError``). A plain class rather than a frozen dataclass: every command defines
    it at start-up, where ``dataclasses`` and the methods it compiles from source are dear
    (docs/architecture.md, "Start-up"), and compiled, making one is a native call.
    """

    def __init__(
        self, code: str, message: str, field: str | None = None, column: int | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        self.code: Final = code
        self.message: Final = message
        self.field: Final = field
        self.column: Final = column
        self.extra: Final[dict[str, Any]] = {} if extra is None else extra

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Problem):
            return NotImplemented
        return (self.code == other.code and self.message == other.message and self.field == other.field
                and self.column == other.column)

    def __hash__(self) -> int:
        return hash((self.code, self.message, self.field, self.column))

    def __repr__(self) -> str:
        return (f"Problem(code={self.code!r}, message={self.message!r}, field={self.field!r}, "
                f"column={self.column!r}, extra={self.extra!r})")

    def __reduce__(self) -> tuple[type[Problem], tuple[Any, ...]]:
        """Pickled and copied through ``__init__``."""
        return (Problem, (self.code, self.message, self.field, self.column, self.extra))

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
