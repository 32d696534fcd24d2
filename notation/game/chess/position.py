"""``ChessPosition``: a legal position of a chess-family variant, its legal moves, and the
position each move leads to.

Made once from a ``Setup`` that validation accepted (``notation.game.legal_position`` is
the one place that validates); every later position is made by playing a legal move, so
none holds an illegal state. The board is a bitboard per piece kind (``ChessRules``'s kind
indices, both colours; seven at most, each its own field) and one per colour, each a
square-set word (``notation.rules.square_set``). Positions are immutable values: ``play``
returns a new one. ``play`` raises ``ValueError`` for a move that is not legal here;
``play_legal`` trusts its caller (the move came from ``legal_moves``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from mypy_extensions import mypyc_attr

from notation.game.chess.generate import (
    add_castling_moves,
    count_moves,
    movement_targets,
    piece_moves_to,
    piece_origins,
    pseudo_legal_moves,
)
from notation.game.chess.rules import (
    DIAGONAL_GROUP,
    HOPPER_GROUP,
    KING_GROUP,
    KNIGHT_GROUP,
    ORTHOGONAL_GROUP,
    PAWN_GROUP,
    ChessRules,
    Safety,
    rules_of,
)
from notation.game.move import Move, MoveKind
from notation.game.outcome import EndReason, Outcome
from notation.move_options import CastlingMode
from notation.rules.chess_attacks import (
    BISHOP_PSEUDO,
    KING,
    KNIGHT,
    PAWN,
    ROOK_PSEUDO,
    bishop_attacks,
    hopper_attackers,
    rook_attacks,
)
from notation.rules.chess_lines import BETWEEN, LINE
from notation.rules.square_set import BIT, count, first, pop_square, several, squares
from notation.setup import Color, Pockets, Setup
from notation.variants import Movement, Stalemate, Variant

if TYPE_CHECKING:  # i64: compiled, a machine integer (notation.rules.square_set)
    from mypy_extensions import i64

# Bound once as C statics (compiled): an enum member read off its class is an attribute
# look-up through the enum's metaclass each time.
_NORMAL: Final = MoveKind.NORMAL
_CASTLE: Final = MoveKind.CASTLE
_EN_PASSANT: Final = MoveKind.EN_PASSANT
_DROP: Final = MoveKind.DROP
_NULL: Final = MoveKind.NULL
_DETONATE: Final = MoveKind.DETONATE
_PAWN: Final = Movement.PAWN
_SAFE_ANYWAY: Final = Safety.NONE
_COLOURS: tuple[Color, Color] = ("w", "b")
# The seven piece-kind boards a position is made with (an unboxed tuple when compiled).
Boards = tuple["i64", "i64", "i64", "i64", "i64", "i64", "i64"]


# Compiled: a position refers to no object that refers back to it (its rules, its moves,
# the position its last move led to), so the cycle collector never tracks it (``acyclic``),
# and the one freed last is made again in place (``free_list_len``): a walk frees one
# position a move and makes the next. Interpreted, the decorator does nothing.
@mypyc_attr(acyclic=True, free_list_len=1)
class ChessPosition:
    """A legal chess-family position. ``turn_index`` is 0 for White, 1 for Black;
    ``board(kind)`` the squares of that kind (both colours), ``side(colour)`` (or ``white``,
    ``black``) the squares of a colour's pieces, each a machine word (``pieces`` and
    ``colours`` give them as tuples, for code off the hot path);
    ``castling`` the squares of the rooks that keep a right; ``ep`` the en passant square
    or -1; ``pockets`` per colour a count per kind (None without pockets);
    ``checks`` the checks each side still has to give (None without counters); ``bombs``
    each side's bomb square or -1 (None without bombs)."""

    __slots__ = (
        "rules", "turn_index", "white", "black", "_b0", "_b1", "_b2", "_b3", "_b4", "_b5", "_b6",
        "promoted", "castling", "ep", "halfmove", "fullmove", "pockets",
        "checks", "bombs", "castling_mode", "_legal", "_end", "_end_known", "_next_move", "_next",
        # attackers' piece groups per colour, found on first use (_find_groups)
        "_groups_known", "_pawns_w", "_knights_w", "_kings_w", "_orthogonal_w", "_diagonal_w", "_hoppers_w",
        "_pawns_b", "_knights_b", "_kings_b", "_orthogonal_b", "_diagonal_b", "_hoppers_b",
        "_in_check", "_ended", "_captures",
        "_guard_known", "_guarded", "_guard_king", "_guard_checkers", "_guard_pinned", "_guard_allowed",
    )

    rules: ChessRules
    turn_index: int
    white: i64
    black: i64
    # The board of each piece kind (both colours), kinds 0-6 (``ChessRules`` allows seven):
    # machine words read through ``board``, not a list of Python ints.
    _b0: i64
    _b1: i64
    _b2: i64
    _b3: i64
    _b4: i64
    _b5: i64
    _b6: i64
    promoted: i64
    castling: i64
    ep: int
    halfmove: int
    fullmove: int
    pockets: list[list[int]] | None
    checks: list[int] | None
    bombs: list[int] | None
    castling_mode: CastlingMode
    _legal: list[Move] | None
    _end: Outcome | None
    _end_known: bool
    _groups_known: bool
    _pawns_w: i64
    _knights_w: i64
    _kings_w: i64
    _orthogonal_w: i64
    _diagonal_w: i64
    _hoppers_w: i64
    _pawns_b: i64
    _knights_b: i64
    _kings_b: i64
    _orthogonal_b: i64
    _diagonal_b: i64
    _hoppers_b: i64
    _next_move: Move | None  # the legal move ``play_known`` last played, and where it led (until ``play``)
    _next: ChessPosition | None
    _in_check: int  # whether the side to move is in check: -1 until first asked, then 0 or 1
    _ended: int  # whether a twist has ended the game here: -1 until first asked, then 0 or 1
    _captures: int  # whether the side to move can capture (``can_capture``): -1 until asked
    # The guard (``_has_guard``): found once per position, kept as machine words.
    _guard_known: bool
    _guarded: bool  # whether pins and checks decide legality here (the fields below hold)
    _guard_king: int
    _guard_checkers: i64
    _guard_pinned: i64
    _guard_allowed: i64

    def __init__(
        self,
        rules: ChessRules,
        turn_index: int,
        boards: Boards,
        white: i64,
        black: i64,
        promoted: i64,
        castling: i64,
        ep: int,
        halfmove: int,
        fullmove: int,
        pockets: list[list[int]] | None,
        checks: list[int] | None,
        bombs: list[int] | None,
        castling_mode: CastlingMode,
    ):
        """The position of these fields as they are (``from_setup`` reads a setup; playing
        a move makes the next one): nothing is checked here."""
        self.rules = rules
        self.turn_index = turn_index
        self._b0, self._b1, self._b2, self._b3, self._b4, self._b5, self._b6 = boards
        self.white = white
        self.black = black
        self.promoted = promoted
        self.castling = castling
        self.ep = ep
        self.halfmove = halfmove
        self.fullmove = fullmove
        self.pockets = pockets
        self.checks = checks
        self.bombs = bombs
        self.castling_mode = castling_mode
        self._legal = None
        self._end = None
        self._end_known = False
        self._groups_known = False
        self._next_move = None
        self._next = None
        self._in_check = -1
        self._ended = -1
        self._captures = -1
        self._guard_known = False
        self._guarded = False
        self._guard_king = -1
        self._guard_checkers = 0
        self._guard_pinned = 0
        self._guard_allowed = 0

    @classmethod
    def from_setup(
        cls, setup: Setup, variant: Variant, castling_mode: CastlingMode = CastlingMode.STANDARD
    ) -> ChessPosition:
        """The position of ``setup`` in ``variant`` (which ``notation.game.legal_position``
        has validated: a setup validation refuses gives a position that breaks the rules)."""
        rules = rules_of(variant)
        pieces = [0] * max(len(rules.letters), 7)
        white = black = 0
        kind_of = rules.kind_of
        for sq, cell in enumerate(setup.cells):
            if cell == ".":
                continue
            bit = BIT[sq]
            kind = kind_of.get(cell.lower())
            if kind is None:  # validation refuses such letters; nothing to place
                continue
            pieces[kind] |= bit
            if cell.isupper():
                white |= bit
            else:
                black |= bit
        promoted = 0
        for sq in setup.promoted:
            promoted |= BIT[sq]
        castling = 0
        for sq in setup.castling:
            castling |= BIT[sq]
        pockets: list[list[int]] | None = None
        if setup.pockets is not None or variant.has_pockets:
            pockets = [[0] * len(rules.letters), [0] * len(rules.letters)]
            held = setup.pockets or Pockets()
            for colour, letters in enumerate((held.white, held.black)):
                for letter in letters:
                    found = kind_of.get(letter)
                    if found is not None:
                        pockets[colour][found] += 1
        checks = list(setup.remaining_checks) if setup.remaining_checks is not None else None
        bombs = [-1 if sq is None else sq for sq in setup.bombs] if setup.bombs is not None else None
        boards: Boards = (
            pieces[0], pieces[1], pieces[2], pieces[3], pieces[4], pieces[5], pieces[6],
        )
        return cls(
            rules, 0 if setup.turn == "w" else 1, boards, white, black, promoted & (white | black), castling,
            -1 if setup.ep_square is None else setup.ep_square, setup.halfmove, setup.fullmove, pockets, checks,
            bombs, castling_mode,
        )

    # --- what the position holds ----------------------------------------------------------

    @property
    def variant(self) -> Variant:
        return self.rules.variant

    @property
    def turn(self) -> Color:
        return _COLOURS[self.turn_index]

    @property
    def colours(self) -> tuple[int, int]:
        """Each colour's squares (white, black); ``side`` reads one as a machine word."""
        return self.white, self.black

    @property
    def pieces(self) -> tuple[int, ...]:
        """The board of each piece kind (both colours), in ``ChessRules``' kind order;
        ``board`` reads one as a machine word."""
        return tuple(self.board(kind) for kind in range(len(self.rules.letters)))

    def side(self, colour: int) -> i64:
        """The squares of ``colour``'s pieces (0 White, 1 Black)."""
        return self.white if colour == 0 else self.black

    def board(self, kind: int) -> i64:
        """The squares of the pieces of ``kind`` (both colours)."""
        if kind < 4:
            if kind < 2:
                return self._b0 if kind == 0 else self._b1
            return self._b2 if kind == 2 else self._b3
        if kind == 4:
            return self._b4
        return self._b5 if kind == 5 else self._b6

    def set_board(self, kind: int, squares: i64) -> None:
        """Set the squares of ``kind`` (only while a position is being made)."""
        if kind == 0:
            self._b0 = squares
        elif kind == 1:
            self._b1 = squares
        elif kind == 2:
            self._b2 = squares
        elif kind == 3:
            self._b3 = squares
        elif kind == 4:
            self._b4 = squares
        elif kind == 5:
            self._b5 = squares
        else:
            self._b6 = squares

    def remove(self, squares: i64) -> None:
        """Take every piece on ``squares`` off the board (explosions; only while a position
        is being made). Promoted marks and castling rights are the caller's."""
        keep: i64 = ~squares
        self.white &= keep
        self.black &= keep
        self._b0 &= keep
        self._b1 &= keep
        self._b2 &= keep
        self._b3 &= keep
        self._b4 &= keep
        self._b5 &= keep
        self._b6 &= keep

    def set_side(self, colour: int, squares: i64) -> None:
        """Set the squares of ``colour``'s pieces (only while a position is being made)."""
        if colour == 0:
            self.white = squares
        else:
            self.black = squares

    @property
    def occupied(self) -> i64:
        """Every occupied square (each colour's word read as a machine word first: the two
        list items or'ed as they are would be a Python int operation, allocating)."""
        return self.white | self.black

    def kind_at(self, sq: int) -> int:
        """The kind index of the piece on ``sq``, or -1 for an empty square."""
        occupied: i64 = self.occupied
        if not occupied >> sq & 1:
            return -1
        for kind in range(len(self.rules.letters)):
            if self.board(kind) >> sq & 1:
                return kind
        return -1

    def letter_at(self, sq: int) -> str | None:
        """The FEN letter on ``sq`` (upper case for White), or None."""
        kind = self.kind_at(sq)
        if kind < 0:
            return None
        letter = self.rules.letters[kind]
        return letter.upper() if self.side(0) >> sq & 1 else letter

    def royal(self, colour: int) -> i64:
        """The squares of ``colour``'s royal pieces (promoted ones are not royal)."""
        rules = self.rules
        promoted: i64 = self.promoted
        if rules.royal_kind >= 0:
            kings: i64 = self.board(rules.royal_kind)
            found: i64 = kings & self.side(colour)
            return found & ~promoted if promoted else found
        found = 0
        for kind in rules.royal_kinds:
            found |= self.board(kind)
        return found & self.side(colour) & ~promoted

    def attackers(self, sq: int, by: int, occupied: i64) -> i64:
        """Pieces of colour ``by`` attacking ``sq`` when ``occupied`` holds the pieces (a
        piece missing from ``occupied`` attacks nothing)."""
        if not self._groups_known:
            self._find_groups()
        if by == 0:
            pawns, knights, kings = self._pawns_w, self._knights_w, self._kings_w
            orthogonal, diagonal, hoppers = self._orthogonal_w, self._diagonal_w, self._hoppers_w
        else:
            pawns, knights, kings = self._pawns_b, self._knights_b, self._kings_b
            orthogonal, diagonal, hoppers = self._orthogonal_b, self._diagonal_b, self._hoppers_b
        theirs: i64 = self.side(by) & occupied
        found: i64 = (PAWN[by ^ 1][sq] & pawns) | (KNIGHT[sq] & knights) | (KING[sq] & kings)
        sliders: i64 = orthogonal & theirs
        if sliders & ROOK_PSEUDO[sq]:
            found |= rook_attacks(sq, occupied) & sliders
        sliders = diagonal & theirs
        if sliders & BISHOP_PSEUDO[sq]:
            found |= bishop_attacks(sq, occupied) & sliders
        if hoppers & theirs:
            found |= hopper_attackers(sq, occupied, hoppers & theirs)
        return found & theirs

    def _find_groups(self) -> None:
        """Each colour's pawns, knight-movers, king-movers, orthogonal sliders, diagonal
        sliders and grasshoppers, as ``attackers`` reads them."""
        groups = self.rules.attack_groups
        pawns: i64 = 0
        knights: i64 = 0
        kings: i64 = 0
        orthogonal: i64 = 0
        diagonal: i64 = 0
        hoppers: i64 = 0
        for kind in range(len(groups)):
            squares: i64 = self.board(kind)
            if not squares:
                continue
            group: i64 = groups[kind]
            if group & PAWN_GROUP:
                pawns |= squares
            if group & KNIGHT_GROUP:
                knights |= squares
            if group & KING_GROUP:
                kings |= squares
            if group & ORTHOGONAL_GROUP:
                orthogonal |= squares
            if group & DIAGONAL_GROUP:
                diagonal |= squares
            if group & HOPPER_GROUP:
                hoppers |= squares
        white: i64 = self.white
        black: i64 = self.black
        self._pawns_w, self._pawns_b = pawns & white, pawns & black
        self._knights_w, self._knights_b = knights & white, knights & black
        self._kings_w, self._kings_b = kings & white, kings & black
        self._orthogonal_w, self._orthogonal_b = orthogonal & white, orthogonal & black
        self._diagonal_w, self._diagonal_b = diagonal & white, diagonal & black
        self._hoppers_w, self._hoppers_b = hoppers & white, hoppers & black
        self._groups_known = True

    def checkers_of(self, colour: int) -> int:
        """Enemy pieces attacking a royal piece of ``colour`` (0 where check does not exist),
        as the twist that changes king safety counts them (``ChessRules.king_twist``)."""
        rules = self.rules
        if rules.safety is _SAFE_ANYWAY:
            return 0
        twist = rules.king_twist
        if twist is not None:
            return twist.king_attackers(self, colour)
        return self.royal_attackers(colour)

    def royal_attackers(self, colour: int) -> i64:
        """Enemy pieces attacking a royal piece of ``colour``, as standard chess counts them."""
        occupied: i64 = self.occupied
        found: i64 = 0
        for sq in squares(self.royal(colour)):
            found |= self.attackers(sq, colour ^ 1, occupied)
        return found

    def is_attacked(self, targets: i64, by: int) -> bool:
        """Whether a piece of colour ``by`` attacks any of the squares ``targets``."""
        occupied: i64 = self.occupied
        rest: i64 = targets
        while rest:
            sq, rest = pop_square(rest)
            if self.attackers(sq, by, occupied):
                return True
        return False

    def is_check(self) -> bool:
        """Whether the side to move is in check."""
        in_check = self._in_check
        if in_check < 0:
            # The guard's checkers where pins decide: reading the next move needs the guard too.
            if self._has_guard():
                in_check = 1 if self._guard_checkers else 0
            else:
                in_check = 1 if self.checkers_of(self.turn_index) else 0
            self._in_check = in_check
        return in_check == 1

    def castling_attacked(self, king: int, king_to: int, rook: int, rook_to: int) -> bool:
        """Whether castling is barred by attacks: the king in check, passing or landing on an
        attacked square (the king's path judged without the king, its target without king
        and rook, as the Chess960 rules and python-chess judge them). Never barred where
        nothing is royal or check does not exist; squares the twist that changes king safety
        calls safe (``TwistRule.king_safe_squares``) are not judged."""
        rules = self.rules
        if rules.safety is _SAFE_ANYWAY or not self.royal(self.turn_index) >> king & 1:
            return False
        them = self.turn_index ^ 1
        occupied = self.occupied
        path: i64 = BETWEEN[king][king_to] | BIT[king]
        target: i64 = BIT[king_to]
        twist = rules.king_twist
        if twist is not None:
            safe: i64 = twist.king_safe_squares(self)
            path &= ~safe
            target &= ~safe
        without_king: i64 = occupied ^ BIT[king]
        while path:
            sq, path = pop_square(path)
            if self.attackers(sq, them, without_king):
                return True
        if target:
            after: i64 = (without_king ^ BIT[rook]) | BIT[rook_to]
            if self.attackers(king_to, them, after):
                return True
        return False

    # --- moves ----------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move, in ``generate``'s stable order; empty once the game is over."""
        legal = self._legal
        if legal is not None:
            return list(legal)
        found = self._find_legal()
        self._legal = found
        return list(found)

    def is_legal_move(self, move: Move) -> bool:
        """Whether ``move`` is one of ``legal_moves()`` (a null move never is); a piece's
        move is looked for among that piece's moves alone where the variant allows."""
        legal = self._legal
        if legal is None:
            kind = move.kind
            rules = self.rules
            if (kind is _NORMAL or kind is _EN_PASSANT) and rules.moves_by_piece:
                mover = self.kind_at(move.origin)
                if mover < 0 or not self.side(self.turn_index) >> move.origin & 1:
                    return False
                return move in self.moves_of_kind_to(mover, move.target)
            if kind is _DROP and rules.own_piece_moves and not self.ended_by_twist():
                guard = self._guard()
                if guard is not None:
                    allowed: i64 = guard[3]
                    offered = any(twist.offers(self, move) for twist in rules.twists)
                    return offered and bool(allowed >> move.target & 1)
            legal = self._legal = self._find_legal()
        return move in legal

    def moves_of_kind_to(self, kind: int, target: int) -> list[Move]:
        """The legal moves of the side to move's pieces of ``kind`` to ``target`` (normal
        moves, promotions, en passant; not castling or drops), in ``legal_moves()``'s order:
        what a SAN move names. Found without generating every move where no twist filters
        or replaces moves but one move at a time (``ChessRules.moves_by_piece``): from pins
        and checks, or else by judging each of the piece's moves where it leads; then by the
        twists that judge each move (``ChessRules.judging``)."""
        rules = self.rules
        if self._legal is None and rules.moves_by_piece and not self.ended_by_twist():
            guard = self._guard()
            if guard is None:  # Atomic, several royal pieces: each move judged where it leads
                found = [move for move in piece_moves_to(self, kind, target) if self.leaves_royal_safe(move)]
            else:
                king, checkers, pinned, allowed = guard
                found = [
                    move for move in piece_moves_to(self, kind, target)
                    if self._keeps_guard(move, king, checkers, pinned, allowed)
                ]
            for twist in rules.judging:
                found = [move for move in found if twist.allows(self, move)]
            return found
        return [
            move for move in self.legal_moves()
            if move.target == target
            and (move.kind is _NORMAL or move.kind is _EN_PASSANT)
            and self.kind_at(move.origin) == kind
        ]

    def castling_moves(self) -> list[Move]:
        """The legal castling moves, in ``legal_moves()``'s order; found without generating
        the rest where one piece's moves are found alone (``ChessRules.moves_by_piece``)."""
        rules = self.rules
        if self._legal is not None or not rules.moves_by_piece or self.ended_by_twist():
            return [move for move in self.legal_moves() if move.kind is _CASTLE]
        found: list[Move] = []
        if not rules.castles or not self.castling:
            return found
        us = self.turn_index
        for sq in squares(self.board(rules.castling_kind) & self.side(us)):
            add_castling_moves(self, sq, us, found)
        if self._has_guard():
            if self._guard_checkers:  # in check: never
                return []
        else:
            found = [move for move in found if self.leaves_royal_safe(move)]
        for twist in rules.judging:
            found = [move for move in found if twist.allows(self, move)]
        return found

    def legal_origins(self, kind: int, target: int) -> tuple[bool, i64]:
        """(True, the squares of the side to move's pieces of ``kind`` with a legal move to
        ``target`` that is neither en passant nor castling), where pins and checks decide
        legality and the movement is found backwards (``generate.piece_origins``): what a
        SAN move names, found without making a ``Move``. Promotion is not judged (a pawn
        reaching its last rank has one move per piece it may become). Where pins and checks
        do not decide (Atomic, several royal pieces) each origin's move is judged where it
        leads, as ``moves_of_kind_to`` judges it. (False, 0) where this cannot tell: a twist
        that filters or replaces moves, a game a twist has ended, grasshoppers, a promotion
        that is judged move by move."""
        rules = self.rules
        if not rules.moves_by_piece or self.ended_by_twist():
            return False, 0
        known, origins = piece_origins(self, kind, target)
        if not known or not origins:
            return known, 0
        guarded = self._has_guard()
        promoting = kind == rules.pawn and rules.promotion_rank[self.turn_index] >> target & 1
        if promoting and (rules.judging or not guarded):
            return False, 0  # one move per promotion piece, each judged on its own
        if guarded:
            origins = self._legal_origins(target, origins)
        else:
            rest: i64 = origins
            while rest:
                sq, rest = pop_square(rest)
                if not self.leaves_royal_safe(Move(sq, target)):
                    origins ^= BIT[sq]
        for twist in rules.judging:
            rest = origins
            while rest:
                sq, rest = pop_square(rest)
                if not twist.allows(self, Move(sq, target)):
                    origins ^= BIT[sq]
        return True, origins

    def _legal_origins(self, target: int, origins: i64) -> i64:
        """Of ``origins``, the squares whose move to ``target`` the guard (``_has_guard``) allows."""
        king = self._guard_king
        pinned: i64 = self._guard_pinned
        allowed: i64 = self._guard_allowed
        legal: i64 = 0
        if king >= 0 and origins >> king & 1:
            origins ^= BIT[king]
            occupied: i64 = self.occupied ^ BIT[king]
            if not self.attackers(target, self.turn_index ^ 1, occupied):
                legal = BIT[king]
        if not allowed >> target & 1:
            return legal
        if origins & pinned:
            lines = LINE[king]
            rest: i64 = origins & pinned
            while rest:
                sq, rest = pop_square(rest)
                line: i64 = lines[sq]
                if not line >> target & 1:
                    origins ^= BIT[sq]
        return legal | origins

    def ended_by_twist(self) -> bool:
        """Whether a twist has ended the game here (the third check, the hill, a lost king),
        so that no move is legal; checkmate and stalemate are not looked at. Found once."""
        ended = self._ended
        if ended < 0:
            ended = 0
            for twist in self.rules.twists:
                if twist.end(self) is not None:
                    ended = 1
                    break
            self._ended = ended
        return ended == 1

    def _find_legal(self) -> list[Move]:
        rules = self.rules
        for twist in rules.twists:
            if twist.end(self) is not None:
                return []
        for twist in rules.twists:
            only = twist.only_moves(self)
            if only is not None:
                return only
        candidates = pseudo_legal_moves(self)
        for twist in rules.twists:
            candidates.extend(twist.extra_moves(self))
        if self._has_guard():
            king = self._guard_king
            checkers: i64 = self._guard_checkers
            pinned: i64 = self._guard_pinned
            allowed: i64 = self._guard_allowed
            found = [move for move in candidates if self._keeps_guard(move, king, checkers, pinned, allowed)]
        else:
            found = [move for move in candidates if self.leaves_royal_safe(move)]
        for twist in rules.twists:
            found = twist.filter(self, found)
        return found

    def _guard(self) -> tuple[int, int, int, int] | None:
        """(royal square, checkers, pinned pieces, squares a move must reach) of the side to
        move, where pins and checks decide legality (``ChessRules.pins_decide``, one royal
        piece); None elsewhere. Squares a move must reach: all but in check, the checker and
        the squares between it and the royal piece in single check, none in double check.
        The hot paths read the same from ``_has_guard`` and its fields, without a tuple."""
        if not self._has_guard():
            return None
        return self._guard_king, self._guard_checkers, self._guard_pinned, self._guard_allowed

    def _has_guard(self) -> bool:
        """Whether pins and checks decide legality here; if so ``_guard_king``,
        ``_guard_checkers``, ``_guard_pinned`` and ``_guard_allowed`` hold ``_guard()``'s
        answer. Found once per position."""
        if not self._guard_known:
            self._guarded = self._find_guard()
            self._guard_known = True
        return self._guarded

    def _find_guard(self) -> bool:
        rules = self.rules
        safe_anyway = rules.safety is _SAFE_ANYWAY
        if not rules.pins_decide and not safe_anyway:
            return False
        us = self.turn_index
        royal: i64 = 0
        if not safe_anyway:
            royal = self.royal(us)
        if not royal:  # nothing to guard (Horde's White, Antichess, Dark Chess): every move goes
            self._guard_king = -1
            self._guard_checkers = 0
            self._guard_pinned = 0
            self._guard_allowed = rules.all
            return True
        if several(royal):
            return False
        king = first(royal)
        them = us ^ 1
        occupied: i64 = self.occupied
        checkers: i64 = self.attackers(king, them, occupied)
        if not checkers:
            allowed: i64 = rules.all
        elif several(checkers):
            allowed = 0
        else:
            allowed = checkers | BETWEEN[king][first(checkers)]
        # The enemy's sliders, as ``attackers`` has just grouped them.
        if them == 0:
            orthogonal, diagonal = self._orthogonal_w, self._diagonal_w
        else:
            orthogonal, diagonal = self._orthogonal_b, self._diagonal_b
        snipers: i64 = (ROOK_PSEUDO[king] & orthogonal) | (BISHOP_PSEUDO[king] & diagonal)
        pinned: i64 = 0
        ours: i64 = self.side(us)
        between = BETWEEN[king]
        while snipers:
            sniper, snipers = pop_square(snipers)
            blockers: i64 = between[sniper] & occupied
            if blockers and not several(blockers) and blockers & ours:
                pinned |= blockers
        self._guard_king = king
        self._guard_checkers = checkers
        self._guard_pinned = pinned
        self._guard_allowed = allowed
        return True

    def _keeps_guard(self, move: Move, king: int, checkers: i64, pinned: i64, allowed: i64) -> bool:
        """Whether a pseudo-legal ``move`` is legal, told from the guard (``_guard``)."""
        kind = move.kind
        if kind is _NORMAL:
            origin = move.origin
            if origin == king:
                occupied: i64 = self.occupied ^ BIT[king]
                return not self.attackers(move.target, self.turn_index ^ 1, occupied)
            if not allowed >> move.target & 1:
                return False
            line: i64 = LINE[king][origin]
            return not pinned >> origin & 1 or bool(line >> move.target & 1)
        if kind is _DROP:
            return bool(allowed >> move.target & 1)
        if kind is _CASTLE:
            return not checkers  # the path was judged when the move was generated
        return self.leaves_royal_safe(move)  # en passant (a pawn leaves a line twice), detonation

    def leaves_royal_safe(self, move: Move) -> bool:
        """Whether a pseudo-legal ``move`` leaves the mover's royal pieces as the rules
        want, judged on the position it leads to (the slow path, for what pins cannot tell),
        or by the twist that changes king safety (``ChessRules.king_twist``)."""
        rules = self.rules
        if rules.safety is _SAFE_ANYWAY:
            return True
        twist = rules.king_twist
        if twist is not None:
            return twist.leaves_king_safe(self, move)
        return self.royal_safe_after(move)

    def royal_safe_after(self, move: Move) -> bool:
        """Whether no royal piece of the mover stands attacked after the pseudo-legal
        ``move``: standard chess's rule, judged on the position it leads to."""
        us = self.turn_index
        after = self.play_legal(move)
        mine: i64 = after.royal(us)
        return not mine or not after.is_attacked(mine, us ^ 1)

    def legal_en_passant(self, move: Move) -> int:
        """1 if the en passant ``move`` (pseudo-legal here) is legal, else 0."""
        return 1 if self.leaves_royal_safe(move) else 0

    def has_legal_move(self) -> bool:
        """Whether any move is legal here (a mate or stalemate has none), counted as
        ``count_legal`` counts, stopping at the first."""
        return self._count_legal(1) > 0

    def count_legal(self) -> int:
        """The number of legal moves (``len(legal_moves())``), counted without making a
        ``Move`` where pins and checks decide legality and no twist filters or replaces
        moves (each twist counts what it adds): perft's last ply."""
        return self._count_legal(-1)

    def _count_legal(self, enough: int) -> int:
        """``count_legal``, or at least ``enough`` once that many are found (``enough`` > 0).
        Whether any move is legal is also counted where a twist judges each move but keeps
        one whenever the pieces have one (compulsory capture)."""
        rules = self.rules
        countable = rules.own_piece_moves or (enough == 1 and rules.moves_by_piece and rules.judging_keeps_one)
        if self._legal is not None or not countable or not self._has_guard():
            return len(self.legal_moves())
        if self.ended_by_twist():
            return 0
        allowed: i64 = self._guard_allowed
        found = count_moves(self, self._guard_king, self._guard_checkers, self._guard_pinned, allowed, enough)
        if 0 < enough <= found:
            return found
        for twist in rules.twists:
            extra = twist.count_extra_moves(self, allowed)
            if extra < 0:
                return len(self.legal_moves())
            found += extra
        return found

    def can_capture(self) -> bool:
        """Whether one of the side to move's pieces attacks an enemy piece, or may take en
        passant: whether it has a pseudo-legal capture (a legal one where nothing is royal).
        Found once per position."""
        captures = self._captures
        if captures < 0:
            captures = 1 if self._find_capture() else 0
            self._captures = captures
        return captures == 1

    def _find_capture(self) -> bool:
        rules = self.rules
        us = self.turn_index
        them = us ^ 1
        occupied: i64 = self.occupied
        theirs: i64 = self.side(them)
        while theirs:
            sq, theirs = pop_square(theirs)
            if self.attackers(sq, us, occupied):
                return True
        ep = self.ep
        if ep >= 0 and rules.en_passant and rules.pawn >= 0 and not occupied >> ep & 1:
            pawns: i64 = self.board(rules.pawn)
            behind = ep - rules.files if us == 0 else ep + rules.files
            if PAWN[them][ep] & pawns & self.side(us) and (pawns & self.side(them)) >> behind & 1:
                return True
        return False

    def is_capture(self, move: Move) -> bool:
        """Whether ``move`` takes a piece (en passant included; castling never does)."""
        if move.kind is _EN_PASSANT:
            return True
        if move.kind is not _NORMAL:
            return False
        return bool(self.side(self.turn_index ^ 1) >> move.target & 1)

    def gives_check(self, move: Move) -> bool:
        """Whether ``move`` (legal here) leaves the opponent in check. Where pins and checks
        decide and the move only carries a piece (no promotion, castling or en passant; the
        twists that change the board have other safety), told from this board without
        playing it: another piece's line opened, or the piece attacking from its target."""
        rules = self.rules
        if move.kind is _NORMAL and not move.promotion and rules.pins_decide:
            us = self.turn_index
            kings: i64 = self.royal(us ^ 1)
            if not kings:
                return False
            if not several(kings):
                king = first(kings)
                origin, target = move.origin, move.target
                occupied: i64 = (self.occupied & ~BIT[origin]) | BIT[target]
                if self.attackers(king, us, occupied):
                    return True
                movement = rules.movements[self.kind_at(origin)]
                if movement is _PAWN:
                    return bool(PAWN[us][target] >> king & 1)
                return bool(movement_targets(movement, target, occupied) >> king & 1)
        return self.play_legal(move).is_check()

    def play(self, move: Move) -> ChessPosition:
        """The position after ``move`` (a null move passes, as a PGN's ``--`` does); raises
        ``ValueError`` if it is not legal here."""
        known = self._next_move
        if known is move or (known is not None and known == move):  # the same object: no fields compared
            # Handed on once: a position does not keep the game's later positions alive.
            after = self._next
            self._next_move = self._next = None
            return after  # type: ignore[return-value]
        if move.kind is not _NULL and not self.is_legal_move(move):
            raise ValueError(f"{move!r} is not a legal move here")
        return self.play_legal(move)

    def play_known(self, move: Move) -> ChessPosition:
        """The position after ``move``, which the caller knows is legal here (a notation
        read or writes it), kept so that playing the same move again costs nothing."""
        known = self._next_move
        if known is move or (known is not None and known == move):
            return self._next  # type: ignore[return-value]
        after = self.play_legal(move)
        self._next_move = move
        self._next = after
        return after

    def play_legal(self, move: Move) -> ChessPosition:
        """The position after ``move``, which the caller knows is (pseudo-)legal here."""
        rules = self.rules
        after = self._copy()
        us = self.turn_index
        them = us ^ 1
        after.ep = -1
        after.halfmove = self.halfmove + 1
        if us == 1:
            after.fullmove = self.fullmove + 1
        after.turn_index = them
        kind = move.kind
        captured = -1
        was_promoted = False
        if kind is _NULL:
            pass
        elif kind is _DROP:
            dropped = rules.kind_of[move.drop]
            bit = BIT[move.target]
            after.set_board(dropped, after.board(dropped) | bit)
            after.set_side(us, after.side(us) | bit)
        elif kind is _DETONATE:
            pass  # the bombs twist carries it out
        elif kind is _CASTLE:
            self._castle(after, move, us)
        else:
            captured, was_promoted = self._carry(after, move, us)
        for twist in rules.twists:
            twist.after(self, move, after, captured, was_promoted)
            # A twist may have looked (check counting) before another changed the board.
            after._groups_known = False
            after._in_check = -1
            after._ended = -1
            after._captures = -1
            after._guard_known = False
        return after

    def _carry(self, after: ChessPosition, move: Move, us: int) -> tuple[int, bool]:
        """Carry a piece from ``move.origin`` to ``move.target`` in ``after``: the capture
        (en passant too), promotion, promoted marks, castling rights, en passant square.
        Returns the captured kind (-1 for none) and whether it was a promoted piece."""
        rules = self.rules
        origin, target = move.origin, move.target
        from_bit: i64 = BIT[origin]
        to_bit: i64 = BIT[target]
        them = us ^ 1
        mover = self.kind_at(origin)
        # Read into machine words, changed there and written back once.
        mine: i64 = after.side(us)
        theirs: i64 = after.side(them)
        promoted: i64 = self.promoted
        castling: i64 = self.castling
        captured = -1
        was_promoted = False
        capture_square = target
        if theirs & to_bit:
            captured = self.kind_at(target)
        elif move.kind is _EN_PASSANT:
            capture_square = target - rules.files if us == 0 else target + rules.files
            captured = rules.pawn
        if captured >= 0:
            cap_bit: i64 = BIT[capture_square]
            after.set_board(captured, after.board(captured) & ~cap_bit)
            theirs &= ~cap_bit
            was_promoted = bool(promoted & cap_bit)
            promoted &= ~cap_bit
            after.halfmove = 0
            if captured == rules.castling_kind and not was_promoted and rules.back_rank[them] >> capture_square & 1:
                castling &= ~rules.back_rank[them]
        moved_promoted = bool(promoted & from_bit)
        moving: i64 = after.board(mover)
        moving &= ~from_bit
        mine = (mine & ~from_bit) | to_bit
        promoted &= ~from_bit
        if move.promotion:
            after.set_board(mover, moving)
            kind = rules.kind_of[move.promotion]
            after.set_board(kind, after.board(kind) | to_bit)
            if self.pockets is not None:
                promoted |= to_bit
        else:
            after.set_board(mover, moving | to_bit)
            if moved_promoted:
                promoted |= to_bit
        castling &= ~from_bit & ~to_bit
        if mover == rules.castling_kind and not moved_promoted:
            castling &= ~rules.back_rank[us]
        after.set_side(us, mine)
        after.set_side(them, theirs)
        after.promoted = promoted
        after.castling = castling
        if mover == rules.pawn:
            after.halfmove = 0
            step = rules.files if us == 0 else -rules.files
            if target - origin == 2 * step and rules.second_rank[us] >> origin & 1 and rules.en_passant:
                after.ep = origin + step
        if self._groups_known and not rules.twists:  # ``after``'s differ by the move (a twist may change more)
            arrived = rules.kind_of[move.promotion] if move.promotion else mover
            taken_bit: i64 = 0
            if captured >= 0:
                taken_bit = BIT[capture_square]
            self._carry_groups(after, us, from_bit, to_bit, arrived, taken_bit)
        return captured, was_promoted

    def _carry_groups(self, after: ChessPosition, us: int, from_bit: i64, to_bit: i64, arrived: int,
                      taken_bit: i64) -> None:
        """``after``'s attack groups (``_find_groups``) made from this position's, which are
        known: the piece of ``us`` that left ``from_bit`` stands on ``to_bit`` as ``arrived``
        (its kind, promoted or not), and the piece on ``taken_bit`` (0: none) is gone. A
        square holds one piece, so the squares left leave every group of their colour."""
        group: i64 = self.rules.attack_groups[arrived]
        kept: i64 = ~from_bit
        spared: i64 = ~taken_bit
        # (Statements, not conditional expressions: compiled, one of a word and 0 is a boxed int.)
        pawn: i64 = 0
        knight: i64 = 0
        king: i64 = 0
        orthogonal: i64 = 0
        diagonal: i64 = 0
        hopper: i64 = 0
        if group & PAWN_GROUP:
            pawn = to_bit
        if group & KNIGHT_GROUP:
            knight = to_bit
        if group & KING_GROUP:
            king = to_bit
        if group & ORTHOGONAL_GROUP:
            orthogonal = to_bit
        if group & DIAGONAL_GROUP:
            diagonal = to_bit
        if group & HOPPER_GROUP:
            hopper = to_bit
        if us == 0:
            after._pawns_w = (self._pawns_w & kept) | pawn
            after._knights_w = (self._knights_w & kept) | knight
            after._kings_w = (self._kings_w & kept) | king
            after._orthogonal_w = (self._orthogonal_w & kept) | orthogonal
            after._diagonal_w = (self._diagonal_w & kept) | diagonal
            after._hoppers_w = (self._hoppers_w & kept) | hopper
            after._pawns_b = self._pawns_b & spared
            after._knights_b = self._knights_b & spared
            after._kings_b = self._kings_b & spared
            after._orthogonal_b = self._orthogonal_b & spared
            after._diagonal_b = self._diagonal_b & spared
            after._hoppers_b = self._hoppers_b & spared
        else:
            after._pawns_b = (self._pawns_b & kept) | pawn
            after._knights_b = (self._knights_b & kept) | knight
            after._kings_b = (self._kings_b & kept) | king
            after._orthogonal_b = (self._orthogonal_b & kept) | orthogonal
            after._diagonal_b = (self._diagonal_b & kept) | diagonal
            after._hoppers_b = (self._hoppers_b & kept) | hopper
            after._pawns_w = self._pawns_w & spared
            after._knights_w = self._knights_w & spared
            after._kings_w = self._kings_w & spared
            after._orthogonal_w = self._orthogonal_w & spared
            after._diagonal_w = self._diagonal_w & spared
            after._hoppers_w = self._hoppers_w & spared
        after._groups_known = True

    def _castle(self, after: ChessPosition, move: Move, us: int) -> None:
        rules = self.rules
        king, rook = move.origin, move.target
        files = rules.files
        rank_start = king - king % files
        a_side = rook < king
        king_to = rank_start + (2 if a_side else files - 2)
        rook_to = rank_start + (3 if a_side else files - 3)
        king_kind, rook_kind = rules.castling_kind, rules.rook_kind
        after.set_board(king_kind, (after.board(king_kind) & ~BIT[king]) | BIT[king_to])
        after.set_board(rook_kind, (after.board(rook_kind) & ~BIT[rook]) | BIT[rook_to])
        after.set_side(us, (after.side(us) & ~BIT[king] & ~BIT[rook]) | BIT[king_to] | BIT[rook_to])
        after.castling &= ~rules.back_rank[us]

    def _copy(self) -> ChessPosition:
        pockets = self.pockets
        checks = self.checks
        bombs = self.bombs
        return ChessPosition(
            self.rules, self.turn_index, (self._b0, self._b1, self._b2, self._b3, self._b4, self._b5, self._b6),
            self.white, self.black, self.promoted, self.castling,
            self.ep, self.halfmove, self.fullmove,
            [list(pockets[0]), list(pockets[1])] if pockets is not None else None,
            list(checks) if checks is not None else None,
            list(bombs) if bombs is not None else None,
            self.castling_mode,
        )

    def castling_target(self, move: Move) -> int:
        """The square a castling move takes the king to (g- or c-file on 8 files)."""
        files = self.rules.files
        rank_start = move.origin - move.origin % files
        return rank_start + (2 if move.target < move.origin else files - 2)

    # --- the end ---------------------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        """How the game has ended here, or None while it goes on."""
        if self._end_known:
            return self._end
        found = self._outcome()
        self._end = found
        self._end_known = True
        return found

    def _outcome(self) -> Outcome | None:
        rules = self.rules
        for twist in rules.twists:
            end = twist.end(self)
            if end is not None:
                return end
        if self.has_legal_move():
            return None
        in_check = self.is_check()
        for twist in rules.twists:
            end = twist.no_moves(self, in_check)
            if end is not None:
                return end
        mover, other = _COLOURS[self.turn_index], _COLOURS[self.turn_index ^ 1]
        if in_check:
            return Outcome(mover if rules.checkmate_wins else other, EndReason.CHECKMATE)
        stalemate = rules.stalemate
        if stalemate is Stalemate.WIN:
            return Outcome(mover, EndReason.STALEMATE)
        if stalemate is Stalemate.FEWER_PIECES_WINS:
            mine = count(self.side(self.turn_index))
            theirs = count(self.side(self.turn_index ^ 1))
            if mine == theirs:
                return Outcome(None, EndReason.STALEMATE)
            return Outcome(mover if mine < theirs else other, EndReason.STALEMATE)
        return Outcome(None, EndReason.STALEMATE)

    # --- back to a Setup --------------------------------------------------------------------

    def to_setup(self) -> Setup:
        """The position as a ``Setup`` (for the FEN writer)."""
        rules = self.rules
        size = rules.size
        cells = ["."] * size
        white = self.side(0)
        for kind, bb in enumerate(self.pieces):
            letter = rules.letters[kind]
            upper = letter.upper()
            for sq in squares(bb):
                cells[sq] = upper if white >> sq & 1 else letter
        pockets = None
        if self.pockets is not None:
            pockets = Pockets(
                "".join(rules.letters[k] * n for k, n in enumerate(self.pockets[0])),
                "".join(rules.letters[k] * n for k, n in enumerate(self.pockets[1])),
            )
        checks = (self.checks[0], self.checks[1]) if self.checks is not None else None
        bombs = None
        if self.bombs is not None:
            bombs = tuple(None if sq < 0 else sq for sq in self.bombs)
        return Setup(
            cells="".join(cells),
            turn=self.turn,
            castling=frozenset(squares(self.castling)),
            ep_square=None if self.ep < 0 else self.ep,
            halfmove=self.halfmove,
            fullmove=self.fullmove,
            promoted=frozenset(squares(self.promoted)),
            pockets=pockets,
            remaining_checks=checks,
            geometry=rules.geometry,
            bombs=(bombs[0], bombs[1]) if bombs is not None else None,
        )

    def __repr__(self) -> str:
        from notation.diagram import fen_text

        return f"<ChessPosition {self.variant.key} {fen_text(self.to_setup())!r}>"
