"""Positions compared as a game reaches them: ``PositionKey`` and ``Targets`` (``select --reaches``).

Two positions are the same when a player could not tell them apart at the board: the
pieces on their squares, the side to move, the castling rights (the squares of the rooks
that keep one), the en passant square only when a legal en passant capture exists there
(as the FEN writer keeps it with ``EnPassantMode.LEGAL``, lichess and python-chess's
``_transposition_key``), the pockets (Crazyhouse and the other drop variants; in canonical
order), which pieces are promoted pawns (Crazyhouse ``~``: they go back to a pocket as
pawns), the checks each side still has to give (Three-check; a FEN without counters has
the variant's start counts, as python-chess reads it) and the bomb squares
(itsyourturn Atomic). The halfmove clock and the move number are not compared. A key is
built from a legal position (``GamePosition.to_setup``), never from a FEN's text, so two
FENs written differently (X-FEN or Shredder castling letters, an en passant square no
pawn can take on, another pocket order) give the same key.

``Targets`` holds the ``--reaches`` FENs as texts and reads them once per variant, as a
game's ``FEN`` tag of that variant is read (``notation.pgn.gamestart``: Chess960 castling
rights make it Chess960's form): a FEN that is unreadable or illegal in a game's variant
matches nothing there. Nothing here raises on bad input.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from notation.errors import NotationError
from notation.game import start_position
from notation.game.family import GamePosition
from notation.options import EnPassantMode
from notation.pgn.gamestart import StartPositions
from notation.rules.en_passant import en_passant_square
from notation.variants import Variant


class PositionKey(NamedTuple):
    """What makes two positions the same for ``--reaches`` (see the module doc)."""

    cells: str
    turn: object
    castling: frozenset[int]
    ep_square: int | None
    promoted: frozenset[int]
    pockets: tuple[str, str] | None
    remaining_checks: tuple[int, int] | None
    bombs: tuple[int | None, int | None] | None


def position_key(position: GamePosition) -> PositionKey:
    """The key of ``position`` (see the module doc)."""
    setup = position.to_setup()
    variant = position.variant
    pockets = None if setup.pockets is None else (setup.pockets.white, setup.pockets.black)
    checks = setup.remaining_checks
    if checks is None:
        checks = _start_checks(variant)
    return PositionKey(
        setup.cells, setup.turn, setup.castling, en_passant_square(setup, variant, EnPassantMode.LEGAL),
        setup.promoted, pockets, checks, setup.bombs,
    )


_START_CHECKS: dict[str, tuple[int, int] | None] = {}


def _start_checks(variant: Variant) -> tuple[int, int] | None:
    """The checks each side has to give at the start of ``variant`` (None: it counts none):
    what a FEN without check counters means (python-chess reads it so too)."""
    if variant.key not in _START_CHECKS:
        try:
            _START_CHECKS[variant.key] = start_position(variant).to_setup().remaining_checks
        except (NotationError, ValueError):
            _START_CHECKS[variant.key] = None
    return _START_CHECKS[variant.key]


def _occupancy(position: GamePosition) -> tuple[int, int] | None:
    """A cheap look at a chess-family position (the squares of each side), None elsewhere:
    positions whose occupancies differ need no key."""
    white = getattr(position, "white", None)
    black = getattr(position, "black", None)
    if isinstance(white, int) and isinstance(black, int):
        return white, black
    return None


class _Target(NamedTuple):
    key: PositionKey
    occupancy: tuple[int, int] | None


class Targets:
    """The ``--reaches`` positions, read per variant (see the module doc)."""

    def __init__(self, fens: Sequence[str], starts: StartPositions) -> None:
        self.fens = tuple(fen.strip() for fen in fens)
        self._starts = starts
        self._by_variant: dict[str, tuple[_Target, ...]] = {}

    def of(self, variant: Variant) -> tuple[_Target, ...]:
        """The targets a game of ``variant`` can reach (those its variant reads as legal)."""
        found = self._by_variant.get(variant.key)
        if found is None:
            targets = []
            for fen in self.fens:
                start = self._starts.start(variant, fen)
                if start.position is not None and not start.problems:
                    targets.append(_Target(position_key(start.position), _occupancy(start.position)))
            found = self._by_variant[variant.key] = tuple(targets)
        return found

    @staticmethod
    def reached(targets: tuple[_Target, ...], position: GamePosition) -> bool:
        """Whether ``position`` is one of ``targets``."""
        occupancy = _occupancy(position)
        key: PositionKey | None = None
        for target in targets:
            if occupancy is not None and target.occupancy is not None and occupancy != target.occupancy:
                continue
            if key is None:
                key = position_key(position)
            if key == target.key:
                return True
        return False
