"""Judging one FEN for the check: ``operations.validate_fen`` plus the check's own warnings.

Every position goes through ``validate_fen``, so codes and messages are those of the CLI
and the service. On top, a dialect that most readers reject (``rare-dialect``) is a warning.
Problems that name a FEN field but no column (the validator's) are placed at that field.
Results are cached per (FEN, variant): opening books and Chess960 files repeat positions.
Nothing here raises on bad input.
"""


from collections.abc import Callable
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Final

from notation.check.problem import Severity
from notation.errors import UnknownVariantError
from notation.fen.dialect import Dialect
from notation.fen.profiles import WriteOptions
from notation.move_options import MoveLanguage
from notation.options import PocketStyle
from notation.patterns import compiled
from notation.variants import Registry, Variant

if TYPE_CHECKING:
    from notation.check.duplicates import CheckDuplicates
    from notation.pgn.gamestart import StartPositions


class Finding:
    """One problem with a FEN; ``column`` is 1-based within the FEN text, or None.
    Read-only, equal to another with the same fields. A plain class, not a NamedTuple or a
    dataclass: every ``check`` defines it at start-up (docs/architecture.md, "Start-up")."""

    __slots__ = ("severity", "code", "message", "column")

    def __init__(self, severity: Severity, code: str, message: str, column: int | None = None) -> None:
        self.severity: Final = severity
        self.code: Final = code
        self.message: Final = message
        self.column: Final = column

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Finding):
            return NotImplemented
        return (self.severity, self.code, self.message, self.column) == (
            other.severity, other.code, other.message, other.column)

    def __hash__(self) -> int:
        return hash((self.severity, self.code, self.message, self.column))

    def __repr__(self) -> str:
        return (f"Finding(severity={self.severity!r}, code={self.code!r}, message={self.message!r}, "
                f"column={self.column!r})")

# Dialects that most readers reject, as data: (test, FEN field to point at, message).
RARELY_READ: tuple[tuple[Callable[[Dialect], bool], str, str], ...] = (
    (
        lambda d: d.pockets is PocketStyle.APPENDED,
        "pockets",
        "pockets appended after the move numbers (chess.com style): python-chess, chessops and "
        "shakmaty reject this form; write them in brackets, e.g. RNBQKBNR[Qp]",
    ),
)


_REMEMBERED_NAMES = 1024  # Variant tag values remembered: ever new names cannot grow memory


class PositionJudge:
    """Validates FENs against variants found in ``registry``; see the module doc."""

    def __init__(self, registry: Registry, cache_size: int = 4096, profile: tuple[str, WriteOptions] | None = None,
                 letters: MoveLanguage = MoveLanguage.EN):
        self._registry = registry
        self.letters = letters  # the language of chess moves' piece letters (``--piece-letters``)
        self._profile = profile
        self._variants: dict[str, Variant] = {}
        self._found: dict[str, Variant | Finding] = {}  # Variant tag value -> what it names
        self._judge = lru_cache(maxsize=cache_size)(self._judge_uncached)
        self.duplicates: CheckDuplicates | None = None  # ``check --duplicates``: the run's finder

    @cached_property
    def starts(self) -> "StartPositions":
        """The start positions of games (``notation.pgn.gamestart``), made on first use and
        kept as the judge's attribute: the check of each game reads it as one, with no call."""
        from notation.pgn.gamestart import StartPositions

        return StartPositions(self._registry)

    def find_variant(self, name: str) -> Variant | Finding:
        """The variant called ``name``, or an ``unknown-variant`` finding (without column):
        remembered per name (a database names the same few variants in game after game)."""
        found = self._found.get(name)
        if found is None:
            found = self._find_variant(name)
            if len(self._found) >= _REMEMBERED_NAMES:
                self._found.clear()
            self._found[name] = found
        return found

    def _find_variant(self, name: str) -> Variant | Finding:
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
        findings = [
            Finding(severity, p.code, p.message, p.column or field_column(fen, p.field))
            for severity, problems in ((Severity.ERROR, result.errors), (Severity.WARNING, result.warnings))
            for p in problems
        ]
        if result.detected is not None:
            for test, field, message in RARELY_READ:
                if test(result.detected):
                    findings.append(Finding(Severity.WARNING, "rare-dialect", message, field_column(fen, field)))
        if self._profile is not None and result.valid:
            findings.extend(self._as_profile_writes(fen, self._variants[key], *self._profile))
        return tuple(findings)

    def _as_profile_writes(self, fen: str, variant: Variant, name: str, options: WriteOptions) -> list[Finding]:
        """A ``profile-mismatch`` warning when ``fen`` is not written as the profile writes it."""
        from notation.operations import convert_fen

        written = convert_fen(fen, variant, options=options, registry=self._registry).fen
        if written is None or written == " ".join(fen.split()):
            return []
        return [Finding(Severity.WARNING, "profile-mismatch", f"{name} writes this position as {written}", 1)]


_TOKEN = r"\S+"  # compiled on first use (``notation.patterns``): a FEN with a problem
_FIXED_FIELDS = {"placement": 0, "promoted": 0, "turn": 1, "castling": 2, "en-passant": 3}


def field_column(fen: str, field: str | None) -> int | None:
    """1-based column where ``field`` starts in ``fen``, or None when it cannot be seen."""
    if field is None:
        return None
    tokens = list(compiled(_TOKEN).finditer(fen))
    if field in _FIXED_FIELDS:
        index = _FIXED_FIELDS[field]
        return tokens[index].start() + 1 if index < len(tokens) else None
    if not tokens:
        return None
    if field == "pockets":
        placement = tokens[0].group()
        if "[" in placement:
            return tokens[0].start() + placement.index("[") + 1
        if placement.count("/") >= 8:
            return tokens[0].start() + _nth(placement, "/", 8) + 2
        appended = [t for t in tokens[4:] if not t.group().isdigit() and "+" not in t.group()]
        return appended[0].start() + 1 if appended else None
    rest = tokens[4:]
    if field == "checks":
        found = [t for t in rest if "+" in t.group()]
        return found[0].start() + 1 if found else None
    numbers = [t for t in rest if t.group().isdigit()]
    number = {"halfmove": 0, "fullmove": 1}.get(field)
    if number is not None and number < len(numbers):
        return numbers[number].start() + 1
    return None


def _nth(text: str, char: str, n: int) -> int:
    """Index of the ``n``-th (1-based) ``char`` in ``text``."""
    pos = -1
    for _ in range(n):
        pos = text.index(char, pos + 1)
    return pos
