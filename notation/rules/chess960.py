"""When a setup counts as Chess960 (``is_chess960``), and which rights Chess960 rules keep.

The FEN reader and writer use ``is_chess960`` to keep a position's Chess960 nature (X-FEN
file letters, the ``detected`` dialect), and the validator to pick how it judges castling
rights. Nothing here reports a right as illegal (that is ``notation.validation``), and
nothing raises.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Sequence
from typing import Final

from notation.identity_cache import IdentityCache
from notation.rules.bitboard import ByColour, squares
from notation.variants import Variant

Board = Sequence["str | None"]  # Setup.cells (or Setup.board): a1 = 0, rank by rank


@functools.lru_cache(maxsize=64)
def start_squares(
    start_fen: str, piece: str, rook: str, files: int = 8, ranks: int = 8
) -> tuple[ByColour, ByColour]:
    """Bitboards ``(castling pieces, rooks)``, each a (white, black) pair, of the back-rank
    squares where ``piece`` and ``rook`` stand in the start array ``start_fen``.

    Pass ``Variant.start_fen``, ``Variant.castling_piece`` and ``Variant.castling_rook``, and
    the board's ``files`` and ``ranks`` (plain values, so the cache needs no hashable
    variant). Raises nothing; a placement it cannot follow simply yields fewer squares.
    """
    placement = start_fen.split()[0].split("[")[0] if start_fen.split() else ""
    kings, rooks = [0, 0], [0, 0]
    last = ranks - 1
    for rank_index, rank_text in enumerate(placement.split("/")[:ranks]):
        rank = last - rank_index
        file = 0
        digits = ""
        for ch in rank_text + " ":  # the space ends a last run of digits
            if ch.isdigit():
                digits += ch  # runs of more than nine empty squares take two digits
                continue
            if digits:
                file += int(digits)
                digits = ""
            if ch in "~ ":
                continue
            colour = 0 if ch.isupper() else 1
            if file < files and rank == (0, last)[colour]:
                bit = 1 << (rank * files + file)
                if piece and ch.lower() == piece:
                    kings[colour] |= bit
                elif rook and ch.lower() == rook:
                    rooks[colour] |= bit
            file += 1
    return (kings[0], kings[1]), (rooks[0], rooks[1])


def chess960_good_rights(
    board: Board, rights: Collection[int], promoted: Collection[int], piece: str, rook: str, files: int = 8
) -> frozenset[int]:
    """The rights Chess960 rules keep: on its side's back rank, naming an unpromoted
    ``rook`` of that side, whose side has exactly one unpromoted castling ``piece`` on the
    back rank, and the outermost right on its side of that piece (python-chess's
    ``clean_castling_rights`` with ``chess960=True``). ``files``: the board's width; its
    last rank is the last ``files`` squares of ``board``."""
    return frozenset(_good_rights(board, rights, promoted, (piece.upper(), piece), (rook.upper(), rook), files))


def _good_rights(
    board: Board, rights: Collection[int], promoted: Collection[int], royal: tuple[str, ...],
    rook: tuple[str, ...], files: int,
) -> list[int]:
    """``chess960_good_rights`` with each side's letters given, (White's, Black's): the
    rights kept, in no order. (Asked for every setup whose rights need judging: on a str
    board no letter is made upper case, and no list or set made a side.)"""
    good: list[int] = []
    searchable = isinstance(board, str) and not promoted and len(royal[1]) == 1  # str.find, not a loop
    for colour in range(2):
        back = 0 if colour == 0 else len(board) - files
        end = back + files
        named = False
        for sq in rights:
            if back <= sq < end:
                named = True
                break
        if not named:
            continue
        royal_letter, rook_letter = royal[colour], rook[colour]
        if searchable:
            assert isinstance(board, str)
            king = board.find(royal_letter, back, end)
            if king < 0 or board.find(royal_letter, king + 1, end) >= 0:
                continue  # none, or more than one
        else:
            kings = [back + f for f in range(files) if board[back + f] == royal_letter and back + f not in promoted]
            if len(kings) != 1:
                continue
            king = kings[0]
        west = east = -1  # the outermost named rook on each side of the king
        for sq in rights:
            if not back <= sq < end or board[sq] != rook_letter or sq in promoted:
                continue
            if sq < king:
                west = sq if west < 0 else min(west, sq)
            elif sq > king:
                east = max(east, sq)
        if west >= 0:
            good.append(west)
        if east >= 0:
            good.append(east)
    return good


# The last question answered without promoted squares, and its answer: the reader, the
# validator and the writer ask about the same setup in turn. One tuple swapped whole, so
# concurrent callers never mix its parts; only an immutable board (a str) is kept. (In a
# list of one: compiled, a C static whose slot is swapped, not a global's dictionary entry.)
_LAST_ANSWER: Final[list[tuple[str, frozenset[int], Variant, bool] | None]] = [None]


def is_chess960(board: Board, rights: Collection[int], promoted: Collection[int], variant: Variant) -> bool:
    """Whether a setup counts as Chess960: some right that Chess960 rules keep names a rook
    off its side's start-array rook squares (the a/h corners in the standard array), or
    belongs to a side whose castling piece stands off its start-array square (e1/e8).

    The start squares are read from ``variant.start_fen``, the pieces are its
    ``castling_piece`` and ``castling_rook``: this is python-chess's
    ``has_chess960_castling_rights`` for any variant (one without castling may still have
    rights written: they describe the same arrays, and the validator reports them).
    """
    if not rights:
        return False
    if promoted or not isinstance(board, str):
        return _judged(board, rights, promoted, variant)
    last = _LAST_ANSWER[0]
    if last is not None and last[2] is variant and last[0] == board and last[1] == rights:
        return last[3]
    answer = not _classical(board, rights, variant) and _judged(board, rights, (), variant)
    kept = rights if type(rights) is frozenset else frozenset(rights)  # a setup's own: not copied
    _LAST_ANSWER[0] = (board, kept, variant, answer)
    return answer


class StartArray:
    """Per variant, its start array as castling sees it: ``squares``, what ``start_squares``
    gives for it (castling pieces, rooks: each a (white, black) bitboard pair); ``rooks``,
    the rook squares of both sides as a set; ``homes``, each side's castling-piece
    squares; ``royal`` and ``rook_letters``, each side's castling-piece and rook letters
    (White's upper case); ``piece`` and ``rook``, the variant's castling piece and rook
    letters ("" where it names none); the board's ``files`` and ``size``. ``usable`` is
    False where the variant names no castling piece or rook. (Compiled, these are struct
    fields: the Variant's are dictionary look-ups.)"""

    __slots__ = ("usable", "squares", "rooks", "homes", "royal", "rook_letters", "piece", "rook", "files", "size")

    # Indexed by colour: tuples of any length (see ``notation.rules.bitboard.ByColour``).
    squares: tuple[ByColour, ByColour]
    homes: tuple[tuple[int, ...], ...]
    royal: tuple[str, ...]
    rook_letters: tuple[str, ...]

    def __init__(self, variant: Variant):
        piece, rook = variant.castling_piece or "", variant.castling_rook or ""
        geometry = variant.geometry
        self.usable = bool(piece and rook)
        kings, rooks = self.squares = start_squares(variant.start_fen, piece, rook, geometry.files, geometry.ranks)
        self.rooks = frozenset(squares(rooks[0] | rooks[1]))
        self.homes = (tuple(squares(kings[0])), tuple(squares(kings[1])))
        self.royal = (piece.upper(), piece)
        self.rook_letters = (rook.upper(), rook)
        self.piece, self.rook = piece, rook
        self.files = geometry.files
        self.size = geometry.size


_START_ARRAYS: Final = IdentityCache(StartArray)  # variant -> its StartArray


def start_array(variant: Variant) -> StartArray:
    """``variant``'s ``StartArray``, made once per variant object."""
    return _START_ARRAYS.get(variant)


def _classical(board: str, rights: Collection[int], variant: Variant) -> bool:
    """True when ``is_chess960`` is certainly False without judging the rights (no promoted
    squares): every right names a start-array rook square, and each side with a right has
    its castling piece on a start square. The classical ``KQkq`` of a game in progress
    costs a few look-ups instead of ``_judged``'s lists. False: ``_judged`` decides."""
    start = _START_ARRAYS.get(variant)
    if not start.usable or len(board) != start.size:
        return False
    rooks, files = start.rooks, start.files
    sides = 0  # bit 0: White has a right, bit 1: Black
    for sq in rights:
        if sq not in rooks:  # a set: a bitboard's test past 2**62 (h8) is long arithmetic
            return False
        sides |= 1 if sq < files else 2
    for colour in range(2):
        if sides >> colour & 1:
            royal = start.royal[colour]
            for sq in start.homes[colour]:  # a loop, not ``any`` of a generator: no generator made per setup
                if board[sq] == royal:
                    break
            else:
                return False
    return True


def _judged(board: Board, rights: Collection[int], promoted: Collection[int], variant: Variant) -> bool:
    start = start_array(variant)
    if not start.usable:
        return False
    files, size = start.files, start.size
    if len(board) != size:
        return False  # a board of another size: not a position of this variant
    good = _good_rights(board, rights, promoted, start.royal, start.rook_letters, files)
    if not good:
        return False
    start_rooks = start.squares[1]
    for square in good:
        colour = 0 if square < files else 1
        royal = start.royal[colour]
        if not start_rooks[colour] >> square & 1:
            return True
        # start.homes: the squares of start_kings, all on the side's back rank
        at_home = False
        for sq in start.homes[colour]:
            if board[sq] == royal and sq not in promoted:
                at_home = True
                break
        if not at_home:
            return True
    return False
