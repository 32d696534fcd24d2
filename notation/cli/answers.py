"""One input's answer in ``convert`` and ``validate``: the variant guessed where asked
(``guessing``), the judge's result or the input's own problem (``answer``: never raises;
a bug in the library becomes that input's ``internal-error``), and the pieces of its
output line (``text_prefix``, ``problem_text``, ``file_hint``, ``located``).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, Final, TypeVar

from notation.cli.input_lines import FenInput, MarkedInput
from notation.cli.options import is_auto, variant_hint
from notation.errors import NotationError, Problem
from notation.lean_enum import LeanEnum
from notation.variants import Registry, Variant

ResultT = TypeVar("ResultT")


_KNOWN_NAMES = 256  # variant names ``guessing`` keeps found, at most


def guessing(
    judge: Callable[[str, str | Variant], ResultT], failure: Callable[[Problem], ResultT], registry: Registry
) -> Callable[[str, str], ResultT]:
    """``judge`` that reads the variant name ``auto`` as "guess it" (``notation.guess``):
    a guess other than the default variant adds a ``guessed-variant`` warning first; no
    guess is the failure of the FEN's own problem, or ``unknown-variant``, suggesting
    ``--variant`` values (``notation.guess``)."""

    # Each name the inputs give, found once: the registry's look-up normalizes the name,
    # and the lines of a file name the same few variants. A name it refuses is not kept:
    # ``judge`` is given the name and reports it, on each line.
    known: dict[str, Variant] = {}

    def judge_or_guess(fen: str, variant: str) -> ResultT:
        found = known.get(variant)
        if found is not None:
            return judge(fen, found)
        if not is_auto(variant):
            try:
                found = registry.find(variant)
            except NotationError:
                return judge(fen, variant)
            if len(known) < _KNOWN_NAMES:
                known[variant] = found
            return judge(fen, found)
        from notation.guess import VariantGuessError, guess_variant  # only for ``auto``: not at start-up

        try:
            guess = guess_variant(fen, registry)
        except VariantGuessError as exc:
            return failure(variant_hint(exc.problems[0]))
        result = judge(fen, guess.variant)
        if guess.variant is not _default_of(registry):
            result.warnings.insert(0, guess.warning())  # type: ignore[attr-defined]
        return result

    return judge_or_guess


def _default_of(registry: Registry) -> Variant | None:
    try:
        return registry.default
    except LookupError:
        return None


def located(item: FenInput, obj: dict[str, Any]) -> dict[str, Any]:
    """``obj``, a JSON answer, with the input's ``line`` (null for an argument) and, for a
    file given with ``--input``, its ``input`` path. (A function, not a method of the named
    tuple: compiled, a direct call.)"""
    obj["line"] = item.line
    if item.source is not None:
        obj["input"] = item.source
    return obj


class Answer(LeanEnum):
    """How an input's result came about."""

    JUDGED = "judged"  # the library read and judged the input
    UNUSABLE = "unusable"  # the line could not be used (too long, not UTF-8, bad JSON)
    INTERNAL = "internal"  # the library failed on it (a bug): the command exits 3


_JUDGED: Final = Answer.JUDGED


def answer(
    item: FenInput, judge: Callable[[str, str], ResultT], failure: Callable[[Problem], ResultT]
) -> tuple[ResultT, Answer]:
    """``judge(fen, variant)`` of a usable input, ``failure(problem)`` of an unusable one.

    An exception from ``judge`` (a bug) becomes that input's failure with code
    ``internal-error``, so the inputs after it are still answered; nothing is raised.
    The warning of an input read past a byte order mark comes first among the result's.
    """
    if item.problem is not None:
        result, how = failure(item.problem), Answer.UNUSABLE
    else:
        fen = item.fen or ""  # without a problem there is a FEN (perhaps empty: the reader says so)
        try:
            result, how = judge(fen, item.variant), _JUDGED
        except Exception as exc:  # noqa: BLE001 - one line's bug must not cost the others their answer
            result, how = failure(internal_problem(exc, item.line)), Answer.INTERNAL
    if isinstance(item, MarkedInput):
        result.warnings.insert(0, item.warning)  # type: ignore[attr-defined]
    return result, how


def text_prefix(item: FenInput) -> str:
    """What starts an output line: ``PATH:LINE: `` for a line of an ``--input`` file (as
    compilers and grep write it), nothing for an argument or a line of standard input (so
    that ``notation convert < in > out`` stays a pipeline)."""
    return f"{item.where}: " if item.source is not None else ""


def problem_text(item: FenInput, how: Answer, problems: list[Problem]) -> str:
    """The problems of one input as the rest of its output line: ``line N: `` first for a
    line of standard input whose problem does not already say so."""
    where = f"line {item.line}: " if item.source is None and item.line and how is not Answer.UNUSABLE else ""
    return where + "; ".join(p.describe() for p in problems)


def file_hint(item: FenInput, how: Answer, problems: list[Problem]) -> str:
    """For a FEN argument that could not be read but names a file, the standard-error line
    saying how to read the file; "" otherwise."""
    if item.line is not None or how is not Answer.JUDGED or not item.fen:
        return ""
    if not any(p.code == "fen-syntax" for p in problems) or not os.path.isfile(item.fen):
        return ""
    return f"hint: {item.fen!r} is a file; to read the FENs in it, use --input {item.fen}\n"


def internal_problem(exc: Exception, line: int | None) -> Problem:
    """The problem reported for one input the library failed on (a bug): that input gets
    its own answer and the others are still answered; the command then exits 3."""
    where = f"line {line}: " if line else ""
    return Problem("internal-error", f"{where}{type(exc).__name__}: {exc} (please report it)")
