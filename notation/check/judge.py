"""Judging one FEN for the check: ``operations.validate_fen`` plus the check's own warnings.

Every position goes through ``validate_fen``, so codes and messages are those of the CLI
and the service. On top, a dialect that most readers reject (``rare-dialect``) is a warning.
Results are cached per (FEN, variant): opening books and Chess960 files repeat positions.
Nothing here raises on bad input.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

from notation.check.problem import Severity
from notation.errors import UnknownVariantError
from notation.fen.dialect import Dialect, PocketStyle
from notation.variants import Registry, Variant


@dataclass(frozen=True)
class Finding:
    """One problem with a FEN; ``column`` is 1-based within the FEN text, or None."""

    severity: Severity
    code: str
    message: str
    column: int | None = None


# Dialects that most readers reject, as data: (test, message).
RARELY_READ: tuple[tuple[Callable[[Dialect], bool], str], ...] = (
    (
        lambda d: d.pockets is PocketStyle.APPENDED,
        "pockets appended after the move numbers (chess.com style): python-chess, chessops and "
        "shakmaty reject this form; write them in brackets, e.g. RNBQKBNR[Qp]",
    ),
)


class PositionJudge:
    """Validates FENs against variants found in ``registry``; see the module doc."""

    def __init__(self, registry: Registry, cache_size: int = 4096):
        self._registry = registry
        self._variants: dict[str, Variant] = {}
        self._judge = lru_cache(maxsize=cache_size)(self._judge_uncached)

    def find_variant(self, name: str) -> Variant | Finding:
        """The variant called ``name``, or an ``unknown-variant`` finding (without column)."""
        try:
            variant = self._registry.find(name)
        except UnknownVariantError as exc:
            problem = exc.problems[0]
            return Finding(Severity.ERROR, problem.code, problem.message)
        self._variants.setdefault(variant.key, variant)
        return variant

    def judge(self, fen: str, variant: Variant) -> tuple[Finding, ...]:
        """Every finding about ``fen`` read as ``variant`` (empty when it is fine)."""
        self._variants.setdefault(variant.key, variant)
        return self._judge(fen, variant.key)

    def _judge_uncached(self, fen: str, key: str) -> tuple[Finding, ...]:
        from notation.operations import validate_fen

        result = validate_fen(fen, self._variants[key], registry=self._registry)
        findings = [Finding(Severity.ERROR, p.code, p.message, p.column) for p in result.errors]
        findings += [Finding(Severity.WARNING, p.code, p.message, p.column) for p in result.warnings]
        if result.detected is not None:
            for test, message in RARELY_READ:
                if test(result.detected):
                    findings.append(Finding(Severity.WARNING, "rare-dialect", message))
        return tuple(findings)
