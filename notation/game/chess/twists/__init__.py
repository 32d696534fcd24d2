"""Rule twists of the chess family as objects: one ``TwistRule`` subclass per twist, built
once per variant (``registry.twists_of``) from the registry's ``Twist`` names
(``notation.variants.Twist``, public: a registry entry lists them) and data. The two are
named apart: ``Twist`` names a rule in the registry, ``TwistRule`` is the object that plays it.

A twist changes the game through a few hooks, each a no-op in ``TwistRule`` itself:
``safety`` (what a move must leave of the mover's royal pieces), ``end`` (a variant's own
end, judged before any move is generated), ``extra_moves`` (drops, detonations),
``only_moves`` (a phase that replaces the ordinary moves: placing pieces), ``filter``
(compulsory captures, no checks given), ``after`` (what a move changes beyond carrying a
piece: explosions, pockets, check counters, bombs) and ``no_moves`` (what having no legal
move means). A twist that changes how kings are attacked and kept safe (Atomic) sets
``changes_king_safety`` and answers ``king_attackers`` (which pieces check a king),
``king_safe_squares`` (where a king stands safe whatever attacks it) and
``leaves_king_safe`` (whether a move keeps the mover's king): the position asks it where
standard chess would judge (``ChessRules.king_twist``; None in standard chess, which pays
no call for it). A new twist is one subclass and one line in ``registry.twists_of``.
Nothing here raises.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from notation.game.move import Move
from notation.game.outcome import EndReason, Outcome
from notation.lean_enum import LeanEnum

if TYPE_CHECKING:  # i64: compiled, a machine integer (notation.rules.square_set)
    from mypy_extensions import i64

    from notation.game.chess.position import ChessPosition
    from notation.game.chess.safety import Safety


class MoveChange(LeanEnum):
    """What a twist does to the legal moves, beyond the pieces' own."""

    NONE = "none"  # the legal moves are the pieces' own
    ADDS = "adds"  # it adds moves (drops, detonations); the pieces' own stay legal as they are
    JUDGES_EACH = "judges-each"  # it takes away moves judged one at a time (``allows``: no check given)
    FILTERS = "filters"  # it takes moves away as the others stand (compulsory capture)
    REPLACES = "replaces"  # a phase whose moves replace the pieces' own (placement)


class TwistRule:
    """A rule twist; every hook leaves the game as standard chess plays it.

    ``move_change`` says what it does to the moves: perft may count the last ply from the
    pieces' targets only where no twist changes them, and a move of one piece may be found
    without generating every move only where none filters or replaces them."""

    move_change = MoveChange.NONE
    # Whether, where the pieces have a legal move, one survives ``allows`` (a JUDGES_EACH
    # twist that keeps one lets the moves' existence be told without listing them).
    keeps_one = False
    # Whether this twist answers the king-safety hooks below (at most one twist of a variant
    # does; ``ChessRules.king_twist``).
    changes_king_safety = False

    def safety(self, base: Safety) -> Safety:
        """The royal safety the variant's moves obey, given the one before this twist."""
        return base

    def king_attackers(self, position: ChessPosition, colour: int) -> i64:
        """Enemy pieces attacking a royal piece of ``colour`` (asked where check exists)."""
        return position.royal_attackers(colour)

    def king_safe_squares(self, position: ChessPosition) -> i64:
        """Squares where the side to move's king stands safe whatever attacks them (castling
        does not judge them)."""
        return 0

    def leaves_king_safe(self, position: ChessPosition, move: Move) -> bool:
        """Whether the pseudo-legal ``move`` leaves the mover's royal pieces safe (asked
        where check exists and pins cannot tell)."""
        return position.royal_safe_after(move)

    def end(self, position: ChessPosition) -> Outcome | None:
        """The game's end by this twist in ``position``, before any move is generated."""
        return None

    def only_moves(self, position: ChessPosition) -> list[Move] | None:
        """The moves of a phase that replaces ordinary play (already legal), or None."""
        return None

    def extra_moves(self, position: ChessPosition) -> list[Move]:
        """Moves this twist adds to the pieces' own (pseudo-legal: checked like the rest)."""
        return []

    def count_extra_moves(self, position: ChessPosition, allowed: int) -> int:
        """How many of ``extra_moves`` are legal where pins and checks decide legality and
        a legal move must reach ``allowed`` (``ChessPosition._guard``); -1 when they cannot
        be counted without making each (perft then makes them)."""
        return 0

    def offers(self, position: ChessPosition, move: Move) -> bool:
        """Whether ``move`` is one of ``extra_moves(position)``, found without making them all."""
        return False

    def allows(self, position: ChessPosition, move: Move) -> bool:
        """Whether a ``JUDGES_EACH`` twist lets ``move`` (otherwise legal) stand."""
        return True

    def filter(self, position: ChessPosition, moves: list[Move]) -> list[Move]:
        """The legal moves that survive this twist's restriction."""
        return moves

    def after(self, before: ChessPosition, move: Move, after: ChessPosition, captured: int, was_promoted: bool) -> None:
        """Change ``after`` (a fresh copy being built) for ``move`` played in ``before``;
        ``captured`` is the kind index taken (-1 for none) and ``was_promoted`` whether it
        was a promoted piece."""

    def no_moves(self, position: ChessPosition, in_check: bool) -> Outcome | None:
        """What having no legal move means here, or None to leave it to the variant's
        checkmate and stalemate rules."""
        return None


def royal_loss(position: ChessPosition, reason: EndReason) -> Outcome | None:
    """The end when a side has lost its royal pieces (exploded, captured): the other side
    wins, or a draw when both have; None while both have theirs."""
    white, black = position.royal(0), position.royal(1)
    if white and black:
        return None
    if not white and not black:
        return Outcome(None, reason)
    return Outcome("w" if white else "b", reason)
