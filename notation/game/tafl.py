"""Tablut's legal positions (``RuleFamily.TAFL``): ``TaflPosition``, a ``GamePosition``.

The rules are the itsyourturn rules page's (docs/tafl.md, "Moves", says more), read from
the registry entry (``special_squares``, ``royal``, the armies), never from its name:

- every piece moves like a chess rook, onto empty squares only; only the king may stop
  on a special square (the throne and the corners), and every piece may pass over the
  empty throne ("Rooks can move OVER the center dark square");
- custodian capture: an enemy taflman is captured when the piece just moved (the king
  too: the page's examples capture with it) sandwiches it, on a rank or file, against a
  piece of the mover's side (the king too) or an empty special square. The throne with
  the king on it is the king: it captures White's taflmen for Black and never Black's
  own. Several taflmen may fall to one move; a piece that moves between two enemies is
  not captured;
- the king is captured when White's move leaves every square beside it that is on the
  board an attacker or an empty special square: four sides, three at the edge, the
  empty throne or a corner standing in for an attacker; two attackers never take it;
- the king on a corner wins for Black (``KING_ESCAPED``); the king captured (gone from
  the board) wins for White (``KING_CAPTURED``); a side to move without a legal move
  loses (OpenTafl's rules text; the page says nothing), reported as ``STALEMATE`` with the
  other side as winner.

``is_check`` is True when the side to move faces its loss next move: White to move and
the king has an open line to a corner (OpenTafl's ``-`` mark), or Black to move and one
White move would capture the king (OpenTafl's ``+`` mark).

Not handled: repetition (the page has no rule for it; claims belong to the game record),
OpenTafl's shieldwalls, edge forts and berserk moves. The halfmove counter counts plies
since the last capture (no tafl rule reads it). The constructor trusts a setup that
``notation.game.legal_position`` validated; ``play`` and ``captures`` raise ``ValueError``
for a move that is not legal here; nothing else raises.
"""

from __future__ import annotations

from typing import Final

from notation.game.move import Move, MoveKind
from notation.game.outcome import EndReason, Outcome
from notation.geometry import Geometry
from notation.setup import BLACK, WHITE, Color, Setup
from notation.variants import Variant

EMPTY: Final = "."
# (file step, rank step) of the four rook directions: down, left, right, up.
_STEPS: Final = ((0, -1), (-1, 0), (1, 0), (0, 1))


class TaflRules:
    """The board data of one tafl variant, built once (``rules_of``): per square, its four
    rook rays, its neighbours with the square beyond each, whether it is special (the
    throne or a corner) and whether it is a corner; the royal letters; which colour has
    the king (the defenders) and which the attackers."""

    def __init__(self, variant: Variant) -> None:
        geometry: Geometry = variant.geometry
        self.variant = variant
        self.geometry = geometry
        self.files: int = geometry.files
        self.size: int = geometry.size
        self.royal: frozenset[str] = frozenset(variant.royal + variant.royal.upper())
        special = [False] * self.size
        for name in variant.special_squares:
            special[geometry.parse_square(name)] = True
        self.special: tuple[bool, ...] = tuple(special)
        last_file, last_rank = geometry.files - 1, geometry.ranks - 1
        corners = {geometry.square(f, r) for f in (0, last_file) for r in (0, last_rank)}
        self.corner: tuple[bool, ...] = tuple(special[sq] and sq in corners for sq in range(self.size))
        rays: list[tuple[tuple[int, ...], ...]] = []
        neighbours: list[tuple[tuple[int, int], ...]] = []
        for sq in range(self.size):
            f, r = geometry.file_of(sq), geometry.rank_of(sq)
            lines: list[tuple[int, ...]] = []
            beside: list[tuple[int, int]] = []
            for df, dr in _STEPS:
                line: list[int] = []
                nf, nr = f + df, r + dr
                while geometry.on_board(nf, nr):
                    line.append(geometry.square(nf, nr))
                    nf, nr = nf + df, nr + dr
                lines.append(tuple(line))
                if line:
                    beside.append((line[0], line[1] if len(line) > 1 else -1))
            rays.append(tuple(lines))
            neighbours.append(tuple(beside))
        self.rays: tuple[tuple[tuple[int, ...], ...], ...] = tuple(rays)
        self.neighbours: tuple[tuple[tuple[int, int], ...], ...] = tuple(neighbours)
        self.defender: Color = BLACK if variant.armies[1].royal_count else WHITE
        self.attacker: Color = WHITE if self.defender == BLACK else BLACK


_RULES: dict[str, TaflRules] = {}


def rules_of(variant: Variant) -> TaflRules:
    """The ``TaflRules`` of ``variant``, built on first use and kept (one per registry key;
    another entry under the same key replaces it)."""
    found = _RULES.get(variant.key)
    if found is None or found.variant is not variant:
        found = TaflRules(variant)
        _RULES[variant.key] = found
    return found


def _colour(piece: str) -> Color:
    return WHITE if piece.isupper() else BLACK


class TaflPosition:
    """A legal tafl position (see the module docstring for the rules)."""

    def __init__(self, setup: Setup, variant: Variant) -> None:
        self._setup = setup
        self._variant = variant
        self._rules = rules_of(variant)
        self._cells: str = setup.cells
        self._turn: Color = setup.turn
        royal = self._rules.royal
        self._kings: tuple[int, ...] = tuple(sq for sq, cell in enumerate(self._cells) if cell in royal)
        self._moves: list[Move] | None = None

    @property
    def variant(self) -> Variant:
        return self._variant

    @property
    def turn(self) -> Color:
        return self._turn

    @property
    def rules(self) -> TaflRules:
        return self._rules

    def piece_at(self, sq: int) -> str:
        """The FEN letter on ``sq`` (``"."`` for an empty square)."""
        return self._cells[sq]

    def legal_moves(self) -> list[Move]:
        """Every legal move, by origin then target square (empty once the game is over)."""
        if self._moves is None:
            self._moves = [] if self._finished() is not None else self._generate()
        return list(self._moves)

    def count_legal(self) -> int:
        """``len(legal_moves())``."""
        return len(self.legal_moves())

    def play_legal(self, move: Move) -> TaflPosition:
        """``play``, for a move the caller took from ``legal_moves()``."""
        return self.play(move)

    def _generate(self) -> list[Move]:
        cells = self._cells
        rules = self._rules
        special = rules.special
        royal = rules.royal
        white = self._turn == WHITE
        moves: list[Move] = []
        for origin in range(rules.size):
            piece = cells[origin]
            if piece == EMPTY or piece.isupper() != white:
                continue
            king = piece in royal
            targets: list[int] = []
            for ray in rules.rays[origin]:
                for target in ray:
                    if cells[target] != EMPTY:
                        break
                    if king or not special[target]:
                        targets.append(target)
            targets.sort()
            for target in targets:
                moves.append(Move(origin, target))
        return moves

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal here (the same answer as ``move in legal_moves()``,
        without generating them)."""
        if move.kind is not MoveKind.NORMAL or move.promotion or move.drop:
            return False
        rules = self._rules
        origin, target = move.origin, move.target
        if not (0 <= origin < rules.size and 0 <= target < rules.size) or origin == target:
            return False
        if self._finished() is not None:
            return False
        cells = self._cells
        piece = cells[origin]
        if piece == EMPTY or _colour(piece) != self._turn or cells[target] != EMPTY:
            return False
        if rules.special[target] and piece not in rules.royal:
            return False
        files = rules.files
        if origin // files == target // files:
            step = 1 if target > origin else -1
        elif origin % files == target % files:
            step = files if target > origin else -files
        else:
            return False
        sq = origin + step
        while sq != target:
            if cells[sq] != EMPTY:
                return False
            sq += step
        return True

    def captures(self, move: Move) -> list[int]:
        """The squares whose pieces the legal ``move`` captures, in square order (the
        king's square among them when it is captured); raises ``ValueError`` for a move
        that is not legal here."""
        if not self.is_legal(move):
            raise ValueError(f"not a legal move in this position: {move!r}")
        board = list(self._cells)
        board[move.target] = board[move.origin]
        board[move.origin] = EMPTY
        return _captured(self._rules, board, move.target, self._turn)

    def play(self, move: Move) -> TaflPosition:
        """The position after the legal ``move``, its captures removed; raises
        ``ValueError`` for a move that is not legal here."""
        if not self.is_legal(move):
            raise ValueError(f"not a legal move in this position: {move!r}")
        board = list(self._cells)
        board[move.target] = board[move.origin]
        board[move.origin] = EMPTY
        captured = _captured(self._rules, board, move.target, self._turn)
        for sq in captured:
            board[sq] = EMPTY
        setup = self._setup
        after = Setup(
            None,
            BLACK if self._turn == WHITE else WHITE,
            halfmove=0 if captured else setup.halfmove + 1,
            fullmove=setup.fullmove + (1 if self._turn == BLACK else 0),
            geometry=setup.geometry,
            cells="".join(board),
        )
        return TaflPosition(after, self._variant)

    def _finished(self) -> Outcome | None:
        """The end the board itself shows: no king (captured) or a king on a corner."""
        rules = self._rules
        if not self._kings:
            return Outcome(rules.attacker, EndReason.KING_CAPTURED)
        for sq in self._kings:
            if rules.corner[sq]:
                return Outcome(rules.defender, EndReason.KING_ESCAPED)
        return None

    def outcome(self) -> Outcome | None:
        """``KING_CAPTURED`` (White wins), ``KING_ESCAPED`` (Black wins), ``STALEMATE``
        won by the other side when the side to move has no legal move, or None."""
        end = self._finished()
        if end is not None:
            return end
        has_move = bool(self._moves) if self._moves is not None else self._any_move()
        if not has_move:
            return Outcome(BLACK if self._turn == WHITE else WHITE, EndReason.STALEMATE)
        return None

    def _any_move(self) -> bool:
        """Whether the side to move has a move (the board not finished): the first one
        found ends the search."""
        cells = self._cells
        rules = self._rules
        special = rules.special
        royal = rules.royal
        white = self._turn == WHITE
        for origin in range(rules.size):
            piece = cells[origin]
            if piece == EMPTY or piece.isupper() != white:
                continue
            king = piece in royal
            for ray in rules.rays[origin]:
                for target in ray:
                    if cells[target] != EMPTY:
                        break
                    if king or not special[target]:
                        return True
        return False

    def is_check(self) -> bool:
        """Whether the side to move loses next move unless it answers: the king has an
        open line to a corner (White to move), or one White move captures the king (Black
        to move). False once the game is over."""
        if self._finished() is not None:
            return False
        if self._turn == self._rules.attacker:
            return self.king_can_escape()
        return self.king_can_be_captured()

    def king_can_escape(self) -> bool:
        """Whether a king has an open rook line to an empty corner (OpenTafl's ``-``)."""
        cells = self._cells
        rules = self._rules
        for king in self._kings:
            for ray in rules.rays[king]:
                for sq in ray:
                    if cells[sq] != EMPTY:
                        break
                    if rules.corner[sq]:
                        return True
        return False

    def king_can_be_captured(self) -> bool:
        """Whether one attacker's move would capture a king, whoever is to move
        (OpenTafl's ``+``): every square beside it but one is already hostile, and an
        attacker has an open line to that one."""
        cells = self._cells
        rules = self._rules
        attacker = rules.attacker
        for king in self._kings:
            if _colour(cells[king]) == attacker:
                continue
            open_squares: list[int] = []
            for sq, _beyond in rules.neighbours[king]:
                if not _hostile_to_king(rules, cells[sq], sq, attacker):
                    open_squares.append(sq)
            if len(open_squares) != 1 or cells[open_squares[0]] != EMPTY:
                continue
            for ray in rules.rays[open_squares[0]]:
                for sq in ray:
                    piece = cells[sq]
                    if piece == EMPTY:
                        continue
                    if _colour(piece) == attacker and piece not in rules.royal:
                        return True
                    break
        return False

    def to_setup(self) -> Setup:
        return self._setup

    def __repr__(self) -> str:
        return f"<TaflPosition {self._variant.key} {self._cells!r} {self._turn}>"


def _hostile_to_king(rules: TaflRules, piece: str, sq: int, attacker: Color) -> bool:
    """Whether ``sq`` (holding ``piece``) closes one side of a king: an attacker's
    taflman, or an empty special square."""
    if piece == EMPTY:
        return rules.special[sq]
    return _colour(piece) == attacker and piece not in rules.royal


def _captured(rules: TaflRules, board: list[str], target: int, mover: Color) -> list[int]:
    """The enemy pieces the piece just moved to ``target`` captures on ``board`` (which
    already shows the move), in square order."""
    found: list[int] = []
    royal = rules.royal
    for sq, beyond in rules.neighbours[target]:
        victim = board[sq]
        if victim == EMPTY or _colour(victim) == mover:
            continue
        if victim in royal:
            if _king_surrounded(rules, board, sq, mover):
                found.append(sq)
            continue
        if beyond < 0:
            continue
        anvil = board[beyond]
        if anvil == EMPTY:
            if rules.special[beyond]:
                found.append(sq)
        elif _colour(anvil) == mover:
            found.append(sq)
    found.sort()
    return found


def _king_surrounded(rules: TaflRules, board: list[str], king: int, mover: Color) -> bool:
    for sq, _beyond in rules.neighbours[king]:
        if not _hostile_to_king(rules, board[sq], sq, mover):
            return False
    return True
