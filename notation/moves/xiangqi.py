"""Xiangqi moves in Fairy-Stockfish's SAN, WXF, UCI and LAN and in ICCS, written as
Fairy-Stockfish writes them and read leniently.

Writing (``write_move``), with Fairy-Stockfish's piece letters (the WXF letters: K A E H R
C P, the same for both sides):

- SAN: ``Hg3``, ``Cxh10``, ``R3e4`` (disambiguated by file letter, then rank number, then
  square, among pieces of the kind that can legally reach the target), ``+`` for check and
  ``#`` for mate. Soldiers are lettered too (``Pc5``).
- LAN: ``Hh1-g3``, ``Ch3xh10``, with the same check marks.
- WXF (the WXF notation as Fairy-Stockfish writes it): piece, its file (numbered from each
  side's right, 1-9), ``+`` forwards, ``-`` backwards or ``=`` along the rank, then the
  target file, or the number of ranks for a move along the file: ``C2=5``, ``H8+7``. Two
  pieces of a kind on one file are told apart by ``+`` (front) or ``-`` (rear) after the
  letter (``R++1``) when the other piece could make the same step (its target lies on the
  board, for generals and advisors in the palace, for elephants on their side);
  otherwise by the file. Three or more on a file, or two on each of two files (soldiers),
  are numbered from the front instead of lettered, then given their file (``25=6``).
  No check marks.
- UCI (Fairy-Stockfish's): files a-i, ranks 1-10 (``h3e3``, ``a10a9``).
- ICCS (the UCCI protocol's spelling): files a-i, ranks 0-9 (``h2e2``).

Reading (``read_move``) takes what each notation writes, and more where real files need
it; each repair is a warning ``Problem`` with its own code:

- ``lenient-wxf-case``: a WXF piece letter in lower case (playOK writes Black's so);
- ``lenient-wxf-traverse``: ``.`` for ``=`` (``C2.5``);
- ``lenient-wxf-tandem``: a piece that shares its file with others of its kind named
  otherwise than Fairy-Stockfish names it: by its file (``P5+1``), by ``+``/``-`` before
  the letter (``+R+1``) or after it, or by its number from the front with or without
  the file;
- ``lenient-piece-letter``: the FEN letters ``N`` (horse) and ``B`` (elephant) for
  Fairy-Stockfish's ``H`` and ``E``, in SAN, LAN or WXF;
- ``over-disambiguated``, ``missing-capture-mark``, ``false-capture-mark``,
  ``wrong-check-mark``: SAN and LAN as the chess family reads them (``Rh3e3`` where
  ``Re3`` is unique, ``Ce3`` for ``Cxe3`` and back, a ``+`` or ``#`` that is wrong or
  missing);
- ``lenient-coordinate-form``: UCI or ICCS coordinates in upper case or with a ``-``
  between the points; ICCS's own record spelling ``H2-E2`` is not a repair.

When no notation is given, the text's shape chooses the reading (the shapes do not
overlap): two points in one case, as in ``h3e3`` or ``H2-E2``, are coordinates (SAN's
``E1a3`` mixes cases); WXF's shape (a piece, a file, ``+``/``-`` or a number from the
front, a sign and a digit) is WXF; a piece letter with both points and ``-`` or ``x``
between them is LAN; anything else is read as SAN.
Coordinates with a rank 10 are UCI, with a rank 0 or in ICCS's ``H2-E2`` spelling ICCS;
others are read both ways, and if both readings name a legal move (different ones,
since the ranks differ by one) the text is ``ambiguous-move``: pass the notation to
read such a game.

Errors (``MoveError``, ``fen`` the position before): ``bad-move-syntax`` (the text is no
move of the notation, or of any), ``illegal-move`` (no legal move fits), ``ambiguous-move``
(several fit; ``candidates`` lists them in the notation read), ``game-over`` (the
position is already decided: a general captured, or no legal move). Writing a move that
is not legal here raises ``ValueError``; a position of another family ``TypeError``.
"""

from __future__ import annotations

import functools
import re

from notation.errors import MoveError
from notation.fen.writer import write_fen
from notation.game.family import GamePosition
from notation.game.move import Move
from notation.game.xiangqi import (
    ADVISOR,
    BLACK,
    BLACK_BIT,
    ELEPHANT,
    GENERAL,
    KIND_MASK,
    RED,
    XiangqiPosition,
    XiangqiRules,
)
from notation.geometry import Geometry
from notation.move_options import MoveNotation
from notation.moves.reading import ReadMove
from notation.options import PieceLetters
from notation.problem import Problem
from notation.rules.xiangqi_moves import in_palace, own_side

_SAN = MoveNotation.SAN
_LAN = MoveNotation.LAN
_WXF = MoveNotation.WXF
_UCI = MoveNotation.UCI
_ICCS = MoveNotation.ICCS

NOTATIONS: tuple[MoveNotation, ...] = (_SAN, _WXF, _UCI, _ICCS, _LAN)


def _xiangqi(position: GamePosition) -> XiangqiPosition:
    if not isinstance(position, XiangqiPosition):
        raise TypeError(f"not a Xiangqi position: {position!r}")
    return position


class _Letters:
    """The letters a variant's moves are written with: ``of_kind[kind]`` the upper-case
    WXF letter Fairy-Stockfish writes (its letter synonyms ``h`` and ``e``), and
    ``kind_of`` every upper-case letter read -> (kind, whether it is a FEN letter that
    differs from the written one: ``N``, ``B``)."""

    __slots__ = ("of_kind", "kind_of")

    of_kind: tuple[str, ...]
    kind_of: dict[str, tuple[int, bool]]

    def __init__(self, rules: XiangqiRules):
        variant = rules.variant
        written = dict(variant.spellings.letters).get(PieceLetters.WXF.value, variant.piece_letters)
        of_kind = [""] * BLACK_BIT
        kind_of: dict[str, tuple[int, bool]] = {}
        for kind, letter in zip(variant.pieces, written, strict=True):
            number = rules.piece_of.get(kind.letter.upper())
            if number is not None:
                of_kind[number] = letter.upper()
                kind_of[letter.upper()] = (number, False)
        for kind in variant.pieces:
            number = rules.piece_of.get(kind.letter.upper())
            if number is not None and kind.letter.upper() not in kind_of:
                kind_of[kind.letter.upper()] = (number, True)
        self.of_kind = tuple(of_kind)
        self.kind_of = kind_of


@functools.cache
def _letters_of(rules: XiangqiRules) -> _Letters:
    return _Letters(rules)


def _letters(position: XiangqiPosition) -> _Letters:
    """The letters of the position's variant, worked out once per variant."""
    return _letters_of(position.rules)


# --- writing ----------------------------------------------------------------------------------


def write_move(position: GamePosition, move: Move, notation: MoveNotation) -> str:
    """``move`` in ``notation``; raises ``ValueError`` if it is not legal here or the
    notation is not one of ``NOTATIONS``."""
    xiangqi = _xiangqi(position)
    if not xiangqi.is_legal(move):
        raise ValueError(f"{move!r} is not a legal move in {xiangqi!r}")
    return _write(xiangqi, move, notation)


def _write(position: XiangqiPosition, move: Move, notation: MoveNotation) -> str:
    if notation is _SAN:
        return san(position, move)
    if notation is _WXF:
        return wxf(position, move)
    if notation is _UCI:
        return uci(position, move)
    if notation is _ICCS:
        return iccs(position, move)
    if notation is _LAN:
        return lan(position, move)
    raise ValueError(f"Xiangqi moves are not written in {notation.value}")


def uci(position: XiangqiPosition, move: Move) -> str:
    """``h3e3``: the two points, ranks 1-10 (not checked for legality)."""
    geometry = position.rules.geometry
    return geometry.square_name(move.origin) + geometry.square_name(move.target)


def iccs(position: XiangqiPosition, move: Move) -> str:
    """``h2e2``: the two points, ranks 0-9 (not checked for legality)."""
    return _iccs_point(position.rules.geometry, move.origin) + _iccs_point(position.rules.geometry, move.target)


def _iccs_point(geometry: Geometry, sq: int) -> str:
    return geometry.file_names[geometry.file_of(sq)] + str(geometry.rank_of(sq))


def _check_mark(position: XiangqiPosition, move: Move) -> str:
    after = position.play(move)
    if not after.is_check():
        return ""
    return "+" if after.legal_moves() else "#"


def _san_parts(position: XiangqiPosition, move: Move) -> tuple[str, str, str, str, str]:
    """SAN's letter, disambiguation, capture mark, target and check mark."""
    board, geometry = position.board, position.rules.geometry
    origin, target = move.origin, move.target
    piece = board[origin]
    others = [
        other.origin for other in position.legal_moves()
        if other.target == target and other.origin != origin and board[other.origin] == piece
    ]
    name = geometry.square_name(origin)
    if not others:
        disambiguation = ""
    elif all(geometry.file_of(sq) != geometry.file_of(origin) for sq in others):
        disambiguation = name[0]
    elif all(geometry.rank_of(sq) != geometry.rank_of(origin) for sq in others):
        disambiguation = name[1:]
    else:
        disambiguation = name
    capture = "x" if board[target] else ""
    letter = _letters(position).of_kind[piece & KIND_MASK]
    return letter, disambiguation, capture, geometry.square_name(target), _check_mark(position, move)


def san(position: XiangqiPosition, move: Move) -> str:
    """Fairy-Stockfish's SAN of a legal ``move``: ``Hg3``, ``Cxh10+``, ``R3e4``."""
    return "".join(_san_parts(position, move))


def lan(position: XiangqiPosition, move: Move) -> str:
    """Fairy-Stockfish's LAN of a legal ``move``: ``Hh1-g3``, ``Ch3xh10+``."""
    board, geometry = position.board, position.rules.geometry
    letter = _letters(position).of_kind[board[move.origin] & KIND_MASK]
    sign = "x" if board[move.target] else "-"
    return (
        letter + geometry.square_name(move.origin) + sign + geometry.square_name(move.target)
        + _check_mark(position, move)
    )


def _wxf_file(geometry: Geometry, file: int, colour: int) -> str:
    """A file's WXF number: 1-9 from the mover's right (red counts from file i)."""
    return str(geometry.files - file if colour == RED else file + 1)


def _forward(geometry: Geometry, rank: int, colour: int) -> int:
    """How far ``rank`` lies up the board as ``colour`` looks at it."""
    return rank if colour == RED else geometry.ranks - 1 - rank


def _wxf_motion(geometry: Geometry, origin: int, target: int, colour: int) -> str:
    """WXF's sign and number: ``+2`` two ranks forwards, ``=5`` along the rank to file 5,
    ``-6`` backwards to file 6 (a diagonal move gives its target file)."""
    from_rank, to_rank = geometry.rank_of(origin), geometry.rank_of(target)
    if from_rank == to_rank:
        sign = "="
    elif _forward(geometry, to_rank, colour) > _forward(geometry, from_rank, colour):
        sign = "+"
    else:
        sign = "-"
    if geometry.file_of(origin) == geometry.file_of(target):
        return sign + str(abs(to_rank - from_rank))
    return sign + _wxf_file(geometry, geometry.file_of(target), colour)


class _FileMates:
    """The pieces like the one on ``origin`` (same kind and side) that share its file:
    ``count`` of them with it, ``ahead`` in front of it as its side looks, and whether
    the side has two or more files holding two or more of them (``several_files``)."""

    __slots__ = ("count", "ahead", "others", "several_files")

    count: int
    ahead: int
    others: list[int]
    several_files: bool

    def __init__(self, position: XiangqiPosition, origin: int):
        board, geometry = position.board, position.rules.geometry
        piece, colour = board[origin], position.turn_index
        file, forward = geometry.file_of(origin), _forward(geometry, geometry.rank_of(origin), colour)
        per_file = [0] * geometry.files
        others: list[int] = []
        ahead = 0
        for sq, there in enumerate(board):
            if there != piece:
                continue
            per_file[geometry.file_of(sq)] += 1
            if sq != origin and geometry.file_of(sq) == file:
                others.append(sq)
                if _forward(geometry, geometry.rank_of(sq), colour) > forward:
                    ahead += 1
        self.count = per_file[file]
        self.ahead = ahead
        self.others = others
        self.several_files = sum(1 for n in per_file if n >= 2) >= 2


def _in_region(geometry: Geometry, kind: int, file: int, rank: int, colour: int) -> bool:
    """Whether a piece of ``kind`` may stand on (file, rank): Fairy-Stockfish's mobility
    regions for Xiangqi (the palace for generals and advisors, the own side of the river
    for elephants, the whole board for the rest)."""
    if not geometry.on_board(file, rank):
        return False
    if kind == GENERAL or kind == ADVISOR:
        return in_palace(geometry, file, rank, colour == RED)
    if kind == ELEPHANT:
        return own_side(geometry, rank, colour == RED)
    return True


def wxf(position: XiangqiPosition, move: Move) -> str:
    """Fairy-Stockfish's WXF of a legal ``move``: ``C2=5``, ``H8+7``, ``R++1``, ``25=6``.

    Fairy-Stockfish finds the other piece's step by adding the move's square difference on
    its 12-file board: a step off the ranks is refused, one off the nine files lands off
    the board; both are ``on_board`` here.
    """
    board, geometry = position.board, position.rules.geometry
    colour = position.turn_index
    origin, target = move.origin, move.target
    kind = board[origin] & KIND_MASK
    mates = _FileMates(position, origin)
    numbered = mates.count >= (2 if mates.several_files else 3)
    head = str(mates.ahead + 1) if numbered else _letters(position).of_kind[kind]
    by_front = False
    if mates.count == 2 and not mates.several_files:
        other = mates.others[0]
        file = geometry.file_of(other) + geometry.file_of(target) - geometry.file_of(origin)
        rank = geometry.rank_of(other) + geometry.rank_of(target) - geometry.rank_of(origin)
        by_front = _in_region(geometry, kind, file, rank, colour)
    if by_front:
        which = "-" if mates.ahead else "+"
    else:
        which = _wxf_file(geometry, geometry.file_of(origin), colour)
    return head + which + _wxf_motion(geometry, origin, target, colour)


# --- reading ----------------------------------------------------------------------------------


_COORDINATES = re.compile(r"([a-iA-I])(10|[0-9])(-?)([a-iA-I])(10|[0-9])")
_ICCS_RECORD = re.compile(r"[A-I][0-9]-[A-I][0-9]")
_WXF_LETTERED = re.compile(r"([A-Za-z])([1-9+-])([-+=.])([1-9])")
_WXF_MARKED = re.compile(r"([+-])([A-Za-z])([-+=.])([1-9])")
_WXF_NUMBERED = re.compile(r"([1-9])([1-9]?)([-+=.])([1-9])")
_SAN_TEXT = re.compile(r"([A-Z])([a-i])?(10|[1-9])?(x)?([a-i])(10|[1-9])([+#])?")
_LAN_TEXT = re.compile(r"([A-Z])([a-i])(10|[1-9])([-x])([a-i])(10|[1-9])([+#])?")

_NAMES = {
    _SAN: "SAN", _LAN: "LAN", _WXF: "WXF", _UCI: "UCI", _ICCS: "ICCS",
}


class _Reading:
    """One text being read in one position: where errors and warnings are made."""

    __slots__ = ("position", "text")

    position: XiangqiPosition
    text: str

    def __init__(self, position: XiangqiPosition, text: str):
        self.position = position
        self.text = text

    def error(self, code: str, message: str, candidates: list[str] | None = None) -> MoveError:
        position = self.position
        fen = write_fen(position.to_setup(), position.variant).fen
        return MoveError(code, message, move=self.text, fen=fen, candidates=candidates)

    def warning(self, code: str, message: str) -> Problem:
        return Problem(code, f"{self.text!r}: {message}", extra={"move": self.text})

    def bad_syntax(self, notation: MoveNotation | None) -> MoveError:
        where = f"in {_NAMES[notation]}" if notation is not None else "in any Xiangqi notation"
        return self.error("bad-move-syntax", f"{self.text!r} is not a move {where}")

    def ensure_not_over(self) -> None:
        outcome = self.position.outcome()
        if outcome is not None:
            raise self.error(
                "game-over", f"the game is over ({outcome.reason.value}, {outcome.result}): no move can follow"
            )

    def one_of(self, found: list[Move], notation: MoveNotation) -> Move:
        """The single move in ``found``; raises ``illegal-move`` or ``ambiguous-move``."""
        if not found:
            raise self.error("illegal-move", f"{self.text!r} names no legal move here ({_NAMES[notation]})")
        if len(found) > 1:
            candidates = [_write(self.position, move, notation) for move in found]
            raise self.error(
                "ambiguous-move", f"{self.text!r} fits {len(found)} legal moves: {', '.join(candidates)}", candidates
            )
        return found[0]


def read_move(position: GamePosition, text: str, notation: MoveNotation | None = None) -> ReadMove:
    """The legal move ``text`` names, in ``notation`` or (None) in the notation its shape
    says (module docstring). Raises ``MoveError``; ``ValueError`` for a notation not in
    ``NOTATIONS``."""
    xiangqi = _xiangqi(position)
    reading = _Reading(xiangqi, text)
    if notation is None:
        return _read_any(reading)
    if notation is _UCI or notation is _ICCS:
        return _read_coordinates(reading, (notation,), notation)
    if notation is _WXF:
        return _read_wxf(reading, notation)
    if notation is _SAN:
        return _read_san(reading, notation)
    if notation is _LAN:
        return _read_lan(reading, notation)
    raise ValueError(f"Xiangqi moves are not read in {notation.value}")


def _read_any(reading: _Reading) -> ReadMove:
    text = reading.text
    if _COORDINATES.fullmatch(text) and (text == text.lower() or text == text.upper()):  # SAN has E1a3
        if _ICCS_RECORD.fullmatch(text):
            return _read_coordinates(reading, (_ICCS,), None)
        return _read_coordinates(reading, (_UCI, _ICCS), None)
    if _WXF_LETTERED.fullmatch(text) or _WXF_MARKED.fullmatch(text) or _WXF_NUMBERED.fullmatch(text):
        return _read_wxf(reading, None)
    if _LAN_TEXT.fullmatch(text):
        return _read_lan(reading, None)
    return _read_san(reading, None)


# Coordinates -----------------------------------------------------------------------------------


def _read_coordinates(reading: _Reading, notations: tuple[MoveNotation, ...], asked: MoveNotation | None) -> ReadMove:
    """UCI (ranks 1-10) or ICCS (ranks 0-9) points; ``notations`` are the readings tried."""
    text = reading.text
    parts = _COORDINATES.fullmatch(text)
    if parts is None:
        raise reading.bad_syntax(asked)
    geometry = reading.position.rules.geometry
    readings: list[tuple[MoveNotation, Move]] = []
    for notation in notations:
        low = 1 if notation is _UCI else 0
        ranks = [int(parts.group(2)) - low, int(parts.group(5)) - low]
        if not all(0 <= rank < geometry.ranks for rank in ranks):
            continue
        origin = geometry.square(geometry.file_names.index(parts.group(1).lower()), ranks[0])
        target = geometry.square(geometry.file_names.index(parts.group(4).lower()), ranks[1])
        readings.append((notation, Move(origin, target)))
    if not readings:
        raise reading.bad_syntax(asked)
    reading.ensure_not_over()
    legal = [(notation, move) for notation, move in readings if reading.position.is_legal(move)]
    if not legal:
        names = " or ".join(_NAMES[notation] for notation, _ in readings)
        raise reading.error("illegal-move", f"{text!r} names no legal move here ({names})")
    if len(legal) > 1:
        candidates = [uci(reading.position, move) for _, move in legal]
        raise reading.error(
            "ambiguous-move",
            f"{text!r} is a legal move in UCI (ranks 1-10) and, as {candidates[1]} in UCI, in ICCS (ranks 0-9):"
            " name the notation",
            candidates,
        )
    notation, move = legal[0]
    warnings: list[Problem] = []
    plain = text == text.lower() and "-" not in text
    if not plain and not (notation is _ICCS and _ICCS_RECORD.fullmatch(text)):
        written = _write(reading.position, move, notation)
        warnings.append(reading.warning("lenient-coordinate-form", f"{_NAMES[notation]} is written {written}"))
    return ReadMove(move, warnings)


# WXF -------------------------------------------------------------------------------------------


class _WxfText:
    """A WXF text taken apart: the piece ``kind`` (0 when the piece is given by its number
    from the front), ``letter`` as written, how the piece is picked (``file``: a WXF file
    number or 0; ``front``: ``+`` or ``-`` or ``""``; ``number``: from the front, or 0;
    ``marker_first``: ``+R``), and the motion (``sign``, ``amount``)."""

    __slots__ = ("kind", "letter", "file", "front", "number", "marker_first", "sign", "amount")

    kind: int
    letter: str
    file: int
    front: str
    number: int
    marker_first: bool
    sign: str
    amount: str

    def __init__(self) -> None:
        self.kind = 0
        self.letter = ""
        self.file = 0
        self.front = ""
        self.number = 0
        self.marker_first = False
        self.sign = ""
        self.amount = ""


def _parse_wxf(reading: _Reading, asked: MoveNotation | None) -> _WxfText:
    text = reading.text
    parsed = _WxfText()
    lettered = _WXF_LETTERED.fullmatch(text)
    marked = _WXF_MARKED.fullmatch(text)
    numbered = _WXF_NUMBERED.fullmatch(text)
    if lettered:
        parsed.letter, which, parsed.sign, parsed.amount = lettered.groups()
        if which in "+-":
            parsed.front = which
        else:
            parsed.file = int(which)
    elif marked:
        parsed.front, parsed.letter, parsed.sign, parsed.amount = marked.groups()
        parsed.marker_first = True
    elif numbered:
        number, file, parsed.sign, parsed.amount = numbered.groups()
        parsed.number = int(number)
        parsed.file = int(file) if file else 0
    else:
        raise reading.bad_syntax(asked)
    if parsed.letter:
        known = _letters(reading.position).kind_of.get(parsed.letter.upper())
        if known is None:
            raise reading.bad_syntax(asked)
        parsed.kind = known[0]
    return parsed


def _picks(position: XiangqiPosition, parsed: _WxfText, origin: int) -> bool:
    """Whether the piece on ``origin`` is the one ``parsed`` names (kind, file, place)."""
    geometry, colour = position.rules.geometry, position.turn_index
    piece = position.board[origin]
    if parsed.kind and piece & KIND_MASK != parsed.kind:
        return False
    if parsed.file and _wxf_file(geometry, geometry.file_of(origin), colour) != str(parsed.file):
        return False
    if not parsed.front and not parsed.number:
        return True
    mates = _FileMates(position, origin)
    if mates.count < 2:
        return False
    if parsed.number:
        return mates.ahead + 1 == parsed.number
    behind = mates.count - 1 - mates.ahead
    if parsed.front == "+":
        return mates.ahead == 0 and behind > 0
    return behind == 0 and mates.ahead > 0


def _read_wxf(reading: _Reading, asked: MoveNotation | None) -> ReadMove:
    parsed = _parse_wxf(reading, asked)
    reading.ensure_not_over()
    position = reading.position
    geometry, colour = position.rules.geometry, position.turn_index
    motion = ("=" if parsed.sign == "." else parsed.sign) + parsed.amount
    board, kind = position.board, parsed.kind
    found = [
        move for move in position.legal_moves()
        if (not kind or board[move.origin] & KIND_MASK == kind)
        and _wxf_motion(geometry, move.origin, move.target, colour) == motion
        and _picks(position, parsed, move.origin)
    ]
    move = reading.one_of(found, _WXF)
    written = wxf(position, move)
    warnings: list[Problem] = []
    if parsed.letter and not parsed.letter.isupper():
        side = "Black" if colour == BLACK else "Red"
        warnings.append(reading.warning("lenient-wxf-case", f"lower-case piece letter for {side} (written {written})"))
    if parsed.sign == ".":
        warnings.append(reading.warning("lenient-wxf-traverse", f"'.' for '=' (written {written})"))
    if parsed.letter and _letters(position).kind_of[parsed.letter.upper()][1]:
        warnings.append(reading.warning("lenient-piece-letter", f"FEN letter {parsed.letter!r} (written {written})"))
    if _named_otherwise(parsed, written, _letters(position).of_kind[parsed.kind] if parsed.kind else ""):
        warnings.append(
            reading.warning("lenient-wxf-tandem", f"a piece sharing its file named otherwise (written {written})")
        )
    return ReadMove(move, warnings)


def _named_otherwise(parsed: _WxfText, written: str, letter: str) -> bool:
    """Whether ``parsed`` picks its piece otherwise than the canonical ``written`` does
    (letter case, ``.`` and FEN letters aside: they have their own warnings)."""
    if parsed.number:
        head = str(parsed.number) + (str(parsed.file) if parsed.file else "")
    elif parsed.marker_first:
        head = parsed.front + letter
    else:
        head = letter + (parsed.front or str(parsed.file))
    return head != written[:-2]


# SAN and LAN -----------------------------------------------------------------------------------


def _san_kind(reading: _Reading, letter: str, asked: MoveNotation | None) -> tuple[int, bool]:
    known = _letters(reading.position).kind_of.get(letter)
    if known is None:
        raise reading.bad_syntax(asked)
    return known


def _read_san(reading: _Reading, asked: MoveNotation | None) -> ReadMove:
    parts = _SAN_TEXT.fullmatch(reading.text)
    if parts is None:
        raise reading.bad_syntax(asked)
    letter, file, rank, capture, target_file, target_rank, check = parts.groups()
    kind, fen_letter = _san_kind(reading, letter, asked)
    reading.ensure_not_over()
    position = reading.position
    geometry = position.rules.geometry
    target = geometry.parse_square(target_file + target_rank)
    found = [
        move for move in position.legal_moves()
        if move.target == target
        and position.board[move.origin] & KIND_MASK == kind
        and (file is None or geometry.square_name(move.origin)[0] == file)
        and (rank is None or geometry.square_name(move.origin)[1:] == rank)
    ]
    move = reading.one_of(found, _SAN)
    canonical_letter, disambiguation, canonical_capture, _, canonical_check = _san_parts(position, move)
    written = canonical_letter + disambiguation + canonical_capture + geometry.square_name(target) + canonical_check
    warnings = _marks(reading, fen_letter, capture or "", canonical_capture, check or "", canonical_check, written)
    if (file or "") + (rank or "") != disambiguation:
        warnings.append(reading.warning("over-disambiguated", f"more of the origin than needed (written {written})"))
    return ReadMove(move, warnings)


def _read_lan(reading: _Reading, asked: MoveNotation | None) -> ReadMove:
    parts = _LAN_TEXT.fullmatch(reading.text)
    if parts is None:
        raise reading.bad_syntax(asked)
    letter, file, rank, sign, target_file, target_rank, check = parts.groups()
    kind, fen_letter = _san_kind(reading, letter, asked)
    reading.ensure_not_over()
    position = reading.position
    geometry = position.rules.geometry
    move = Move(geometry.parse_square(file + rank), geometry.parse_square(target_file + target_rank))
    if not position.is_legal(move) or position.board[move.origin] & KIND_MASK != kind:
        raise reading.error("illegal-move", f"{reading.text!r} names no legal move here (LAN)")
    written = lan(position, move)
    capture = "x" if position.board[move.target] else ""
    canonical_check = written[-1] if written[-1] in "+#" else ""
    return ReadMove(move, _marks(reading, fen_letter, "x" if sign == "x" else "", capture, check or "", canonical_check,
                                 written))


def _marks(
    reading: _Reading, fen_letter: bool, capture: str, canonical_capture: str, check: str, canonical_check: str,
    written: str,
) -> list[Problem]:
    """The warnings for a SAN or LAN text's letter, capture mark and check mark."""
    warnings: list[Problem] = []
    if fen_letter:
        warnings.append(reading.warning("lenient-piece-letter", f"a FEN letter for the piece (written {written})"))
    if capture != canonical_capture:
        if canonical_capture:
            warnings.append(reading.warning("missing-capture-mark", f"a capture without 'x' (written {written})"))
        else:
            message = f"'x' on a move that takes nothing (written {written})"
            warnings.append(reading.warning("false-capture-mark", message))
    if check != canonical_check:
        warnings.append(reading.warning("wrong-check-mark", f"check mark {check or 'missing'} (written {written})"))
    return warnings
