"""``XiangqiPosition``: a legal Xiangqi position, its legal moves, and the position each
move leads to.

Made once from a ``Setup`` that validation accepted (``notation.game.legal_position``
validates); every later position comes from playing a legal move. The board is a list of
small integers, one per point (``notation.geometry`` numbering, a1 = 0): 0 for an empty
point, else the piece's kind (``CHARIOT`` .. ``SOLDIER``) plus ``BLACK_BIT`` for Black.
The rules are those of ``notation.rules.xiangqi_moves`` (palaces, river, horse legs,
elephant eyes, cannon screens), with tables built once per board: a move is legal when
it leaves its side's general unattacked and the two generals not facing each other on an
open file (the flying-general rule). Counters move as Fairy-Stockfish moves them for
Xiangqi: the halfmove clock restarts only on a capture (a soldier's step does not
restart it), the fullmove number grows after Black's move.

A side without a general has lost (``GENERAL_CAPTURED``): such a position has no moves.
A side with no legal move has lost too (checkmate or stalemate, as Xiangqi scores both).
Not checked here: repetition, perpetual check and chasing (claims judged on the game's
history). ``play`` raises ``ValueError`` for a move that is not legal here (``play_legal``
trusts its caller: the move came from ``legal_moves``); nothing else raises. Letters that
are no piece of the variant (validation refuses them) are left out.
"""

from __future__ import annotations

import functools
from typing import Final

from notation.game.move import Move, MoveKind
from notation.game.outcome import EndReason, Outcome
from notation.geometry import Geometry
from notation.rules.xiangqi_moves import in_palace, own_side
from notation.setup import Color, Setup
from notation.variants import Movement, Variant

# Piece kinds; a piece is its kind, plus BLACK_BIT for Black (red is the side written "w").
CHARIOT: Final = 1
HORSE: Final = 2
ELEPHANT: Final = 3
ADVISOR: Final = 4
GENERAL: Final = 5
CANNON: Final = 6
SOLDIER: Final = 7
BLACK_BIT: Final = 8
KIND_MASK: Final = 7

RED: Final = 0
BLACK: Final = 1

_KIND_OF_MOVEMENT: Final[dict[Movement, int]] = {
    Movement.ROOK: CHARIOT,
    Movement.HORSE: HORSE,
    Movement.ELEPHANT: ELEPHANT,
    Movement.ADVISOR: ADVISOR,
    Movement.GENERAL: GENERAL,
    Movement.CANNON: CANNON,
    Movement.SOLDIER: SOLDIER,
}
_NORMAL: Final = MoveKind.NORMAL
_COLOURS: Final[tuple[Color, Color]] = ("w", "b")

# Ray directions as (file step, rank step): along the rank first, then along the file.
_ORTHOGONAL: Final[tuple[tuple[int, int], ...]] = ((1, 0), (-1, 0), (0, 1), (0, -1))
_DIAGONAL: Final[tuple[tuple[int, int], ...]] = ((1, 1), (1, -1), (-1, 1), (-1, -1))
_FILE_RAYS: Final = (2, 3)  # the rays along the file: where the generals may face each other


class XiangqiTables:
    """Where each piece can go from each point of one board, and where attacks come from.

    Per point ``sq``: ``rays[sq]`` the four lines to the edge (along the rank, then along
    the file); ``horse_moves[sq]`` (leg, target) pairs; ``horse_checks[sq]`` (origin, leg)
    pairs of a horse that would attack ``sq``; per colour (``RED``, ``BLACK``) ``elephant_
    moves`` (eye, target) pairs, ``advisor_moves``, ``general_moves`` and ``soldier_moves``
    targets, ``soldier_checks`` the points a soldier of that colour attacks ``sq`` from.
    ``exposing[g]`` marks the origins from which a move may uncover an attack on a general
    on ``g`` (its file and rank, and the four points diagonally next to it: the legs of
    horses that would attack it); ``on_lines[g]`` marks its file and rank, where a piece
    that arrives can become a cannon's screen.
    """

    __slots__ = (
        "geometry", "files", "size", "rays", "horse_moves", "horse_checks", "elephant_moves", "advisor_moves",
        "general_moves", "soldier_moves", "soldier_checks", "exposing", "on_lines",
    )

    geometry: Geometry
    files: int
    size: int
    rays: tuple[tuple[tuple[int, ...], ...], ...]
    horse_moves: tuple[tuple[tuple[int, int], ...], ...]
    horse_checks: tuple[tuple[tuple[int, int], ...], ...]
    elephant_moves: tuple[tuple[tuple[tuple[int, int], ...], ...], ...]
    advisor_moves: tuple[tuple[tuple[int, ...], ...], ...]
    general_moves: tuple[tuple[tuple[int, ...], ...], ...]
    soldier_moves: tuple[tuple[tuple[int, ...], ...], ...]
    soldier_checks: tuple[tuple[tuple[int, ...], ...], ...]
    exposing: tuple[tuple[bool, ...], ...]
    on_lines: tuple[tuple[bool, ...], ...]

    def __init__(self, geometry: Geometry):
        self.geometry = geometry
        self.files = geometry.files
        self.size = geometry.size
        points = range(geometry.size)
        self.rays = tuple(tuple(_ray(geometry, sq, df, dr) for df, dr in _ORTHOGONAL) for sq in points)
        self.horse_moves = tuple(_horse_moves(geometry, sq) for sq in points)
        checks: list[list[tuple[int, int]]] = [[] for _ in points]
        for origin in points:
            for leg, target in self.horse_moves[origin]:
                checks[target].append((origin, leg))
        self.horse_checks = tuple(tuple(found) for found in checks)
        self.elephant_moves = tuple(
            tuple(_elephant_moves(geometry, sq, colour == RED) for sq in points) for colour in (RED, BLACK)
        )
        self.advisor_moves = tuple(
            tuple(_palace_steps(geometry, sq, colour == RED, _DIAGONAL) for sq in points) for colour in (RED, BLACK)
        )
        self.general_moves = tuple(
            tuple(_palace_steps(geometry, sq, colour == RED, _ORTHOGONAL) for sq in points) for colour in (RED, BLACK)
        )
        self.soldier_moves = tuple(
            tuple(_soldier_moves(geometry, sq, colour == RED) for sq in points) for colour in (RED, BLACK)
        )
        soldier_checks: list[list[list[int]]] = [[[] for _ in points] for _ in (RED, BLACK)]
        for colour in (RED, BLACK):
            for origin in points:
                for target in self.soldier_moves[colour][origin]:
                    soldier_checks[colour][target].append(origin)
        self.soldier_checks = tuple(tuple(tuple(found) for found in per_colour) for per_colour in soldier_checks)
        self.on_lines = tuple(tuple(_on_lines(geometry, g, sq) for sq in points) for g in points)
        self.exposing = tuple(
            tuple(_on_lines(geometry, g, sq) or _diagonally_next(geometry, g, sq) for sq in points) for g in points
        )


def _step(geometry: Geometry, sq: int, df: int, dr: int) -> int:
    """The point ``df`` files and ``dr`` ranks away, or -1 off the board."""
    file, rank = geometry.file_of(sq) + df, geometry.rank_of(sq) + dr
    return geometry.square(file, rank) if geometry.on_board(file, rank) else -1


def _ray(geometry: Geometry, sq: int, df: int, dr: int) -> tuple[int, ...]:
    out: list[int] = []
    near = _step(geometry, sq, df, dr)
    while near >= 0:
        out.append(near)
        near = _step(geometry, near, df, dr)
    return tuple(out)


def _horse_moves(geometry: Geometry, sq: int) -> tuple[tuple[int, int], ...]:
    out: list[tuple[int, int]] = []
    for df, dr in _ORTHOGONAL:
        leg = _step(geometry, sq, df, dr)
        if leg < 0:
            continue
        for side in (-1, 1):
            target = _step(geometry, sq, 2 * df + side * dr, 2 * dr + side * df)
            if target >= 0:
                out.append((leg, target))
    return tuple(out)


def _elephant_moves(geometry: Geometry, sq: int, red: bool) -> tuple[tuple[int, int], ...]:
    if not own_side(geometry, geometry.rank_of(sq), red):
        return ()
    out: list[tuple[int, int]] = []
    for df, dr in _DIAGONAL:
        eye, target = _step(geometry, sq, df, dr), _step(geometry, sq, 2 * df, 2 * dr)
        if eye >= 0 and target >= 0 and own_side(geometry, geometry.rank_of(target), red):
            out.append((eye, target))
    return tuple(out)


def _palace_steps(geometry: Geometry, sq: int, red: bool, steps: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    if not in_palace(geometry, geometry.file_of(sq), geometry.rank_of(sq), red):
        return ()
    out: list[int] = []
    for df, dr in steps:
        near = _step(geometry, sq, df, dr)
        if near >= 0 and in_palace(geometry, geometry.file_of(near), geometry.rank_of(near), red):
            out.append(near)
    return tuple(out)


def _soldier_moves(geometry: Geometry, sq: int, red: bool) -> tuple[int, ...]:
    out: list[int] = []
    ahead = _step(geometry, sq, 0, 1 if red else -1)
    if ahead >= 0:
        out.append(ahead)
    if not own_side(geometry, geometry.rank_of(sq), red):
        for df in (-1, 1):
            beside = _step(geometry, sq, df, 0)
            if beside >= 0:
                out.append(beside)
    return tuple(out)


def _on_lines(geometry: Geometry, general: int, sq: int) -> bool:
    return sq != general and (
        geometry.file_of(sq) == geometry.file_of(general) or geometry.rank_of(sq) == geometry.rank_of(general)
    )


def _diagonally_next(geometry: Geometry, general: int, sq: int) -> bool:
    files = abs(geometry.file_of(sq) - geometry.file_of(general))
    ranks = abs(geometry.rank_of(sq) - geometry.rank_of(general))
    return files == 1 and ranks == 1


class XiangqiRules:
    """What one Xiangqi variant asks of the move generator, worked out once: ``tables``
    for its board, ``piece_of`` (FEN letter -> piece number, both cases) and
    ``letter_of`` (piece number -> FEN letter, ``"."`` for an empty point)."""

    __slots__ = ("variant", "geometry", "tables", "piece_of", "letter_of")

    variant: Variant
    geometry: Geometry
    tables: XiangqiTables
    piece_of: dict[str, int]
    letter_of: tuple[str, ...]

    def __init__(self, variant: Variant):
        self.variant = variant
        self.geometry = variant.geometry
        self.tables = _tables_for(variant.geometry)
        piece_of: dict[str, int] = {}
        letters = ["."] * (2 * BLACK_BIT)
        for kind in variant.pieces:
            number = _KIND_OF_MOVEMENT.get(kind.movement)
            if number is None or letters[number] != ".":
                continue  # not a Xiangqi movement, or a second letter for one: never on a legal board
            piece_of[kind.letter.upper()] = number
            piece_of[kind.letter.lower()] = number | BLACK_BIT
            letters[number] = kind.letter.upper()
            letters[number | BLACK_BIT] = kind.letter.lower()
        self.piece_of = piece_of
        self.letter_of = tuple(letters)


@functools.cache
def _tables_for(geometry: Geometry) -> XiangqiTables:
    return XiangqiTables(geometry)


@functools.cache
def rules_of(variant: Variant) -> XiangqiRules:
    """The rules of ``variant`` (a Xiangqi-family registry entry), built once and kept."""
    return XiangqiRules(variant)


def attacked(board: list[int], target: int, colour: int, tables: XiangqiTables) -> bool:
    """Whether a piece of the side other than ``colour`` attacks ``target`` (the point of
    ``colour``'s general): a chariot on an open line, a cannon over one screen, a horse
    whose leg is free, a soldier, or the other general facing it on an open file.

    Elephants and advisors are not looked for: they never leave their own side of the
    river and their palace, so they cannot reach the other side's general.
    """
    base = (colour ^ 1) * BLACK_BIT
    chariot, cannon, general = base | CHARIOT, base | CANNON, base | GENERAL
    direction = 0
    for ray in tables.rays[target]:
        screened = False
        for sq in ray:
            piece = board[sq]
            if piece == 0:
                continue
            if screened:
                if piece == cannon:
                    return True
                break
            if piece == chariot or (piece == general and direction in _FILE_RAYS):
                return True
            screened = True
        direction += 1
    horse = base | HORSE
    for origin, leg in tables.horse_checks[target]:
        if board[origin] == horse and board[leg] == 0:
            return True
    soldier = base | SOLDIER
    for origin in tables.soldier_checks[colour ^ 1][target]:
        if board[origin] == soldier:
            return True
    return False


def pseudo_legal_codes(board: list[int], colour: int, tables: XiangqiTables) -> list[int]:
    """Every move of ``colour``'s pieces by the pieces' own rules, as ``origin * size +
    target``, before the test that the move leaves its general safe. In origin order."""
    size = tables.size
    out: list[int] = []
    for origin in range(size):
        piece = board[origin]
        if piece == 0 or piece >> 3 != colour:
            continue
        kind = piece & KIND_MASK
        base = origin * size
        if kind == CHARIOT or kind == CANNON:
            cannon = kind == CANNON
            for ray in tables.rays[origin]:
                screened = False
                for sq in ray:
                    other = board[sq]
                    if screened:
                        if other != 0:
                            if other >> 3 != colour:
                                out.append(base + sq)
                            break
                    elif other == 0:
                        out.append(base + sq)
                    elif cannon:
                        screened = True
                    else:
                        if other >> 3 != colour:
                            out.append(base + sq)
                        break
        elif kind == HORSE:
            for leg, sq in tables.horse_moves[origin]:
                other = board[sq]
                if board[leg] == 0 and (other == 0 or other >> 3 != colour):
                    out.append(base + sq)
        elif kind == ELEPHANT:
            for eye, sq in tables.elephant_moves[colour][origin]:
                other = board[sq]
                if board[eye] == 0 and (other == 0 or other >> 3 != colour):
                    out.append(base + sq)
        else:
            if kind == ADVISOR:
                steps = tables.advisor_moves[colour][origin]
            elif kind == GENERAL:
                steps = tables.general_moves[colour][origin]
            else:
                steps = tables.soldier_moves[colour][origin]
            for sq in steps:
                other = board[sq]
                if other == 0 or other >> 3 != colour:
                    out.append(base + sq)
    return out


def legal_codes(board: list[int], colour: int, general: int, in_check: bool, tables: XiangqiTables) -> list[int]:
    """``colour``'s legal moves (``origin * size + target``, ascending): the pseudo-legal
    moves after which its general on ``general`` is not attacked (``in_check``: whether it
    is attacked now).

    Out of check, a move of another piece can only expose the general if it leaves a point
    of ``exposing[general]`` or lands on its file or rank (a new cannon screen); the rest
    are legal without a look.
    """
    size = tables.size
    exposing, on_lines = tables.exposing[general], tables.on_lines[general]
    work = list(board)
    out: list[int] = []
    for code in pseudo_legal_codes(board, colour, tables):
        origin, target = divmod(code, size)
        if origin != general and not in_check and not exposing[origin] and not on_lines[target]:
            out.append(code)
            continue
        moved, captured = work[origin], work[target]
        work[target] = moved
        work[origin] = 0
        if not attacked(work, target if origin == general else general, colour, tables):
            out.append(code)
        work[origin] = moved
        work[target] = captured
    out.sort()
    return out


class XiangqiPosition:
    """A legal Xiangqi position. ``turn_index`` is 0 for red (``"w"``), 1 for black;
    ``board`` one piece number per point (read it, never change it); ``generals`` each
    side's general point, or -1 once it is captured."""

    __slots__ = (
        "rules", "turn_index", "board", "generals", "halfmove", "fullmove", "_setup", "_legal", "_codes", "_check",
    )

    rules: XiangqiRules
    turn_index: int
    board: list[int]
    generals: list[int]
    halfmove: int
    fullmove: int
    _setup: Setup | None
    _legal: list[Move] | None
    _codes: frozenset[int] | None
    _check: int  # -1 until asked, then 0 or 1

    def __init__(self, setup: Setup, variant: Variant):
        rules = rules_of(variant)
        self.rules = rules
        self.turn_index = RED if setup.turn == "w" else BLACK
        piece_of = rules.piece_of
        board = [piece_of.get(cell, 0) for cell in setup.cells]
        self.board = board
        red_general, black_general = GENERAL, GENERAL | BLACK_BIT
        self.generals = [
            board.index(red_general) if red_general in board else -1,
            board.index(black_general) if black_general in board else -1,
        ]
        self.halfmove = setup.halfmove
        self.fullmove = setup.fullmove
        self._setup = setup
        self._legal = None
        self._codes = None
        self._check = -1

    @property
    def variant(self) -> Variant:
        return self.rules.variant

    @property
    def turn(self) -> Color:
        return _COLOURS[self.turn_index]

    def _legal_codes(self) -> list[int]:
        generals = self.generals
        if generals[RED] < 0 or generals[BLACK] < 0:
            return []
        return legal_codes(self.board, self.turn_index, generals[self.turn_index], self.is_check(), self.rules.tables)

    def _generate(self) -> list[Move]:
        legal = self._legal
        if legal is None:
            codes = self._legal_codes()
            size = self.rules.tables.size
            legal = [Move(code // size, code % size) for code in codes]
            self._legal = legal
            self._codes = frozenset(codes)
        return legal

    def legal_moves(self) -> list[Move]:
        """Every legal move, by origin point then target point (none once a general is
        captured)."""
        return list(self._generate())

    def count_legal(self) -> int:
        """``len(legal_moves())``, without making the moves (perft's last ply)."""
        legal = self._legal
        return len(legal) if legal is not None else len(self._legal_codes())

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is one of ``legal_moves()``."""
        self._generate()
        codes, size = self._codes, self.rules.tables.size
        return (
            codes is not None
            and move.kind is _NORMAL
            and not move.promotion
            and not move.drop
            and 0 <= move.origin < size
            and 0 <= move.target < size
            and move.origin * size + move.target in codes
        )

    def play(self, move: Move) -> XiangqiPosition:
        """The position after ``move``; raises ``ValueError`` if it is not legal here."""
        if not self.is_legal(move):
            raise ValueError(f"{move!r} is not a legal move in this position")
        return _Successor(self, move.origin, move.target)

    def play_legal(self, move: Move) -> XiangqiPosition:
        """``play`` for a move taken from ``legal_moves()``, not checked again (perft)."""
        return _Successor(self, move.origin, move.target)

    def is_check(self) -> bool:
        """Whether the side to move's general is attacked (False once it is captured)."""
        if self._check < 0:
            general = self.generals[self.turn_index]
            check = general >= 0 and attacked(self.board, general, self.turn_index, self.rules.tables)
            self._check = 1 if check else 0
        return self._check == 1

    def outcome(self) -> Outcome | None:
        """``GENERAL_CAPTURED`` when a side has no general (the other side wins; a draw if
        neither has one), else ``CHECKMATE`` or ``STALEMATE`` when the side to move has no
        legal move (it loses either way), else None."""
        red, black = self.generals
        if red < 0 or black < 0:
            winner: Color | None = None if red < 0 and black < 0 else ("w" if red >= 0 else "b")
            return Outcome(winner, EndReason.GENERAL_CAPTURED)
        if self._generate():
            return None
        reason = EndReason.CHECKMATE if self.is_check() else EndReason.STALEMATE
        return Outcome(_COLOURS[self.turn_index ^ 1], reason)

    def to_setup(self) -> Setup:
        """The position as a ``Setup`` (the one it was made from, for the first position)."""
        setup = self._setup
        if setup is None:
            letter_of = self.rules.letter_of
            setup = Setup(
                cells="".join([letter_of[piece] for piece in self.board]),
                turn=_COLOURS[self.turn_index],
                halfmove=self.halfmove,
                fullmove=self.fullmove,
                geometry=self.rules.geometry,
            )
            self._setup = setup
        return setup

    def __repr__(self) -> str:
        return f"<XiangqiPosition {self.to_setup()!r}>"


class _Successor(XiangqiPosition):
    """The position after a legal move, made from the position before it (not from a
    ``Setup``: ``XiangqiPosition.__init__`` reads one, and compiled code cannot make an
    instance without running its class's ``__init__``)."""

    __slots__ = ()

    def __init__(self, before: XiangqiPosition, origin: int, target: int):  # no super().__init__: no Setup to read
        board = list(before.board)
        moved, captured = board[origin], board[target]
        board[target] = moved
        board[origin] = 0
        generals = list(before.generals)
        if moved & KIND_MASK == GENERAL:
            generals[before.turn_index] = target
        if captured & KIND_MASK == GENERAL:
            generals[before.turn_index ^ 1] = -1
        self.rules = before.rules
        self.turn_index = before.turn_index ^ 1
        self.board = board
        self.generals = generals
        self.halfmove = 0 if captured else before.halfmove + 1
        self.fullmove = before.fullmove + before.turn_index
        self._setup = None
        self._legal = None
        self._codes = None
        self._check = -1
