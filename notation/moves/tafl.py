"""Tafl moves in the OpenTafl notation (the OpenTafl notation specification's move records).

Written: ``[K]<origin>-<target>[x<captured>[/<captured>]...][mark]``, e.g. ``e2-c2``,
``e5-e8xe9``, ``d5-d7xd6/d8``, ``Ke5-e1-``, ``Ke1-a1--``, ``a3-e3+``, ``e3-e4++``:

- the piece letter only for the king (the specification's "use for special pieces
  only"), in OpenTafl's case: defenders upper case, so ``K``;
- every captured taflman, in square order, after one ``x`` and separated by ``/``; a
  captured king is not listed: ``++`` says it (the specification's "e3-e4++");
- the mark, for the threat of the side that just moved: ``++`` the king was captured,
  ``--`` it escaped, ``+`` one White move would capture it, ``-`` it has an open line to
  a corner (``TaflPosition.is_check`` of the position after the move).

Read: that form and what the specification also allows, with a warning (``ReadMove``)
where a strict reader would refuse: a piece letter for a taflman (``unneeded-piece-letter``),
upper-case squares (``square-case``), a capture list that is not what the move captures
(``wrong-captures``: the squares decide the move, as OpenTafl replays records from their
origin and target alone; the list is optional), a ``++`` or ``--`` the move does not
earn (``wrong-game-end-mark``). ``+`` and ``-`` are read and not judged (Damian Walker's
form, which the specification also accepts, writes ``+`` for either side's threat).

Raises ``MoveError``: ``bad-move-syntax`` (not a move record, a resignation ``---``, no
``-`` between the squares, a square off the board), ``game-over`` (a readable move once
the game is over), ``illegal-move`` (no such move here, a jump or berserk move, a piece
letter that is not the piece on the origin). Never ``ambiguous-move``: a record names
both squares. ``write_move`` raises ``ValueError`` for a move that is not legal.
"""

from __future__ import annotations

import re
from typing import Final, NoReturn

from notation.errors import MoveError
from notation.fen.profiles import DEFAULT_OPTIONS
from notation.fen.writer import write_fen
from notation.game.family import GamePosition
from notation.game.move import Move
from notation.game.outcome import EndReason
from notation.game.tafl import EMPTY, TaflPosition
from notation.move_options import MoveNotation
from notation.moves.reading import ReadMove
from notation.problem import Problem

NOTATIONS: Final = (MoveNotation.OPENTAFL,)

_SQUARE: Final = r"[a-lA-L](?:1[0-2]|[1-9])"
_LETTER: Final = r"[tcnkmgTCNKMG]"  # OpenTafl's taflman symbols: taflman, commander, knight, king, mercenary, guard
_RECORD: Final = re.compile(
    rf"(?P<letter>{_LETTER})?(?P<origin>{_SQUARE})(?P<kind>\^=|\^|=|-)?(?P<target>{_SQUARE})"
    rf"(?:x(?P<captures>{_LETTER}?{_SQUARE}(?:/{_LETTER}?{_SQUARE})*))?"
    r"(?P<mark>\+\+|--|\+|-)?"
)
_CAPTURE: Final = re.compile(rf"(?P<letter>{_LETTER})?(?P<square>{_SQUARE})")
_RESIGNATION: Final = "---"


def _tafl(position: GamePosition) -> TaflPosition:
    if not isinstance(position, TaflPosition):
        raise TypeError(f"the OpenTafl notation writes tafl positions, not {type(position).__name__}")
    return position


def _letter(piece: str) -> str:
    """OpenTafl's symbol for the piece written ``piece`` in our FEN-style form: the same
    letter, case swapped (OpenTafl writes defenders upper case; see notation.fen.opentafl)."""
    return piece.swapcase()


def write_move(position: GamePosition, move: Move, notation: MoveNotation) -> str:
    """``move`` in the OpenTafl notation; raises ``ValueError`` if it is not legal here."""
    tafl = _tafl(position)
    if not tafl.is_legal(move):
        raise ValueError(f"not a legal move in this position: {move!r}")
    names = tafl.rules.geometry.square_names
    royal = tafl.rules.royal
    piece = tafl.piece_at(move.origin)
    text = (_letter(piece) if piece in royal else "") + names[move.origin] + "-" + names[move.target]
    taken = [sq for sq in tafl.captures(move) if tafl.piece_at(sq) not in royal]
    if taken:
        text += "x" + "/".join(names[sq] for sq in taken)
    return text + _mark(tafl, tafl.play(move))


def _mark(before: TaflPosition, after: TaflPosition) -> str:
    end = after.outcome()
    if end is not None and end.reason is EndReason.KING_CAPTURED:
        return "++"
    if end is not None and end.reason is EndReason.KING_ESCAPED:
        return "--"
    if after.is_check():
        return "+" if before.turn == before.rules.attacker else "-"
    return ""


def read_move(position: GamePosition, text: str, notation: MoveNotation | None = None) -> ReadMove:
    """The legal move an OpenTafl move record names here; raises ``MoveError``."""
    tafl = _tafl(position)
    geometry = tafl.rules.geometry
    record = text.strip()
    if record == _RESIGNATION:
        _fail(tafl, text, "bad-move-syntax", "'---' is a resignation in the OpenTafl notation, not a move")
    found = _RECORD.fullmatch(record)
    if found is None:
        _fail(tafl, text, "bad-move-syntax",
              f"not an OpenTafl move record: {text!r} (expected a record such as e5-e8 or e5-e8xe9)")
    warnings: list[Problem] = []
    squares = [found["origin"], found["target"]]
    capture_texts = found["captures"].split("/") if found["captures"] else []
    squares += [_square_text(item) for item in capture_texts]
    if any(not name.islower() for name in squares):
        warnings.append(_warning(text, "square-case", "the OpenTafl notation writes squares in lower case"))
    for name in squares:
        if name.lower() not in geometry.square_index:
            _fail(tafl, text, "bad-move-syntax", f"{name} is not a square of the {geometry} board")
    if found["kind"] is None:
        _fail(tafl, text, "bad-move-syntax",
              "the OpenTafl notation writes '-' between the squares of a move (e5-e8)")
    if tafl.outcome() is not None:
        _fail(tafl, text, "game-over", "the game is over: no move can be played")
    if found["kind"] != "-":
        _fail(tafl, text, "illegal-move",
              f"{found['kind']!r} is a jump or berserk move; {tafl.variant.name} has neither")
    origin = geometry.parse_square(found["origin"].lower())
    target = geometry.parse_square(found["target"].lower())
    move = Move(origin, target)
    if not tafl.is_legal(move):
        _fail(tafl, text, "illegal-move", _why_illegal(tafl, origin, target), _candidates(tafl, origin))
    piece = tafl.piece_at(origin)
    letter = found["letter"]
    if letter:
        if letter != _letter(piece):
            _fail(tafl, text, "illegal-move",
                  f"{letter} names no piece on {geometry.square_name(origin)}: OpenTafl writes that piece "
                  f"{_letter(piece)}")
        if piece not in tafl.rules.royal:
            warnings.append(_warning(
                text, "unneeded-piece-letter",
                "the OpenTafl notation writes a piece letter for special pieces (the king) only",
            ))
    if capture_texts and not _captures_match(tafl, move, capture_texts, text, warnings):
        warnings.append(_warning(text, "wrong-captures", _captures_message(tafl, tafl.captures(move))))
    mark = found["mark"]
    if mark in ("++", "--"):
        after = tafl.play(move)
        end = after.outcome()
        earned = end is not None and end.reason is (
            EndReason.KING_CAPTURED if mark == "++" else EndReason.KING_ESCAPED
        )
        if not earned:
            what = "captures the king" if mark == "++" else "lets the king escape"
            warnings.append(_warning(text, "wrong-game-end-mark", f"{mark!r} says the move {what}; it does not"))
    return ReadMove(move, warnings)


def _captures_match(
    position: TaflPosition, move: Move, items: list[str], text: str, warnings: list[Problem]
) -> bool:
    """Whether the capture list ``items`` names what ``move`` captures: every captured
    taflman once, the king too or not (OpenTafl's program lists it as ``xKe5``), each
    letter the symbol of the piece there (a taflman's letter adds ``unneeded-piece-letter``)."""
    geometry = position.rules.geometry
    royal = position.rules.royal
    captured = position.captures(move)
    taken = [sq for sq in captured if position.piece_at(sq) not in royal]
    listed: list[int] = []
    for item in items:
        found = _CAPTURE.fullmatch(item)
        if found is None:
            return False
        sq = geometry.parse_square(found["square"].lower())
        letter = found["letter"]
        piece = position.piece_at(sq)
        if letter:
            if piece == EMPTY or letter != _letter(piece):
                return False
            if piece not in royal and not any(w.code == "unneeded-piece-letter" for w in warnings):
                warnings.append(_warning(
                    text, "unneeded-piece-letter",
                    "the OpenTafl notation writes a piece letter for special pieces (the king) only",
                ))
        listed.append(sq)
    listed.sort()
    return listed == taken or listed == captured


def _square_text(item: str) -> str:
    found = _CAPTURE.fullmatch(item)
    return found["square"] if found is not None else item


def _captures_message(position: TaflPosition, captured: list[int]) -> str:
    names = position.rules.geometry.square_names
    if not captured:
        return "the capture list does not match the move: it captures nothing"
    listed = "/".join(names[sq] for sq in captured)
    return f"the capture list does not match the move: it captures {listed}"


def _why_illegal(position: TaflPosition, origin: int, target: int) -> str:
    rules = position.rules
    names = rules.geometry.square_names
    piece = position.piece_at(origin)
    side = "White" if position.turn == "w" else "Black"
    if piece == EMPTY:
        return f"no piece on {names[origin]}"
    if (piece.isupper()) != (position.turn == "w"):
        return f"the piece on {names[origin]} is not {side}'s, and {side} is to move"
    if origin == target:
        return "a move must leave its square"
    if position.piece_at(target) != EMPTY:
        return f"{names[target]} is occupied"
    if rules.special[target] and piece not in rules.royal:
        return f"only the king may stop on {names[target]}"
    files = rules.files
    if origin // files != target // files and origin % files != target % files:
        return f"{names[origin]} and {names[target]} are not on one rank or file: pieces move like a rook"
    return f"the way from {names[origin]} to {names[target]} is blocked"


def _candidates(position: TaflPosition, origin: int) -> list[str] | None:
    moves = [move for move in position.legal_moves() if move.origin == origin]
    if not moves:
        return None
    return [write_move(position, move, MoveNotation.OPENTAFL) for move in moves]


def _warning(text: str, code: str, message: str) -> Problem:
    return Problem(code, message, extra={"move": text})


def _fail(position: TaflPosition, text: str, code: str, message: str, candidates: list[str] | None = None) -> NoReturn:
    fen = write_fen(position.to_setup(), position.variant, DEFAULT_OPTIONS).fen
    raise MoveError(code, message, move=text, fen=fen, candidates=candidates)
