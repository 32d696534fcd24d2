"""``VariantRules``: what one variant's rules say, read once from its registry entry.

The FEN reader and writer, the attack view, the validators and the move generator
(``notation.game.chess.rules.ChessRules`` builds on it) ask this object, never a cache of
their own: ``Variant`` and ``Army`` are Python dataclasses, each of whose attributes is a
dictionary look-up from compiled code, and a FEN asks a few dozen of them.
``rules_for(variant)`` keeps one per variant. Per-colour values are pairs (white, black).
Nothing here raises for a registry entry; nothing here judges a setup.
"""

from __future__ import annotations

from typing import Final

from notation.geometry import CHESS_BOARD, Geometry
from notation.identity_cache import IdentityCache
from notation.rules.attacks import tables_for
from notation.rules.bitboard import ByColour
from notation.rules.king_rules import KingRule, king_rule_for
from notation.variants import RuleFamily, Twist, Variant


class VariantRules:
    """The rules of one variant as plain attributes (see the module doc)."""

    __slots__ = (
        "variant", "key", "name", "geometry", "family", "chess_board", "tafl", "board_letters", "promotions",
        # what a FEN of the variant holds beyond the board
        "pockets", "check_counters", "checks_to_win", "bombs", "spellings", "random_start",
        # castling
        "castles", "castling_piece", "castling_rook", "castling_letters",
        # royalty and armies
        "royal", "royal_count", "max_pieces", "max_pawns", "pawns_on_first_rank", "no_pawns", "kind_caps",
        # rule twists
        "drops", "no_double_step", "no_en_passant", "placement",
        # how the twists change the attacks on kings and what a setup may hold (king_rules)
        "kings",
    )

    # Per colour, tuples of any length (see ``notation.rules.bitboard.ByColour``).
    royal_count: ByColour
    max_pieces: ByColour
    max_pawns: ByColour
    pawns_on_first_rank: tuple[bool, ...]
    no_pawns: ByColour
    no_double_step: tuple[bool, ...]
    castling_letters: tuple[tuple[str, str], ...]
    kind_caps: tuple[tuple[int, str, int], ...]
    kings: KingRule

    def __init__(self, variant: Variant):
        self.variant = variant
        self.key = variant.key
        self.name = variant.name
        geometry: Geometry = variant.geometry
        self.geometry = geometry
        self.family = variant.family
        self.chess_board = geometry is CHESS_BOARD or geometry.is_chess_board  # the 8x8 fast paths apply
        self.tafl = variant.family is RuleFamily.TAFL
        self.board_letters = variant.board_letters
        # The letters a pawn may become, both cases (a promotion mark counts only on those).
        self.promotions = frozenset(variant.promotions + variant.promotions.upper())

        self.pockets = variant.has_pockets
        self.check_counters = variant.has_check_counters
        self.checks_to_win = variant.checks_to_win
        self.bombs = variant.has_bombs
        self.spellings = variant.has_spellings
        self.random_start = variant.random_start

        # Whether any right can be good: the variant castles, with a castling piece.
        self.castles = variant.castling and bool(variant.castling_piece)
        self.castling_piece = variant.castling_piece or "k"
        self.castling_rook = variant.castling_rook or ""
        piece, rook = variant.castling_piece or "", variant.castling_rook or ""
        self.castling_letters = ((piece.upper(), rook.upper()), (piece, rook))  # (castling piece, rook) a side

        white, black = variant.armies
        self.royal = variant.royal
        self.royal_count = (white.royal_count, black.royal_count)
        self.max_pieces = (white.max_pieces, black.max_pieces)
        self.max_pawns = (white.max_pawns, black.max_pawns)
        self.pawns_on_first_rank = (white.pawns_on_first_rank, black.pawns_on_first_rank)
        # The squares where each side's pawns may not stand: the last rank, and the first
        # unless the army allows it (Horde's White).
        tables = tables_for(geometry)
        first, last = tables.first_rank, tables.last_rank
        self.no_pawns = (
            last | (0 if white.pawns_on_first_rank else first),
            first | (0 if black.pawns_on_first_rank else last),
        )
        # (colour, the letter as that side writes it, its cap) for each kind an army caps.
        self.kind_caps = tuple(
            (colour, letter.upper() if colour == 0 else letter, cap)
            for colour, army in enumerate(variant.armies)
            for letter, cap in army.max_by_kind
        )

        twists = variant.twists
        self.drops = Twist.POCKETS in twists
        # Per colour: True for a side whose pawns never step two squares.
        never = Twist.NO_PAWN_DOUBLE_STEP in twists
        self.no_double_step = tuple(never or not army.pawn_double_step for army in variant.armies)
        self.no_en_passant = Twist.NO_EN_PASSANT in twists
        self.kings = king_rule_for(twists)
        self.placement = Twist.PLACEMENT in twists


_RULES: Final = IdentityCache(VariantRules)  # variant -> its VariantRules


def rules_for(variant: Variant) -> VariantRules:
    """The rules of ``variant``, built on first use and kept."""
    found: VariantRules = _RULES.get(variant)
    return found
