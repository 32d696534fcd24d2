"""The rules core: bitboards, attacks, check, pins and en passant for every registry variant.

Written for this project (the mature libraries for it are GPL). Everything is driven by
the registry's data (``Variant.pieces``, ``royal``, ``armies``, ``twists``), never by a
variant's name. Modules: ``bitboard`` (masks, square iteration), ``attacks`` (tables and
attack sets per ``Movement``), ``attack_view`` (the attack view: a Setup's bitboards),
``royal_attacks`` (attacks on royal pieces: checkers, pins), ``king_rules`` (what a twist
changes about kings: Atomic's touching kings, no check, Race), ``en_passant`` (plausible
and legal en passant).
"""

from notation.rules.attack_view import AttackView, attack_view_of
from notation.rules.en_passant import en_passant_square, legal_captures, plausible
from notation.rules.king_rules import kings_touch
from notation.rules.royal_attacks import checkers, pinned, pins

__all__ = [
    "AttackView",
    "attack_view_of",
    "checkers",
    "en_passant_square",
    "kings_touch",
    "legal_captures",
    "pinned",
    "pins",
    "plausible",
]
