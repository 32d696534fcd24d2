"""``Problem``: one finding about an input, with a stable code (re-exported by
``notation.errors``, whose exceptions carry problems).

Compiled with the hot modules: the reader, the validators and the writer make problems,
and the front ends turn them into JSON, on every illegal or unreadable FEN. Nothing here
raises; ``to_dict`` and ``describe`` are the JSON and the human forms.
"""

from __future__ import annotations

import dataclasses
import types
from dataclasses import dataclass
from typing import Any, Final


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
        # ``object.__setattr__`` per field; an illegal FEN has one problem or more.
        if COMPILED:
            # Compiled (mypyc), an assignment in the class's own code writes the field
            # directly, past the frozen ``__setattr__``.
            self.code = code  # type: ignore[misc]
            self.message = message  # type: ignore[misc]
            self.field = field  # type: ignore[misc]
            self.column = column  # type: ignore[misc]
            self.extra = {} if extra is None else extra  # type: ignore[misc]
            return
        # Interpreted, the same assignment would run the frozen ``__setattr__``, which
        # refuses it: the instance's dictionary takes the fields.
        vars(self).update(code=code, message=message, field=field, column=column, extra={} if extra is None else extra)

    def __reduce__(self) -> tuple[type[Problem], tuple[Any, ...]]:
        """Pickled and copied through ``__init__``: compiled, the default would set the
        frozen fields one by one and fail."""
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


# Whether this class was compiled by mypyc (its fields are then the compiled class's own
# descriptors): ``Problem.__init__`` writes its fields as the build allows.
COMPILED: Final = isinstance(vars(Problem).get("code"), types.GetSetDescriptorType)
