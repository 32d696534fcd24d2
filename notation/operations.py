"""The one pipeline every front end calls: read, validate, (repair,) write.

``convert_fen`` and ``validate_fen`` never raise on bad input; they return results whose
``to_dict()`` is the JSON the CLI prints and the service returns. Programming errors
(a wrong argument type) still raise.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any, Final

from notation.errors import IllegalSetupError, NotationError, Problem
from notation.fen.dialect import Dialect
from notation.fen.profiles import DEFAULT_OPTIONS, WriteOptions
from notation.fen.reader import ReadResult, read_fen, read_or_error
from notation.fen.writer import write_fen
from notation.options import IllegalPolicy
from notation.rules.variant_rules import rules_for
from notation.validation import FINISHED_GAME_CODES, problems_of, validate
from notation.validation import repair as repair_setup
from notation.variants import DEFAULT_REGISTRY, Registry, Variant

if TYPE_CHECKING:
    from notation.views import Viewer

# Enum members bound once: reading a member off its class goes through EnumType's
# attribute hook, dearer than the test it serves when compiled code does it per FEN.
_REPAIR: Final = IllegalPolicy.REPAIR
_VARIANT: Final = Variant  # compiled, a C static: an imported class is a dictionary look-up


def _repr(kind: str, names: tuple[str, ...], values: tuple[Any, ...]) -> str:
    """``Kind(name=value, ...)``, as a dataclass would show it."""
    return kind + "(" + ", ".join(f"{name}={value!r}" for name, value in zip(names, values, strict=True)) + ")"


class ConvertResult:
    """Outcome of one conversion; ``fen`` is None when ``ok`` is False. Equal to another
    with the same fields.

    A plain class rather than a dataclass (as every result here): ``dataclasses`` and the
    methods it compiles from source are dear at start-up (docs/architecture.md,
    "Start-up"), and compiled, making one per FEN is a native call.
    """

    def __init__(
        self, ok: bool, fen: str | None, variant: str | None, errors: list[Problem] | None = None,
        warnings: list[Problem] | None = None, detected: Dialect | None = None,
    ) -> None:
        self.ok = ok
        self.fen = fen
        self.variant = variant  # the variant's key, None when the name was unknown
        self.errors: list[Problem] = [] if errors is None else errors
        self.warnings: list[Problem] = [] if warnings is None else warnings
        self.detected = detected

    def _fields(self) -> tuple[Any, ...]:
        return (self.ok, self.fen, self.variant, self.errors, self.warnings, self.detected)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ConvertResult):
            return NotImplemented
        return self._fields() == other._fields()

    def __repr__(self) -> str:
        return _repr("ConvertResult", ("ok", "fen", "variant", "errors", "warnings", "detected"), self._fields())

    def __reduce__(self) -> tuple[type[ConvertResult], tuple[Any, ...]]:
        """Pickled and copied through ``__init__``: compiled (mypyc), the default calls it
        with no arguments and fails."""
        return (ConvertResult, self._fields())

    @classmethod
    def failure(cls, problem: Problem) -> ConvertResult:
        """The result of an input that could not be converted at all (not read, or the
        library failed on it): no FEN, no variant, ``problem`` its only error."""
        return cls(False, None, None, errors=[problem])

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "fen": self.fen,
            "variant": self.variant,
            "errors": _dicts(self.errors),
            "warnings": _dicts(self.warnings),
            "detected": self.detected.to_dict() if self.detected else None,
        }


class ValidateResult:
    """Outcome of one validation: every problem found, none hidden behind the first. Equal
    to another with the same fields; a plain class, as ``ConvertResult``."""

    def __init__(
        self, valid: bool, variant: str | None, errors: list[Problem] | None = None,
        warnings: list[Problem] | None = None, detected: Dialect | None = None,
    ) -> None:
        self.valid = valid
        self.variant = variant
        self.errors: list[Problem] = [] if errors is None else errors
        self.warnings: list[Problem] = [] if warnings is None else warnings
        self.detected = detected

    def _fields(self) -> tuple[Any, ...]:
        return (self.valid, self.variant, self.errors, self.warnings, self.detected)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ValidateResult):
            return NotImplemented
        return self._fields() == other._fields()

    def __repr__(self) -> str:
        return _repr("ValidateResult", ("valid", "variant", "errors", "warnings", "detected"), self._fields())

    def __reduce__(self) -> tuple[type[ValidateResult], tuple[Any, ...]]:
        """Pickled and copied through ``__init__``, as ``ConvertResult``."""
        return (ValidateResult, self._fields())

    @classmethod
    def failure(cls, problem: Problem) -> ValidateResult:
        """The result of an input that could not be judged at all (not read, or the
        library failed on it): no variant, ``problem`` its only error."""
        return cls(False, None, errors=[problem])

    def to_dict(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "variant": self.variant,
            "errors": _dicts(self.errors),
            "warnings": _dicts(self.warnings),
            "detected": self.detected.to_dict() if self.detected else None,
        }


def convert_fen(
    text: str,
    variant: str | Variant = "standard",
    *,
    options: WriteOptions = DEFAULT_OPTIONS,
    on_illegal: IllegalPolicy = IllegalPolicy.REFUSE,
    accept: Collection[str] = (),
    registry: Registry = DEFAULT_REGISTRY,
) -> ConvertResult:
    """Read ``text`` as a FEN of ``variant``, check it, and write it with ``options``.

    Problems whose code is in ``accept`` are reported as warnings instead of errors, as are
    those that say the game is over (``notation.validation.FINISHED_GAME_CODES``).
    With ``IllegalPolicy.REPAIR`` bad castling rights and implausible en passant squares
    are dropped (each reported as a warning) before the remaining problems are judged.
    """
    found: Variant | None = None
    try:
        # A Variant passes through without a call into the registry: per FEN.
        found = variant if isinstance(variant, _VARIANT) else registry.find(variant)
        parsed = read_or_error(text, found)  # a syntax error returned: no traceback made
    except NotationError as exc:
        return ConvertResult(False, None, found.key if found is not None else None, errors=list(exc.problems))
    if not isinstance(parsed, tuple):  # a FenSyntaxError (a failing isinstance would look up __class__)
        return ConvertResult(False, None, found.key, errors=list(parsed.problems))
    setup, _, dialect = parsed
    warnings: list[Problem] = []
    if on_illegal is _REPAIR:
        setup, repairs = repair_setup(setup, found)
        warnings.extend(repairs)
    rules = rules_for(found)  # once: the judge reads it, and the key is read off it
    errors, accepted = _split(problems_of(setup, found, rules), accept)
    warnings.extend(accepted)
    if errors:
        return ConvertResult(False, None, rules.key, errors=errors, warnings=warnings, detected=dialect)
    written = write_fen(setup, found, options)
    warnings.extend(written.warnings)
    return ConvertResult(True, written.fen, rules.key, warnings=warnings, detected=dialect)


def validate_fen(
    text: str,
    variant: str | Variant = "standard",
    *,
    accept: Collection[str] = (),
    registry: Registry = DEFAULT_REGISTRY,
) -> ValidateResult:
    """Read and check ``text``; every problem is listed (``accept``ed codes as warnings)."""
    found: Variant | None = None
    try:
        # A Variant passes through without a call into the registry: per FEN.
        found = variant if isinstance(variant, _VARIANT) else registry.find(variant)
        parsed = read_or_error(text, found)  # a syntax error returned: no traceback made
    except NotationError as exc:
        return ValidateResult(False, found.key if found is not None else None, list(exc.problems))
    if not isinstance(parsed, tuple):  # a FenSyntaxError (a failing isinstance would look up __class__)
        return ValidateResult(False, found.key, list(parsed.problems))
    setup, _, dialect = parsed
    rules = rules_for(found)  # once: the judge reads it, and the key is read off it
    errors, accepted = _split(problems_of(setup, found, rules), accept)
    # Positional: interpreted, a call with keywords binds each by name (per FEN). The key
    # read off the rules: compiled, a struct's field, where a Variant's is a dictionary's.
    return ValidateResult(not errors, rules.key, errors, accepted, dialect)


def read_legal(
    text: str,
    variant: str | Variant = "standard",
    *,
    accept: Collection[str] = (),
    registry: Registry = DEFAULT_REGISTRY,
) -> ReadResult:
    """Read ``text`` and insist the setup is legal: the raising form of ``validate_fen``.

    Raises ``FenSyntaxError``, ``UnknownVariantError``, or ``IllegalSetupError`` whose
    ``problems`` list every rule the setup breaks (codes in ``accept`` are let through).
    """
    read = read_fen(text, variant, registry=registry)
    errors, _ = _split(validate(read.setup, read.variant), accept)
    if errors:
        raise IllegalSetupError(errors)
    return read


def _dicts(problems: list[Problem]) -> list[dict[str, Any]]:
    """The JSON forms of ``problems`` (most lists are empty: then no comprehension is run,
    which interpreted is a call of its own)."""
    return [p.to_dict() for p in problems] if problems else []


def _split(problems: list[Problem], accept: Collection[str]) -> tuple[list[Problem], list[Problem]]:
    """(errors, warnings): ``accept``ed codes and finished-game codes are warnings."""
    if not problems:  # a legal setup: nothing to sort
        return problems, []
    errors: list[Problem] = []
    accepted: list[Problem] = []
    for p in problems:  # one pass (interpreted, a generator or a comprehension is a call of its own)
        if p.code in accept or p.code in FINISHED_GAME_CODES:
            accepted.append(p)
        else:
            errors.append(p)
    return (errors, accepted) if accepted else (problems, [])


class ViewResult:
    """Outcome of one view: the FEN ``side`` sees (``fen`` None when ``ok`` is False). Equal
    to another with the same fields; a plain class, as ``ConvertResult``."""

    def __init__(
        self, ok: bool, fen: str | None, variant: str | None, side: str, errors: list[Problem] | None = None,
        warnings: list[Problem] | None = None,
    ) -> None:
        self.ok = ok
        self.fen = fen
        self.variant = variant
        self.side = side
        self.errors: list[Problem] = [] if errors is None else errors
        self.warnings: list[Problem] = [] if warnings is None else warnings

    def _fields(self) -> tuple[Any, ...]:
        return (self.ok, self.fen, self.variant, self.side, self.errors, self.warnings)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ViewResult):
            return NotImplemented
        return self._fields() == other._fields()

    def __repr__(self) -> str:
        return _repr("ViewResult", ("ok", "fen", "variant", "side", "errors", "warnings"), self._fields())

    def __reduce__(self) -> tuple[type[ViewResult], tuple[Any, ...]]:
        """Pickled and copied through ``__init__``, as ``ConvertResult``."""
        return (ViewResult, self._fields())

    @classmethod
    def failure(cls, problem: Problem, side: str = "") -> ViewResult:
        """The result of an input that could not be viewed at all."""
        return cls(False, None, None, side, errors=[problem])

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "fen": self.fen,
            "variant": self.variant,
            "side": self.side,
            "errors": _dicts(self.errors),
            "warnings": _dicts(self.warnings),
        }


def view_fen(
    text: str,
    variant: str | Variant,
    viewer: Viewer,
    *,
    options: WriteOptions = DEFAULT_OPTIONS,
    accept: Collection[str] = (),
    registry: Registry = DEFAULT_REGISTRY,
) -> ViewResult:
    """The view FEN ``viewer`` has of ``text``: a full position (validated first, refused
    with its problems when illegal) or a view FEN (one with ``?``, judged by
    ``validate_view`` and written back). Never raises on bad input."""
    # Only a view imports the views (Dark Chess): convert and validate start up without them.
    from notation.views import read_view, validate_view, view_of, write_view

    side = viewer.value
    found: Variant | None = None
    try:
        # A Variant passes through without a call into the registry: per FEN.
        found = variant if isinstance(variant, _VARIANT) else registry.find(variant)
        if _is_view(text):
            view = read_view(text, found, viewer, registry=registry)
            problems = validate_view(view)
        else:
            parsed = read_fen(text, found)
            problems = validate(parsed.setup, found)
            view = None
        errors, warnings = _split(problems, accept)
        if errors:
            return ViewResult(False, None, found.key, side, errors=errors, warnings=warnings)
        if view is None:
            view = view_of(parsed.setup, found, viewer, registry=registry)
    except NotationError as exc:
        return ViewResult(False, None, found.key if found is not None else None, side, errors=list(exc.problems))
    return ViewResult(True, write_view(view, options), found.key, side, warnings=warnings)


def _is_view(text: str) -> bool:
    """Whether ``text`` is a view FEN: its placement marks unseen squares."""
    from notation.views import UNSEEN

    fields = text.split(maxsplit=1) if isinstance(text, str) else []
    return bool(fields) and UNSEEN in fields[0]
