"""Walking one game's movetext: every move read and played from its own position, every
variation from its branch point, and the moves a rewrite changes.

``walk(text, scanner, start, reading=..., writer=...)`` goes through the tokens of a
``movetext.Scanner`` once, keeping a stack of the lines it is in. A move is read with the
move layer (the family's ``read_move``: ``notation.moves.chess``, ``.xiangqi``, ``.tafl``, as
``notation.moves.read_move`` dispatches) in the position its line has reached and played
(``GamePosition.play``); a variation ``( ... )`` is read from the position before the move it
replaces (the last move of the line it is in), and the line goes on after it where it was.

Xiangqi's coordinate notations, UCI (ranks 1-10) and ICCS (ranks 0-9), write many moves
alike (``h2e2``): where both readings are legal the move layer calls the move ambiguous, and
the walk reads it in the notation the game's other moves show, the first of them with a rank
only one notation has (``h0g2`` is ICCS, ``h10g8`` UCI).

What it finds (``MoveProblem``, placed by the offset of its token):

- errors: the move layer's ``bad-move-syntax``, ``illegal-move``, ``ambiguous-move`` and
  ``game-over`` (a move once the position is decided: a mate, the third check, the hill),
  with the move's text, its ply and the FEN before it; ``move-after-end`` (a move after its
  line's result, ``1-0 ... e4``); ``pgn-unbalanced-variation`` (a ``)`` without its ``(``,
  or a ``(`` never closed); ``pgn-misplaced-variation`` (a ``(`` before any move of its
  line: there is no move for it to replace). After an error its line is not read further
  (the positions after it are unknown), but the variations that follow the failed move at
  once are: they replace it, and the position before it is known.
- warnings: each lenient reading of the move layer (``castling-with-zeros``,
  ``drop-with-star``, ``wrong-check-mark``, ...) under its own code, once per game and code
  (``result-spelling``: a result written with another dash or ``½``, rewritten as the
  standard spells it):
  the first place, with a count of the others. A chess move's en passant mark written apart
  (``exd6 e.p.``, ``exd6 ep``) is read with the move it follows, not as a move:
  ``en-passant-mark`` (``false-en-passant-mark`` after a move that is no en passant
  capture), and a rewrite drops it with the move's old text. It is looked for only where
  the move layer finds no move, so moves pay nothing for it.

With a ``writer`` it also keeps the edits a rewrite makes (``TextEdits``: the
``(start, end, text)`` of each move whose text changes, kept as the text they make). A
``visitor`` (``MoveVisitor``) is told of each move played, with the positions before and
after it, each move that failed, and each variation opened and closed, in text order: the
library's game API (``notation.pgn.gameread``) builds its moves from it, so that it plays
what ``check`` checks. Nothing here raises on bad input: the move layer's ``MoveError``
and ``ValueError`` become problems. Not checked: move numbers (``12.`` where ply 30 is
played), NAGs, comments and glyphs, which are kept as they are.

Compiled with mypyc (pyproject.toml): the tokens come as codes from the scanner, not as
objects, and a chess move is read by a direct call into the compiled chess reader.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, Protocol, cast

from notation.errors import MoveError
from notation.game.chess.position import ChessPosition
from notation.game.family import GamePosition
from notation.game.move import Move
from notation.lean_enum import LeanStrEnum
from notation.move_options import MoveLanguage, MoveNotation
from notation.moves.chess import EN_PASSANT_MARKS, FIGURINES, en_passant_mark, read_not_plain, read_plain_marked
from notation.moves.chess import read_move as read_chess_move
from notation.moves.reading import REPAIR_CODES, REPAIR_MESSAGES, ReadMove, repair_message
from notation.pgn.movetext import RESULT, T_CLOSE, T_END, T_MOVE, T_OPEN, T_RESULT, Scanner, Token, canonical_result
from notation.pgn.movewrite import MoveWriter
from notation.pgn.text_edits import TextEdits
from notation.problem import Problem
from notation.variants import RuleFamily, Variant

if TYPE_CHECKING:  # compiled, a machine integer; interpreted, never looked up (an int)
    from mypy_extensions import i64

MOVE_AFTER_END: Final = "move-after-end"
UNBALANCED_VARIATION: Final = "pgn-unbalanced-variation"
MISPLACED_VARIATION: Final = "pgn-misplaced-variation"


class Level(LeanStrEnum):
    """How bad a problem is: an error keeps the game from being rewritten; a warning does not."""

    ERROR = "error"
    WARNING = "warning"


ERROR: Final = Level.ERROR
WARNING: Final = Level.WARNING
_CHESS: Final = RuleFamily.CHESS
_XIANGQI: Final = RuleFamily.XIANGQI
_TAFL: Final = RuleFamily.TAFL
_SAN: Final = MoveNotation.SAN
_UCI: Final = MoveNotation.UCI
_ENGLISH: Final = MoveLanguage.EN


class MoveProblem:
    """One problem of the movetext at ``offset`` in the game's text. ``ply`` counts the
    game's moves from 1 (a variation's move has the ply of the move it replaces); ``move``
    is the token's text; ``fen`` the position before it (errors of a move only);
    ``candidates`` the moves an ambiguous one fits, in SAN; ``count`` how often a warning's
    code was met in the game.

    A value, equal to another with the same fields, and read-only (``Final`` fields), as
    ``notation.problem.Problem`` is: a plain class, where a NamedTuple's would cost every
    command that reads movetext ten times as much at start-up (docs/architecture.md)."""

    def __init__(
        self,
        code: str,
        message: str,
        level: Level,
        offset: int,
        ply: int | None = None,
        move: str | None = None,
        fen: str | None = None,
        candidates: tuple[str, ...] = (),
        count: int = 1,
    ) -> None:
        self.code: Final = code
        self.message: Final = message
        self.level: Final = level
        self.offset: Final = offset
        self.ply: Final = ply
        self.move: Final = move
        self.fen: Final = fen
        self.candidates: Final = candidates
        self.count: Final = count

    def _fields(self) -> tuple[Any, ...]:
        return (self.code, self.message, self.level, self.offset, self.ply, self.move, self.fen, self.candidates,
                self.count)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MoveProblem):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return "MoveProblem" + repr(self._fields())

    def __reduce__(self) -> tuple[type[MoveProblem], tuple[Any, ...]]:
        """Pickled and copied through ``__init__``."""
        return (MoveProblem, self._fields())


class Walk:
    """What a walk found: ``problems`` in the order met (warnings at their first place);
    ``edits`` for a rewrite, in text order; ``end``, the main line's last position (None
    when an error stopped it); ``result``, the main line's result token; ``plies``, moves
    played in the main line; ``first_move``, the offset of the first move token (-1: none).
    Read-only, a plain class as ``MoveProblem`` is."""

    def __init__(self, problems: list[MoveProblem], edits: TextEdits, end: GamePosition | None, result: Token | None,
                 plies: int, first_move: int) -> None:
        self.problems: Final = problems
        self.edits: Final = edits
        self.end: Final = end
        self.result: Final = result
        self.plies: Final = plies
        self.first_move: Final = first_move


class MoveVisitor(Protocol):
    """What ``walk`` tells of the moves it passes, in text order. ``opened`` and ``closed``
    pair up as the walk's lines do: a ``)`` without its ``(`` is told nothing, and the
    variations still open at the end are not closed (the caller closes them)."""

    def played(self, offset: int, word: str, read: ReadMove, before: GamePosition, after: GamePosition,
               ply: int) -> None:
        """The move ``word`` at ``offset`` was read as ``read`` and played from ``before``."""
        ...

    def failed(self, offset: int) -> None:
        """The move at ``offset`` could not be read or played: its line ends there."""
        ...

    def marked(self, warning: Problem) -> None:
        """The move last told of has a mark written apart after it (``exd6 e.p.``)."""
        ...

    def opened(self) -> None:
        """A variation starts: it replaces the line's last move (if one was played)."""
        ...

    def closed(self) -> None:
        """The variation ends; the line it was opened in goes on."""
        ...


ReadFunction = Callable[[GamePosition, str, MoveNotation | None], ReadMove]


def reader_of(variant: Variant) -> ReadFunction:
    """The move reader of ``variant``'s family (what ``notation.moves.read_move`` calls)."""
    family = variant.family
    if family is _XIANGQI:
        from notation.moves.xiangqi import read_move as read_xiangqi_move

        return read_xiangqi_move
    if family is _TAFL:
        from notation.moves.tafl import read_move as read_tafl_move

        return read_tafl_move
    return read_chess_move


RESULT_SPELLING: Final = "result-spelling"
_LIVE: Final = 0  # a line being read
_ENDED: Final = 1  # a line after its result
_DEAD: Final = 2  # a line stopped by an error


def walk(
    text: str,
    scanner: Scanner,
    start: GamePosition,
    *,
    reading: MoveNotation | None = None,
    writer: MoveWriter | None = None,
    visitor: MoveVisitor | None = None,
    letters: MoveLanguage = MoveLanguage.EN,
) -> Walk:
    """Walk the tokens ``scanner`` cuts from ``text`` from ``start``; see the module doc.
    ``reading`` is the notation moves are read in (None: any the family reads); ``letters``
    the language of a chess move's piece letters (``--piece-letters``); a scan
    stopped by its budget (``scanner.overflow``) leaves a ``(`` open without a problem."""
    problems: list[MoveProblem] = []
    warned: dict[str, list[int]] = {}  # warning code -> [its index in problems, times met]
    edits = TextEdits(text, scanner.end)  # from where the scan goes on: every token lies after it
    stack: list[tuple[GamePosition, GamePosition | None, int, int, int, int]] = []
    current: GamePosition = start
    previous: GamePosition | None = None  # the position before the line's last move
    ply = 0  # moves played in the line
    previous_ply = 0  # moves played before the line's last move
    state = _LIVE
    main_result: Token | None = None
    first_move = -1
    read_as_san = reading is _SAN
    chess = start.variant.family is _CHESS
    # Plain SAN is tried first, as the chess reader tries it; its move is made a ``ReadMove``
    # (no warnings) only where a visitor takes one.
    plain_first = chess and letters is _ENGLISH and reading is not _UCI
    read_other = reader_of(start.variant)
    coordinates: _Coordinates | None = None  # Xiangqi: the game's coordinate notation, looked up when needed
    # Where the last move played is: an en passant mark may follow it apart.
    marked_start: i64 = -1
    marked_end: i64 = -1
    kind = scanner.next()
    while kind != T_END:
        if kind == T_MOVE:
            offset = scanner.start
            if first_move < 0:
                first_move = offset
            if state != _LIVE:
                if state == _ENDED:
                    word = text[offset:scanner.end]
                    problems.append(MoveProblem(
                        MOVE_AFTER_END, f"{word!r} comes after the result that ends its line", ERROR,
                        offset, ply + 1, word,
                    ))
                    state = _DEAD
                previous = None  # branch points from here on are unknown
                kind = scanner.next()
                continue
            word_end: i64 = scanner.end
            # The move's text as a string: made where something takes it, not for a plain
            # move read in place that no writer or visitor sees ("": not made yet).
            word = ""
            read: ReadMove | None = None
            move: Move
            try:
                if chess:
                    if not plain_first:
                        word = text[offset:word_end]
                        read = read_chess_move(current, word, reading, letters)
                        move = read.move
                    else:
                        plain, mark = read_plain_marked(cast(ChessPosition, current), text, offset, word_end)
                        if plain is None:
                            word = text[offset:word_end]
                            read = read_not_plain(cast(ChessPosition, current), word, reading)
                            move = read.move
                        else:
                            move = plain
                            if mark:  # plain but for its check mark (``wrong-check-mark``)
                                word = text[offset:word_end]
                                read = ReadMove(plain, None, mark, word)
                    after: GamePosition = cast(ChessPosition, current).play(move)  # a native call, compiled
                else:
                    word = text[offset:word_end]
                    try:
                        read = read_other(current, word, reading)
                    except MoveError as exc:
                        # here: coordinates read two ways (Xiangqi's UCI and ICCS) are all it serves
                        from notation.moves.coordinates import AMBIGUOUS, is_coordinate

                        if exc.problems[0].code != AMBIGUOUS or reading is not None:
                            raise
                        if not is_coordinate(word):
                            raise
                        if coordinates is None:
                            coordinates = _Coordinates(text, scanner.origin)
                        notation = coordinates.notation()
                        if notation is None:
                            raise
                        read = read_other(current, word, notation)
                    after = current.play(read.move)
            except MoveError as exc:
                word = text[offset:word_end]
                bracketed = _bracketed_promotion(text, offset, word_end, current, reading, letters) if chess else None
                if bracketed is not None:
                    # ``b8(Q)``: the scanner cut a variation ``(Q)`` off the move; it is the promotion.
                    read, after = bracketed
                    word_end += 3
                    word = text[offset:word_end]
                    scanner.next()
                    scanner.next()
                    scanner.next()
                elif (chess and word in EN_PASSANT_MARKS and marked_end >= 0 and previous is not None
                        and not text[marked_end:offset].strip()):
                    # No move: the mark of the move played right before (only spaces between),
                    # read again from its own position.
                    marked = read_chess_move(previous, text[marked_start:marked_end], reading, letters).move
                    written = text[marked_start:scanner.end]
                    mark_warning = en_passant_mark(marked, written)
                    _warn(problems, warned, mark_warning, marked_start, ply, written)
                    if visitor is not None:
                        visitor.marked(mark_warning)
                    if writer is not None:  # the mark goes with the move's old text
                        if edits.last_start() == marked_start:
                            edits.extend_last(scanner.end)
                        else:
                            edits.replace(marked_end, scanner.end, "")
                    kind = scanner.next()
                    continue
                else:
                    problems.append(_error(exc, offset, ply + 1, word))
                    if visitor is not None:
                        visitor.failed(offset)
                    state = _DEAD
                    previous, previous_ply = current, ply  # a variation right after the failed move replaces it
                    kind = scanner.next()
                    continue
            except ValueError as exc:  # a reading the family cannot play (a null move where none is)
                word = text[offset:word_end]
                problems.append(MoveProblem(
                    "illegal-move", f"{word!r}: {exc}", ERROR, offset, ply + 1, word, _fen(current),
                ))
                if visitor is not None:
                    visitor.failed(offset)
                state = _DEAD
                previous, previous_ply = current, ply
                kind = scanner.next()
                continue
            previous_ply = ply
            ply += 1
            if not word and (read is not None or writer is not None or visitor is not None):
                word = text[offset:word_end]
            if read is not None:
                if read.repairs:
                    _warn_repairs(problems, warned, read.repairs, read.text, offset, ply, word)
                for warning in read.noted:
                    _warn(problems, warned, warning, offset, ply, word)
            if writer is not None:
                if read is None:
                    new = writer.clean_text(current, move, word, read_as_san, after)
                else:
                    new = writer.write(current, read, word, read_as_san, after)
                if new != word:
                    edits.replace(offset, word_end, new)
            if visitor is not None:
                visitor.played(offset, word, read if read is not None else ReadMove(move), current, after, ply)
            previous = current
            current = after
            marked_start = offset
            marked_end = word_end
        elif kind == T_OPEN:
            stack.append((current, previous, ply, previous_ply, state, scanner.start))
            if visitor is not None:
                visitor.opened()
            if previous is None:
                if state == _LIVE:
                    problems.append(MoveProblem(
                        MISPLACED_VARIATION, "a variation before any move of its line: there is no move for it to "
                        "replace", ERROR, scanner.start, ply,
                    ))
                state = _DEAD
            else:
                current = previous
                ply = previous_ply
                state = _LIVE
            previous = None
        elif kind == T_CLOSE:
            if not stack:
                problems.append(MoveProblem(
                    UNBALANCED_VARIATION, "a ')' without a '(' before it", ERROR, scanner.start, ply,
                ))
            else:
                current, previous, ply, previous_ply, state, _ = stack.pop()
                if visitor is not None:
                    visitor.closed()
        elif kind == T_RESULT:
            if scanner.end - scanner.start > 1:
                word = text[scanner.start:scanner.end]
                canonical = canonical_result(word)
                if canonical != word:
                    _warn(problems, warned, Problem(
                        RESULT_SPELLING, f"result {word!r} read as {canonical}: the PGN standard writes it "
                        "with a hyphen-minus and digits",
                    ), scanner.start, ply, word)
                    if writer is not None:
                        edits.replace(scanner.start, scanner.end, canonical)
            if not stack:
                main_result = Token(RESULT, scanner.start, scanner.end)
            if state == _LIVE:
                state = _ENDED
        kind = scanner.next()
    if stack:
        current, _, ply, _, state, opened = stack[0]
        if scanner.overflow is None:
            problems.append(MoveProblem(
                UNBALANCED_VARIATION, f"a '(' never closed ({len(stack)} open at the end of the game)", ERROR,
                opened, ply,
            ))
    for index, count in warned.values():
        if count > 1:  # built anew: ``_replace`` runs interpreted, a call per warning of each game
            p = problems[index]
            problems[index] = MoveProblem(p.code, p.message, p.level, p.offset, p.ply, p.move, p.fen, p.candidates,
                                          count)
    end = current if state != _DEAD else None
    return Walk(problems, edits, end, main_result, ply, first_move)


def _bracketed_promotion(
    text: str, start: int, end: int, position: GamePosition, reading: MoveNotation | None, letters: MoveLanguage,
) -> tuple[ReadMove, GamePosition] | None:
    """The chess move ``b8(Q)`` and the position after it, where a move ``text[start:end]``
    that failed has a piece letter in parentheses glued on (the scanner cuts ``(Q)`` off as a
    variation); None where there is none or it is not legal either."""
    if end + 3 > len(text) or text[end] != "(" or text[end + 2] != ")" or not text[end - 1].isdigit():
        return None
    if not text[end + 1].isalpha() and text[end + 1] not in FIGURINES:
        return None
    try:
        read = read_chess_move(position, text[start:end + 3], reading, letters)
        return read, cast(ChessPosition, position).play(read.move)
    except (MoveError, ValueError):
        return None


class _Coordinates:
    """The coordinate notation a Xiangqi game's moves are written in: UCI or ICCS, as the
    first move with a rank only one of them has says (None: no move says). Looked up once a
    game, in one scan of its movetext within the default budget."""

    __slots__ = ("text", "origin", "found", "known")

    def __init__(self, text: str, origin: int) -> None:
        self.text = text
        self.origin = origin
        self.found: MoveNotation | None = None
        self.known = False

    def notation(self) -> MoveNotation | None:
        if not self.known:
            from notation.moves.coordinates import notation_of

            self.known = True
            scanner = Scanner(self.text, self.origin)
            kind = scanner.next()
            while kind != T_END:
                if kind == T_MOVE:
                    found = notation_of(self.text, scanner.start, scanner.end)
                    if found is not None:
                        self.found = found
                        break
                kind = scanner.next()
        return self.found


def _warn(problems: list[MoveProblem], warned: dict[str, list[int]], warning: Problem, offset: int, ply: int,
          word: str) -> None:
    """Add a warning at its first place in the game; count it there when met again (one
    look-up a warning: a lenient spelling is often met on most of a game's moves)."""
    seen = warned.get(warning.code)
    if seen is None:
        warned[warning.code] = [len(problems), 1]
        problems.append(MoveProblem(warning.code, warning.message, WARNING, offset, ply, word))
    else:
        seen[1] += 1


def _warn_repairs(problems: list[MoveProblem], warned: dict[str, list[int]], repairs: int, text: str, offset: int,
                  ply: int, word: str) -> None:
    """``_warn`` for each repair flagged in ``repairs`` (``notation.moves.reading``) on the
    move ``text``: its message is made only where the game meets its code first. Bits past
    the last repair are not looked at, nor those past the last flag set."""
    flags: i64 = repairs
    for index in range(len(REPAIR_CODES)):
        if not flags >> index:
            break
        if flags >> index & 1:
            code = REPAIR_CODES[index]
            seen = warned.get(code)
            if seen is None:
                warned[code] = [len(problems), 1]
                problems.append(MoveProblem(code, repair_message(REPAIR_MESSAGES[index], text), WARNING, offset, ply,
                                            word))
            else:
                seen[1] += 1


def _error(exc: MoveError, offset: int, ply: int, word: str) -> MoveProblem:
    problem = exc.problems[0]
    candidates = tuple(problem.extra.get("candidates") or ())
    return MoveProblem(problem.code, problem.message, ERROR, offset, ply, word, exc.fen, candidates)


def _fen(position: GamePosition) -> str:
    """The FEN of ``position``, for a move that cannot be played there (the writer is
    imported here: a game whose moves all play needs none of it)."""
    from notation.fen.writer import write_fen

    return write_fen(position.to_setup(), position.variant).fen
