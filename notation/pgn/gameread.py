"""The games of a PGN text, for a program: tags, variant, start, and every move with the
position before and after it.

``read_games(text)`` (a ``str``, or any iterable of text pieces: a file opened with
``newline=""``, blocks) and ``open_games(path)`` (plain, ``.gz``, ``.bz2`` or ``.zst``, by
its first bytes) yield one ``PgnGame`` per game, in order. A game's moves are read when
first asked for (``moves``, ``problems``, ``end``), by the walk ``notation check`` and
``normalize --moves`` use (``gamemoves``): the same positions, variations read from their
branch points, the same problems with the same codes.

- ``PgnGame``: ``number``, ``start_line``, ``text`` (as read; bytes that are not UTF-8
  read as Windows-1252, as in its ``tags``), ``tags`` (the first value of each name,
  unescaped), ``variant``, ``start`` (its ``GamePosition``, or None), ``moves`` (the main
  line: ``PlayedMove`` each, variations inside), ``end`` (the position after the main
  line), ``problems`` (``GameProblem``: set-up and moves), ``ok``, ``repaired`` (the start
  is an illegal FEN repaired to check the moves from), and
  ``write(notation)``: its text again, each move rewritten in ``notation`` and nothing else
  changed (comments, NAGs, variations and move numbers stay where they were).
- ``PlayedMove``: ``ply``, ``text`` (as written), ``move`` (``notation.game.Move``),
  ``before`` and ``after`` (``GamePosition``), ``line`` and ``column`` in the input,
  ``warnings`` (the lenient readings the move layer took, and an en passant mark written
  apart after the move, ``exd6 e.p.``), ``variations`` (lines that
  replace this move, each a list of ``PlayedMove``); ``write(notation)``, ``san``, ``uci``
  and ``fen`` (after the move).

A game's variant is its ``Variant`` tag's (any spelling the registry knows), else
``variant`` (default: the registry's default, Standard); a ``FEN`` tag sets the start, read
as ``notation normalize`` reads it (Chess960 where its castling rights say so); a FEN whose
only faults a repair mends (castling rights, en passant) has them in ``problems`` and the
moves played from the repaired position, one past repair an ``unknown-start`` warning at the
first move (``gamestart``). Text with moves and no tag (moves pasted alone) is a game of that
variant from its start.

Never raises on bad input: problems are data (``PgnGame.problems``; the splitter's damage,
``pgn-stray-text`` and the like, is ``PgnGame.damage``, each with the ``level`` every front
end gives its code, ``notation.pgn.severity``). A move that fails ends its line, as
in ``check``; the variations right after it are checked but, replacing no move that was
played, are not in ``moves``. The part of a game too large to hold (over 16 M characters)
after its first is not yielded, and the first has no moves read. ``open_games`` raises
``notation.inputs.InputError`` for a file that cannot be read. Not checked: move numbers,
what comments and NAGs say (comments are not handed out).
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Mapping
from dataclasses import dataclass, field, replace

from notation.errors import NotationError, Problem
from notation.fen.profiles import DEFAULT_PROFILE, PROFILES
from notation.fen.writer import write_fen
from notation.game.family import GamePosition
from notation.game.move import Move
from notation.inputs import InputFile
from notation.move_options import MoveLanguage, MoveNotation
from notation.moves import ReadMove, write_move
from notation.pgn.gamemoves import GameMoves, read_game_moves
from notation.pgn.games import DEFAULT_LIMITS, Limits, PgnProblem, RawGame
from notation.pgn.gamestart import Start, StartPositions
from notation.pgn.key_tags import setup_tags
from notation.pgn.movetext import DEFAULT_BUDGET, Budget, Locator
from notation.pgn.movewalk import ERROR, Level, MoveProblem
from notation.pgn.movewrite import writer_for
from notation.pgn.splitter import iter_games
from notation.pgn.tags import Tag
from notation.variants import DEFAULT_REGISTRY, Registry, Variant

__all__ = ["GameProblem", "PgnGame", "PlayedMove", "open_games", "read_games"]


@dataclass(frozen=True)
class GameProblem:
    """One problem of a game: a stable ``code`` (the codes of docs/pgn.md, "What is
    reported", and of the FEN checks), a message, its ``level``, and where: ``line`` and
    ``column`` (1-based) in the input, the ``ply`` and ``move`` of a move's problem, the
    ``fen`` before a move that failed, an ambiguous move's ``candidates`` (SAN), and for a
    warning met more than once in the game, ``count``."""

    code: str
    message: str
    level: Level
    line: int
    column: int | None = None
    ply: int | None = None
    move: str | None = None
    fen: str | None = None
    candidates: tuple[str, ...] = ()
    count: int = 1


@dataclass(frozen=True, eq=False)
class PlayedMove:
    """One move of a game as played: see the module doc. ``variations`` are the lines
    that replace it, each from ``before``."""

    ply: int
    text: str
    move: Move
    before: GamePosition
    after: GamePosition
    line: int
    column: int
    warnings: tuple[Problem, ...] = ()
    variations: list[list[PlayedMove]] = field(default_factory=list)

    def write(self, notation: MoveNotation | str | None = None) -> str:
        """The move in ``notation`` (default: its family's own, SAN for chess); raises
        ``ValueError`` for a notation its family does not write."""
        return write_move(self.before, self.move, None if notation is None else MoveNotation(notation))

    @property
    def san(self) -> str:
        """The move in SAN (chess and Xiangqi; ``ValueError`` for tafl)."""
        return self.write(MoveNotation.SAN)

    @property
    def uci(self) -> str:
        """The move as the UCI protocol writes it (chess and Xiangqi; ``ValueError`` for tafl)."""
        return self.write(MoveNotation.UCI)

    @property
    def fen(self) -> str:
        """The FEN of the position after the move."""
        return write_fen(self.after.to_setup(), self.after.variant).fen

    def __repr__(self) -> str:
        return f"<PlayedMove {self.ply} {self.text!r}>"


class PgnGame:
    """One game of a PGN text; see the module doc. Made by ``read_games``."""

    __slots__ = ("raw", "tags", "variant", "start", "_start", "_budget", "_letters", "_read", "_setup_problems")

    def __init__(self, raw: RawGame, default: Variant, starts: StartPositions, registry: Registry,
                 budget: Budget, letters: MoveLanguage = MoveLanguage.EN) -> None:
        self.raw = raw
        self.tags: dict[str, str] = {}
        for tag in raw.tags:
            self.tags.setdefault(tag.name, tag.value)
        self._budget = budget
        self._letters = letters
        self._read: _Read | None = None
        setup_problems: list[GameProblem] = []
        variant: Variant | None = default
        variant_tag, fen_tag = setup_tags(raw)
        if variant_tag is not None:
            try:
                variant = registry.find(variant_tag.value)
            except NotationError as exc:
                variant = None
                setup_problems += _tag_problems(exc.problems, variant_tag)
        start = Start(None)
        if variant is not None:
            start = starts.start(variant, None if fen_tag is None else fen_tag.value)
            if start.problems and fen_tag is not None:
                setup_problems += _tag_problems(list(start.problems), fen_tag)
        self._start = start
        self.start: GamePosition | None = start.position
        self.variant: Variant | None = variant if start.position is None else start.position.variant
        self._setup_problems = setup_problems

    @property
    def number(self) -> int:
        """The game's number in the text, 1 for the first."""
        return self.raw.number

    @property
    def start_line(self) -> int:
        """The line of the input the game starts on (1-based)."""
        return self.raw.start_line

    @property
    def text(self) -> str:
        """The game's text as read: bytes that are not UTF-8 read as Windows-1252
        (``pgn-windows-1252`` in ``damage``; ``raw.text`` keeps them as lone surrogates)."""
        return self.raw.read_text

    @property
    def repaired(self) -> bool:
        """Whether ``start`` is the FEN tag's position repaired (``notation.validation.repair``):
        the set-up has errors (in ``problems``) and the moves were played from there."""
        return bool(self._start.repairs)

    @property
    def damage(self) -> list[PgnProblem]:
        """The damage the splitter found in the game's text (``pgn-stray-text``, ...)."""
        return self.raw.problems

    @property
    def moves(self) -> list[PlayedMove]:
        """The main line, its variations inside the moves they replace; read on first use."""
        return self._reading().moves

    @property
    def end(self) -> GamePosition | None:
        """The position after the main line (None: no start, or a move in it failed)."""
        return self._reading().end

    @property
    def problems(self) -> list[GameProblem]:
        """The set-up's problems, then the moves' in text order."""
        return self._reading().problems

    @property
    def ok(self) -> bool:
        """Whether the game has no error (warnings allowed)."""
        return not any(problem.level is ERROR for problem in self.problems)

    def write(self, notation: MoveNotation | str | None = None, *, profile: str = DEFAULT_PROFILE) -> str:
        """The game's text with each move written in ``notation`` as ``profile`` writes it
        (lichess: pawn drops ``P@e4``), everything else as read; None: the text as read.
        Raises ``ValueError`` for an unknown notation or profile, a notation the game's
        family does not write, and a game whose moves cannot all be read (an error of its
        moves in ``problems``), that has no start to read them from, or that is too large to
        hold. A ``repaired`` game's moves are written as ``normalize --moves`` writes them,
        its tags as read."""
        if notation is None:
            return self.text
        chosen = MoveNotation(notation)
        if profile not in PROFILES:
            raise ValueError(f"unknown profile {profile!r}; choose one of {', '.join(PROFILES)}")
        if self.start is None:
            raise ValueError(f"game {self.number} has no start position to read its moves from")
        if self.raw.continues:
            raise ValueError(f"game {self.number} is too large to hold whole: its moves are not read")
        writer = writer_for(chosen, profile)
        if not writer.available(self.start.variant):
            raise ValueError(f"{self.start.variant.name} moves are not written in {chosen.value}")
        found = self._moves(writer_notation=chosen, profile=profile)
        if found.has_errors:
            first = next(placed for placed in found.problems if placed.problem.level is ERROR)
            raise ValueError(f"game {self.number} cannot be rewritten: line {first.line}: {first.problem.code}: "
                             f"{first.problem.message}")
        text = self.text
        out: list[str] = []
        done = 0
        for start, end, new in found.edits:
            out.append(text[done:start])
            out.append(new)
            done = end
        out.append(text[done:])
        return "".join(out)

    def __repr__(self) -> str:
        name = "?" if self.variant is None else self.variant.key
        return f"<PgnGame {self.number} {name} line {self.start_line}>"

    # -- reading the moves ---------------------------------------------------------------
    def _moves(self, *, visitor: _Tree | None = None, writer_notation: MoveNotation | None = None,
               profile: str = DEFAULT_PROFILE) -> GameMoves:
        raw = self.raw
        writer = None if writer_notation is None else writer_for(writer_notation, profile)
        return read_game_moves(raw.read_text, raw.start_line, self._start, result_tag=raw.tag("Result"), writer=writer,
                               budget=self._budget, visitor=visitor, letters=self._letters,
                               first_column=raw.start_column)

    def _reading(self) -> _Read:
        if self._read is None:
            problems = list(self._setup_problems)
            tree = _Tree(self.text, self.raw.start_line, self.raw.start_column)
            end: GamePosition | None = None
            if self.raw.part == 0 and not self.raw.continues:
                found = self._moves(visitor=tree)
                tree.finish()
                end = found.end
                problems += [_game_problem(placed.line, placed.column, placed.problem) for placed in found.problems]
            self._read = _Read(tree.main, end, problems)
        return self._read


@dataclass(frozen=True)
class _Read:
    moves: list[PlayedMove]
    end: GamePosition | None
    problems: list[GameProblem]


class _Tree:
    """Builds the main line and its variations from what the walk tells (``MoveVisitor``)."""

    def __init__(self, text: str, first_line: int, first_column: int) -> None:
        self.locator = Locator(text, first_line, first_column)
        self.main: list[PlayedMove] = []
        self.line = self.main
        self.last: PlayedMove | None = None  # the line's last move; None at its start or after a failure
        self.stack: list[tuple[list[PlayedMove], PlayedMove | None]] = []

    def played(self, offset: int, word: str, read: ReadMove, before: GamePosition, after: GamePosition,
               ply: int) -> None:
        line, column = self.locator.place(offset)
        move = PlayedMove(ply, word, read.move, before, after, line, column, tuple(read.warnings))
        self.line.append(move)
        self.last = move

    def failed(self, offset: int) -> None:
        self.last = None

    def marked(self, warning: Problem) -> None:
        last = self.last
        if last is not None and self.line and self.line[-1] is last:
            self.last = self.line[-1] = replace(last, warnings=(*last.warnings, warning))

    def opened(self) -> None:
        self.stack.append((self.line, self.last))
        self.line = []
        self.last = None

    def closed(self) -> None:
        variation = self.line
        self.line, self.last = self.stack.pop()
        if variation and self.last is not None:
            self.last.variations.append(variation)

    def finish(self) -> None:
        """Close the variations still open at the end of the game."""
        while self.stack:
            self.closed()


def _game_problem(line: int, column: int, problem: MoveProblem) -> GameProblem:
    return GameProblem(problem.code, problem.message, problem.level, line, column, problem.ply, problem.move,
                       problem.fen, problem.candidates, problem.count)


def _tag_problems(problems: list[Problem], tag: Tag) -> list[GameProblem]:
    """Problems of a tag's value, placed in the input: a FEN's column within the value
    becomes a column of the line (a problem without one is at the value's start)."""
    out = []
    for problem in problems:
        column = tag.value_start + (problem.column if problem.column is not None else 1)
        out.append(GameProblem(problem.code, problem.message, ERROR, tag.line, column))
    return out


def read_games(
    source: str | Iterable[str],
    *,
    variant: Variant | str | None = None,
    registry: Registry = DEFAULT_REGISTRY,
    aliases: Mapping[str, str] | None = None,
    accept: Iterable[str] = (),
    budget: Budget = DEFAULT_BUDGET,
    limits: Limits = DEFAULT_LIMITS,
    piece_letters: MoveLanguage | str = MoveLanguage.EN,
) -> Generator[PgnGame, None, None]:
    """The games of ``source`` (PGN text, or pieces of it), in order; see the module doc.

    ``variant``: what a game without a ``Variant`` tag plays (default: the registry's
    default, Standard); ``aliases`` extra variant names (``{"zh960": "crazyhouse"}``);
    ``accept`` validation codes a ``FEN`` tag may have and still be played from (as
    ``--accept``); ``budget`` how much movetext a game may hold; ``piece_letters`` the
    language of chess moves' piece letters (``MoveLanguage``: ``"de"`` reads ``Sf3``, and
    no English letter German does not use). Raises ``UnknownVariantError`` for an unknown
    ``variant`` or alias target, ``ValueError`` for an unknown ``piece_letters``, nothing on
    bad input."""
    if aliases:
        registry = registry.with_aliases(aliases)
    default = registry.default if variant is None else registry.find(variant)
    starts = StartPositions(registry, frozenset(accept))
    for raw in iter_games(source, limits):
        if raw.part != 0 or not raw.text.strip():
            continue
        yield PgnGame(raw, default, starts, registry, budget, MoveLanguage(piece_letters))


def open_games(
    path: str,
    *,
    variant: Variant | str | None = None,
    registry: Registry = DEFAULT_REGISTRY,
    aliases: Mapping[str, str] | None = None,
    accept: Iterable[str] = (),
    budget: Budget = DEFAULT_BUDGET,
    limits: Limits = DEFAULT_LIMITS,
    piece_letters: MoveLanguage | str = MoveLanguage.EN,
) -> Generator[PgnGame, None, None]:
    """The games of the file at ``path`` (``-``: standard input), plain or compressed
    (gzip, bzip2, zstd: recognised by the first bytes), read in blocks; the options as
    ``read_games``'s. Raises ``notation.inputs.InputError`` when the file cannot be opened
    or read (corrupt or truncated compressed data), ``UnknownVariantError`` as
    ``read_games``. The file is closed when the games run out or the generator is closed
    (``contextlib.closing``)."""
    with InputFile(path) as source:
        yield from read_games(source.blocks(), variant=variant, registry=registry, aliases=aliases, accept=accept,
                              budget=budget, limits=limits, piece_letters=piece_letters)

