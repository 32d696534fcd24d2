"""Walking one game's movetext: every move read and played from its own position, every
variation from its branch point, and the moves a rewrite changes.

``walk(text, tokens, start, reading=..., writer=...)`` goes through the tokens of
``movetext.scan`` once, keeping a stack of the lines it is in. A move is read with the move
layer (``notation.moves.read_move``) in the position its line has reached and played
(``GamePosition.play``); a variation ``( ... )`` is read from the position before the move it
replaces (the last move of the line it is in), and the line goes on after it where it was.

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
  ``drop-with-star``, ``wrong-check-mark``, ...) under its own code, once per game and code:
  the first place, with a count of the others.

With a ``writer`` it also lists the edits a rewrite makes: ``(start, end, text)`` for each
move whose text changes. Nothing here raises on bad input: the move layer's ``MoveError``
and ``ValueError`` become problems. Not checked: move numbers (``12.`` where ply 30 is
played), NAGs, comments and glyphs, which are kept as they are.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import NamedTuple

from notation.errors import MoveError
from notation.fen.writer import write_fen
from notation.game.family import GamePosition
from notation.moves import read_move
from notation.options import MoveNotation
from notation.pgn.movetext import CLOSE, MOVE, OPEN, RESULT, Token
from notation.pgn.movewrite import MoveWriter

MOVE_AFTER_END = "move-after-end"
UNBALANCED_VARIATION = "pgn-unbalanced-variation"
MISPLACED_VARIATION = "pgn-misplaced-variation"


class Level(str, enum.Enum):
    """How bad a problem is: an error keeps the game from being rewritten; a warning does not."""

    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, slots=True)
class MoveProblem:
    """One problem of the movetext at ``offset`` in the game's text. ``ply`` counts the
    game's moves from 1 (a variation's move has the ply of the move it replaces); ``move``
    is the token's text; ``fen`` the position before it (errors of a move only);
    ``candidates`` the moves an ambiguous one fits, in SAN; ``count`` how often a warning's
    code was met in the game."""

    code: str
    message: str
    level: Level
    offset: int
    ply: int | None = None
    move: str | None = None
    fen: str | None = None
    candidates: tuple[str, ...] = ()
    count: int = 1


class Walk(NamedTuple):
    """What a walk found: ``problems`` in the order met (warnings at their first place);
    ``edits`` for a rewrite, in text order; ``end``, the main line's last position (None
    when an error stopped it); ``result``, the main line's result token; ``plies``, moves
    played in the main line."""

    problems: list[MoveProblem]
    edits: list[tuple[int, int, str]]
    end: GamePosition | None
    result: Token | None
    plies: int


_LIVE, _ENDED, _DEAD = 0, 1, 2  # a line: being read; after its result; stopped by an error


def walk(
    text: str,
    tokens: list[Token],
    start: GamePosition,
    *,
    reading: MoveNotation | None = None,
    writer: MoveWriter | None = None,
    complete: bool = True,
) -> Walk:
    """Walk ``tokens`` (of ``text``) from ``start``; see the module doc. ``reading`` is the
    notation moves are read in (None: any the family reads); ``complete`` False says the
    scan stopped early (its budget), so a ``(`` left open is not a problem."""
    problems: list[MoveProblem] = []
    warned: dict[str, int] = {}  # warning code -> its index in problems
    edits: list[tuple[int, int, str]] = []
    stack: list[tuple[GamePosition, GamePosition | None, int, int, int, int]] = []
    current: GamePosition = start
    previous: GamePosition | None = None  # the position before the line's last move
    ply = 0  # moves played in the line
    previous_ply = 0  # moves played before the line's last move
    state = _LIVE
    main_result: Token | None = None
    read_as_san = reading is MoveNotation.SAN
    for token in tokens:
        kind = token.kind
        if kind is MOVE:
            if state != _LIVE:
                if state == _ENDED:
                    word = text[token.start:token.end]
                    problems.append(MoveProblem(
                        MOVE_AFTER_END, f"{word!r} comes after the result that ends its line", Level.ERROR,
                        token.start, ply + 1, word,
                    ))
                    state = _DEAD
                previous = None  # branch points from here on are unknown
                continue
            word = text[token.start:token.end]
            try:
                read = read_move(current, word, reading)
                after = current.play(read.move)
            except MoveError as exc:
                problems.append(_error(exc, token.start, ply + 1, word))
                state = _DEAD
                previous, previous_ply = current, ply  # a variation right after the failed move replaces it
                continue
            except ValueError as exc:  # a reading the family cannot play (a null move where none is)
                problems.append(MoveProblem(
                    "illegal-move", f"{word!r}: {exc}", Level.ERROR, token.start, ply + 1, word, _fen(current),
                ))
                state = _DEAD
                previous, previous_ply = current, ply
                continue
            previous_ply = ply
            ply += 1
            for warning in read.warnings:
                seen = warned.get(warning.code)
                if seen is None:
                    warned[warning.code] = len(problems)
                    problems.append(MoveProblem(warning.code, warning.message, Level.WARNING, token.start, ply, word))
                else:
                    first = problems[seen]
                    problems[seen] = MoveProblem(first.code, first.message, first.level, first.offset, first.ply,
                                                 first.move, count=first.count + 1)
            if writer is not None:
                new = writer.write(current, read, word, read_as_san)
                if new != word:
                    edits.append((token.start, token.end, new))
            previous = current
            current = after
        elif kind is OPEN:
            stack.append((current, previous, ply, previous_ply, state, token.start))
            if previous is None:
                if state == _LIVE:
                    problems.append(MoveProblem(
                        MISPLACED_VARIATION, "a variation before any move of its line: there is no move for it to "
                        "replace", Level.ERROR, token.start, ply,
                    ))
                state = _DEAD
            else:
                current = previous
                ply = previous_ply
                state = _LIVE
            previous = None
        elif kind is CLOSE:
            if not stack:
                problems.append(MoveProblem(
                    UNBALANCED_VARIATION, "a ')' without a '(' before it", Level.ERROR, token.start, ply,
                ))
                continue
            current, previous, ply, previous_ply, state, _ = stack.pop()
        elif kind is RESULT:
            if not stack:
                main_result = token
            if state == _LIVE:
                state = _ENDED
    if stack:
        current, _, ply, _, state, opened = stack[0]
        if complete:
            problems.append(MoveProblem(
                UNBALANCED_VARIATION, f"a '(' never closed ({len(stack)} open at the end of the game)", Level.ERROR,
                opened, ply,
            ))
    end = current if state != _DEAD else None
    return Walk(problems, edits, end, main_result, ply)


def _error(exc: MoveError, offset: int, ply: int, word: str) -> MoveProblem:
    problem = exc.problems[0]
    candidates = tuple(problem.extra.get("candidates") or ())
    return MoveProblem(problem.code, problem.message, Level.ERROR, offset, ply, word, exc.fen, candidates)


def _fen(position: GamePosition) -> str:
    return write_fen(position.to_setup(), position.variant).fen
