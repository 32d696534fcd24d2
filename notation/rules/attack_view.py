"""The attack view (``AttackView``): the bitboards of a ``Setup`` as its variant's rules see them.

Built once per setup (``attack_view_of`` keeps the last one, so the validator and the writer
share it); not a legal position (``notation.game``'s ``ChessPosition`` is one). Pieces are
grouped by how they attack (``Movement``), taken from the variant's ``pieces``; royal pieces
come from ``Variant.royal``. Colours are indices: 0 White, 1 Black.
A letter the variant does not know occupies its square but attacks nothing (the reader
reports such letters). Compiled (mypyc), an 8x8 board's bitboards are read a rank at a
time in machine integers (``_half_board``); interpreted, and on other boards, ``Setup.cells`` is
translated, as bytes, to 0/1 per group and read as a binary number: a handful of C calls
instead of a loop (tests/rules/test_rules_attacks.py holds both to the registry).
The board is the setup's ``geometry``: bit ``n`` is square ``n`` on any size, and
``AttackView.tables`` holds that board's attack tables (``notation.rules.attacks.tables_for``).
Every board's bitboards are plain ints (a 9x10 board's do not fit a machine word). On 8x8
``attackers`` looks attacks up where the move generator does, on square-set words
(``notation.rules.chess_attacks``, converted by ``notation.rules.square_set``): compiled,
the groups' words are kept from reading the board rank by rank, so a king's attackers
are found without a Python int past 2**62 (g8 and h8), whose every operation would be
CPython's long arithmetic; interpreted, the plain ints are looked up in the 8x8 tables.
Other boards get a ``BoardAttackView``, the same bitboards with attacks looked up in their
own tables.
Nothing here judges legality; nothing raises on a Setup whose cells fit its geometry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from librt.strings import read_i64_le

from notation.geometry import CHESS_BOARD
from notation.identity_cache import IdentityCache
from notation.rules import chess_attacks
from notation.rules.attacks import (
    BISHOP_PSEUDO,
    CHESS_TABLES,
    KING_ATTACKS,
    KNIGHT_ATTACKS,
    PAWN_ATTACKS,
    ROOK_PSEUDO,
    Tables,
    tables_for,
)
from notation.rules.bitboard import ByColour, square_count
from notation.rules.chess_attacks import BISHOP_PSEUDO as BISHOP_PSEUDO_WORDS
from notation.rules.chess_attacks import KING as KING_WORDS
from notation.rules.chess_attacks import KNIGHT as KNIGHT_WORDS
from notation.rules.chess_attacks import PAWN as PAWN_WORDS
from notation.rules.chess_attacks import ROOK_PSEUDO as ROOK_PSEUDO_WORDS
from notation.rules.chess_attacks import bishop_attacks, rook_attacks
from notation.rules.square_set import count, first, from_word, to_word, up
from notation.rules.variant_rules import VariantRules, rules_for
from notation.setup import COMPILED, Setup
from notation.variants import Movement, Variant

if TYPE_CHECKING:  # compiled, a machine integer; interpreted, never looked up (an int)
    from mypy_extensions import i64

WHITE: Final = 0
BLACK: Final = 1
COLOUR_NAMES = ("white", "black")
# Module constants compiled code reads per FEN are Final: C statics, not dictionary look-ups.
_CHESS_BOARD: Final = CHESS_BOARD

# Attack groups: which bitboard of an attack view a movement adds its pieces to.
_GROUPS = {
    Movement.PAWN: ("pawns",),
    Movement.KNIGHT: ("knights",),
    Movement.KING: ("kings",),
    Movement.BISHOP: ("diagonal",),
    Movement.ROOK: ("orthogonal",),
    Movement.QUEEN: ("diagonal", "orthogonal"),
    Movement.GRASSHOPPER: ("hoppers",),
}
_GROUP_NAMES = ("pawns", "knights", "kings", "diagonal", "orthogonal", "hoppers")


def _table(letters: str) -> bytes:
    """A ``bytes.translate`` table sending ``letters`` to ``1`` and every other byte to ``0``."""
    table = bytearray(b"0" * 256)
    for ch in letters:
        table[ord(ch)] = 49
    return bytes(table)


_WHITE_TABLE: Final = _table("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_BLACK_TABLE: Final = _table("abcdefghijklmnopqrstuvwxyz")
_LETTER_TABLES = {chr(i): _table(chr(i)) for i in range(128) if chr(i).isalpha()}
_PAIR_TABLES: dict[str, bytes] = {}


class _PieceMap:
    """Per variant, computed once: how the attack view reads its cells (translate tables
    for each attack group and the royal pieces, a code per byte), and its ``rules``."""

    __slots__ = ("variant", "rules", "tables", "royal", "royal_is_kings", "codes", "no_pawn_words")

    no_pawn_words: tuple[i64, i64]

    def __init__(self, variant: Variant):
        self.variant = variant
        letters: dict[str, str] = {name: "" for name in _GROUP_NAMES}
        for kind in variant.pieces:
            for name in _GROUPS[kind.movement]:
                letters[name] += kind.letter
        # One table per group, in _GROUP_NAMES order; None for a group the variant lacks.
        self.tables = tuple(
            _table(letters[name].upper() + letters[name]) if letters[name] else None for name in _GROUP_NAMES
        )
        self.royal = _table(variant.royal.upper() + variant.royal) if variant.royal else None
        # Standard armies: the royal pieces are exactly the king-movers, one conversion saved.
        self.royal_is_kings = bool(variant.royal) and sorted(variant.royal) == sorted(letters["kings"])
        self.rules = rules_for(variant)
        # Per byte of a cell, the _CODE_* bits of its colour and attack groups: what the
        # compiled build reads a rank at a time instead of converting one text per group.
        codes = bytearray(256)
        codes[65:91] = bytes([_CODE_WHITE]) * 26  # A-Z
        codes[97:123] = bytes([_CODE_BLACK]) * 26  # a-z
        for bit, name in zip(_GROUP_CODES, _GROUP_NAMES, strict=True):
            for ch in letters[name]:
                codes[ord(ch)] |= bit
                codes[ord(ch.upper())] |= bit
        self.codes = bytes(codes)
        # The squares the rules forbid each side's pawns as words (read on 8x8 boards only:
        # made from the variant's board, an 8x8 setup's once validated).
        no_white, no_black = self.rules.no_pawns
        self.no_pawn_words = (to_word(no_white), to_word(no_black))


_NONE: Final[ByColour] = (0, 0)  # the (white, black) of a group the variant lacks
_UNREAD: Final[ByColour] = (-1, -1)  # a pair not yet made from the words (a bitboard is never negative)

# A cell's colour and attack groups as bits (_PieceMap.codes), the groups in _GROUP_NAMES
# order. Royal pieces other than the king-movers are converted apart (few variants).
_CODE_PAWNS: Final = 1
_CODE_KNIGHTS: Final = 2
_CODE_KINGS: Final = 4
_CODE_DIAGONAL: Final = 8
_CODE_ORTHOGONAL: Final = 16
_CODE_HOPPERS: Final = 32
_CODE_WHITE: Final = 64
_CODE_BLACK: Final = 128
_GROUP_CODES: Final = (_CODE_PAWNS, _CODE_KNIGHTS, _CODE_KINGS, _CODE_DIAGONAL, _CODE_ORTHOGONAL, _CODE_HOPPERS)

# One side's attack groups as square-set words: (pawns, knights, kings, diagonal,
# orthogonal, hoppers). Compiled, a tuple of machine words held in the view itself: no
# object is made for it.
GroupWords = tuple["i64", "i64", "i64", "i64", "i64", "i64"]


_PIECE_MAPS: Final = IdentityCache(_PieceMap)  # variant -> its _PieceMap


def _split(both: int, white: int) -> ByColour:
    """(white, black) of a group bitboard holding letters only."""
    ours = both & white
    return (ours, both ^ ours)


class AttackView:
    """The attack view of one setup: its bitboards. Every per-colour attribute is a pair
    ``(white, black)``. Compiled on 8x8, every pair (``colours``, ``pawns``, ``kings``,
    ``royal``, ``knights``, ``diagonal``, ``orthogonal``, ``hoppers``) and ``occupied`` are
    made from the groups' words when first read: the validators of most legal setups never
    read them (``attackers`` reads the words, and so do the counts: ``piece_count``,
    ``pawn_count``, ``royal_count``, ``royal_square``, ``forbidden_pawns`` and
    ``board_is_empty``; an impossible check, an en passant square, a pin, most variants'
    own rules and a Dark Chess view read the ints)."""

    __slots__ = (
        "setup", "variant", "turn", "_occupied", "_occupied_word", "_by_words", "_white_words", "_black_words",
        "_white_word", "_black_word", "_no_pawn_words", "_colours", "_letters", "_encoded", "_royal", "_pawns",
        "_kings", "_royal_by_words", "promoted", "rules", "tables", "placing", "_knights", "_diagonal",
        "_orthogonal", "_hoppers",
    )

    _letters: dict[str, int] | None
    _encoded: bytes | None
    _occupied_word: i64  # ``occupied`` as a square-set word (8x8), for ``attackers``' slider look-ups
    _by_words: bool  # whether ``attackers`` reads the groups' words (compiled, 8x8)
    _white_words: GroupWords  # White's groups as words, where ``_by_words``
    _black_words: GroupWords
    _white_word: i64  # White's squares as a word, where ``_by_words``
    _black_word: i64
    _no_pawn_words: tuple[i64, i64]  # the squares each side's pawns may not stand on, where ``_by_words``
    tables: Tables
    _royal_by_words: bool  # whether the royal pieces are the kings' words (compiled, 8x8, none promoted)
    # Read through the properties below: _UNREAD (-1 for ``_occupied``) until then where ``_by_words``.
    _occupied: int
    _colours: ByColour
    _pawns: ByColour
    _kings: ByColour
    _royal: ByColour
    _knights: ByColour
    _diagonal: ByColour
    _orthogonal: ByColour
    _hoppers: ByColour
    rules: VariantRules

    def __init__(self, setup: Setup, variant: Variant):
        pieces = _PIECE_MAPS.get(variant)
        self.setup = setup
        self.variant = variant
        geometry = setup.geometry
        self.tables = CHESS_TABLES if geometry is _CHESS_BOARD else tables_for(geometry)
        self.turn = WHITE if setup.turn == "w" else BLACK
        cells = setup.cells
        self._letters = None
        promoted = 0
        if setup.promoted:
            # Promotion marks count only on pieces a pawn can become in this variant: a ``~``
            # on a Crazyhouse king or pawn is ignored (python-chess does the same).
            promotions = pieces.rules.promotions
            for sq in setup.promoted:
                if cells[sq] in promotions:
                    promoted |= 1 << sq
        self.promoted = promoted
        if COMPILED and geometry is _CHESS_BOARD:
            self._encoded = None
            self._groups_by_rank(cells.encode(), pieces)
        else:
            self._groups_by_conversion(cells.encode()[::-1], pieces)
        rules = self.rules = pieces.rules
        # A placement phase lasts while a piece is left in hand: nobody has moved yet.
        self.placing = rules.placement and bool(setup.pockets)

    def _groups_by_rank(self, cells: bytes, pieces: _PieceMap) -> None:
        """Set the colour and group bitboards of 64 ``cells`` (a1 first), a rank at a time
        in two halves of 32 squares: compiled, each half's bitboards are machine integers,
        so a rank costs a few dozen instructions (interpreted, the conversions of
        ``_groups_by_conversion`` are faster)."""
        coded = cells.translate(pieces.codes)  # each cell's _CODE_* bits, by a loop in C
        # Each tuple: (pawns, knights, kings, diagonal, orthogonal, hoppers, white, black).
        low = _half_board(coded, 0)
        high = _half_board(coded, 32)
        white: i64 = low[6] | up(high[6], 32)
        black: i64 = low[7] | up(high[7], 32)
        self._white_word = white
        self._black_word = black
        self._colours = _UNREAD
        # Every set is split by colour as words and made a plain int when first read: no
        # long arithmetic for a set holding g8 or h8. ``attackers`` reads the words.
        occupied: i64 = white | black
        self._occupied = -1
        self._occupied_word = occupied
        self._no_pawn_words = pieces.no_pawn_words
        pawns: i64 = low[0] | up(high[0], 32)
        knights: i64 = low[1] | up(high[1], 32)
        kings: i64 = low[2] | up(high[2], 32)
        diagonal: i64 = low[3] | up(high[3], 32)
        orthogonal: i64 = low[4] | up(high[4], 32)
        hoppers: i64 = low[5] | up(high[5], 32)
        self._white_words = (
            pawns & white, knights & white, kings & white, diagonal & white, orthogonal & white, hoppers & white
        )
        self._black_words = (
            pawns & black, knights & black, kings & black, diagonal & black, orthogonal & black, hoppers & black
        )
        self._by_words = True
        self._pawns = self._kings = _UNREAD
        self._knights = self._diagonal = self._orthogonal = _UNREAD
        self._hoppers = _UNREAD if hoppers else _NONE
        if pieces.royal_is_kings and not self.promoted:
            self._royal_by_words = True  # the kings, none promoted: read off the words
            self._royal = _UNREAD
            return
        self._royal_by_words = False
        royal = pieces.royal
        self._set_royal(pieces, int(cells[::-1].translate(royal), 2) if royal and not pieces.royal_is_kings else 0)

    def _groups_by_conversion(self, encoded: bytes, pieces: _PieceMap) -> None:
        """Set the colour and group bitboards of ``encoded`` (the cells as bytes, last
        square first) by one conversion per group for both colours, split with the white
        mask: a handful of C calls, the faster way interpreted and on any board."""
        self._encoded = encoded
        self._by_words = self._royal_by_words = False
        # Never read here (``attackers`` reads the ints), but set: a literal, not a module
        # constant (compiled, a constant tuple of machine words read as not set).
        self._white_words = self._black_words = (0, 0, 0, 0, 0, 0)
        self._white_word = self._black_word = 0
        self._no_pawn_words = (0, 0)
        white = int(encoded.translate(_WHITE_TABLE), 2)
        black = int(encoded.translate(_BLACK_TABLE), 2)
        self._colours = (white, black)
        occupied = self._occupied = white | black
        self._occupied_word = to_word(occupied)  # bits past h8 dropped: only 8x8 boards read it
        # Each group as (white, black): ``ours`` is White's part, ``both ^ ours`` Black's.
        pawns, knights, kings, diagonal, orthogonal, hoppers = pieces.tables
        if pawns:
            both = int(encoded.translate(pawns), 2)
            ours = both & white
            self._pawns = (ours, both ^ ours)
        else:
            self._pawns = _NONE
        if knights:
            both = int(encoded.translate(knights), 2)
            ours = both & white
            self._knights = (ours, both ^ ours)
        else:
            self._knights = _NONE
        if kings:
            both = int(encoded.translate(kings), 2)
            ours = both & white
            self._kings = (ours, both ^ ours)
        else:
            self._kings = _NONE
        if diagonal:
            both = int(encoded.translate(diagonal), 2)
            ours = both & white
            self._diagonal = (ours, both ^ ours)
        else:
            self._diagonal = _NONE
        if orthogonal:
            both = int(encoded.translate(orthogonal), 2)
            ours = both & white
            self._orthogonal = (ours, both ^ ours)
        else:
            self._orthogonal = _NONE
        self._hoppers = _split(int(encoded.translate(hoppers), 2), white) if hoppers else _NONE
        royal = pieces.royal
        self._set_royal(pieces, int(encoded.translate(royal), 2) if royal and not pieces.royal_is_kings else 0)

    @property
    def colours(self) -> ByColour:
        found = self._colours
        if found[0] < 0:
            found = self._colours = (from_word(self._white_word), from_word(self._black_word))
        return found

    @property
    def occupied(self) -> int:
        found = self._occupied
        if found < 0:
            found = self._occupied = from_word(self._occupied_word)
        return found

    @property
    def pawns(self) -> ByColour:
        found = self._pawns
        if found[0] < 0:
            found = self._pawns = self._pair(0)
        return found

    @property
    def kings(self) -> ByColour:
        found = self._kings
        if found[0] < 0:
            found = self._kings = self._pair(2)
        return found

    @property
    def royal(self) -> ByColour:
        found = self._royal
        if found[0] < 0:
            found = self._royal = self.kings  # ``_royal_by_words``: the kings, none promoted
        return found

    def royal_count(self, colour: int) -> int:
        """The number of ``colour``'s royal pieces on the board."""
        if self._royal_by_words:
            return count(self._white_words[2] if colour == WHITE else self._black_words[2])
        return square_count(self._royal[colour])  # made at once where not read off the words

    def royal_square(self, colour: int) -> int:
        """The square of ``colour``'s one royal piece; -1 where it has none or several."""
        if self._royal_by_words:
            word: i64 = self._white_words[2] if colour == WHITE else self._black_words[2]
            return first(word) if count(word) == 1 else -1
        royal = self._royal[colour]  # made at once where not read off the words
        return royal.bit_length() - 1 if royal and not royal & (royal - 1) else -1

    def board_is_empty(self) -> bool:
        """Whether no piece stands on the board."""
        if self._by_words:
            return self._occupied_word == 0
        return not self._occupied

    def piece_count(self, colour: int) -> int:
        """The number of ``colour``'s pieces on the board."""
        if self._by_words:
            return count(self._white_word if colour == WHITE else self._black_word)
        return square_count(self._colours[colour])

    def pawn_count(self, colour: int) -> int:
        """The number of ``colour``'s pawns (the pawn group's pieces) on the board."""
        if self._by_words:
            return count(self._white_words[0] if colour == WHITE else self._black_words[0])
        return square_count(self._pawns[colour])

    def forbidden_pawns(self) -> int:
        """White's pawns on the squares the rules forbid White's (``VariantRules.no_pawns``)
        and Black's on Black's."""
        if self._by_words:
            no_white, no_black = self._no_pawn_words
            wrong: i64 = (self._white_words[0] & no_white) | (self._black_words[0] & no_black)
            return from_word(wrong) if wrong else 0
        no_white_squares, no_black_squares = self.rules.no_pawns
        white, black = self._pawns
        return white & no_white_squares | black & no_black_squares

    @property
    def knights(self) -> ByColour:
        found = self._knights
        if found[0] < 0:
            found = self._knights = self._pair(1)
        return found

    @property
    def diagonal(self) -> ByColour:
        found = self._diagonal
        if found[0] < 0:
            found = self._diagonal = self._pair(3)
        return found

    @property
    def orthogonal(self) -> ByColour:
        found = self._orthogonal
        if found[0] < 0:
            found = self._orthogonal = self._pair(4)
        return found

    @property
    def hoppers(self) -> ByColour:
        found = self._hoppers
        if found[0] < 0:
            found = self._hoppers = self._pair(5)
        return found

    def _pair(self, group: int) -> ByColour:
        """(white, black) of the ``group``-th of ``GroupWords``, made from the words."""
        return (from_word(self._white_words[group]), from_word(self._black_words[group]))

    def _set_royal(self, pieces: _PieceMap, royal: int) -> None:
        """Set ``royal`` from the kings (where they are the royal pieces) or from ``royal``,
        the squares of royal letters of both colours. A promoted royal piece (a king made
        from a pawn where kings may be promoted) is not the original royal piece;
        Crazyhouse marks are honoured the same way."""
        promoted = self.promoted
        if pieces.royal_is_kings:
            kings = self.kings
            self._royal = kings if not promoted else (kings[0] & ~promoted, kings[1] & ~promoted)
        elif pieces.royal:
            self._royal = _split(royal & ~promoted, self.colours[0])
        else:
            self._royal = _NONE

    def _reversed_cells(self) -> bytes:
        """The cells as bytes, last square first: binary digits read most significant first."""
        encoded = self._encoded
        if encoded is None:
            encoded = self._encoded = self.setup.cells.encode()[::-1]
        return encoded

    def pair_bb(self, letter: str) -> tuple[int, int]:
        """(white, black) squares of a piece letter of either case, in one conversion."""
        lower = letter.lower()
        if self._letters is None:
            self._letters = {}
        found = self._letters.get(lower + "*")
        if found is None:
            table = _LETTER_TABLES.get(lower)
            if table is None:
                return (0, 0)
            both_table = _PAIR_TABLES.get(lower)
            if both_table is None:
                both_table = _PAIR_TABLES[lower] = _table(lower + lower.upper())
            found = int(self._reversed_cells().translate(both_table), 2)
            self._letters[lower + "*"] = found
        return (found & self.colours[0], found & self.colours[1])

    def letter_bb(self, letter: str) -> int:
        """Squares holding exactly this FEN letter."""
        if self._letters is None:
            self._letters = {}
        found = self._letters.get(letter)
        if found is None:
            table = _LETTER_TABLES.get(letter)
            found = int(self._reversed_cells().translate(table), 2) if table else 0
            self._letters[letter] = found
        return found

    def attackers(self, sq: int, colour: int, occupied: int | None = None) -> int:
        """Pieces of ``colour`` attacking ``sq`` given ``occupied`` (default: the board).

        Only pieces still in ``occupied`` count, so callers remove a captured piece by
        clearing its bit.
        """
        occ_word = self._occupied_word if occupied is None else to_word(occupied)
        if self._by_words:
            words = self._white_words if colour == WHITE else self._black_words
            return from_word(_word_attackers(words, sq, colour, occ_word) & occ_word)
        # Without the words the pairs were made at once (``_groups_by_conversion``): read as they are.
        occ = self._occupied if occupied is None else occupied
        found = (
            (KNIGHT_ATTACKS[sq] & self._knights[colour])
            | (KING_ATTACKS[sq] & self._kings[colour])
            | (PAWN_ATTACKS[colour ^ 1][sq] & self._pawns[colour])
        )
        # A slider off every line through ``sq`` cannot attack it: skip the table look-ups.
        # Sliders are looked up on square-set words (chess_attacks, as the move generator does).
        sliders = self._orthogonal[colour]
        if ROOK_PSEUDO[sq] & sliders:
            found |= from_word(rook_attacks(sq, occ_word)) & sliders
        sliders = self._diagonal[colour]
        if BISHOP_PSEUDO[sq] & sliders:
            found |= from_word(bishop_attacks(sq, occ_word)) & sliders
        hoppers = self._hoppers[colour]
        if hoppers:
            found |= from_word(chess_attacks.hopper_attackers(sq, occ_word, to_word(hoppers)))
        return found & occ


class BoardAttackView(AttackView):
    """An attack view on a board other than 8x8: ``attackers`` looks up this board's tables."""

    __slots__ = ()

    def attackers(self, sq: int, colour: int, occupied: int | None = None) -> int:
        occ = self._occupied if occupied is None else occupied
        tables = self.tables
        found = (  # the pairs were made at once on this board (``_groups_by_conversion``)
            (tables.knight[sq] & self._knights[colour])
            | (tables.king[sq] & self._kings[colour])
            | (tables.pawn[colour ^ 1][sq] & self._pawns[colour])
        )
        sliders = self._orthogonal[colour]
        if tables.rook_pseudo[sq] & sliders:
            found |= tables.rook_attacks(sq, occ) & sliders
        sliders = self._diagonal[colour]
        if tables.bishop_pseudo[sq] & sliders:
            found |= tables.bishop_attacks(sq, occ) & sliders
        if self._hoppers[colour]:
            found |= hopper_attackers(sq, occ, self._hoppers[colour], tables)
        return found & occ


def _half_board(coded: bytes, start: i64) -> tuple[i64, i64, i64, i64, i64, i64, i64, i64]:
    """(pawns, knights, kings, diagonal, orthogonal, hoppers, white, black) of the 32 squares
    from ``start`` of ``coded`` (each square's ``_CODE_*`` bits), as bitboards whose bit 0 is
    square ``start``. Black is every square whose code is not 0 and not White's.
    A rank's eight codes are read as one word (its a-file square the lowest byte) and the
    word is transposed as a matrix of eight rows of eight bits: then byte k holds bit k of
    every square's code, a group's eight squares. No loop or branch per square. Compiled,
    every value here is a machine integer, and no shift reaches the sign bit."""
    pawns: i64 = 0
    knights: i64 = 0
    kings: i64 = 0
    diagonal: i64 = 0
    orthogonal: i64 = 0
    hoppers: i64 = 0
    white: i64 = 0
    black: i64 = 0
    at: i64 = start
    shift: i64 = 0
    while shift < 32:
        groups: i64 = read_i64_le(coded, at)
        # The transpose (Hacker's Delight, "transpose8"): swap the bits across the diagonal
        # of each 2x2 block, then of each 4x4 block of 2x2 blocks, then of the two 4x4 halves.
        swapped: i64 = (groups ^ groups >> 7) & 0x00AA00AA00AA00AA
        groups = groups ^ swapped ^ swapped << 7
        swapped = (groups ^ groups >> 14) & 0x0000CCCC0000CCCC
        groups = groups ^ swapped ^ swapped << 14
        swapped = (groups ^ groups >> 28) & 0x00000000F0F0F0F0
        groups = groups ^ swapped ^ swapped << 28
        # A square is occupied where any bit of its code is: the eight bytes OR-ed together.
        occupied: i64 = groups | groups >> 32
        occupied |= occupied >> 16
        occupied |= occupied >> 8
        whites: i64 = groups >> 48 & 0xFF
        pawns |= (groups & 0xFF) << shift
        knights |= (groups >> 8 & 0xFF) << shift
        kings |= (groups >> 16 & 0xFF) << shift
        diagonal |= (groups >> 24 & 0xFF) << shift
        orthogonal |= (groups >> 32 & 0xFF) << shift
        hoppers |= (groups >> 40 & 0xFF) << shift
        white |= whites << shift
        black |= ((occupied & 0xFF) ^ whites) << shift
        at += 8
        shift += 8
    return (pawns, knights, kings, diagonal, orthogonal, hoppers, white, black)


def _word_attackers(words: GroupWords, sq: int, colour: int, occupied: i64) -> i64:
    """``AttackView.attackers`` on the 8x8 board's words: the pieces of ``words``, the
    groups of ``colour``, attacking ``sq`` (those off ``occupied`` too: the caller masks
    them)."""
    found: i64 = (
        (KNIGHT_WORDS[sq] & words[1])
        | (KING_WORDS[sq] & words[2])
        | (PAWN_WORDS[colour ^ 1][sq] & words[0])
    )
    # A slider off every line through ``sq`` cannot attack it: skip the look-ups.
    sliders: i64 = words[4]
    if ROOK_PSEUDO_WORDS[sq] & sliders:
        found |= rook_attacks(sq, occupied) & sliders
    sliders = words[3]
    if BISHOP_PSEUDO_WORDS[sq] & sliders:
        found |= bishop_attacks(sq, occupied) & sliders
    if words[5]:
        found |= chess_attacks.hopper_attackers(sq, occupied, words[5])
    return found


def hopper_attackers(sq: int, occupied: int, hoppers: int, tables: Tables = CHESS_TABLES) -> int:
    """Grasshoppers among ``hoppers`` that attack ``sq``: each sits behind a hurdle next to it
    (any board; ``chess_attacks.hopper_attackers`` is the 8x8 board's on words)."""
    found = 0
    beyond_of = tables.beyond
    for d in range(8):
        next_to = beyond_of[d][sq]
        if next_to & occupied:
            beyond = tables.hurdle(d, next_to.bit_length() - 1, occupied)
            if beyond >= 0 and hoppers >> beyond & 1:
                found |= 1 << beyond
    return found


# The last attack view built (it holds its setup and variant), in a list of one: compiled,
# the list is a C static and its slot is swapped whole, where a global would be a
# dictionary write per FEN.
_LAST: Final[list[AttackView | None]] = [None]


def attack_view_of(setup: Setup, variant: Variant) -> AttackView:
    """The attack view of ``setup``; the last one built is reused for the same objects.

    The cache is one view swapped whole, so concurrent callers never mix entries.
    """
    last = _LAST[0]
    if last is not None and last.setup is setup and last.variant is variant:
        return last
    geometry = setup.geometry
    if geometry is _CHESS_BOARD or geometry.is_chess_board:
        view = AttackView(setup, variant)
    else:
        view = BoardAttackView(setup, variant)
    _LAST[0] = view
    return view
