"""Where a game's moves start: its variant's start, or its ``FEN`` tag, as a legal position.

``StartPositions(registry).start(variant, fen)`` is the position a game of ``variant``
(already resolved from its ``Variant`` tag, as ``naming`` and the normaliser resolve it)
starts from: the variant's start without a FEN, else the FEN read and validated once
(``notation.game.legal_position``). A game counts as Chess960, so that UCI writes castling
as the king taking its rook, when its variant draws Chess960 arrays or its FEN has castling
rights only Chess960 can have (``Dialect.chess960``); such a FEN of a variant with a
Chess960 form (Standard) is read as that form, as the normaliser does.

A FEN whose only faults are the ones ``notation.validation.repair`` mends (castling rights
without their king or rook, an en passant square no double push explains) still gives a
start: the repaired position, with the FEN's problems in ``Start.problems`` (a caller
reports them as it reports any FEN's) and the repairs in ``Start.repairs``, so the game's
moves are checked from there rather than not at all (as other readers replay such games).

Nothing here raises on bad input: a FEN that cannot be read, or is illegal even repaired,
gives no start (``Start.position`` None, the reader's or the validators' problems in
``Start.problems``, and an ``unknown-start`` ``reason`` saying the moves are not checked),
and a variant whose start array is drawn (Chess960, King's Corner) without a FEN gives none
either, with an ``unknown-start`` reason. Positions are cached by (FEN, variant).
"""

from __future__ import annotations

from typing import Final

from notation.errors import NotationError, Problem
from notation.fen.reader import read_fen
from notation.game import legal_position
from notation.game.family import GamePosition
from notation.move_options import CastlingMode
from notation.validation import repair
from notation.variants import Registry, StartDraw, Variant

UNKNOWN_START: Final = "unknown-start"
_CACHE_SIZE: Final = 4096
_CHESS960_DRAW: Final = StartDraw.CHESS960
_UNREADABLE: Final = "the FEN tag cannot be read: the game's moves are not checked"
_ILLEGAL: Final = "the FEN tag's position is illegal and cannot be repaired: the game's moves are not checked"


class Start:
    """A game's start: the ``position`` (None when there is none to play from), why there
    is none (``reason``, code ``unknown-start``), the FEN's ``problems`` (also when the
    position is the FEN repaired) and the ``repairs`` that made it playable. Read-only; a
    plain class, as the compiled modules' records are (docs/architecture.md, "Start-up")."""

    def __init__(self, position: GamePosition | None, reason: str | None = None, problems: tuple[Problem, ...] = (),
                 repairs: tuple[Problem, ...] = ()) -> None:
        self.position: Final = position
        self.reason: Final = reason
        self.problems: Final = problems
        self.repairs: Final = repairs


class StartPositions:
    """Start positions of games, cached; ``accept`` lets these validation codes through, as
    ``--accept`` lets them through the FEN check."""

    def __init__(self, registry: Registry, accept: frozenset[str] = frozenset()) -> None:
        self._registry = registry
        self._accept = accept
        self._cache: dict[tuple[str | None, str], Start] = {}

    def start(self, variant: Variant, fen: str | None) -> Start:
        """The start of a game of ``variant`` with ``fen`` (None: no FEN tag)."""
        key = (fen, variant.key)
        found = self._cache.get(key)
        if found is None:
            found = self._start(variant, fen)
            if len(self._cache) >= _CACHE_SIZE:
                self._cache.clear()
            self._cache[key] = found
        return found

    def _start(self, variant: Variant, fen: str | None) -> Start:
        if fen is None:
            if variant.random_start:
                return Start(None, f"{variant.name} starts from a drawn array and the game has no FEN tag: "
                                   "its moves are not checked")
            text = variant.start_fen
        else:
            text = fen.strip()
        try:
            read = read_fen(text, variant, registry=self._registry)
        except NotationError as exc:
            return Start(None, _UNREADABLE, tuple(exc.problems))
        chess960 = read.dialect.chess960 or variant.start_draw is _CHESS960_DRAW
        setup, played = read.setup, read.variant
        if chess960 and played.chess960_form:
            try:
                form = self._registry.get(played.chess960_form)
                setup, played = read_fen(text, form, registry=self._registry).setup, form
            except (NotationError, KeyError):
                pass  # read as its own variant, as the normaliser does when the form refuses it
        mode = CastlingMode.CHESS960 if chess960 else CastlingMode.STANDARD
        try:
            return Start(legal_position(setup, played, castling=mode, accept=self._accept))
        except NotationError as exc:
            problems = tuple(exc.problems)
        repaired, repairs = repair(setup, played)
        if repairs:
            try:
                position = legal_position(repaired, played, castling=mode, accept=self._accept)
                return Start(position, None, problems, tuple(repairs))
            except NotationError:
                pass  # illegal for more than what a repair mends: the FEN's own problems stand
        return Start(None, _ILLEGAL, problems)
