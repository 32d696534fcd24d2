"""A player's view of a position in a variant with the ``FOG`` twist (Dark Chess): what one
side sees, written and read as a FEN with unseen squares marked ``?``.

A side sees a square (the itsyourturn variants page's three rules) when it has a piece
there; when one of its pieces can move there: empty squares it can move to and enemy
pieces it can capture (a pawn's double step onto an empty square, the castling king's and
rook's squares when the squares between are empty, an enemy pawn it can take en passant);
and when the square is directly in front of one of its pawns or diagonally in front of it.
There is no check under ``FOG`` (``NO_CHECK``), so every such move counts, pins and
attacked squares included.

A view FEN is a FEN whose placement marks each unseen square with one ``?`` (never
counted into the digits: ``?`` is one square, ``3?4`` a full rank). The other fields are
the viewer's: the side to move and the move counters as they are, the viewer's own
castling rights only, and the en passant square only when the viewer is to move and can
take there. Reading a view checks what a view can show (``validate_view``): the shown
squares are exactly those the viewer's pieces see, the viewer's army and rights are
legal, nothing is claimed about the other side's hidden pieces.

Raises ``NoViewError`` (code ``no-view``) for a variant without fog or a setup in its
placement phase (nobody sees the other side's pieces until both are set up, which a
``?`` per square cannot say), ``FenSyntaxError`` for a view FEN that cannot be read.
Nothing here judges the full position: validate it first.
"""

from __future__ import annotations

from dataclasses import dataclass

from notation.errors import NotationError, Problem
from notation.fen.profiles import DEFAULT_OPTIONS, WriteOptions
from notation.fen.reader import read_fen
from notation.fen.writer import write_fen
from notation.lean_enum import LeanEnum
from notation.options import EnPassantMode
from notation.rules.attack_view import AttackView
from notation.rules.attacks import KING_ATTACKS, KNIGHT_ATTACKS, PAWN_ATTACKS
from notation.rules.bitboard import squares
from notation.rules.chess_attacks import bishop_attacks, rook_attacks
from notation.rules.square_set import from_word, to_word
from notation.setup import BLACK, WHITE, Color, Setup
from notation.squares import square_name
from notation.validation import validate
from notation.variants import DEFAULT_REGISTRY, Registry, Twist, Variant

UNSEEN = "?"
# Codes ``validate_view`` takes from ``validate`` on the shown squares: those a view can
# judge. The royal count is judged for the viewer alone; checks do not exist under fog.
_VIEW_CODES = frozenset(
    {"empty", "too-many-kings", "too-many-pawns", "too-many-pieces", "pawns-on-backrank",
     "bad-castling-rights", "invalid-ep-square"}
)


class Viewer(LeanEnum):
    """The side whose view is wanted."""

    WHITE = "white"
    BLACK = "black"

    @property
    def colour(self) -> Color:
        return WHITE if self is Viewer.WHITE else BLACK

    @property
    def index(self) -> int:
        return 0 if self is Viewer.WHITE else 1


class NoViewError(NotationError):
    """No view can be made (code ``no-view``): the variant has no fog, or its pieces are
    still being placed."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__([Problem("no-view", message, field=field)])


@dataclass(frozen=True)
class View:
    """What ``viewer`` sees: ``setup`` holds the shown squares (unseen ones empty) and the
    viewer's fields; ``unseen`` the squares marked ``?``."""

    setup: Setup
    variant: Variant
    viewer: Viewer
    unseen: frozenset[int]


def _require_fog(variant: Variant, setup: Setup) -> None:
    if Twist.FOG not in variant.twists:
        raise NoViewError(f"{variant.name} has no hidden squares: a player sees the whole board")
    if Twist.PLACEMENT in variant.twists and setup.pockets:
        raise NoViewError(
            f"the pieces of this {variant.name} setup are still being placed, and nobody sees the other "
            "side's pieces until both are set up",
            field="pockets",
        )


def visible(setup: Setup, variant: Variant, viewer: Viewer, hidden: frozenset[int] = frozenset()) -> int:
    """The squares ``viewer`` sees, as a bitboard. Squares in ``hidden`` (a view's ``?``)
    count as held by an unseen enemy piece: they block and are never a pawn's step."""
    us = viewer.index
    if hidden:
        marker = _marker(variant, us)
        cells = list(setup.cells)
        for sq in hidden:
            cells[sq] = marker
        setup = setup.with_changes(cells="".join(cells))
    attack_view = AttackView(setup, variant)
    own = attack_view.colours[us]
    occupied = attack_view.occupied
    seen = own
    forward = 8 if us == 0 else -8
    for sq in squares(attack_view.pawns[us]):
        seen |= PAWN_ATTACKS[us][sq]  # the diagonals in front: seen, whatever stands there
        ahead = sq + forward
        if 0 <= ahead < 64:
            seen |= 1 << ahead
            two = ahead + forward
            if sq >> 3 == (1 if us == 0 else 6) and not occupied >> ahead & 1 and not occupied >> two & 1:
                seen |= 1 << two
    for sq in squares(attack_view.knights[us]):
        seen |= KNIGHT_ATTACKS[sq]
    for sq in squares(attack_view.kings[us]):
        seen |= KING_ATTACKS[sq]
    occupied_word = to_word(occupied)
    for sq in squares(attack_view.orthogonal[us]):
        seen |= from_word(rook_attacks(sq, occupied_word))
    for sq in squares(attack_view.diagonal[us]):
        seen |= from_word(bishop_attacks(sq, occupied_word))
    seen |= _castling_squares(setup, variant, us, occupied)
    seen |= _en_passant_victim(setup, attack_view, us)
    return seen


def _marker(variant: Variant, us: int) -> str:
    """A letter no piece of ``variant`` has, in the enemy's case: an unseen enemy piece."""
    letter = next(ch for ch in "xzywvutsj" if ch not in variant.piece_letters)
    return letter if us == 0 else letter.upper()


def _castling_squares(setup: Setup, variant: Variant, us: int, occupied: int) -> int:
    """Where the castling piece and rook of ``us`` land, for each right whose path is clear."""
    back = 0 if us == 0 else 56
    piece = variant.castling_piece.upper() if us == 0 else variant.castling_piece
    kings = [sq for sq in range(back, back + 8) if setup.cells[sq] == piece]
    if not variant.castling or len(kings) != 1:
        return 0
    king = kings[0]
    seen = 0
    for rook in setup.castling:
        if rook & 56 != back:
            continue
        king_to, rook_to = (back + 6, back + 5) if rook > king else (back + 2, back + 3)
        span = range(min(king, rook, king_to, rook_to), max(king, rook, king_to, rook_to) + 1)
        if all(sq in (king, rook) or not occupied >> sq & 1 for sq in span):
            seen |= (1 << king_to) | (1 << rook_to)
    return seen


def _en_passant_victim(setup: Setup, attack_view: AttackView, us: int) -> int:
    """The enemy pawn ``us`` can take en passant, when ``us`` is to move and a pawn can."""
    ep = setup.ep_square
    if ep is None or attack_view.turn != us or attack_view.occupied >> ep & 1:
        return 0
    pushed = ep - 8 if us == 0 else ep + 8
    if not 0 <= pushed < 64 or not attack_view.pawns[us ^ 1] >> pushed & 1:
        return 0
    return 1 << pushed if PAWN_ATTACKS[us ^ 1][ep] & attack_view.pawns[us] else 0


def view_of(setup: Setup, variant: Variant | str, viewer: Viewer, *, registry: Registry = DEFAULT_REGISTRY) -> View:
    """What ``viewer`` sees of the full position ``setup``; raises ``NoViewError``."""
    found = registry.find(variant)
    _require_fog(found, setup)
    seen = visible(setup, found, viewer)
    us = viewer.index
    cells = "".join(cell if seen >> sq & 1 else "." for sq, cell in enumerate(setup.cells))
    own_rights = frozenset(sq for sq in setup.castling if (sq < 8) == (us == 0))
    ep = setup.ep_square if _en_passant_victim(setup, AttackView(setup, found), us) else None
    shown = setup.with_changes(cells=cells, castling=own_rights, ep_square=ep, promoted=frozenset())
    unseen = frozenset(sq for sq in range(64) if not seen >> sq & 1)
    return View(shown, found, viewer, unseen)


def write_view(view: View, options: WriteOptions = DEFAULT_OPTIONS) -> str:
    """The view as a FEN, unseen squares ``?`` (en passant written as the view has it)."""
    cells = "".join(UNSEEN if sq in view.unseen else cell for sq, cell in enumerate(view.setup.cells))
    marked = view.setup.with_changes(cells=cells)
    return write_fen(marked, view.variant, options.but(en_passant=EnPassantMode.ALWAYS)).fen


def read_view(text: str, variant: Variant | str, viewer: Viewer, *, registry: Registry = DEFAULT_REGISTRY) -> View:
    """Read a view FEN (``?`` for unseen squares; a full FEN is a view that sees nothing
    hidden). Raises ``FenSyntaxError`` (field and column as for any FEN),
    ``UnknownVariantError`` and ``NoViewError``; does not judge it (``validate_view``)."""
    found = registry.find(variant)
    if not isinstance(text, str):
        raise TypeError(f"a view FEN is a str, not {type(text).__name__}")
    start = len(text) - len(text.lstrip())
    end = len(text)
    for stop in (" ", "\t", "["):
        index = text.find(stop, start)
        if index >= 0:
            end = min(end, index)
    board = text[start:end]
    # ``?`` stands for one square, as ``1`` does: the reader then checks every rank's width
    # and reports columns that are the view's own.
    parsed = read_fen(text[:start] + board.replace(UNSEEN, "1") + text[end:], found, registry=registry)
    _require_fog(found, parsed.setup)
    unseen = set()
    rank, file = 7, 0
    for ch in board:
        if ch == "/":
            rank, file = rank - 1, 0
        elif ch == UNSEEN:
            unseen.add(rank * 8 + file)
            file += 1
        elif ch.isdigit():
            file += int(ch)
        elif ch != "~":
            file += 1
    return View(parsed.setup, found, viewer, frozenset(unseen))


def validate_view(view: View) -> list[Problem]:
    """What is wrong with ``view`` as far as a view can tell: ``view-mismatch`` (a square
    shown that the viewer cannot see, or one it sees marked unseen, or fields that are
    not the viewer's), the viewer's ``missing-king`` (``king-captured`` when it is to
    move: a warning code), and the codes of ``validate`` that the shown squares decide.
    Raises nothing."""
    setup, variant, viewer = view.setup, view.variant, view.viewer
    us = viewer.index
    problems: list[Problem] = []
    seen = visible(setup, variant, viewer, view.unseen)
    shown = sum(1 << sq for sq in range(64) if sq not in view.unseen)
    hidden_but_seen = seen & ~shown
    shown_not_seen = shown & ~seen
    if shown_not_seen:
        names = ", ".join(square_name(sq) for sq in squares(shown_not_seen))
        problems.append(
            Problem("view-mismatch", f"{viewer.value} cannot see {names}; a view marks them '?'", field="placement")
        )
    if hidden_but_seen:
        names = ", ".join(square_name(sq) for sq in squares(hidden_but_seen))
        problems.append(
            Problem("view-mismatch", f"{viewer.value} sees {names}; a view shows them", field="placement")
        )
    theirs = [sq for sq in setup.castling if (sq < 8) != (us == 0)]
    if theirs:
        names = ", ".join(square_name(sq) for sq in sorted(theirs))
        problems.append(
            Problem(
                "view-mismatch",
                f"castling rights of the other side ({names}): a view keeps only {viewer.value}'s",
                field="castling",
            )
        )
    if setup.ep_square is not None and setup.turn != viewer.colour:
        problems.append(
            Problem(
                "view-mismatch",
                f"en passant square {square_name(setup.ep_square)} with the other side to move: "
                f"a view gives it only when {viewer.value} can take there",
                field="en-passant",
            )
        )
    # What the fields above already reported as not the viewer's is left out of the rest.
    own = setup.with_changes(
        castling=frozenset(sq for sq in setup.castling if sq not in theirs),
        ep_square=setup.ep_square if setup.turn == viewer.colour else None,
    )
    problems += [p for p in validate(own, variant) if p.code in _VIEW_CODES]
    royal = AttackView(setup, variant).royal[us]
    if variant.royal and not royal:
        if setup.turn == viewer.colour and Twist.NO_CHECK in variant.twists:
            message = f"{viewer.value} has no king and is to move: it was captured, the game is over"
            problems.append(Problem("king-captured", message, field="placement"))
        else:
            problems.append(Problem("missing-king", f"{viewer.value} has no king", field="placement"))
    return problems
