"""The moves of one PGN game as plies a board can step through: each move as written, in
SAN and UCI, the FEN after it, its squares and a king in check; variations nested under the
move they replace.

``replay(text, first_line, start, ...)`` scans the game's movetext (``notation.pgn.movetext``,
within a ``Budget``) and plays it from ``start`` with the move layer (``read_move``, then
``GamePosition.play``), each variation from the position before the move it replaces, as
``notation.pgn.movewalk`` walks it for ``notation check``: the same tokens, read in the same
notation from the same positions, so the same moves are played and the same ones fail. The
SAN and UCI are written by ``notation.pgn.movewrite``'s ``MoveWriter``, as
``notation normalize --moves san|uci`` writes them.

This walk is the service's because the PGN layer has none that hands out the positions it
passes through (``movewalk.walk`` keeps only problems and edits); no rule is decided here.

A move that cannot be read or played ends its line: it is the line's last ply, with
``problem`` (the one ``placed`` holds for its token, that is what ``normalize --moves
check`` reports there; else the move layer's own words) and no FEN; the variations right
after it are still read (they replace it). Moves after a line's result, after a failed
move, in a variation with no move to replace, and past the budget are not played (their
problems are the game's, not a ply's). Nothing here raises on bad input.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from notation.errors import MoveError
from notation.fen.writer import write_fen
from notation.game import GamePosition
from notation.moves import read_move
from notation.options import MoveNotation
from notation.pgn.movetext import CLOSE, MOVE, OPEN, RESULT, Budget, Locator, movetext_start, scan
from notation.pgn.movewrite import MoveWriter
from notation.setup import Setup
from notation.variants import RuleFamily

from .move_squares import last_move_text, move_entry

Ply = dict[str, Any]
Line = list[Ply]

_SAN = MoveWriter(MoveNotation.SAN)  # the default profile's SAN (pawn drops "@e4"), as normalize writes it
_UCI = MoveWriter(MoveNotation.UCI)
_LIVE, _ENDED, _DEAD = 0, 1, 2  # a line: being read; after its result; stopped by a move that failed


class Replay(NamedTuple):
    """The main line's plies (variations inside them), where it ends (None when a move
    failed in it), and the result token that ends it (its text, or None)."""

    plies: Line
    end: GamePosition | None
    result: str | None


class _Frame(NamedTuple):
    """A line left for a variation, to go on with at its ``)``."""

    line: Line
    current: GamePosition
    setup: Setup
    previous: tuple[GamePosition, Setup] | None
    last: Ply | None
    ply: int
    state: int


def replay(
    text: str,
    first_line: int,
    start: GamePosition,
    budget: Budget,
    placed: Mapping[tuple[int, int], dict[str, Any]],
) -> Replay:
    """The plies of ``text`` (one game, tags included, its first line ``first_line``) from
    ``start``; ``placed`` maps (line, column) to the problem reported for the move there."""
    tokens = scan(text, movetext_start(text), budget).tokens
    locator = Locator(text, first_line)
    variant = start.variant
    reading = MoveNotation.SAN if variant.family is RuleFamily.CHESS else None  # as notation.pgn.gamemoves reads
    writers = [writer if writer.available(variant) else None for writer in (_SAN, _UCI)]
    main: Line = []
    line = main
    stack: list[_Frame] = []
    current, setup = start, start.to_setup()
    previous: tuple[GamePosition, Setup] | None = None  # the position before the line's last move
    last: Ply | None = None  # the line's last ply: a variation replaces it
    ply = 0
    state = _LIVE
    result: str | None = None
    for token in tokens:
        kind = token.kind
        if kind is MOVE:
            if state != _LIVE:
                previous = None  # as movewalk: branch points past the end of a line are unknown
                continue
            word = text[token.start:token.end]
            where = locator.place(token.start)
            entry: Ply = {"ply": ply + 1, "number": setup.fullmove, "color": setup.turn, "move": word,
                          "line": where[0], "column": where[1], "variations": []}
            try:
                read = read_move(current, word, reading)
                after = current.play(read.move)
            except (MoveError, ValueError) as exc:
                entry.update(san=None, uci=None, fen=None, last_move="", squares=None, check=[], warnings=[],
                             problem=placed.get(where) or _own_problem(exc, word))
                line.append(entry)
                state = _DEAD
                previous, last = (current, setup), entry  # a variation right after it replaces it
                continue
            after_setup = after.to_setup()
            squares = move_entry(read.move, variant.geometry, setup.cells, after_setup.cells)
            san, uci = (None if writer is None else writer.write(current, read, word, reading is MoveNotation.SAN)
                        for writer in writers)
            entry.update(
                san=san, uci=uci, fen=write_fen(after_setup, after.variant).fen, last_move=last_move_text(squares),
                squares=squares, check=_check(after, after_setup), warnings=[w.to_dict() for w in read.warnings],
                problem=None,
            )
            line.append(entry)
            previous, last = (current, setup), entry
            current, setup = after, after_setup
            ply += 1
        elif kind is OPEN:
            stack.append(_Frame(line, current, setup, previous, last, ply, state))
            line = []
            if previous is None or last is None:
                state = _DEAD  # no move to replace: nothing in it is played (the game's problem says so)
            else:
                last["variations"].append(line)
                current, setup = previous
                ply = last["ply"] - 1
                state = _LIVE
            previous = last = None
        elif kind is CLOSE:
            if stack:
                line, current, setup, previous, last, ply, state = stack.pop()
        elif kind is RESULT:
            if not stack:
                result = text[token.start:token.end]
            if state == _LIVE:
                state = _ENDED
    if stack:
        line, current, setup, previous, last, ply, state = stack[0]
    return Replay(main, current if state != _DEAD else None, result)


def _check(position: GamePosition, setup: Setup) -> list[str]:
    """The squares of the side to move's royal pieces when the game layer says it is in
    check (as ``GET /v1/board.svg`` marks them, ``notation.svg.marks``; here also in a game
    whose FEN tag had a code accepted, which the picture does not judge)."""
    if not position.is_check():
        return []
    royal = {letter.upper() if setup.turn == "w" else letter.lower() for letter in position.variant.royal}
    name = setup.geometry.square_name
    return [name(square) for square, letter in enumerate(setup.cells) if letter in royal]


def _own_problem(exc: Exception, word: str) -> dict[str, Any]:
    """The move layer's problem for a move ``placed`` has none for (it always has one when
    the game's problems come from the same walk; this is the fallback)."""
    if isinstance(exc, MoveError) and exc.problems:
        out: dict[str, Any] = exc.problems[0].to_dict()
    else:
        out = {"code": "illegal-move", "message": f"{word!r}: {exc}"}
    out.setdefault("move", word)
    return out
