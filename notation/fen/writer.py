"""Write a ``Setup`` as a FEN in any dialect (``WriteOptions``, usually from a profile).

The writer never drops information silently: where the chosen dialect cannot express
something the setup holds, the FEN is written as closely as it can be and a warning
``Problem`` says what was lost (codes ``lossy-checks``, ``lossy-promoted``,
``lossy-pockets``, ``lossy-castling``). En passant squares left out on purpose (``EnPassantMode``) are not
warnings: that is the mode's meaning. Nothing here validates the setup.
"""

from __future__ import annotations

import itertools
from typing import ClassVar, Final

from notation.errors import Problem
from notation.fen import opentafl
from notation.fen.bombs import bomb_field
from notation.fen.castling import outer_rook, xfen_letter
from notation.fen.profiles import DEFAULT_OPTIONS, WriteOptions
from notation.fen.ranks import placement_of_board, placement_of_cells
from notation.fen.spellings import respell
from notation.geometry import CHESS_BOARD
from notation.options import CastlingStyle, CheckStyle, PocketStyle, PositionNotation
from notation.records import Record
from notation.rules.chess960 import is_chess960
from notation.rules.en_passant import en_passant_square
from notation.rules.variant_rules import VariantRules, rules_for
from notation.setup import WHITE, Setup
from notation.variants import Variant

# Enum members bound once: reading a member off its class goes through EnumType's
# attribute hook, dearer than the test it serves when compiled code does it per FEN.
_OPENTAFL: Final = PositionNotation.OPENTAFL
_APPENDED: Final = PocketStyle.APPENDED
_BRACKETED: Final = PocketStyle.BRACKETED
_RANK_ZERO: Final = PocketStyle.RANK_ZERO
_REMAINING: Final = CheckStyle.REMAINING
_GIVEN: Final = CheckStyle.GIVEN
_SHREDDER: Final = CastlingStyle.SHREDDER
_XFEN: Final = CastlingStyle.XFEN


class WriteResult(Record):
    """The written FEN and what could not be expressed in the chosen dialect. A record
    (``notation.records``): it unpacks as ``fen, warnings``."""

    _NAMES: ClassVar = ("fen", "warnings")

    def __init__(self, fen: str, warnings: list[Problem]) -> None:
        self.fen: Final = fen
        self.warnings: Final = warnings


# A name compiled code reads per FEN, bound as Final: a C static, not a look-up in the module's
# dictionary (an imported object is not native to this module).
_CHESS_BOARD: Final = CHESS_BOARD


def write_fen(setup: Setup, variant: Variant, options: WriteOptions = DEFAULT_OPTIONS) -> WriteResult:
    """Write ``setup`` as a FEN of ``variant`` in the dialect ``options`` describe.

    ``options.notation`` ``OPENTAFL`` writes a tafl variant's setup as an OpenTafl position
    record (``notation.fen.opentafl``); other variants are written as FEN, as every profile
    writes every variant (the notation choice is the tafl games' alone, as the pocket
    style is Crazyhouse's).

    Raises nothing for an illegal setup (validate first if that matters); raises
    ``ValueError`` only for impossible values (a negative halfmove clock).
    """
    plan = rules_for(variant)
    if plan.tafl and options.notation is _OPENTAFL:
        return WriteResult(*opentafl.format_record(setup, variant))
    warnings: list[Problem] = []
    pockets_variant = plan.pockets
    style = options.pockets
    tilde = _promoted_marks(setup, plan, pockets_variant and style is not _APPENDED, warnings)
    if setup.pockets and not pockets_variant:
        warnings.append(
            Problem("lossy-pockets", f"{plan.name} has no pockets; the pocket was dropped", field="pockets")
        )

    parts = [_placement(setup, tilde)]
    if pockets_variant:
        pocket = _pocket_letters(setup)
        if style is _BRACKETED:
            parts[0] += f"[{pocket}]" if pocket else options.empty_pocket.value
        elif style is _RANK_ZERO:
            parts[0] += "/" + pocket
    parts.append("w" if setup.turn == WHITE else "b")
    parts.append(_castling(setup, variant, plan, options, warnings))
    ep = en_passant_square(setup, variant, options.en_passant)
    parts.append(setup.geometry.square_names[ep] if ep is not None else "-")

    counters = plan.check_counters
    checks_to_win = plan.checks_to_win
    remaining = setup.remaining_checks or (checks_to_win, checks_to_win)
    if counters and options.checks is _REMAINING:
        parts.append(f"{remaining[0]}+{remaining[1]}")
    if setup.halfmove < 0 or setup.fullmove < 0:
        raise ValueError("move counters cannot be negative")
    parts.append(str(setup.halfmove))
    parts.append(str(setup.fullmove))
    if counters and options.checks is _GIVEN:
        parts.append(_checks_given(remaining, checks_to_win, warnings))
    if pockets_variant and style is _APPENDED:
        parts.append(_pocket_letters(setup) or "-")
        square_names = setup.geometry.square_names
        parts.append("".join(square_names[sq] for sq in sorted(setup.promoted)) or "-")
    if plan.bombs:  # itsyourturn Atomic: the bomb field (notation.fen.bombs)
        parts.append(bomb_field(setup.bombs))
    elif setup.bombs is not None and setup.bombs != (None, None):
        warnings.append(Problem("lossy-bombs", f"{plan.name} has no bombs; they were dropped", field="bombs"))
    if plan.spellings:
        fen, lost = respell(" ".join(parts), variant, options.letters, options.sides, options.layout)
        return WriteResult(fen, warnings + lost)
    return WriteResult(" ".join(parts), warnings)


def _promoted_marks(setup: Setup, plan: VariantRules, tilde: bool, warnings: list[Problem]) -> bool:
    """Whether promoted pieces are marked with ``~`` (``tilde``: the dialect would); a
    ``lossy-promoted`` warning added to ``warnings`` where marks are dropped."""
    if setup.promoted and not plan.pockets:
        warnings.append(
            Problem(
                "lossy-promoted",
                f"{plan.name} FENs do not mark promoted pieces; the marks were dropped",
                field="placement",
            )
        )
        return False
    if tilde and any(setup.cells[sq] == "." for sq in setup.promoted):
        warnings.append(
            Problem(
                "lossy-promoted",
                "promoted marks on empty squares cannot be written with '~'; they were dropped",
                field="placement",
            )
        )
    return tilde


def _checks_given(remaining: tuple[int, int], checks_to_win: int, warnings: list[Problem]) -> str:
    """The checks-given field ``+W+B``; a ``lossy-checks`` warning added to ``warnings``
    for a count it cannot express (written clamped)."""
    given = []
    for side, left in zip(("White", "Black"), remaining, strict=True):
        count = checks_to_win - left
        if not 0 <= count <= checks_to_win:
            written = max(0, min(count, checks_to_win))
            warnings.append(
                Problem(
                    "lossy-checks",
                    f"{side} has {left} checks remaining, which checks-given notation "
                    f"(+W+B out of {checks_to_win}) cannot express; wrote {written}",
                    field="checks",
                )
            )
            count = written
        given.append(count)
    return f"+{given[0]}+{given[1]}"


_RUNS = tuple(("." * n, str(n)) for n in range(8, 0, -1))


_NO_MARKS: Final[frozenset[int]] = frozenset()


def _placement(setup: Setup, tilde: bool) -> str:
    cells = setup.cells
    geometry = setup.geometry
    marks = setup.promoted if tilde else _NO_MARKS
    if geometry is not _CHESS_BOARD and not geometry.is_chess_board:
        return placement_of_board(cells, geometry, marks)
    if marks:
        return _placement_with_marks(cells, marks)
    return placement_of_cells(cells)


def _placement_with_marks(cells: str, promoted: frozenset[int]) -> str:
    ranks = []
    for rank_start in range(56, -1, -8):
        out = []
        for square in range(rank_start, rank_start + 8):
            out.append(cells[square])
            if square in promoted and cells[square] != ".":
                out.append("~")
        ranks.append("".join(out))
    text = "/".join(ranks)
    for run, digit in _RUNS:
        if run in text:
            text = text.replace(run, digit)
    return text


_CORNERS = (7, 0, 63, 56)  # the 8x8 board's corners, in the order their rights are written


def _corner_rights(letters: dict[int, str]) -> dict[frozenset[int], tuple[str, tuple[tuple[int, str], ...]]]:
    """Every set of rights naming corners of the 8x8 board, mapped to its text in the style
    of ``letters`` (a letter per corner) and the (square, rook) pairs it needs: with a rook
    in each named corner, each right names the outermost rook on its side, so the letters
    need no search."""
    table = {}
    for count in range(1, len(_CORNERS) + 1):
        for corners in itertools.combinations(_CORNERS, count):
            rooks = tuple((sq, "R" if sq < 8 else "r") for sq in corners)
            table[frozenset(corners)] = ("".join(letters[sq] for sq in corners), rooks)
    return table


# Per castling style (chosen with ``is``: a dict keyed by the enum would run Enum.__hash__,
# Python code, per FEN). Looked up by the setup's rights: a frozenset keeps its hash.
_XFEN_CORNER_RIGHTS: Final = _corner_rights({7: "K", 0: "Q", 63: "k", 56: "q"})
_SHREDDER_CORNER_RIGHTS: Final = _corner_rights({7: "H", 0: "A", 63: "h", 56: "a"})


def _rooks_stand(board: str, rooks: tuple[tuple[int, str], ...]) -> bool:
    """Whether each (square, rook letter) of ``rooks`` is on ``board``."""
    for sq, rook in rooks:
        if board[sq] != rook:
            return False
    return True


def _pocket_letters(setup: Setup) -> str:
    pockets = setup.pockets
    if not pockets:
        return ""
    return pockets.white.upper() + pockets.black


def _castling(
    setup: Setup, variant: Variant, plan: VariantRules, options: WriteOptions, warnings: list[Problem]
) -> str:
    if not setup.castling:
        return "-"
    king_letter = plan.castling_piece
    board = setup.cells
    # A random_start variant (Chess960) is always played in Chess960 mode: programs with a
    # 960 style use it even for the classical array (Fairy-Stockfish writes HAha there).
    style = options.castling
    if options.castling_960 is not style and (
        plan.random_start or is_chess960(board, setup.castling, setup.promoted, variant)
    ):
        style = options.castling_960
    geometry = setup.geometry
    if geometry is _CHESS_BOARD or geometry.is_chess_board:
        corners = (_SHREDDER_CORNER_RIGHTS if style is _SHREDDER else _XFEN_CORNER_RIGHTS).get(setup.castling)
        if corners is not None and _rooks_stand(board, corners[1]):
            return corners[0]
    out = []
    width, file_names = geometry.files, geometry.file_names
    black_back = geometry.size - width
    for back, rook, king in ((0, "R", king_letter.upper()), (black_back, "r", king_letter)):
        rights = sorted((sq for sq in setup.castling if back <= sq < back + width), reverse=True)
        if not rights:
            continue
        for square in rights:
            letter = file_names[square - back]
            if style is _XFEN:
                letter = xfen_letter(board, back, rook, king, square, width) or letter
            if letter == "k" and outer_rook(board, back, rook, king, True, width) != square:
                # Eleven files or more: the k-file's letter is read as K, the outermost rook
                # on the king's side, so this right has no letter of its own.
                name = geometry.square_names[square]
                warnings.append(
                    Problem(
                        "lossy-castling",
                        f"the castling right on {name} cannot be written: K names the outermost rook on the "
                        "king's side, not the k-file; it was dropped",
                        field="castling",
                    )
                )
                continue
            out.append(letter.upper() if back == 0 else letter)
    return "".join(out) or "-"
