"""``ChessRules``: what a chess-family variant's moves obey, built once per variant from the
registry's data (``notation.variants``): each piece kind's movement, royalty, promotions,
pawn steps, castling, and the rule objects of its twists (``notation.game.chess.twists``).

The generator (``generate``), the position (``position``) and the notations ask this
object; none of them tests a variant's name or twist flags. ``rules_of(variant)`` keeps
one per variant. Nothing here raises for a registry entry of the chess family.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Final

from notation.game.chess.safety import Safety
from notation.game.chess.twists import MoveChange, TwistRule
from notation.game.chess.twists.registry import twists_of
from notation.geometry import Geometry
from notation.rules.square_set import ALL, FILE_A, FILE_H, RANK_1, RANK_2, RANK_7, RANK_8, words
from notation.rules.variant_rules import rules_for
from notation.variants import Movement, Stalemate, Variant

if TYPE_CHECKING:
    from notation.rules.square_set import Table

WHITE = 0
BLACK = 1

# The attack groups a piece kind belongs to (``ChessRules.attack_groups``), as
# ``ChessPosition._find_groups`` gathers them: the pawns (the variant's first pawn kind),
# knight-movers, king-movers, orthogonal sliders, diagonal sliders and grasshoppers.
PAWN_GROUP: Final = 1
KNIGHT_GROUP: Final = 2
KING_GROUP: Final = 4
ORTHOGONAL_GROUP: Final = 8
DIAGONAL_GROUP: Final = 16
HOPPER_GROUP: Final = 32
_GROUPS_OF_MOVEMENT: Final = {
    Movement.KNIGHT: KNIGHT_GROUP,
    Movement.KING: KING_GROUP,
    Movement.ROOK: ORTHOGONAL_GROUP,
    Movement.BISHOP: DIAGONAL_GROUP,
    Movement.QUEEN: ORTHOGONAL_GROUP | DIAGONAL_GROUP,
    Movement.GRASSHOPPER: HOPPER_GROUP,
}


class ChessRules:
    """The rules of one chess-family variant, as plain data for the generator."""

    def __init__(self, variant: Variant):
        self.variant = variant
        geometry: Geometry = variant.geometry
        if not geometry.is_chess_board:
            # The generator's bitboards are 64-bit words (notation.rules.square_set).
            raise ValueError(f"{variant.name}: chess-family moves are generated on the 8x8 board only")
        self.geometry = geometry
        self.files = geometry.files
        self.ranks = geometry.ranks
        self.size = geometry.size
        self.letters = variant.piece_letters
        if len(self.letters) > 7:
            # A position keeps each kind's board in its own machine word (ChessPosition).
            raise ValueError(f"{variant.name}: chess-family moves are generated for at most seven piece kinds")
        self.kind_of = {letter: index for index, letter in enumerate(self.letters)}
        # A SAN piece letter's kind by its character code (upper case ASCII), -1 for none.
        self.kind_of_code = tuple(
            self.kind_of.get(chr(code).lower(), -1) if "A" <= chr(code) <= "Z" else -1 for code in range(128)
        )
        self.movements = tuple(kind.movement for kind in variant.pieces)
        self.kinds = tuple(range(len(self.letters)))
        self.pawn = self._first(Movement.PAWN)
        self.hopper_kinds = self._moving(Movement.GRASSHOPPER)
        # Per kind, the groups above that it belongs to (read once per kind where a position
        # gathers its attackers), as machine words.
        self.attack_groups: Table = words(
            _GROUPS_OF_MOVEMENT.get(kind.movement, 0) | (PAWN_GROUP if index == self.pawn else 0)
            for index, kind in enumerate(variant.pieces)
        )
        self.royal_kinds = tuple(self.kind_of[letter] for letter in variant.royal if letter in self.kind_of)
        self.royal_kind = self.royal_kinds[0] if len(self.royal_kinds) == 1 else -1  # the usual one kind
        self.castles = variant.castling and bool(variant.castling_piece) and variant.castling_piece in self.kind_of
        self.castling_kind = self.kind_of[variant.castling_piece] if self.castles else -1
        self.rook_kind = self.kind_of.get(variant.castling_rook, -1) if self.castles else -1
        self.promotions = tuple(self.kind_of[letter] for letter in variant.promotions if letter in self.kind_of)
        # The variant's rules as the FEN reader and the validators read them.
        base = self.base = rules_for(variant)
        self.en_passant = not base.no_en_passant
        self.stalemate = variant.stalemate
        # Masks as the generator stores bitboards: square-set words (notation.rules.square_set),
        # per colour in a table of words (a tuple of two words would be boxed at each look-up).
        self.back_rank: Table = words((RANK_1, RANK_8))  # per colour: its own first rank
        self.promotion_rank: Table = words((RANK_8, RANK_1))  # per colour: the rank its pawns promote on
        self.second_rank: Table = words((RANK_2, RANK_7))
        # Per colour: the squares its pawns step twice from (their second rank, and their
        # first where the army says so; none where pawns never step twice).
        self.double_step_from: Table = words(
            0 if never else (self.second_rank[colour] | (self.back_rank[colour] if army.first_rank_double_step else 0))
            for colour, (never, army) in enumerate(zip(base.no_double_step, variant.armies, strict=True))
        )
        self.first_file = FILE_A
        self.last_file = FILE_H
        self.chess_board = base.chess_board
        self.all = ALL
        self.twists: tuple[TwistRule, ...] = twists_of(variant)
        safety = Safety.ROYAL if self.royal_kinds else Safety.NONE
        for twist in self.twists:
            safety = twist.safety(safety)
        self.safety = safety
        # The twist that changes how kings are attacked and kept safe (Atomic), asked by the
        # position where standard chess would judge; None in standard chess.
        self.king_twist: TwistRule | None = None
        for twist in self.twists:
            if twist.changes_king_safety:
                self.king_twist = twist
        # Whether a move's legality can be told from pins and checks alone (one royal piece,
        # standard king safety, no grasshoppers, whose hurdles a move can add or take away):
        # the fast path.
        self.pins_decide = safety is Safety.ROYAL and self.king_twist is None and not self.hopper_kinds
        # Whether the pieces' own moves are legal as pins and checks say, whatever a twist
        # adds (drops): one piece's moves may then be found without generating every move.
        self.own_piece_moves = all(
            twist.move_change is MoveChange.NONE or twist.move_change is MoveChange.ADDS for twist in self.twists
        )
        # The twists that judge each move on its own (no check given), and whether one piece's
        # legal moves are its own moves as pins and checks say, each then judged by them.
        self.judging = tuple(twist for twist in self.twists if twist.move_change is MoveChange.JUDGES_EACH)
        self.judging_keeps_one = all(twist.keeps_one for twist in self.judging)
        self.moves_by_piece = all(
            twist.move_change is MoveChange.NONE or twist.move_change is MoveChange.ADDS
            or twist.move_change is MoveChange.JUDGES_EACH
            for twist in self.twists
        )
        self.checkmate_wins = variant.stalemate is Stalemate.WIN and bool(self.royal_kinds)  # Losers
        # Set last: a native class's fields lie in the order they are first set, and the move
        # generator's keep their places. The squares' names and numbers, held here: the
        # notations read them at every move, where the geometry's cached properties take a
        # generic attribute look-up each.
        self.square_names: tuple[str, ...] = geometry.square_names
        self.square_index: dict[str, int] = geometry.square_index
        # Two squares' names joined (``e2e4``), at ``origin * 64 + target``, made on first
        # use: UCI writes every move so, and a file's moves come back to the same few hundred.
        # A list, read by index, where a dict took a hash look-up a move.
        self.square_pairs: list[str | None] = [None] * (64 * 64)
        # The same in long algebraic notation (``g1-f3``, then ``g1xf3`` 4,096 places on),
        # made on first use: LAN writes every move's two squares so.
        self.long_pairs: list[str | None] = [None] * (2 * 64 * 64)

    def _moving(self, movement: Movement) -> tuple[int, ...]:
        return tuple(index for index, kind in enumerate(self.variant.pieces) if kind.movement is movement)

    def _first(self, movement: Movement) -> int:
        found = self._moving(movement)
        return found[0] if found else -1


@functools.cache
def rules_of(variant: Variant) -> ChessRules:
    """The rules of ``variant`` (a chess-family registry entry), built once and kept."""
    return ChessRules(variant)
