"""Chess-family moves in SAN, LAN and UCI, written canonically and read leniently.

Writing (``write_move``) follows python-chess, the project's default producer: SAN with
minimal disambiguation by the variant's own legality (file first, then rank, then both),
``O-O``/``O-O-O``, ``=Q``, ``+`` for check and ``#`` for checkmate or any decided end the
move brings (the third check, the hill, an exploded king), ``--`` for a null move, drops
``N@f3`` and pawn drops ``@e4`` (``PawnDrop.LETTERED`` writes ``P@e4`` as lichess does).
LAN is ``Ng1-f3``, ``e7xd8=Q+``. UCI is ``g1f3``, ``e7d8q``, ``N@f3``, ``0000``; castling
``e1g1`` in ``CastlingMode.STANDARD`` from the classical squares, the king taking its own
rook (``e1h1``) in Chess960 mode and wherever the king does not stand on the e-file with
its rook in the corner. itsyourturn Atomic's detonation is ``@@e4`` in SAN and LAN and
``e4e4`` in UCI (no other move goes from a square to itself).

Reading (``read_move``) takes any of the three, and is lenient where real files need it;
each repair is a warning ``Problem`` with its own code:

- ``castling-with-zeros``: ``0-0``, ``0-0-0``; ``castling-lower-case``: ``o-o``;
- ``promotion-without-equals``: ``e8Q``; ``promotion-lower-case``: ``e8=q``;
- ``drop-with-star``: ``N*f3`` (the BPGN habit); ``pawn-drop-letter`` is not a repair
  (``P@e4`` and ``@e4`` are both standard);
- ``over-disambiguated``: ``Ngf3`` or ``Ng1f3`` where ``Nf3`` is unique;
- ``missing-capture-mark``: ``Nf3`` for ``Nxf3``; ``false-capture-mark``: ``Nxf3``
  taking nothing;
- ``wrong-check-mark``: a ``+`` or ``#`` the move does not give, or one it gives missing;
- ``long-algebraic``: ``Ng1-f3`` read where SAN was asked for; ``uci-in-san``: ``g1f3``;
- ``king-takes-rook``: castling written ``Ke1h1`` or ``e1h1`` in standard mode;
- ``en-passant-mark``: an en passant capture marked ``e.p.`` or ``ep`` (``exd6e.p.``; the
  PGN standard writes no mark, some libraries and older files do); ``false-en-passant-mark``:
  the mark on a move that is no en passant capture. A mark written apart (``exd6 e.p.``) is
  the movetext walker's to read (``en_passant_mark``).
- ``long-algebraic-without-piece``: ``g1-f3``, ``e1-g1`` (pgn-extract's hyphenated long
  algebraic): the piece on the origin square, the king's step castling;
- looked for only once every reading above failed (``respell``): ``figurine`` (``♘f3``,
  ``e8=♕``), ``glued-evaluation`` (``Nf3⩲``, ``e4+-``: a rewrite writes the sign apart as
  its NAG), ``novelty-mark`` (``Bb5N``; ``b8N`` is a promotion first),
  ``promotion-separator`` (``b8(Q)``, ``b8/Q``), ``castling-dash`` (``O‑O``, ``0–0``);
- ``foreign-piece-letters``: another language's piece letters, read only when asked
  (``read_move(..., letters=MoveLanguage.DE)``: ``Sf3``; no English letter German does
  not write is read then).

A ``Kxh1``-style king move that is not legal as a king move is never taken for castling.
Errors (``MoveError``): ``bad-move-syntax`` (not a move in any of the notations),
``illegal-move`` (no legal move fits), ``ambiguous-move`` (several fit; ``candidates``
lists them in SAN), ``game-over`` (the position is already decided).

Three readers, one answer: ``read_plain_san`` takes the plain SAN most files hold (by
character codes, the origins from the position's bitboards) and returns None for anything
else; ``read_lenient_san`` then takes the lenient spellings files hold most (a check or
capture mark missing or false, over-disambiguation, long algebraic, UCI, zeros) the same
way, with the warnings the full reader gives; the full reader (``_Reader``, regular
expressions and candidate lists) reads the rest. tests/moves/test_moves_plain_san.py and
test_moves_lenient_san.py hold them to the same answers.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Final

from notation.errors import MoveError
from notation.game.chess.position import ChessPosition
from notation.game.family import GamePosition
from notation.game.move import Move, MoveKind
from notation.lean_enum import LeanStrEnum
from notation.move_options import CastlingMode, MoveLanguage, MoveNotation
from notation.moves.reading import (
    CASTLING_WITH_ZEROS,
    CASTLING_WITH_ZEROS_MESSAGE,
    FALSE_CAPTURE_MARK,
    FALSE_CAPTURE_MARK_MESSAGE,
    LONG_ALGEBRAIC,
    LONG_ALGEBRAIC_MESSAGE,
    MISSING_CAPTURE_MARK,
    MISSING_CAPTURE_MARK_MESSAGE,
    OVER_DISAMBIGUATED,
    OVER_DISAMBIGUATED_MESSAGE,
    PROMOTION_WITHOUT_EQUALS,
    PROMOTION_WITHOUT_EQUALS_MESSAGE,
    UCI_IN_SAN,
    WITHOUT_PIECE,
    WITHOUT_PIECE_MESSAGE,
    WRONG_CHECK_MARK,
    ReadMove,
    check_mark_flag,
    check_mark_message,
)
from notation.problem import Problem
from notation.rules.square_set import BIT, FILES, RANKS, first, several
from notation.variants import Stalemate

if TYPE_CHECKING:  # i64: compiled, a machine integer (notation.rules.square_set)
    from mypy_extensions import i64

    from notation.game.chess.rules import ChessRules

NOTATIONS: tuple[MoveNotation, ...] = (MoveNotation.SAN, MoveNotation.LAN, MoveNotation.UCI)

# Bound once as C statics (compiled): an enum member read off its class is an attribute
# look-up through the enum's metaclass each time.
_NORMAL: Final = MoveKind.NORMAL
_CASTLE: Final = MoveKind.CASTLE
_DROP: Final = MoveKind.DROP
_NULL: Final = MoveKind.NULL
_DETONATE: Final = MoveKind.DETONATE
_SAN_NOTATION: Final = MoveNotation.SAN
_LAN_NOTATION: Final = MoveNotation.LAN
_UCI_NOTATION: Final = MoveNotation.UCI
_STANDARD_CASTLING: Final = CastlingMode.STANDARD
_DRAW: Final = Stalemate.DRAW


class PawnDrop(LeanStrEnum):
    """How a pawn drop is written in SAN and LAN."""

    BARE = "bare"  # ``@e4``, as python-chess writes it
    LETTERED = "lettered"  # ``P@e4``, as lichess (scalachess) writes it


_BARE: Final = PawnDrop.BARE
_LETTERED: Final = PawnDrop.LETTERED


def _chess(position: GamePosition) -> ChessPosition:
    if not isinstance(position, ChessPosition):
        raise TypeError(f"not a chess-family position: {position!r}")
    return position


# --- writing ----------------------------------------------------------------------------------


def write_move(
    position: GamePosition, move: Move, notation: MoveNotation, *, pawn_drop: PawnDrop = PawnDrop.BARE
) -> str:
    """``move`` in ``notation``; raises ``ValueError`` if ``move`` is not legal here."""
    chess = _chess(position)
    if move.kind is not _NULL and not chess.is_legal_move(move):
        raise ValueError(f"{move!r} is not a legal move in {chess!r}")
    if notation is _UCI_NOTATION:
        return uci(chess, move)
    text = _algebraic(chess, move, long=notation is _LAN_NOTATION, pawn_drop=pawn_drop)
    return text + _suffix(chess, move)


def write_played(
    position: ChessPosition, move: Move, after: ChessPosition, notation: MoveNotation, pawn_drop: PawnDrop = _BARE,
) -> str:
    """``move`` in ``notation``, where the caller has played it: ``after`` is the position it
    leads to (``position.play(move)``). Its legality is not checked again, and its check mark
    is ``after``'s, whose check and end the move's reader has mostly found already (a
    position keeps them): no move is played or generated here but a SAN move's rivals."""
    if notation is _UCI_NOTATION:
        return uci(position, move)
    text = _algebraic(position, move, long=notation is _LAN_NOTATION, pawn_drop=pawn_drop)
    if move.kind is _NULL:
        return text
    return text + _mark_after(after)


def uci(position: ChessPosition, move: Move) -> str:
    """The UCI protocol's text of ``move`` (not checked for legality)."""
    names = position.rules.square_names
    kind = move.kind
    if kind is _NULL:
        return "0000"
    if kind is _DROP:
        return f"{move.drop.upper()}@{names[move.target]}"
    if kind is _DETONATE:
        return names[move.origin] * 2
    if kind is _CASTLE:
        target = move.target
        if position.castling_mode is _STANDARD_CASTLING and _classical_castling(position, move):
            target = position.castling_target(move)
        return _square_pair(position.rules, move.origin, target)
    pair = _square_pair(position.rules, move.origin, move.target)
    return pair + move.promotion if move.promotion else pair


def _square_pair(rules: ChessRules, origin: int, target: int) -> str:
    """The names of ``origin`` and ``target`` joined (``e2e4``), kept by ``rules``."""
    key = origin * 64 + target
    pairs = rules.square_pairs
    pair = pairs[key]
    if pair is None:
        pair = pairs[key] = rules.square_names[origin] + rules.square_names[target]
    return pair


def _long_pair(rules: ChessRules, origin: int, target: int, capture: bool) -> str:
    """The names of ``origin`` and ``target`` joined by ``x`` for a capture, by ``-``
    otherwise (``g1-f3``, ``e4xd5``), kept by ``rules``."""
    key = origin * 64 + target
    if capture:
        key += 64 * 64
    pairs = rules.long_pairs
    pair = pairs[key]
    if pair is None:
        names = rules.square_names
        pair = pairs[key] = f"{names[origin]}{'x' if capture else '-'}{names[target]}"
    return pair


def _classical_castling(position: ChessPosition, move: Move) -> bool:
    """Whether a castling move starts from the classical squares (king on the e-file, rook
    in a corner), where standard UCI writes the king's two-square step."""
    files = position.rules.files
    return move.origin % files == 4 and move.target % files in (0, files - 1) and files == 8


def _algebraic(position: ChessPosition, move: Move, *, long: bool, pawn_drop: PawnDrop) -> str:
    rules = position.rules
    names = rules.square_names
    kind = move.kind
    if kind is _NULL:
        return "--"
    if kind is _DETONATE:
        return "@@" + names[move.origin]
    if kind is _DROP:
        letter = move.drop.upper()
        if rules.pawn >= 0 and move.drop == rules.letters[rules.pawn]:
            letter = "P" if pawn_drop is _LETTERED else ""
        return f"{letter}@{names[move.target]}"
    if kind is _CASTLE:
        return "O-O-O" if move.target < move.origin else "O-O"
    mover = position.kind_at(move.origin)
    capture = position.is_capture(move)
    is_pawn = mover == rules.pawn
    piece = "" if is_pawn else rules.letters[mover].upper()
    if long:
        squares = _long_pair(rules, move.origin, move.target, capture)
        if move.promotion:
            return f"{piece}{squares}={move.promotion.upper()}"
        return piece + squares if piece else squares
    if not is_pawn:
        origin = _disambiguation(position, move, mover)
    elif capture:
        origin = names[move.origin][0]
    else:
        origin = ""
    target = names[move.target]
    if not origin and not capture and not move.promotion:  # most moves: ``e4``, ``Nf3``
        return piece + target if piece else target
    separator = "x" if capture else ""
    promotion = "=" + move.promotion.upper() if move.promotion else ""
    # One string made from the parts (compiled: one allocation), not one for each part added
    return f"{piece}{origin}{separator}{target}{promotion}"


def _disambiguation(position: ChessPosition, move: Move, mover: int) -> str:
    """The file, rank or square that tells ``move`` from other legal moves of the same kind
    of piece to the same square (python-chess's rule: the file unless another piece shares
    it, the rank too when another shares the file)."""
    files = position.rules.files
    names = position.rules.square_names
    others = [
        other.origin
        for other in position.moves_of_kind_to(mover, move.target)
        if other.origin != move.origin and other.kind is _NORMAL
    ]
    if not others:
        return ""
    origin = move.origin
    same_rank = any(sq // files == origin // files for sq in others)
    same_file = any(sq % files == origin % files for sq in others)
    column = same_rank or not same_file
    name = names[origin]
    file_part, rank_part = name[0], name[1:]
    return (file_part if column else "") + (rank_part if same_file else "")


def _suffix(position: ChessPosition, move: Move) -> str:
    """``#`` when the move decides the game for a player, ``+`` when it gives check."""
    if move.kind is _NULL:
        return ""
    return _mark_after(position.play_known(move))


def _mark_after(after: ChessPosition) -> str:
    """The mark of the move that led to ``after``: ``#`` when it decides the game for a
    player, ``+`` when it gives check. The moves after it are looked at only where having
    none could decide the game: in check, or where a stalemate is not a draw."""
    if after.ended_by_twist():
        for twist in after.rules.twists:
            end = twist.end(after)
            if end is not None:
                return "#" if end.winner is not None else ("+" if after.is_check() else "")
    in_check = after.is_check()
    if in_check or after.rules.stalemate is not _DRAW:
        end = after.outcome()
        if end is not None and end.winner is not None:
            return "#"
    return "+" if in_check else ""


# --- reading ----------------------------------------------------------------------------------

# The full reader's patterns, compiled on their first use (``_pattern``): the plain and
# lenient readers take the moves of clean games by character codes, so a command on one
# game compiles none of them at start-up.
_SQUARE = r"[a-l](?:1[0-2]|[1-9])"
_UCI = rf"(?P<origin>{_SQUARE})(?P<target>{_SQUARE})(?P<promotion>[a-zA-Z])?"
_UCI_DROP = rf"(?P<piece>[A-Za-z])(?P<mark>[@*])(?P<target>{_SQUARE})"
_CASTLING = r"(?P<castle>[O0o](?:-[O0o]){1,2})"
_DETONATION = rf"@@(?P<target>{_SQUARE})"
_SAN_DROP = rf"(?P<piece>[A-Z])?(?P<mark>[@*])(?P<target>{_SQUARE})"
_LAN = rf"(?P<piece>[A-Z])?(?P<origin>{_SQUARE})(?P<sep>[-x:])(?P<target>{_SQUARE})(?P<promotion>=?[A-Za-z])?"
_SAN = (
    rf"(?P<piece>[A-Z])?(?P<file>[a-l])?(?P<rank>1[0-2]|[1-9])?(?P<capture>[x:])?(?P<target>{_SQUARE})"
    r"(?P<promotion>=?[A-Za-z])?"
)
_SUFFIX = r"(?P<check>[+#]{0,2})(?P<annotation>[!?]{0,2})$"


@functools.cache
def _pattern(source: str) -> re.Pattern[str]:
    """``source`` compiled, once, when a move first needs it."""
    return re.compile(source)


_SUFFIX_CHARACTERS = "+#!?"
EN_PASSANT_MARKS: Final = ("e.p.", "ep")  # after the target square, glued or apart
_EN_PASSANT_ENDS: Final = ".p"  # the last characters of the marks


def en_passant_mark(move: Move, written: str) -> Problem:
    """The warning for an en passant mark on ``move``, which ``written`` (the move's text
    with its mark) names: ``en-passant-mark`` on an en passant capture, else
    ``false-en-passant-mark``."""
    if move.kind is MoveKind.EN_PASSANT:
        code, message = "en-passant-mark", "an en passant capture marked as one (the PGN standard writes no mark)"
    else:
        code, message = "false-en-passant-mark", "an en passant mark on a move that is no en passant capture"
    return Problem(code, f"{message} in {written!r}", extra={"move": written})


# Spellings some files write and the readers above do not take, looked for only once they
# failed (``_respell``): each is read again in its plain form, with its own warning.
FIGURINES: Final = {
    "♔": "K", "♕": "Q", "♖": "R", "♗": "B", "♘": "N", "♙": "P",
    "♚": "K", "♛": "Q", "♜": "R", "♝": "B", "♞": "N", "♟": "P",
}
# U+2010 hyphen, U+2011 non-breaking hyphen, U+2012 figure dash, U+2013 en dash, U+2014 em
# dash, U+2015 horizontal bar, U+2212 minus sign.
DASHES: Final = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"
_DASHES_TO_HYPHENS: Final = str.maketrans(dict.fromkeys(DASHES, "-"))
_FIGURINES_TO_LETTERS: Final = str.maketrans(FIGURINES)
# The evaluation signs of the NAG table (the PGN standard, section 10; python-chess's
# ``NAG_*``) as editors print them, with the NAG each stands for. A sign whose NAG depends
# on the side it favours (the initiative, an attack, counterplay: White's and Black's have
# their own NAGs) has none here: a rewrite keeps it as it was written.
EVALUATION_NAGS: Final = {
    "=": 10, "∞": 13, "⩲": 14, "+=": 14, "+/=": 14, "⩱": 15, "=+": 15, "=/+": 15,
    "±": 16, "+/-": 16, "∓": 17, "-/+": 17, "+-": 18, "-+": 19, "□": 7,
}
EVALUATION_SIGNS: Final = tuple(sorted(
    (*EVALUATION_NAGS, "=/∞", "→", "↑", "⇆", "⇄", "⟳", "↻", "⨀", "⊙", "⊕", "Δ", "∆", "⌓"),
    key=len, reverse=True,
))
NOVELTY_NAG: Final = 146  # the PGN standard's NAG table; python-chess's NAG_NOVELTY
_BRACKETED_PROMOTION: Final = r"(?P<move>.*[0-9])(?:\((?P<round>[A-Za-z])\)|/(?P<slash>[A-Za-z]))(?P<check>[+#]*)"
_CASTLING_BODY: Final = r"[O0o](?:-[O0o]){1,2}[+#]*"


class Respelling:
    """A move's text read again in its plain form (``text``), the warnings that says
    (``notes``: code and message) and the annotation a rewrite writes apart after the move
    (a NAG such as ``$14``, or a sign kept as written; '' for none)."""

    __slots__ = ("text", "notes", "annotation")

    def __init__(self, text: str) -> None:
        self.text = text
        self.notes: list[tuple[str, str]] = []
        self.annotation = ""


def _glued_novelty(text: str) -> bool:
    """Whether ``text`` ends with a novelty mark ``N`` glued to its move: after a square,
    a check mark or glyph, castling (``O-ON``), a promotion (``b8=QN``) or a sign."""
    return len(text) > 2 and text[-1] == "N" and (
        text[-2].isdigit() or text[-2] in _SUFFIX_CHARACTERS or text[-2] in "O0o" or text[-3] == "="
        or not text[-2].isascii()  # after an evaluation sign: Bb5±N
    )


def _strip_annotations(text: str) -> tuple[str, list[tuple[str, str]], list[str]]:
    """``text`` without an evaluation sign and a novelty mark glued at its end, in either
    order (``Bb5N±``, ``Bb5±N``); the warnings that says (code and message) and what a
    rewrite writes apart for them (their NAGs, or a sign as written), in the order written."""
    notes: list[tuple[str, str]] = []
    annotations: list[str] = []
    signed = marked = False
    for _ in range(2):
        if not signed:
            for sign in EVALUATION_SIGNS:
                if text.endswith(sign) and len(text) > len(sign) + 1:
                    text = text[: -len(sign)]
                    nag = EVALUATION_NAGS.get(sign)
                    annotations.insert(0, sign if nag is None else f"${nag}")
                    notes.append(("glued-evaluation", f"the evaluation sign {sign!r} glued to the move"))
                    signed = True
                    break
        if not marked and _glued_novelty(text):
            text = text[:-1]
            annotations.insert(0, f"${NOVELTY_NAG}")
            notes.append(("novelty-mark", "a novelty mark 'N' glued to the move"))
            marked = True
    return text, notes, annotations


def respell(written: str) -> Respelling:
    """``written`` with the spellings other readers accept put plainly: figurines as letters
    (``figurine``), an evaluation sign glued after the move taken off (``glued-evaluation``),
    then a novelty mark ``N`` (``novelty-mark``), a promotion ``b8(Q)`` or ``b8/Q`` as ``b8=Q``
    (``promotion-separator``), castling's other dashes as hyphens (``castling-dash``). The
    text is unchanged where none is found. Whether the move is legal is not checked."""
    found = Respelling(written)
    text = written
    if not text.isascii():
        lettered = text.translate(_FIGURINES_TO_LETTERS)
        if lettered != text:
            text = lettered
            found.notes.append(("figurine", "figurine piece symbols read as letters"))
    text, notes, annotations = _strip_annotations(text)
    found.notes += notes
    found.annotation = " ".join(annotations)
    bracketed = _pattern(_BRACKETED_PROMOTION).fullmatch(text)
    if bracketed is not None:
        letter = bracketed.group("round") or bracketed.group("slash")
        text = f"{bracketed.group('move')}={letter}{bracketed.group('check')}"
        form = "(Q)" if bracketed.group("round") else "/Q"
        found.notes.append(("promotion-separator", f"a promotion written with {form!r} for '=Q'"))
    if not text.isascii():
        hyphenated = text.translate(_DASHES_TO_HYPHENS)
        if hyphenated != text and _pattern(_CASTLING_BODY).fullmatch(hyphenated.rstrip("!?")):
            text = hyphenated
            found.notes.append(("castling-dash", "castling written with a dash other than '-'"))
    found.text = text
    return found


def _en_passant_mark(body: str) -> str:
    """The mark ``body`` ends with right after a square's rank (``exd6e.p.``), or ''."""
    for mark in EN_PASSANT_MARKS:
        if body.endswith(mark) and len(body) > len(mark) and body[-len(mark) - 1].isdigit():
            return mark
    return ""


# Each language's letters for king, queen, rook, bishop, knight and pawn, from its own chess
# terms (``MoveLanguage`` names them; pgn-extract's ``-Wsan`` takes such a set). A language
# writes no pawn letter where its pawn's would be its knight's (Dutch: paard, pion).
PIECE_LETTERS: Final = {
    MoveLanguage.EN: "KQRBNP", MoveLanguage.DE: "KDTLSB", MoveLanguage.FR: "RDTFCP", MoveLanguage.ES: "RDTACP",
    MoveLanguage.IT: "RDTACP", MoveLanguage.NL: "KDTLP", MoveLanguage.PT: "RDTBCP", MoveLanguage.SV: "KDTLSB",
    MoveLanguage.PL: "KHWGSP", MoveLanguage.CS: "KDVSJP",
}
_ENGLISH: Final = MoveLanguage.EN
_UNREADABLE: Final = "\ufffd"  # an English letter the chosen language does not use: no piece


def _letters_table(language: MoveLanguage) -> dict[int, str]:
    """``str.translate``'s table from ``language``'s piece letters to English ones, every
    English letter the language does not write made unreadable (German ``B`` is a pawn, and
    a German file's ``N`` no piece at all)."""
    english = PIECE_LETTERS[_ENGLISH]
    table = {ord(letter): _UNREADABLE for letter in english}
    for own, meant in zip(PIECE_LETTERS[language], english, strict=False):
        table[ord(own)] = meant
    return table


_LETTERS_TABLES: Final = {language: _letters_table(language) for language in MoveLanguage}


def translate_letters(text: str, language: MoveLanguage) -> str:
    """``text`` with ``language``'s piece letters as English ones (castling's ``O`` kept)."""
    if language is _ENGLISH or text[:1] in ("O", "0", "o"):
        return text
    return text.translate(_LETTERS_TABLES[language])


def read_move(
    position: GamePosition, text: str, notation: MoveNotation | None = None, letters: MoveLanguage = _ENGLISH,
) -> ReadMove:
    """The legal move ``text`` names, its piece letters those of ``letters`` (English unless
    asked: no other language's letter is read then); raises ``MoveError`` (see the module
    doc)."""
    chess = _chess(position)
    if letters is not _ENGLISH:
        return _read_translated(chess, text, notation, letters)
    if notation is not _UCI_NOTATION:
        plain, mark = read_plain_marked(chess, text, 0, len(text))
        if plain is not None:
            return ReadMove(plain) if not mark else ReadMove(plain, None, mark, text)
    return read_not_plain(chess, text, notation)


def read_not_plain(position: ChessPosition, text: str, notation: MoveNotation | None = None) -> ReadMove:
    """``read_move`` with English letters, for a ``text`` that ``read_plain_san`` did not
    take or where UCI is asked (a caller that tried the plain reading first does not try it
    again); raises ``MoveError`` as ``read_move`` does."""
    if notation is not _UCI_NOTATION:
        lenient = read_lenient_san(position, text, notation)
        if lenient is not None:
            return lenient
    return _Reader(position, text, notation).read()


def _read_translated(position: ChessPosition, text: str, notation: MoveNotation | None,
                     letters: MoveLanguage) -> ReadMove:
    """``text`` read with ``letters``' piece letters, ``foreign-piece-letters`` where it has
    any (a strict gate may refuse them as it refuses any other reading but the standard's)."""
    # No language but English names a piece N: a glued N is Informator's novelty mark (German
    # Neuerung too), never a knight; it and a glued sign are taken off before the letters.
    body, notes, annotations = _strip_annotations(text)
    translated = translate_letters(body, letters)
    read: ReadMove | None = None
    if notation is not _UCI_NOTATION:
        plain = read_plain_san(position, translated)
        if plain is not None:
            read = ReadMove(plain)
    if read is None:
        reader = _Reader(position, text, notation)
        reader.body = translated
        try:
            read = reader.read()
        except MoveError:
            if _UNREADABLE not in translated:
                raise
            letter = body[translated.index(_UNREADABLE)]
            raise reader.fail(
                "bad-move-syntax", f"{text!r}: {letter!r} is no piece letter in {letters.value!r} (--piece-letters)",
            ) from None
    found: list[Problem] = []
    if translated != body:
        found.append(Problem(
            "foreign-piece-letters", f"piece letters of {letters.value!r} (--piece-letters) in {text!r}",
            extra={"move": text},
        ))
    extra: dict[str, object] = {"move": text, "annotation": " ".join(annotations)}
    found += [Problem(code, f"{message} in {text!r}", extra=extra) for code, message in notes]
    return ReadMove(read.move, [*found, *read.warnings])


def _plain_castling(position: ChessPosition, body: str) -> Move | None:
    """The castling move ``O-O`` or ``O-O-O`` names if it is the one legal; None otherwise
    (the full reader then judges)."""
    if body != "O-O" and body != "O-O-O":
        return None
    return _castling_of_side(position, len(body) == 5)


def _castling_of_side(position: ChessPosition, long_side: bool) -> Move | None:
    """The one legal castling move towards the queen's side (``long_side``) or the
    king's; None where there is none or more than one (Chess960's readings)."""
    found: Move | None = None
    for move in position.castling_moves():
        if (move.target < move.origin) == long_side:
            if found is not None:
                return None
            found = move
    return found


def _plain_drop(position: ChessPosition, text: str, start: i64, end: i64) -> Move | None:
    """The drop ``text[start:end]`` names (``N@f3``, ``P@e4`` or ``@e4``) if it is legal;
    None otherwise (the full reader then judges)."""
    rules = position.rules
    at = start if ord(text[start]) == _DROP_MARK else start + 1
    if end != at + 3:
        return None
    if at == start:
        kind = rules.pawn
    else:
        code = ord(text[start])
        kind = rules.kind_of_code[code] if _UPPER_A <= code <= _UPPER_Z else -1
    if kind < 0:
        return None
    target_file = ord(text[at + 1]) - _FILE_A
    target_rank = ord(text[at + 2]) - _RANK_1
    if not (0 <= target_file < 8 and 0 <= target_rank < 8):
        return None
    move = Move.dropped(rules.letters[kind], target_rank * 8 + target_file)
    if not position.is_legal_move(move):
        return None
    return move


# Character codes the plain SAN reader compares (compiled: ``ord(text[i])`` is a load).
_FILE_A: Final = 97
_RANK_1: Final = 49
_UPPER_A: Final = 65
_UPPER_Z: Final = 90
_TAKES: Final = 120  # x
_CASTLE_LETTER: Final = 79  # O
_DROP_MARK: Final = 64  # @
_EQUALS: Final = 61
_CHECK: Final = 43  # +
_MATE: Final = 35  # #
_GOOD: Final = 33  # !
_DUBIOUS: Final = 63  # ?


def _before_glyphs(text: str, start: i64, stop: i64) -> i64:
    """Where ``text[start:stop]`` ends once up to two ``!``/``?`` glyphs are taken off its end."""
    end: i64 = stop
    glyphs: i64 = 0
    while end > start and glyphs < 2:
        code: i64 = ord(text[end - 1])
        if code != _GOOD and code != _DUBIOUS:
            break
        end -= 1
        glyphs += 1
    return end


def _check_mark_before(text: str, start: i64, end: i64) -> str:
    """The check or mate mark written last in ``text[start:end]``, or ``""``."""
    if end > start:
        code: i64 = ord(text[end - 1])
        if code == _CHECK or code == _MATE:
            return text[end - 1]
    return ""


def _body_end(text: str, start: i64, stop: i64) -> tuple[i64, str]:
    """Where the body of the move ``text[start:stop]`` ends, before its ``!``/``?`` glyphs
    and its check or mate mark, and that mark (``""`` without one)."""
    end = _before_glyphs(text, start, stop)
    written = _check_mark_before(text, start, end)
    return end - len(written), written


def _origin_written(text: str, begin: i64, middle: i64) -> tuple[i64, i64, i64]:
    """The origin's file and rank index written in ``text[begin:middle]`` (a file letter,
    then a rank digit, either left out: -1), and where they end."""
    file_index: i64 = -1
    rank_index: i64 = -1
    if begin < middle:
        code = ord(text[begin]) - _FILE_A
        if 0 <= code < 8:
            file_index = code
            begin += 1
    if begin < middle:
        code = ord(text[begin]) - _RANK_1
        if 0 <= code < 8:
            rank_index = code
            begin += 1
    return file_index, rank_index, begin


def _origin_among(origins: i64, file_index: i64, rank_index: i64) -> i64:
    """The one square of ``origins`` on the file and rank written (-1: not written), or -1
    where none or several are."""
    chosen: i64 = origins
    if file_index >= 0:
        chosen &= FILES[file_index]
    if rank_index >= 0:
        chosen &= RANKS[rank_index]
    if not chosen or several(chosen):
        return -1
    return first(chosen)


def read_plain_san(position: ChessPosition, text: str) -> Move | None:
    """The legal move a plain SAN ``text`` names, where reading it needs no repair: a
    piece letter or none, the disambiguation python-chess would write, ``x`` exactly when
    the move takes a piece, ``=Q``, the check mark the move gives, and up to two ``!``/``?``
    (``Nf3``, ``exd5``, ``Nbd7``, ``e8=Q+``, ``O-O``, ``N@f3``, ``@e4``). None wherever the full reader must judge:
    another notation or a lenient spelling (each a warning there), en passant, a
    move that is illegal or ambiguous, a game over, a position whose legal moves pins and
    checks do not decide (``ChessPosition.legal_origins``). No regular expression
    and no candidate list: most moves of a database are read here. Nothing raises."""
    move, mark = read_plain_marked(position, text, 0, len(text))
    return None if mark else move


def read_plain_marked(position: ChessPosition, text: str, start: i64, stop: i64) -> tuple[Move | None, i64]:
    """``(move, 0)`` where ``read_plain_san`` reads the move ``text[start:stop]``; ``(move,
    flag)`` where it is plain SAN but for a check or mate mark the move does not give
    (``Nb6`` where it checks, ``Nf3+`` where it does not; not a drop), the flag saying which
    (``notation.moves.reading.check_mark_flag``, ``wrong-check-mark``): the commonest
    lenient spelling, read once instead of again by the lenient step. ``(None, 0)``
    wherever ``read_plain_san`` gives None for another reason. The move is read where it
    stands in ``text`` (a game's movetext): no string is made of it. Nothing raises."""
    end, written = _body_end(text, start, stop)
    if end - start < 2:
        return None, 0
    if ord(text[start]) == _CASTLE_LETTER:
        castling = _plain_castling(position, text[start:end])
        if castling is None:
            return None, 0
        return castling, check_mark_flag(written, _suffix(position, castling))
    if ord(text[start]) == _DROP_MARK or ord(text[start + 1]) == _DROP_MARK:
        drop = _plain_drop(position, text, start, end)
        if drop is None or _suffix(position, drop) != written:
            return None, 0  # a drop's wrong mark is the full reader's (``R@a8`` is UCI too)
        return drop, 0
    # Offsets and character codes are machine integers when compiled (no tagged arithmetic).
    code: i64
    rules = position.rules
    promotion = ""
    code = ord(text[end - 1])
    if _UPPER_A <= code <= _UPPER_Z:
        if end - start < 4 or ord(text[end - 2]) != _EQUALS:
            return None, 0
        promotion = text[end - 1].lower()
        end -= 2
    target_file: i64 = ord(text[end - 2]) - _FILE_A
    target_rank: i64 = ord(text[end - 1]) - _RANK_1
    if not (0 <= target_file < 8 and 0 <= target_rank < 8):
        return None, 0
    target: i64 = target_rank * 8 + target_file
    begin: i64 = start
    code = ord(text[start])
    if _UPPER_A <= code <= _UPPER_Z:
        kind = rules.kind_of_code[code]
        if kind < 0 or kind == rules.pawn:
            return None, 0
        begin = start + 1
    else:
        kind = rules.pawn
        if kind < 0:
            return None, 0
    middle: i64 = end - 2
    capture = middle > begin and ord(text[middle - 1]) == _TAKES
    if capture:
        middle -= 1
    file_index, rank_index, begin = _origin_written(text, begin, middle)
    if begin != middle or (file_index >= 0 and rank_index >= 0):
        return None, 0
    us = position.turn_index
    theirs: i64 = position.side(us ^ 1)
    if capture != bool(theirs >> target & 1):
        return None, 0  # a missing or false capture mark, or en passant
    known, origins = position.legal_origins(kind, target)
    if not known or not origins:
        return None, 0
    if kind == rules.pawn:
        if capture != (file_index >= 0) or rank_index >= 0:
            return None, 0
        if capture:
            origins &= FILES[file_index]
        last_rank: i64 = rules.promotion_rank[us]
        if last_rank >> target & 1:
            promoted = rules.kind_of.get(promotion, -1) if promotion else -1
            if promoted < 0 or promoted not in rules.promotions:
                return None, 0
        elif promotion:
            return None, 0
        if not origins or several(origins):
            return None, 0
        origin = first(origins)
    else:
        if promotion:
            return None, 0
        origin = _origin_among(origins, file_index, rank_index)
        if origin < 0:
            return None, 0
        others: i64 = origins ^ BIT[origin]
        if others or file_index >= 0 or rank_index >= 0:
            # The disambiguation written must be python-chess's (``_disambiguation``).
            if not others:
                return None, 0
            same_rank: i64 = others & RANKS[origin >> 3]
            same_file: i64 = others & FILES[origin & 7]
            if (file_index >= 0) != (bool(same_rank) or not same_file) or (rank_index >= 0) != bool(same_file):
                return None, 0
    move = Move(origin, target, promotion)
    return move, check_mark_flag(written, _suffix(position, move))


_HYPHEN: Final = 45  # -
_ZERO: Final = 48  # 0
_LOWER_A: Final = 97
_LOWER_Z: Final = 122


def _warning(code: str, message: str, text: str) -> Problem:
    """A reading's warning on the move ``text`` (any text: ``repr`` quotes it)."""
    return Problem(code, f"{message} in {text!r}", extra={"move": text})


def read_lenient_san(position: ChessPosition, text: str, notation: MoveNotation | None) -> ReadMove | None:
    """The move and warnings the full reader (``_Reader``) gives ``text``, in the order it
    gives them, for the lenient spellings real files hold most, read as ``read_plain_san``
    reads plain SAN (character codes, the legal origins from the position's bitboards):
    a check mark missing or wrong, a capture mark missing or false, over-disambiguation
    (``Ngf3``, ``Ng1f3``), long algebraic (``Ng1-f3``, ``e4xd5``, ``g1-f3``, ``e1-g1``),
    UCI (``e2e4``, ``e7e8q``), castling with zeros and a promotion without ``=`` (``e8Q``).
    Looked for once ``read_plain_marked`` has read no move; None wherever the full reader must
    judge: other spellings (``:``, lower-case or figurine letters, ``e.p.``, ``Pe4``, two
    check marks), en passant, drops, castling written as the king taking its rook, a move
    that is illegal or ambiguous, a game over, a position whose legal moves pins and checks
    do not decide, UCI read as UCI. tests/moves/test_moves_lenient_san.py holds it to the
    full reader's answers. Nothing raises."""
    if notation is _UCI_NOTATION:
        return None
    end, written = _body_end(text, 0, len(text))
    code: i64
    if end < 2:
        return None
    code = ord(text[0])
    if code == _CASTLE_LETTER or code == _ZERO:
        return _lenient_castling(position, text, text[:end], written)
    rules = position.rules
    kind: i64 = rules.pawn
    begin: i64 = 0
    lettered = _UPPER_A <= code <= _UPPER_Z
    if lettered:
        kind = rules.kind_of_code[code]
        if kind < 0 or kind == rules.pawn:
            return None  # no piece, or a pawn's letter (``pawn-letter``)
        begin = 1
    elif kind < 0:
        return None
    promotion = ""
    equals = True  # the promotion's letter after '='
    lower = False  # the promotion's letter in lower case (UCI's ``e7e8q``)
    code = ord(text[end - 1])
    if _UPPER_A <= code <= _UPPER_Z:
        promotion = text[end - 1].lower()
        end -= 1
        equals = end > 0 and ord(text[end - 1]) == _EQUALS
        if equals:
            end -= 1
    elif _LOWER_A <= code <= _LOWER_Z:
        promotion = text[end - 1]
        lower = True
        end -= 1
    if end - begin < 2:
        return None
    target_file: i64 = ord(text[end - 2]) - _FILE_A
    target_rank: i64 = ord(text[end - 1]) - _RANK_1
    if not (0 <= target_file < 8 and 0 <= target_rank < 8):
        return None
    target: i64 = target_rank * 8 + target_file
    middle: i64 = end - 2
    separator: i64 = 0
    if middle > begin:
        code = ord(text[middle - 1])
        if code == _TAKES or code == _HYPHEN:
            separator = code
            middle -= 1
    file_index, rank_index, begin = _origin_written(text, begin, middle)
    if begin != middle:
        return None
    whole = file_index >= 0 and rank_index >= 0
    uci = whole and not lettered and separator == 0
    if promotion and lower != uci:
        return None  # ``e8=q``, ``e7e8Q``: read otherwise, with other warnings
    us = position.turn_index
    if position.side(us) >> target & 1:
        return None  # castling written as the king taking its rook, or no move
    if kind == rules.pawn and target == position.ep:
        return None  # en passant, which the legal origins leave out
    if uci:
        return _lenient_uci(position, text, target, rank_index * 8 + file_index, promotion, notation, written)
    if whole and separator != 0:
        return _lenient_long(
            position, text, kind, lettered, rank_index * 8 + file_index, separator == _TAKES, target, promotion, equals,
            notation, written,
        )
    if separator == _HYPHEN:
        return None
    return _lenient_piece(
        position, text, kind, file_index, rank_index, separator == _TAKES, target, promotion, equals, written,
    )


def _read_with_mark(position: ChessPosition, text: str, move: Move, written: str, repairs: int) -> ReadMove:
    """``move`` read from ``text`` with the ``repairs`` flagged, and ``wrong-check-mark``
    (a flag too: its message is made only where a game reports it) where the check mark
    ``written`` is not the one the move gives."""
    return ReadMove(move, None, repairs | check_mark_flag(written, _suffix(position, move)), text)


def _lenient_castling(position: ChessPosition, text: str, body: str, written: str) -> ReadMove | None:
    """``O-O``, ``0-0``, ``O-O-O``, ``0-0-0`` where one castling move of that side is legal."""
    zeros = body == "0-0" or body == "0-0-0"
    if not zeros and body != "O-O" and body != "O-O-O":
        return None
    if position.ended_by_twist():
        return None
    found = _castling_of_side(position, len(body) == 5)
    if found is None:
        return None
    return _read_with_mark(position, text, found, written, CASTLING_WITH_ZEROS if zeros else 0)


def _promotion_fits(position: ChessPosition, kind: int, target: int, promotion: str) -> bool:
    """Whether ``promotion`` ('' for none) is what a move of ``kind`` to ``target`` needs:
    a piece the variant promotes to on a pawn's last rank, none elsewhere."""
    rules = position.rules
    last_rank: i64 = rules.promotion_rank[position.turn_index]
    if kind != rules.pawn or not last_rank >> target & 1:
        return not promotion
    return bool(promotion) and rules.kind_of.get(promotion, -1) in rules.promotions


def _lenient_uci(position: ChessPosition, text: str, target: int, origin: int, promotion: str,
                 notation: MoveNotation | None, written: str) -> ReadMove | None:
    """``e2e4``, ``e7e8q``: UCI in a SAN movetext (``uci-in-san`` where SAN was asked for),
    its check mark judged only where one is written."""
    if not position.side(position.turn_index) >> origin & 1:
        return None
    kind = position.kind_at(origin)
    known, origins = position.legal_origins(kind, target)
    if not known or not origins >> origin & 1 or not _promotion_fits(position, kind, target, promotion):
        return None
    move = Move(origin, target, promotion)
    repairs: i64 = UCI_IN_SAN if notation is _SAN_NOTATION else 0
    if not written:
        # The position after it kept, as ``_suffix`` keeps it for the other readings: the
        # move's caller plays it next without judging its legality again.
        position.play_known(move)
        return ReadMove(move, None, repairs, text)
    return _read_with_mark(position, text, move, written, repairs)


def _takes(position: ChessPosition, target: int) -> bool:
    """Whether a move to ``target`` takes a piece (not en passant)."""
    theirs: i64 = position.side(position.turn_index ^ 1)
    return bool(theirs >> target & 1)


def _capture_repair(capture: bool, real: bool) -> int:
    """``FALSE_CAPTURE_MARK`` or ``MISSING_CAPTURE_MARK`` where ``capture`` (an ``x``
    written) is not ``real`` (the move takes a piece), else 0."""
    if capture == real:
        return 0
    return FALSE_CAPTURE_MARK if capture else MISSING_CAPTURE_MARK


def _disambiguation_length(origins: i64, origin: int) -> int:
    """How much of ``origin``'s name SAN writes (0, 1 or 2 characters) where ``origins`` are
    the squares of every piece of its kind that can go to the same square
    (``_disambiguation``'s rule)."""
    others: i64 = origins & ~BIT[origin]
    if not others:
        return 0
    same_rank: i64 = others & RANKS[origin >> 3]
    same_file: i64 = others & FILES[origin & 7]
    return (1 if same_rank or not same_file else 0) + (1 if same_file else 0)


def _lenient_long(position: ChessPosition, text: str, kind: int, lettered: bool, origin: int, capture: bool,
                  target: int, promotion: str, equals: bool, notation: MoveNotation | None,
                  written: str) -> ReadMove | None:
    """``Ng1-f3``, ``e4xd5``, ``Rf1xf7``; without the piece's letter ``g1-f3`` (the piece on
    the origin square: ``long-algebraic-without-piece``) and ``e1-g1`` (the king's step
    castling); ``long-algebraic`` where SAN was asked for."""
    rules = position.rules
    mover = position.kind_at(origin) if position.side(position.turn_index) >> origin & 1 else -1
    repairs: i64 = 0
    if not lettered and mover >= 0 and mover != rules.pawn:
        kind = mover
        repairs = WITHOUT_PIECE
    if kind != mover:
        return None
    known, origins = position.legal_origins(kind, target)
    if not known:
        return None
    if origins >> origin & 1:
        if not _promotion_fits(position, kind, target, promotion):
            return None
        if promotion and not equals:
            repairs |= PROMOTION_WITHOUT_EQUALS
        real = _takes(position, target)
        repairs |= _capture_repair(capture, real)
        if lettered and real and capture and _disambiguation_length(origins, origin) == 2:
            return None  # as SAN writes it (``Qd1xd4`` with three queens about)
        move = Move(origin, target, promotion)
    else:
        # The king's own step: castling, as in UCI (what the full reader reads once the
        # king's move fails).
        if kind != rules.castling_kind or promotion or position.occupied >> target & 1:
            return None
        found: Move | None = None
        for castling in position.castling_moves():
            if castling.origin == origin and position.castling_target(castling) == target:
                found = castling
                break
        if found is None:
            return None
        move = found
    if notation is _SAN_NOTATION:
        repairs |= LONG_ALGEBRAIC
    return _read_with_mark(position, text, move, written, repairs)


def _lenient_piece(position: ChessPosition, text: str, kind: int, file_index: int, rank_index: int, capture: bool,
                   target: int, promotion: str, equals: bool, written: str) -> ReadMove | None:
    """SAN with its capture mark missing or false, over-disambiguated (``Ngf3``, ``Ng1f3``),
    a promotion without ``=`` or a check mark missing or wrong."""
    rules = position.rules
    known, origins = position.legal_origins(kind, target)
    if not known or not origins or not _promotion_fits(position, kind, target, promotion):
        return None
    origin = _origin_among(origins, file_index, rank_index)
    if origin < 0:
        return None
    repairs: i64 = PROMOTION_WITHOUT_EQUALS if promotion and not equals else 0
    real = _takes(position, target)
    repairs |= _capture_repair(capture, real)
    length = (1 if file_index >= 0 else 0) + (1 if rank_index >= 0 else 0)
    if length:
        if kind == rules.pawn:
            needed = 1 if real else 0
        else:
            needed = _disambiguation_length(origins, origin)
        if length > needed:
            repairs |= OVER_DISAMBIGUATED
    return _read_with_mark(position, text, Move(origin, target, promotion), written, repairs)


class _Reader:
    """One reading of one move text against one position."""

    def __init__(self, position: ChessPosition, text: str, notation: MoveNotation | None):
        self.position = position
        self.text = text
        self.notation = notation
        self.warnings: list[Problem] = []
        self.uci = False  # read as UCI, which has no check marks
        self.body = text  # what is read (``_respelled`` reads a respelling; messages name ``text``)
        self.respelled = False

    def warn(self, code: str, message: str) -> None:
        self.warnings.append(_warning(code, message, self.text))

    def fail(self, code: str, message: str, candidates: list[str] | None = None) -> MoveError:
        from notation.fen.writer import write_fen  # here: a game whose moves all read needs no writer

        fen = write_fen(self.position.to_setup(), self.position.variant).fen
        return MoveError(code, message, move=self.text, fen=fen, candidates=candidates)

    def read(self) -> ReadMove:
        position = self.position
        text = self.body.strip()
        if not text:
            raise self.fail("bad-move-syntax", "an empty move")
        if text in ("--", "Z0", "0000", "@@@@", "null", "pass"):
            return ReadMove(Move.null(), self.warnings)
        if position.ended_by_twist():
            raise self._game_over()
        suffix = _pattern(_SUFFIX).search(text) if text[-1] in _SUFFIX_CHARACTERS else None
        check_mark = ""
        if suffix is not None and suffix.start() > 0:
            check_mark = suffix.group("check")
            text = text[: suffix.start()]
        # ``exd6e.p.``: no move of any notation ends with a mark after its rank, so the move
        # is read without it (a failed reading first would cost a position's FEN).
        mark = _en_passant_mark(text) if text[-1] in _EN_PASSANT_ENDS else ""
        try:
            move = self._match(text[: -len(mark)] if mark else text)
        except MoveError as error:
            if position.outcome() is not None:  # checkmate or stalemate: no move fits
                raise self._game_over() from None
            if mark:
                raise
            return self._respelled(error)
        if mark:
            self.warnings.append(en_passant_mark(move, self.text))
        self._check_mark(move, check_mark)
        return ReadMove(move, self.warnings)

    def _respelled(self, error: MoveError) -> ReadMove:
        """The move read again from its respelled text (``respell``), with what the
        respelling says first; raises ``error`` where nothing is respelled (the respelled
        reading's own error where it fails too)."""
        written = self.body.strip()
        found = respell(written) if not self.respelled else None
        if found is None or found.text == written:
            raise error
        reader = _Reader(self.position, self.text, self.notation)
        reader.body = found.text
        reader.respelled = True  # one respelling: what it still fails on is its error
        read = reader.read()
        extra: dict[str, object] = {"move": self.text}
        if found.annotation:
            extra["annotation"] = found.annotation
        notes = [Problem(code, f"{message} in {self.text!r}", extra=extra) for code, message in found.notes]
        return ReadMove(read.move, notes + read.warnings)

    def _game_over(self) -> MoveError:
        end = self.position.outcome()
        reason = end.reason.value if end is not None else "no legal move"
        return self.fail("game-over", f"the game is over ({reason})")

    def _match(self, body: str) -> Move:
        notation = self.notation
        if notation is not _UCI_NOTATION:
            # Most moves of a PGN are plain SAN (``Nf3``, ``exd5``, ``e8=Q``): one look. A
            # whole origin square (``e2e4``, ``Ng1xf3``) is UCI or LAN, read below.
            san = _pattern(_SAN).fullmatch(body)
            if san is not None and not (san.group("file") and san.group("rank")):
                return self._piece_move(
                    san.group("piece"), san.group("file") or san.group("rank") or "", bool(san.group("capture")),
                    san.group("target"), san.group("promotion"), exact_origin=False,
                )
        if notation in (None, _UCI_NOTATION) or _pattern(_UCI).fullmatch(body) is not None:
            found = self._uci(body)
            if found is not None:
                self.uci = True
                if notation not in (None, _UCI_NOTATION):
                    self.warn("uci-in-san", f"a UCI move read as {notation.value.upper()}")
                return found
            if notation is _UCI_NOTATION:
                raise self.fail("bad-move-syntax", f"{body!r} is not a UCI move")
        castle = _pattern(_CASTLING).fullmatch(body)
        if castle is not None:
            return self._castling(castle.group("castle"))
        detonation = _pattern(_DETONATION).fullmatch(body)
        if detonation is not None:
            bomb = detonation.group("target")
            legal = self.position.legal_moves()
            return self._only([m for m in legal if m.kind is _DETONATE and self._name(m.origin) == bomb])
        drop = _pattern(_SAN_DROP).fullmatch(body)
        if drop is not None:
            return self._drop(drop.group("piece") or "P", drop.group("mark"), drop.group("target"))
        lan = _pattern(_LAN).fullmatch(body)
        if lan is not None:
            move = self._long_algebraic(lan)
            # A capture by one of three pieces that reach one square is ``Gc2xe4`` in SAN too.
            canonical = _algebraic(self.position, move, long=False, pawn_drop=_BARE)
            if notation is _SAN_NOTATION and canonical != body:
                self.warn("long-algebraic", LONG_ALGEBRAIC_MESSAGE)
            return move
        san = _pattern(_SAN).fullmatch(body)
        if san is not None:
            origin = (san.group("file") or "") + (san.group("rank") or "")
            try:
                return self._piece_move(
                    san.group("piece"), origin, bool(san.group("capture")), san.group("target"),
                    san.group("promotion"), exact_origin=False,
                )
            except MoveError:
                # ``Ke1g1``: castling written as the king's step from a whole origin square.
                piece = san.group("piece")
                rules = self.position.rules
                if len(origin) < 2 or piece is None or piece.lower() != rules.variant.castling_piece:
                    raise
                if san.group("promotion") or san.group("capture"):
                    raise
                found = self._king_step_castling(self._square(origin), self._square(san.group("target")))
                if found is None:
                    raise
                if notation is _SAN_NOTATION:
                    self.warn("long-algebraic", LONG_ALGEBRAIC_MESSAGE)
                return found
        raise self.fail("bad-move-syntax", f"{self.text!r} is not a move in SAN, LAN or UCI")

    def _name(self, sq: int) -> str:
        return self.position.rules.square_names[sq]

    def _square(self, name: str) -> int:
        index = self.position.rules.square_index.get(name)
        if index is None:
            raise self.fail("bad-move-syntax", f"{name!r} is not a square of this board")
        return index

    def _uci(self, body: str) -> Move | None:
        position = self.position
        drop = _pattern(_UCI_DROP).fullmatch(body)
        if drop is not None and drop.group("mark") == "@" and drop.group("piece").isupper():
            return self._drop(drop.group("piece"), "@", drop.group("target"))
        match = _pattern(_UCI).fullmatch(body)
        if match is None or (match.group("promotion") or "").isupper():
            return None
        origin, target = self._square(match.group("origin")), self._square(match.group("target"))
        promotion = match.group("promotion") or ""
        if origin != target and position.side(position.turn_index) >> origin & 1:
            # The piece's own moves first (castling, written either way, is looked for below).
            for move in position.moves_of_kind_to(position.kind_at(origin), target):
                if move.origin == origin and move.promotion == promotion:
                    return move
        legal = position.legal_moves()
        if origin == target:
            return self._only([m for m in legal if m.kind is _DETONATE and m.origin == origin])
        for move in legal:
            if move.origin != origin or move.kind in (_DROP, _NULL, _DETONATE):
                continue
            if move.kind is _CASTLE:
                if move.target == target:
                    if position.castling_mode is _STANDARD_CASTLING and _classical_castling(position, move):
                        self.warn("king-takes-rook", "castling written as the king taking its rook")
                    return move
                if position.castling_target(move) == target and not promotion:
                    return move
                continue
            if move.target == target and move.promotion == promotion:
                return move
        raise self.fail("illegal-move", f"{self.text!r} is not a legal move here")

    def _long_algebraic(self, lan: re.Match[str]) -> Move:
        """The move of a long algebraic ``lan`` (``Ng1-f3``, ``e7xd8=Q``, ``g1-f3``). Written
        without its piece letter (pgn-extract's hyphenated long algebraic), the piece is the
        one on the origin square: ``long-algebraic-without-piece``; the king's own step
        (``e1-g1``, ``Ke1-g1``) names castling as UCI does."""
        position = self.position
        rules = position.rules
        piece = lan.group("piece")
        origin_name, target_name = lan.group("origin"), lan.group("target")
        capture = lan.group("sep") in "x:"
        origin = self._square(origin_name)
        mover = position.kind_at(origin) if position.side(position.turn_index) >> origin & 1 else -1
        if piece is None and mover >= 0 and mover != rules.pawn:
            piece = rules.letters[mover].upper()
            self.warn("long-algebraic-without-piece", WITHOUT_PIECE_MESSAGE)
        try:
            return self._piece_move(piece, origin_name, capture, target_name, lan.group("promotion"), exact_origin=True)
        except MoveError:
            if mover < 0 or rules.letters[mover] != rules.variant.castling_piece or lan.group("promotion"):
                raise
            if piece is not None and piece.lower() != rules.letters[mover]:
                raise
            found = self._king_step_castling(origin, self._square(target_name))
            if found is None:
                raise
            return found

    def _king_step_castling(self, origin: int, target: int) -> Move | None:
        """The castling move whose king goes from ``origin`` to ``target``, or None."""
        position = self.position
        for move in position.castling_moves():
            if move.origin == origin and position.castling_target(move) == target:
                return move
        return None

    def _castling(self, written: str) -> Move:
        if "0" in written:
            self.warn("castling-with-zeros", CASTLING_WITH_ZEROS_MESSAGE)
        elif "o" in written:
            self.warn("castling-lower-case", "castling written with lower-case letters")
        long_side = written.count("-") == 2
        found = [m for m in self.position.castling_moves() if (m.target < m.origin) == long_side]
        if not found:
            side = "long" if long_side else "short"
            raise self.fail("illegal-move", f"{self.text!r}: castling {side} is not legal here")
        return self._only(found)

    def _drop(self, piece: str, mark: str, target_name: str) -> Move:
        if mark == "*":
            self.warn("drop-with-star", "a drop written with '*'")
        target = self._square(target_name)
        move = Move.dropped(piece.lower(), target)
        if self.position.is_legal_move(move):
            return move
        raise self.fail("illegal-move", f"{self.text!r}: no {piece} can be dropped on {target_name} here")

    def _piece_move(
        self,
        piece: str | None,
        origin: str,
        capture: bool,
        target_name: str,
        promotion: str | None,
        *,
        exact_origin: bool,
    ) -> Move:
        position = self.position
        rules = position.rules
        target = self._square(target_name)
        letter = (piece or "").lower()
        if piece is None:
            if rules.pawn < 0:
                raise self.fail("illegal-move", f"{self.text!r}: this variant has no pawns")
            kind = rules.pawn
        else:
            found_kind = rules.kind_of.get(letter)
            if found_kind is None:
                raise self.fail("bad-move-syntax", f"{self.text!r}: {piece!r} is not a piece of {rules.variant.name}")
            kind = found_kind
            if kind == rules.pawn:
                self.warn("pawn-letter", "a pawn move written with its letter")
        wanted_promotion = ""
        if promotion:
            if not promotion.startswith("="):
                self.warn("promotion-without-equals", PROMOTION_WITHOUT_EQUALS_MESSAGE)
            letter_part = promotion.lstrip("=")
            if letter_part.islower():
                self.warn("promotion-lower-case", "a promotion piece in lower case")
            wanted_promotion = letter_part.lower()
        names = rules.square_names
        candidates = []
        reaching = position.moves_of_kind_to(kind, target)
        for move in reaching:
            name = names[move.origin]
            if exact_origin and name != origin:
                continue
            if not exact_origin and origin and not _fits(name, origin):
                continue
            if move.promotion != wanted_promotion:
                continue
            candidates.append(move)
        if not candidates and piece is not None and letter == rules.variant.castling_piece and rules.castles:
            candidates = self._king_takes_rook(origin, target, exact_origin)
            if candidates:
                self.warn("king-takes-rook", "castling written as the king taking its rook")
                return candidates[0]
        if not candidates:
            if promotion is None and any(m.promotion for m in reaching):
                raise self.fail("illegal-move", f"{self.text!r}: a pawn reaching {target_name} must promote")
            raise self.fail("illegal-move", f"{self.text!r} is not a legal move here")
        move = self._only(candidates)
        real_capture = position.is_capture(move)
        if capture and not real_capture:
            self.warn("false-capture-mark", FALSE_CAPTURE_MARK_MESSAGE)
        elif real_capture and not capture:
            self.warn("missing-capture-mark", MISSING_CAPTURE_MARK_MESSAGE)
        if origin and not exact_origin:
            needed = _disambiguation(position, move, kind) if kind != rules.pawn else ""
            if kind == rules.pawn:
                needed = names[move.origin][0] if real_capture else ""
            if len(origin) > len(needed):
                self.warn("over-disambiguated", OVER_DISAMBIGUATED_MESSAGE)
        return move

    def _king_takes_rook(self, origin: str, target: int, exact_origin: bool) -> list[Move]:
        names = self.position.rules.square_names
        return [
            m
            for m in self.position.castling_moves()
            if m.target == target and (not origin or _fits(names[m.origin], origin))
        ]

    def _only(self, candidates: list[Move]) -> Move:
        if not candidates:
            raise self.fail("illegal-move", f"{self.text!r} is not a legal move here")
        if len(candidates) > 1:
            names = [write_move(self.position, m, _SAN_NOTATION) for m in candidates]
            raise self.fail("ambiguous-move", f"{self.text!r} fits {len(candidates)} moves: {', '.join(names)}", names)
        return candidates[0]

    def _check_mark(self, move: Move, written: str) -> None:
        if move.kind is _NULL or (self.uci and not written):
            return
        actual = _suffix(self.position, move)
        if written != actual:
            self.warn(WRONG_CHECK_MARK, check_mark_message(written, actual))


def _fits(square_name: str, written: str) -> bool:
    """Whether a square's name fits a written disambiguation (a file, a rank, or both)."""
    if written[0].isalpha():
        return square_name.startswith(written) if len(written) > 1 else square_name[0] == written
    return square_name[1:] == written
