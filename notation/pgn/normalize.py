"""Normalise the set-up tags of PGN games: ``Variant``, ``FEN`` and ``SetUp``, nothing else.

``normalize(text_or_lines, options)`` yields one ``GameResult`` per game (or game part), in
input order. For every game:

- ``Variant`` becomes the profile's name for the game's variant (``naming.py``); a game
  whose FEN has castling rights only Chess960 can have is Chess960 (a ``Variant`` tag is
  added when there was none);
- ``FEN`` is rewritten by ``notation.operations.convert_fen`` in the profile's dialect, so
  the result is what ``notation convert`` prints;
- ``SetUp "1"`` is present wherever a FEN is (a FICS ``Setup`` tag is respelt).

With ``NormalizeOptions.moves`` other than ``MovesOption.KEEP`` every move is read and
checked too (``gamemoves``: from the game's start or FEN, each variation from its branch
point), its problems reported with line, column and ply; ``CHECK`` changes no move, a
notation (``SAN``, ``LAN``, ``UCI``, Xiangqi's ``ICCS`` and ``WXF``, ``OPENTAFL``) rewrites
each move in it and nothing else of the movetext (comments, NAGs, glyphs, variations and move
numbers stay in place). A game whose family does not write that notation keeps its moves,
with a ``notation-unavailable`` warning (``gamemoves``). Without a ``moves`` option, a
profile that implies a notation (``PROFILE_MOVES``: ``opentafl`` OpenTafl records for tafl
games, ``wxf`` WXF for Xiangqi games) rewrites its family's games in it and keeps the
others' moves unread (``NormalizeOptions.moves_family``); without a profile, or with
another, the moves are kept.

Everything else (other tags, movetext, comments, line endings) is copied byte for byte; a
game needing no change is its input text exactly. A game holding bytes that are not UTF-8 is
read as Windows-1252 (``pgn-windows-1252``, ``encodings``) and written with its bytes as they
were, or, with ``NormalizeOptions.encoding`` ``TextEncoding.UTF8``, as UTF-8. A game whose
set-up cannot be read or is illegal, whose variant is unknown, or whose ``Variant``/``FEN``
tags are malformed or repeated, or (moves read) with a move that is illegal, ambiguous or
unreadable, is left as it was and reported; ``BadGamePolicy.REJECT`` sets it aside instead.
One exception: with moves read, a game whose illegal FEN ``notation.validation.repair``
mends (castling rights, en passant) has its moves checked from the repaired position
(``gamestart``), and with a notation rewritten, its tags kept as written (``--repair``
rewrites the FEN itself).
Damage found by the splitter (``splitter.py``) is reported and never stops the run.
``NormalizeOptions.duplicates`` drops or marks later copies of a game and writes identity
tags (``duplicates``: ``--duplicates``, ``--add-tags``). ``NormalizeOptions.broken`` and
``repairs`` cut or leave out games whose moves hold an error and make the ``--fix-*``
repairs (``game_repairs``: ``--broken``, ``--fix-results``, ``--fix-tags``,
``--fix-move-numbers``).

Nothing here raises on bad input; an unexpected failure on one game is reported for that
game (code ``internal-error``) and the game is kept unchanged.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from notation.errors import NotationError, Problem
from notation.fen.profiles import DEFAULT_PROFILE, WriteOptions, resolve_options
from notation.lean_enum import LeanStrEnum
from notation.move_options import MoveLanguage, MoveNotation
from notation.operations import ConvertResult, convert_fen
from notation.options import IllegalPolicy
from notation.pgn.duplicates import NO_DUPLICATES, DuplicateSettings
from notation.pgn.encodings import TextEncoding
from notation.pgn.export import ExportFormat
from notation.pgn.games import DEFAULT_LIMITS, STRAY_TEXT, TAG_SYNTAX, TOO_MANY_TAGS, Limits, RawGame
from notation.pgn.key_tags import KEY_TAGS_ANY_CASE, MISCASED_TAG, key_tag_name, miscased_message
from notation.pgn.lines import line_ending
from notation.pgn.movetext import DEFAULT_BUDGET, Budget
from notation.pgn.naming import variant_tag_name
from notation.pgn.repairs import BrokenGames, Repair
from notation.pgn.severity import ERROR, WARNING, severity_of
from notation.pgn.splitter import iter_games
from notation.pgn.tags import Tag, escape_tag_value
from notation.pgn.text_edits import TextEdits
from notation.variants import DEFAULT_REGISTRY, Registry, RuleFamily, Variant

if TYPE_CHECKING:  # the move layer is imported only when moves are read (start-up of --moves keep)
    from notation.pgn.duplicates import DuplicateJudge
    from notation.pgn.game_repairs import GameRepairs
    from notation.pgn.gamestart import Start, StartPositions
    from notation.pgn.movewrite import MoveWriter

DUPLICATE_TAG = "pgn-duplicate-tag"
NOT_EXPORTED = "not-exported"
INTERNAL_ERROR = "internal-error"
_CACHE_SIZE = 4096
_KINDS = {"errors": ERROR, "warnings": WARNING}  # a report's lists, by severity
_MOVES_OK = 0  # what reading a game's moves gives: the game is written
_MOVES_BAD = 1  # an error keeps it as read
_MOVES_DROPPED = 2  # an error leaves it out (--broken drop)


class BadGamePolicy(LeanStrEnum):
    """What happens to a game whose set-up is unreadable or illegal, or whose variant is unknown."""

    KEEP = "keep"  # written out unchanged, and reported
    REJECT = "reject"  # left out of the output (to the rejects file), and reported


class MovesOption(LeanStrEnum):
    """What happens to the moves: kept unread, checked, or rewritten in a notation."""

    KEEP = "keep"  # not read: the movetext is copied byte for byte (the default)
    CHECK = "check"  # every move read and checked, problems reported; the movetext is copied
    SAN = "san"
    LAN = "lan"
    UCI = "uci"
    ICCS = "iccs"  # Xiangqi
    WXF = "wxf"  # Xiangqi
    OPENTAFL = "opentafl"  # tafl

    @property
    def notation(self) -> MoveNotation | None:
        """The notation moves are rewritten in (None: KEEP and CHECK)."""
        if self is MovesOption.KEEP or self is MovesOption.CHECK:
            return None
        return MoveNotation(self.value)


class ImpliedMoves(NamedTuple):
    """The notation a profile implies for the moves of one family's games."""

    moves: MovesOption
    family: RuleFamily


# The profiles that imply a move notation: those named after a notation of moves, whose
# programs read no other (the OpenTafl notation specification; the WXF file-format notes).
# The others imply none: lichess, chess.com, XBoard, Scid, CQLi, python-chess and
# Fairy-Stockfish read SAN as the other programs write it (``--moves san`` writes each one's
# own SAN), and reading every move costs far more than rewriting tags (docs/pgn.md).
PROFILE_MOVES: Mapping[str, ImpliedMoves] = MappingProxyType({
    "opentafl": ImpliedMoves(MovesOption.OPENTAFL, RuleFamily.TAFL),
    "wxf": ImpliedMoves(MovesOption.WXF, RuleFamily.XIANGQI),
})


# NormalizeOptions' fields, in the order ``__init__`` takes them.
_OPTION_FIELDS = (
    "profile", "write", "on_bad", "on_illegal", "registry", "limits", "accept", "moves", "budget", "moves_family",
    "encoding", "move_letters", "broken", "repairs", "export", "duplicates",
)


# Enum members read per game, bound once: compiled, C statics, not a look-up through their
# class's attribute hook each time (an enum is not a native class).
_EXPORT_KEPT: Final = ExportFormat.KEEP
_BROKEN_KEPT: Final = BrokenGames.KEEP
_UTF8: Final = TextEncoding.UTF8
_REJECT: Final = BadGamePolicy.REJECT


class NormalizeOptions:
    """How to normalise. Build one with ``NormalizeOptions.create``; ``with_changes`` makes a
    changed copy.

    A read-only value, equal to another with the same fields (a registry compares by
    identity). A plain class rather than a frozen dataclass: ``normalize`` defines it at
    start-up, where ``dataclasses`` (it imports ``inspect`` and ``ast``) and the methods it
    compiles from source are dear (docs/architecture.md, "Start-up").
    """

    def __init__(
        self,
        profile: str = DEFAULT_PROFILE,
        write: WriteOptions | None = None,  # None: the default profile's (``resolve_options()``)
        on_bad: BadGamePolicy = BadGamePolicy.KEEP,
        on_illegal: IllegalPolicy = IllegalPolicy.REFUSE,
        registry: Registry = DEFAULT_REGISTRY,
        limits: Limits = DEFAULT_LIMITS,
        accept: frozenset[str] = frozenset(),
        moves: MovesOption = MovesOption.KEEP,
        budget: Budget = DEFAULT_BUDGET,
        moves_family: RuleFamily | None = None,
        encoding: TextEncoding = TextEncoding.KEEP,
        move_letters: MoveLanguage = MoveLanguage.EN,
        broken: BrokenGames = BrokenGames.KEEP,
        repairs: frozenset[Repair] = frozenset(),
        export: ExportFormat = ExportFormat.KEEP,
        duplicates: DuplicateSettings = NO_DUPLICATES,
    ) -> None:
        self.profile: Final = profile
        self.write: Final = resolve_options() if write is None else write
        self.on_bad: Final = on_bad
        self.on_illegal: Final = on_illegal
        self.registry: Final = registry
        self.limits: Final = limits
        self.accept: Final = accept  # validation codes reported as warnings, not errors
        self.moves: Final = moves
        self.budget: Final = budget  # how much movetext a game may hold, when moves are read
        self.moves_family: Final = moves_family  # moves read only in games of this family (a profile's notation)
        self.encoding: Final = encoding  # how games read as Windows-1252 are written
        self.move_letters: Final = move_letters  # chess moves' piece letters (``--piece-letters``)
        self.broken: Final = broken  # games whose moves hold an error: kept, cut or left out (``--broken``)
        self.repairs: Final = repairs  # the ``--fix-*`` repairs asked for
        self.export: Final = export  # the standard's export format (``--export``; ``export.py``)
        self.duplicates: Final = duplicates  # later copies of a game (``--duplicates``)

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in _OPTION_FIELDS)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, NormalizeOptions):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={value!r}" for name, value in zip(_OPTION_FIELDS, self._values(), strict=True))
        return f"NormalizeOptions({fields})"

    def with_changes(self, **changes: Any) -> NormalizeOptions:
        """A copy with the given fields replaced. Raises ``TypeError`` for a name that is
        not a field."""
        unknown = set(changes) - set(_OPTION_FIELDS)
        if unknown:
            raise TypeError(f"NormalizeOptions has no field(s) {', '.join(sorted(unknown))}")
        values = dict(zip(_OPTION_FIELDS, self._values(), strict=True))
        values.update(changes)
        return NormalizeOptions(**values)

    @property
    def repairs_read_moves(self) -> bool:
        """Whether ``broken`` or a repair needs every game's moves read (as ``--moves check``)."""
        return self.broken is not BrokenGames.KEEP or any(repair.reads_moves for repair in self.repairs)

    @classmethod
    def create(
        cls,
        profile: str | None = None,
        *,
        on_bad: BadGamePolicy | str = BadGamePolicy.KEEP,
        on_illegal: IllegalPolicy | str = IllegalPolicy.REFUSE,
        aliases: Mapping[str, str] | None = None,
        registry: Registry = DEFAULT_REGISTRY,
        limits: Limits = DEFAULT_LIMITS,
        accept: Iterable[str] = (),
        moves: MovesOption | str | None = None,
        budget: Budget = DEFAULT_BUDGET,
        encoding: TextEncoding | str = TextEncoding.KEEP,
        move_letters: MoveLanguage | str = MoveLanguage.EN,
        broken: BrokenGames | str = BrokenGames.KEEP,
        repairs: Iterable[Repair | str] = (),
        export: ExportFormat | str = ExportFormat.KEEP,
        duplicates: DuplicateSettings = NO_DUPLICATES,
        **writer_options: str | None,
    ) -> NormalizeOptions:
        """Options from a profile name plus single writer options overriding it (the
        keywords of ``resolve_options``: ``pockets``, ``checks``, ...). ``moves`` None: the
        notation ``profile`` implies for its family's games (``PROFILE_MOVES``), else keep.
        ``encoding``: ``utf-8`` writes every game as UTF-8 (a game read as Windows-1252
        transcoded), ``keep`` (the default) every byte as read. ``move_letters``: the
        language of chess moves' piece letters (``--piece-letters``). ``broken`` and ``repairs``:
        what happens to games whose moves hold an error, and the repairs made (docs/pgn.md,
        "Broken games and repairs"). ``export``: ``full`` or
        ``reduced`` lays every game out in the PGN standard's export format (``export.py``),
        its moves read and written in ``moves``' notation, or (``keep``, ``check``, or a
        profile's notation of another family) in the family's own (SAN for chess).
        ``duplicates``: what happens to later copies of a game (``notation.pgn.duplicates``).

        Raises ``ValueError`` for an unknown profile, option value, ``moves`` or ``encoding``,
        ``TypeError`` for an unknown keyword, and ``UnknownVariantError`` for an alias whose
        target is unknown.
        """
        name = profile or DEFAULT_PROFILE
        write = resolve_options(name, **writer_options)
        if aliases:
            registry = registry.with_aliases(aliases)
        family: RuleFamily | None = None
        if moves is None:
            implied = PROFILE_MOVES.get(profile or "")
            moves, family = (MovesOption.KEEP, None) if implied is None else implied
        return cls(name, write, BadGamePolicy(on_bad), IllegalPolicy(on_illegal), registry, limits, frozenset(accept),
                   MovesOption(moves), budget, family, TextEncoding(encoding), MoveLanguage(move_letters),
                   BrokenGames(broken), frozenset(Repair(repair) for repair in repairs), ExportFormat(export),
                   duplicates)

    def __reduce__(self) -> tuple[type[NormalizeOptions], tuple[Any, ...]]:
        """Pickled (to ``--jobs`` and Dask workers) through ``__init__``: compiled (mypyc),
        the default would set the read-only fields one by one and fail."""
        return (NormalizeOptions, self._values())


DEFAULT_OPTIONS: Final = NormalizeOptions()
"""The default profile's options: every default of ``NormalizeOptions.create``."""


# GameResult's fields, in the order ``__init__`` takes them.
_RESULT_FIELDS = (
    "number", "part", "start_line", "text", "changed", "rejected", "report", "codes", "counted", "dropped",
)


class GameResult:
    """One game (or one part of a game too large to hold) after normalising.

    ``text`` is what goes to the output, or to the rejects file when ``rejected``.
    ``report`` holds the JSON report entries, one per input line with problems.
    Mutable (``--duplicates`` drops or marks a result), equal to another with the same fields.
    """

    def __init__(self, number: int, part: int, start_line: int, text: str, changed: bool = False,
                 rejected: bool = False, report: list[dict[str, Any]] | None = None, codes: list[str] | None = None,
                 counted: bool = True, dropped: bool = False) -> None:
        self.number = number
        self.part = part
        self.start_line = start_line
        self.text = text
        self.changed = changed
        self.rejected = rejected
        self.report: list[dict[str, Any]] = [] if report is None else report
        self.codes: list[str] = [] if codes is None else codes  # every problem's code, for the summary
        self.counted = counted  # False for continuation parts and blank stretches
        self.dropped = dropped  # a copy left out of the output (``--duplicates drop``)

    def _values(self) -> tuple[Any, ...]:
        return (self.number, self.part, self.start_line, self.text, self.changed, self.rejected, self.report,
                self.codes, self.counted, self.dropped)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameResult):
            return NotImplemented
        return self._values() == other._values()

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={value!r}" for name, value in zip(_RESULT_FIELDS, self._values(), strict=True))
        return f"GameResult({fields})"

    def __reduce__(self) -> tuple[type[GameResult], tuple[Any, ...]]:
        """Pickled (from ``--jobs`` and Dask workers) through ``__init__``: compiled (mypyc),
        a class with its own ``__init__`` is not pickled by default."""
        return (GameResult, self._values())


class Summary:
    """Totals over a run: games read, changed, unchanged, rejected, dropped (copies left
    out), problems by code. Each game read is counted under one of the four.
    Mutable, equal to another with the same totals."""

    def __init__(self, games: int = 0, changed: int = 0, unchanged: int = 0, rejected: int = 0,
                 problems: Counter[str] | None = None, dropped: int = 0) -> None:
        self.games = games
        self.changed = changed
        self.unchanged = unchanged
        self.rejected = rejected
        self.problems: Counter[str] = Counter() if problems is None else problems
        self.dropped = dropped

    def _values(self) -> tuple[Any, ...]:
        return (self.games, self.changed, self.unchanged, self.rejected, self.problems, self.dropped)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Summary):
            return NotImplemented
        return self._values() == other._values()

    def __repr__(self) -> str:
        return (f"Summary(games={self.games!r}, changed={self.changed!r}, unchanged={self.unchanged!r}, "
                f"rejected={self.rejected!r}, problems={self.problems!r}, dropped={self.dropped!r})")

    def __reduce__(self) -> tuple[type[Summary], tuple[Any, ...]]:
        """Pickled through ``__init__``: compiled (mypyc), a class with its own ``__init__``
        is not pickled by default."""
        return (Summary, self._values())

    def add(self, result: GameResult) -> None:
        if result.codes:  # most games have none
            problems = self.problems
            for code in result.codes:  # Counter.update checks for a mapping first, in Python
                problems[code] += 1
        if not result.counted:
            return
        self.games += 1
        if result.rejected:
            self.rejected += 1
        elif result.dropped:
            self.dropped += 1
        elif result.changed:
            self.changed += 1
        else:
            self.unchanged += 1

    def add_counts(self, part: Summary) -> None:
        """Add another run's totals (a piece of the same input, read elsewhere) to these."""
        self.games += part.games
        self.changed += part.changed
        self.unchanged += part.unchanged
        self.rejected += part.rejected
        self.dropped += part.dropped
        self.problems.update(part.problems)

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "changed": self.changed,
            "unchanged": self.unchanged,
            "rejected": self.rejected,
            "dropped": self.dropped,
            "problems": dict(sorted(self.problems.items())),
        }

    def describe(self) -> str:
        """One line for people: ``12 games read: 3 changed, 8 unchanged, 1 rejected; ...``
        (``, 2 dropped`` after ``rejected`` when copies were left out)."""
        head = (
            f"{self.games} game{'s' if self.games != 1 else ''} read: {self.changed} changed, "
            f"{self.unchanged} unchanged, {self.rejected} rejected"
        )
        if self.dropped:
            head += f", {self.dropped} dropped"
        if not self.problems:
            return head + "; no problems"
        listed = ", ".join(f"{code} {count}" for code, count in sorted(self.problems.items()))
        return f"{head}; problems: {listed}"


class _Report:
    """Report entries of one game, grouped by input line, in line order."""

    def __init__(self, number: int, accept: frozenset[str] = frozenset()):
        self.number = number
        self.accept = accept
        self.by_line: dict[int, dict[str, list]] = {}
        self.codes: list[str] = []

    def add(self, line: int, problem: dict[str, Any], kind: str = "errors") -> None:
        """File ``problem`` under its code's severity (``notation.pgn.severity``; ``kind``
        for a code the table does not list), as ``check`` rates it."""
        kind = "warnings" if severity_of(problem["code"], self.accept, _KINDS[kind]) == WARNING else "errors"
        entry = self.by_line.setdefault(line, {"errors": []})
        entry.setdefault(kind, []).append(problem)
        self.codes.append(problem["code"])

    def entries(self) -> list[dict[str, Any]]:
        return [{"game": self.number, "line": line, **self.by_line[line]} for line in sorted(self.by_line)]


class Normalizer:
    """Normalises games one by one with fixed options; caches FEN and variant look-ups."""

    def __init__(self, options: NormalizeOptions = DEFAULT_OPTIONS):
        self.options = options
        self._variants: dict[str, Variant | NotationError] = {}
        self._fens: dict[tuple[str, str], ConvertResult] = {}
        self._starts: StartPositions | None = None
        self._writer: MoveWriter | None = None
        self._writers: dict[MoveNotation, MoveWriter] = {}  # --export: each family's own notation
        self._duplicates: DuplicateJudge | None = None
        self._repairs: GameRepairs | None = None  # --broken and --fix-* (``game_repairs``)
        self._default: Variant | None = None  # the registry's default variant, once asked for
        self._tag_names: dict[tuple[int, bool, bool], tuple[Variant, str]] = {}  # ``_tag_name``'s
        # What the options ask of every game, worked out once (each is Python code per game:
        # an enum member's hash for ``in``, a property's generator).
        self._exporting = options.export is not _EXPORT_KEPT
        self._repairing = options.repairs_read_moves  # every game's moves read, whatever the notation
        self._reads_moves = self._exporting or self._repairing or options.moves is not MovesOption.KEEP
        self._fixes_tags = Repair.TAGS in options.repairs
        if options.broken is not BrokenGames.KEEP or options.repairs:
            from notation.pgn.game_repairs import GameRepairs

            self._repairs = GameRepairs(options)
        if options.duplicates.reads_identities:
            from notation.pgn.duplicates import DuplicateJudge

            self._duplicates = DuplicateJudge(options.duplicates, options.registry, options.accept, options.budget,
                                              options.move_letters)
        if (options.moves is not MovesOption.KEEP or options.export is not ExportFormat.KEEP
                or options.repairs_read_moves):
            from notation.pgn.gamestart import StartPositions
            from notation.pgn.movewrite import writer_for

            self._starts = StartPositions(options.registry, options.accept)
            notation = options.moves.notation
            self._writer = None if notation is None else writer_for(notation, options.profile)

    def normalize_game(self, game: RawGame) -> GameResult:
        """The result for one raw game; never raises on bad input."""
        try:
            result = self._normalize(game)
            return result if self._duplicates is None else self._duplicates.apply(game, result)
        except Exception as exc:  # noqa: BLE001 - one bad game must not stop a long run
            report = _Report(game.number, self.options.accept)
            for problem in game.problems:
                report.add(problem.line, problem.to_dict())
            report.add(game.start_line, {"code": INTERNAL_ERROR, "message": f"{type(exc).__name__}: {exc}"})
            text = self._output(game)
            return GameResult(game.number, game.part, game.start_line, text, changed=text != game.text,
                              report=report.entries(), codes=report.codes, counted=game.part == 0)

    # -- the work ------------------------------------------------------------------------
    def _normalize(self, game: RawGame) -> GameResult:
        counted = game.part == 0 and not game.is_blank
        exporting = self._exporting
        repairing = self._repairing
        moves = self._reads_moves
        family = None if exporting else self.options.moves_family  # export reads every game's moves
        if moves and family is not None and not repairing and self._default_variant().family is not family:
            moves = game.may_have_tag("Variant", "FEN")  # the default variant's games keep their moves
        if not moves and not self.options.repairs and not game.may_have_tag("Variant", "FEN"):
            text = self._output(game)
            return GameResult(game.number, game.part, game.start_line, text, changed=text != game.text,
                              counted=counted)
        report = _Report(game.number, self.options.accept)
        blocking = _splitter_problems(game, report)
        if game.part > 0 or game.continues:
            return self._unchanged(game, report, counted, blocking=False)

        tags: list[Tag] = []  # the key tags but Result, in order
        result_tag: Tag | None = None
        variant_tags: list[Tag] = []
        fen_tags: list[Tag] = []
        setup_tags: list[Tag] = []
        for tag in game.find_tags(KEY_TAGS_ANY_CASE):  # names in any case, as every reader takes them
            name = key_tag_name(tag.name)
            if name != tag.name and name != "SetUp" and not self._fixes_tags:  # --fix-tags respells them, saying so
                _miscased(tag, name, report)
            if name == "Result":
                result_tag = tag if result_tag is None else result_tag
                continue
            tags.append(tag)
            if name == "Variant":
                variant_tags.append(tag)
            elif name == "FEN":
                fen_tags.append(tag)
            elif name == "SetUp":
                setup_tags.append(tag)
        if _repeated_tags(tags, variant_tags[1:] + fen_tags[1:], report) or blocking:
            return self._unchanged(game, report, counted, blocking=True)

        variant_tag = variant_tags[0] if variant_tags else None
        fen_tag = fen_tags[0] if fen_tags else None
        variant = self._variant(variant_tag, report)
        if variant is None:
            return self._unchanged(game, report, counted, blocking=True)

        new_fen = ""  # the FEN tag's new value (set where there is a FEN tag)
        chess960 = False
        if fen_tag is not None:
            variant, converted = self._convert(fen_tag.value, variant)
            for warning in converted.warnings:
                report.add(fen_tag.line, _problem_dict(warning, fen_tag), kind="warnings")
            if not converted.ok or converted.fen is None:  # no FEN exactly when not ok
                for error in converted.errors:
                    report.add(fen_tag.line, _problem_dict(error, fen_tag))
                read = moves and (family is None or variant.family is family)
                return self._bad_fen(game, variant, fen_tag, result_tag, report, counted, read)
            new_fen = converted.fen
            chess960 = converted.detected is not None and converted.detected.chess960

        source = self._output(game)
        edits = _Edits(source)
        self._variant_tag_edits(edits, variant, variant_tag, fen_tag, chess960)
        if fen_tag is not None:
            _fen_tag_edits(edits, fen_tag, new_fen, setup_tags)
        write = True
        if family is not None and variant.family is not family:
            moves = repairing  # the profile's notation is not this family's: its moves are kept unread
            write = False  # (or, repairing, read and not rewritten)
        start: Start | None = None
        if moves and not any(problem.code == STRAY_TEXT for problem in game.problems):
            moves_read, start = self._read_moves(game, variant, fen_tag, result_tag, report, edits, write=write,
                                                 repair=True)
            if moves_read == _MOVES_DROPPED:
                return self._dropped(game, report, counted)
            if moves_read != _MOVES_OK:
                return self._unchanged(game, report, counted, blocking=True)
        if self._repairs is not None and self._fixes_tags:
            self._repairs.fix_tags(game, fen_tag is not None, report, edits)
        text = edits.text() if edits else source
        if exporting and counted:
            text = self._export(game, text, start, report)
        return GameResult(game.number, game.part, game.start_line, text, changed=text != game.text,
                          report=report.entries(), codes=report.codes, counted=counted)

    def _variant_tag_edits(self, edits: _Edits, variant: Variant, variant_tag: Tag | None, fen_tag: Tag | None,
                           chess960: bool) -> None:
        """The Variant tag named as the profile names ``variant``; a set-up game the profile
        names (lichess: "From Position") gets one before its FEN tag."""
        wanted = self._tag_name(variant, fen_tag is not None, chess960)
        if variant_tag is not None:
            if variant_tag.value != wanted:
                edits.replace(variant_tag, variant_tag.value_start, variant_tag.value_end, escape_tag_value(wanted))
        elif fen_tag is not None and (not variant.pgn_default or wanted != self._tag_name(variant, False, False)):
            edits.insert_before(fen_tag, f'[Variant "{escape_tag_value(wanted)}"]')

    def _tag_name(self, variant: Variant, from_setup: bool, chess960: bool) -> str:
        """``naming.variant_tag_name`` for the options' profile, remembered per variant
        (a database's games name the same few)."""
        key = (id(variant), from_setup, chess960)
        known = self._tag_names.get(key)
        if known is not None and known[0] is variant:  # the variant is kept: its id stays its own
            return known[1]
        name = variant_tag_name(self.options.profile, variant, from_setup=from_setup, chess960=chess960)
        if len(self._tag_names) >= _CACHE_SIZE:
            self._tag_names.clear()
        self._tag_names[key] = (variant, name)
        return name

    def _default_variant(self) -> Variant:
        """The registry's default variant (``Registry.default``: raises ``LookupError`` for a
        registry without one), asked for once."""
        default = self._default
        if default is None:
            default = self._default = self.options.registry.default
        return default

    def _read_moves(self, game: RawGame, variant: Variant, fen_tag: Tag | None, result_tag: Tag | None,
                    report: _Report, edits: _Edits, *, write: bool, repair: bool) -> tuple[int, Start | None]:
        """Check the game's moves into ``report`` and add a rewrite's edits to ``edits``
        (``write``: the moves rewritten in the options' notation); ``_MOVES_OK`` and the game's
        start, or ``_MOVES_BAD`` when an error in them keeps the game as read. With ``repair``, the
        game is cut (``--broken truncate``: ``_MOVES_OK``) or left out (``drop``:
        ``_MOVES_DROPPED``) for such an error, and the ``--fix-*`` repairs of its moves made."""
        from notation.pgn.gamemoves import read_game_moves

        assert self._starts is not None  # made with the options whenever moves are read
        start = self._starts.start(variant, fen_tag.value if fen_tag is not None else None)
        writer = self._writer_for(variant) if write else None
        repairs = self._repairs if repair else None
        plies = repairs.ply_recorder() if repairs is not None and start.position is not None else None
        found = read_game_moves(game.read_text, game.start_line, start, result_tag=result_tag, writer=writer,
                                budget=self.options.budget, letters=self.options.move_letters,
                                first_column=game.start_column, visitor=plies)
        if found.has_errors and repairs is not None and self.options.broken is not _BROKEN_KEPT:
            done = repairs.broken(game, start, found, result_tag, report, edits, writer)
            if done is BrokenGames.TRUNCATE:
                return _MOVES_OK, start
            return (_MOVES_DROPPED if done is BrokenGames.DROP else _MOVES_BAD), start
        if found.problems:
            from notation.pgn.move_reports import report_moves

            report_moves(found, report)
        if found.has_errors:
            return _MOVES_BAD, None
        edits.replace_moves(found.edits)
        if repairs is not None and start.position is not None:
            repairs.fix_moves(game, start.position, found, plies, result_tag, report, edits)
        return _MOVES_OK, start

    def _dropped(self, game: RawGame, report: _Report, counted: bool) -> GameResult:
        """A broken game left out (``--broken drop``): counted as rejected, its text going to
        the rejects file where there is one (``BadGamePolicy.REJECT``), else nowhere."""
        text = self._output(game) if self.options.on_bad is _REJECT else ""
        return GameResult(game.number, game.part, game.start_line, text, changed=True, rejected=True,
                          report=report.entries(), codes=report.codes, counted=counted)

    def _writer_for(self, variant: Variant) -> MoveWriter | None:
        """The writer of ``variant``'s moves: the options' (``--moves``); with ``--export``,
        where that is none, not its family's or not one it writes, the family's own notation."""
        writer = self._writer
        if not self._exporting:
            return writer
        family = self.options.moves_family
        if writer is not None and writer.available(variant) and (family is None or variant.family is family):
            return writer
        from notation.moves import default_notation
        from notation.pgn.movewrite import writer_for

        notation = default_notation(variant)
        found = self._writers.get(notation)
        if found is None:
            found = self._writers[notation] = writer_for(notation, self.options.profile)
        return found

    def _export(self, game: RawGame, text: str, start: Start | None, report: _Report) -> str:
        """``text`` (the game rewritten) in the options' export format; as it is, with a
        ``not-exported`` warning, where its moves were not read or it cannot be laid out
        without losing text (``export.export_game``), and without one for text outside any
        game (``pgn-stray-text``)."""
        from notation.pgn.export import export_game

        if start is None and any(problem.code == STRAY_TEXT for problem in game.problems):
            return text  # text outside any game, which pgn-stray-text reports
        position = None if start is None else start.position
        exported = None
        if position is not None:
            setup = position.to_setup()
            exported = export_game(text, self.options.export, turn=setup.turn, fullmove=setup.fullmove,
                                   budget=self.options.budget)
        if exported is None:
            report.add(game.start_line, {"code": NOT_EXPORTED, "message": (
                "the game is kept in its own layout: its moves were not read, or it holds text export "
                "format has no place for (a tag line with other text, a comment never closed)")},
                kind="warnings")
            return text
        return exported

    def _bad_fen(self, game: RawGame, variant: Variant, fen_tag: Tag, result_tag: Tag | None, report: _Report,
                 counted: bool, moves: bool) -> GameResult:
        """A game whose FEN tag is illegal (reported): with moves read, they are checked from
        the FEN repaired where ``notation.validation.repair`` mends it (else one
        ``unknown-start`` warning says they are not checked), and with a notation rewritten;
        its tags stay as written. The game has an error: ``REJECT`` sets it aside as read."""
        if not moves or any(problem.code == STRAY_TEXT for problem in game.problems):
            return self._unchanged(game, report, counted, blocking=True)
        edits = _Edits(self._output(game))
        moves_read, _ = self._read_moves(game, variant, fen_tag, result_tag, report, edits, write=True, repair=False)
        if moves_read != _MOVES_OK or not edits:
            return self._unchanged(game, report, counted, blocking=True)
        if self.options.on_bad is _REJECT:
            return self._unchanged(game, report, counted, blocking=True)
        text = edits.text()
        return GameResult(game.number, game.part, game.start_line, text, changed=text != game.text,
                          report=report.entries(), codes=report.codes, counted=counted)

    def _unchanged(self, game: RawGame, report: _Report, counted: bool, *, blocking: bool) -> GameResult:
        rejected = blocking and self.options.on_bad is _REJECT
        text = self._output(game)
        return GameResult(game.number, game.part, game.start_line, text, changed=text != game.text,
                          rejected=rejected, report=report.entries(), codes=report.codes, counted=counted)

    def _output(self, game: RawGame) -> str:
        """The game's text as written out: as read, byte for byte, or with ``--encoding
        utf-8`` its bytes that are not UTF-8 read as Windows-1252 (written as UTF-8)."""
        if self.options.encoding is _UTF8:
            return game.read_text
        return game.text

    def _variant(self, tag: Tag | None, report: _Report) -> Variant | None:
        if tag is None:
            return self._default_variant()
        found = self._variants.get(tag.value)
        if found is None:
            try:
                found = self.options.registry.find(tag.value)
            except NotationError as exc:
                found = exc
            if len(self._variants) >= _CACHE_SIZE:
                self._variants.clear()
            self._variants[tag.value] = found
        if isinstance(found, NotationError):
            for problem in found.problems:
                report.add(tag.line, _problem_dict(problem, tag))
            return None
        return found

    def _convert(self, fen: str, variant: Variant) -> tuple[Variant, ConvertResult]:
        result = self._convert_cached(fen, variant)
        if variant.chess960_form and result.detected is not None and result.detected.chess960:
            chess960 = self.options.registry.get(variant.chess960_form)
            retry = self._convert_cached(fen, chess960)
            if retry.ok:
                return chess960, retry
        return variant, result

    def _convert_cached(self, fen: str, variant: Variant) -> ConvertResult:
        key = (fen, variant.key)
        result = self._fens.get(key)
        if result is None:
            result = convert_fen(fen, variant, options=self.options.write, on_illegal=self.options.on_illegal,
                                 accept=self.options.accept, registry=self.options.registry)
            if len(self._fens) >= _CACHE_SIZE:
                self._fens.clear()
            self._fens[key] = result
        return result


def _splitter_problems(game: RawGame, report: _Report) -> bool:
    """The splitter's problems of ``game`` into ``report``; True when one keeps the game as
    read (a setup tag that does not parse, tags not read)."""
    blocking = False
    for problem in game.problems:
        report.add(problem.line, problem.to_dict())  # filed by the code's severity
        if problem.code == TAG_SYNTAX and problem.tag is not None and _is_setup_tag_name(problem.tag):
            blocking = True
        if problem.code == TOO_MANY_TAGS:  # a Variant or FEN among the tags not read
            blocking = True
    return blocking


def _repeated_tags(tags: list[Tag], repeated: list[Tag], report: _Report) -> bool:
    """Each of ``repeated`` (a Variant or FEN tag after the first) into ``report``; True when
    there is one (the game is kept as read)."""
    for tag in repeated:
        first = _first(tags, tag.name)
        report.add(tag.line, {"code": DUPLICATE_TAG,
                              "message": f"{tag.name} tag repeated (first on line {first.line})"})
    return bool(repeated)


def _fen_tag_edits(edits: _Edits, fen_tag: Tag, new_fen: str, setup_tags: list[Tag]) -> None:
    """The FEN tag's new value, and ``[SetUp "1"]`` after it (or in place of the first
    other setup tag)."""
    if new_fen != fen_tag.value:
        edits.replace(fen_tag, fen_tag.value_start, fen_tag.value_end, escape_tag_value(new_fen))
    if not setup_tags:
        edits.insert_after(fen_tag, '[SetUp "1"]')
    else:
        first = setup_tags[0]
        if first.name != "SetUp" or first.value != "1":
            edits.replace(first, first.start, first.end, '[SetUp "1"]')


def _first(tags: list[Tag], name: str) -> Tag:
    return next(tag for tag in tags if key_tag_name(tag.name) == key_tag_name(name))


def _is_setup_tag_name(name: str) -> bool:
    return key_tag_name(name) in ("Variant", "FEN", "SetUp")


def _miscased(tag: Tag, name: str, report: _Report) -> None:
    """The ``miscased-tag`` warning for ``tag``, whose name is not written as ``name`` spells
    it (``[variant "Crazyhouse"]``: read as the Variant tag all the same). Not for ``SetUp``,
    which normalize writes in its standard case itself wherever it reads a FEN: the caller's."""
    report.add(tag.line, {"code": MISCASED_TAG, "message": miscased_message(tag.name, name),
                          "column": tag.column}, kind="warnings")


def _problem_dict(problem: Problem, tag: Tag) -> dict[str, Any]:
    """A FEN problem for the report: its column becomes the column in the input line."""
    out = problem.to_dict()
    out["tag"] = tag.name
    if problem.column is not None:
        out["fen_column"] = problem.column
        out["column"] = tag.value_start + problem.column
    return out


class _Edits:
    """Replacements and new lines at offsets of a game's text, applied in one pass. The
    moves a rewrite changes come as one run already in text order (``replace_moves``): where
    they were read from this very text and no other change falls among them (tag edits lie
    before the movetext), their pieces are joined as one replacement of the stretch they
    rewrite; otherwise they are merged with the other changes one by one."""

    def __init__(self, text: str):
        self.source = text
        self.changes: list[tuple[int, int, int, str]] = []  # (start, order, end, new text)
        self.moves: TextEdits | None = None  # a walk's replacements: in text order, apart

    def __bool__(self) -> bool:
        return bool(self.changes) or (self.moves is not None and bool(self.moves))

    def replace_moves(self, moves: TextEdits) -> None:
        """Replace each of ``moves``, a walk's replacements in the game's text."""
        if self.moves is not None:  # a second run: with the other changes
            for start, end, new in moves:
                self.replace_span(start, end, new)
        else:
            self.moves = moves

    def replace(self, tag: Tag, start: int, end: int, text: str) -> None:
        """Replace ``start:end`` of the tag's line (offsets as in ``Tag``)."""
        self.changes.append((tag.line_offset + start, 1, tag.line_offset + end, text))

    def replace_span(self, start: int, end: int, text: str) -> None:
        """Replace ``start:end`` of the game's text (a move's span)."""
        self.changes.append((start, 1, end, text))

    def insert_before(self, tag: Tag, line: str) -> None:
        """A new line just before the tag's line, ending as that line does."""
        ending = self._ending(tag)
        self.changes.append((tag.line_offset, 0, tag.line_offset, line + ending))

    def insert_after(self, tag: Tag, line: str) -> None:
        """A new line just after the tag's line (the last line keeps having no ending)."""
        at = tag.line_offset + tag.line_length
        anchor = self.source[tag.line_offset:at]
        if line_ending(anchor):
            self.changes.append((at, 2, at, line + line_ending(anchor)))
        else:
            self.changes.append((at, 2, at, self._ending(tag) + line))

    def _ending(self, tag: Tag) -> str:
        anchor = self.source[tag.line_offset:tag.line_offset + tag.line_length]
        found = line_ending(anchor)
        if found:
            return found
        text = self.source
        return "\r\n" if "\r\n" in text else "\n" if "\n" in text else "\r" if "\r" in text else "\n"

    def text(self) -> str:
        moves = self.moves
        if moves is None or not moves:
            return self._merged([])
        if moves.source is not self.source:  # read from another text (bytes read as Windows-1252): its spans
            return self._merged(moves.spans())
        origin, moved = moves.origin, moves.done
        for start, _, end, _ in self.changes:
            # Before the moves' stretch (sorted ahead of its first move), or at or after its
            # end (behind its last): anything else is merged with them one by one.
            if not (start < origin and end <= origin) and start < moved:
                return self._merged(moves.spans())
        return self._merged([(origin, moved, "".join(moves.pieces))])  # the stretch, rewritten, as one

    def _merged(self, moves: list[tuple[int, int, str]]) -> str:
        """The text with ``moves`` (in text order) and the other changes merged, each at its
        place as a sort of them all would put it."""
        source = self.source
        count = len(moves)
        index = 0
        out: list[str] = []
        done = 0
        for start, order, end, new in sorted(self.changes):
            while index < count:  # the moves before this change, as a sort of them all would place them
                move_start, move_end, move_new = moves[index]
                if (move_start, 1, move_end, move_new) >= (start, order, end, new):
                    break
                out.append(source[done:move_start])
                out.append(move_new)
                done = move_end
                index += 1
            out.append(source[done:start])
            out.append(new)
            done = end
        while index < count:
            move_start, move_end, move_new = moves[index]
            out.append(source[done:move_start])
            out.append(move_new)
            done = move_end
            index += 1
        out.append(source[done:])
        return "".join(out)


def normalize_games(games: Iterable[RawGame], options: NormalizeOptions = DEFAULT_OPTIONS) -> Iterator[GameResult]:
    """One ``GameResult`` per raw game, in order (single process)."""
    normalizer = Normalizer(options)
    for game in games:
        yield normalizer.normalize_game(game)


def normalize(lines: Iterable[str] | str, options: NormalizeOptions = DEFAULT_OPTIONS) -> Iterator[GameResult]:
    """Normalise PGN text (a ``str``, lines, or blocks cut anywhere); results in input order."""
    return normalize_games(iter_games(lines, options.limits), options)


def normalize_text(text: str, options: NormalizeOptions = DEFAULT_OPTIONS) -> tuple[str, Summary, list[dict]]:
    """The whole output text (rejected games left out), the summary and the report entries."""
    summary = Summary()
    out: list[str] = []
    report: list[dict] = []
    for result in normalize(text, options):
        summary.add(result)
        report.extend(result.report)
        if not result.rejected:
            out.append(result.text)
    return "".join(out), summary, report
