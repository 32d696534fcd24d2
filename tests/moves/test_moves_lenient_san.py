"""The lenient SAN step (``notation.moves.chess.read_lenient_san``), which reads the lenient
spellings files hold most without regular expressions or candidate lists once the plain
reader has failed, gives exactly what the full reader gives: the same move, the same
warnings in the same order with the same words, or leaves the text to it.

Positions come from seeded random play in every chess-family variant of the registry (a
Chess960 array too, test_moves_plain_san's); each legal move is spelled the lenient ways
real files spell it (check marks missing or wrong, capture marks missing or false, the
origin's file, rank or square where SAN needs none, long algebraic with and without the
piece's letter, UCI, castling with zeros and as the king's step, a promotion without
``=`` or in lower case), and some ways no file should (wrong origins, a hyphen after a
file). For each text, ``read_move`` (plain reader, then the lenient step) and the full
reader alone give the same answer, in SAN as a PGN is read and in no notation.
"""

from __future__ import annotations

import functools

import pytest
from test_moves_plain_san import CHESS, _forget, _positions

from notation.errors import MoveError
from notation.game import start_position
from notation.game.chess.position import ChessPosition
from notation.game.chess.rules import rules_of
from notation.game.move import Move, MoveKind
from notation.move_options import MoveNotation
from notation.moves.chess import _Reader, read_lenient_san, read_move, write_move
from notation.playing import open_position
from notation.variants import find_variant

SAN, LAN, UCI = MoveNotation.SAN, MoveNotation.LAN, MoveNotation.UCI
READINGS = (SAN, None)


def _spellings(position: ChessPosition, move: Move) -> set[str]:
    san = write_move(position, move, SAN)
    lan = write_move(position, move, LAN)
    uci = write_move(position, move, UCI)
    body = san.rstrip("+#")
    marks = san[len(body):]
    long_body = lan.rstrip("+#")
    texts = {body, body + "+", body + "#", san + "!?", san + "??", uci, uci + "+", uci + marks, lan, long_body,
             long_body + "+"}
    texts |= {san.replace("x", ""), lan.replace("x", "-"), lan.replace("-", "x"), lan.replace("x", ":")}
    if "=" in san:
        texts |= {san.replace("=", ""), san[:-1] + san[-1].lower() if not marks else san, lan.replace("=", ""),
                  uci.upper(), uci[:-1] + uci[-1].upper()}
    if body[0].isupper() and body[0] != "O":
        letter, rest = body[0], body[1:]
        origin = lan[1:3]
        for square in (origin, "a1", "e4", "h8"):
            for part in (square[0], square[1], square):
                texts |= {letter + part + rest + marks, letter + part + rest, letter + part + "-" + rest}
        if "x" not in rest:
            texts |= {letter + "x" + rest + marks, letter + origin + "x" + rest[-2:] + marks}
        texts.add(lan[1:])  # the piece's letter left out: g1-f3
        texts.add(lan[1:].replace("-", ""))  # and the hyphen: UCI-like
    elif body[0].islower():
        if "x" in body:
            texts.add(body.replace("x", ""))  # ed5
            texts.add(body[2:] + marks)  # d5 for exd5
        else:
            texts.add(body[0] + "x" + body + marks)
            texts.add(body[0] + body)  # e.g. ee4
        texts.add("P" + san)
    if move.kind is MoveKind.CASTLE:
        zeros = body.replace("O", "0")
        texts |= {zeros, zeros + "+", zeros + marks, body.lower(), "0-O" + body[3:]}
        king_step = lan[:0] + uci[:2] + "-" + position.rules.geometry.square_names[position.castling_target(move)]
        texts |= {king_step, king_step + marks, "K" + king_step, uci}
    if move.kind is MoveKind.EN_PASSANT:
        texts |= {san + "e.p.", body + "ep"}
    return texts


def _outcome(read: object) -> tuple[object, ...]:
    try:
        found = read()  # type: ignore[operator]
    except MoveError as exc:
        return ("error", exc.problems[0].code)
    return ("move", found.move, tuple((w.code, w.message, tuple(sorted(w.extra.items()))) for w in found.warnings))


def _agree(position: ChessPosition, text: str, notation: MoveNotation | None) -> bool:
    """``read_move`` and the full reader alone give ``text`` the same answer; whether the
    lenient step gave it."""
    _forget(position)
    lenient = read_lenient_san(position, text, notation)
    _forget(position)
    both = _outcome(functools.partial(read_move, position, text, notation))
    _forget(position)
    full = _outcome(_Reader(position, text, notation).read)
    assert both == full, (position.variant.key, text, notation)
    if lenient is not None:
        assert full == _outcome(lambda: lenient), (position.variant.key, text, notation)
    return lenient is not None


@pytest.mark.slow
@pytest.mark.parametrize("key", CHESS)
def test_lenient_step_gives_what_the_full_reader_gives(key: str) -> None:
    answered: set[str] = set()
    for position in list(_positions(key, 2))[::3]:  # every third ply: the spellings are many
        assert isinstance(position, ChessPosition)
        for move in position.legal_moves():
            for text in sorted(_spellings(position, move)):
                for notation in READINGS:
                    if _agree(position, text, notation):
                        answered.add(text)
    rules = rules_of(find_variant(key))
    if rules.moves_by_piece:
        assert len(answered) > 100, "the lenient step answered next to nothing where one piece's moves are found alone"


@pytest.mark.parametrize(("fen", "variant", "texts"), [
    (None, "standard", ["Ng1f3", "Ngf3", "N1f3", "Ng1-f3", "g1-f3", "g1f3", "e2-e4", "e2e4", "e4+", "Nf3#", "Ng1xf3",
                        "Nxf3", "e2xe4", "Nb1-f3", "Ng1-f4", "Ng-f3", "g2-g4!?", "Ng1f3+!"]),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "standard", ["0-0", "0-0-0+", "O-O+", "e1-g1", "Ke1-g1", "e1-c1+",
                                                          "e1g1", "e1h1", "Ke1g1", "0-O", "Rh1-h8+", "Rh1xh8",
                                                          "Rhxh8+", "Rxh8", "Rah8+"]),
    ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "standard", ["b8Q", "b8Q+", "b7b8q", "b7b8q+", "b7-b8=Q+", "b7-b8Q", "b8=q",
                                                     "b7b8Q", "b7b8", "b8", "bb8=Q+"]),
    ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "standard", ["exf6", "ef6", "e5xf6", "e5f6",
                                                                                  "exd6", "exf6e.p.", "Ng1f3"]),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 +2+0", "threecheck", ["Rh1xh8", "Rxh8", "Rh8#", "Rh1-h8+", "0-0"]),
    ("4k3/8/8/8/8/8/8/R3K2R w K - 0 1", "atomic", ["e1-g1", "0-0", "Rh1-h8+", "Ra1a8+"]),
    ("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "standard", ["Nbd2", "Nb1d2", "Nbd2+", "N1d2", "Nb1-d2", "b1-d2", "Nfd2+"]),
    ("4k3/8/8/8/8/1N6/8/1N2K3 w - - 0 1", "standard", ["N1d2", "N1d2+", "Nb1d2", "Nbd2", "N1xd2", "b1d2"]),
    ("6k1/8/8/8/Q2p3Q/8/8/Q3K3 w - - 0 1", "standard", ["Qa4xd4", "Qa4-d4", "Qa4d4", "Qa4xd4+", "Q4xd4", "Qa1xd4",
                                                       "Qa1-d4", "a4xd4", "Qhxd4", "Qh4d4"]),
])
def test_lenient_step_on_chosen_positions(fen: str | None, variant: str, texts: list[str]) -> None:
    position = start_position(variant) if fen is None else open_position(fen, variant)
    assert isinstance(position, ChessPosition)
    answered = [text for text in texts for notation in READINGS if _agree(position, text, notation)]
    assert answered  # every table holds spellings the step reads


def test_lenient_step_leaves_uci_and_the_rarer_spellings_to_the_full_reader() -> None:
    position = start_position("standard")
    assert isinstance(position, ChessPosition)
    assert read_lenient_san(position, "Ng1f3", UCI) is None
    for text in ("Ng1:f3", "nf3", "Pe4", "N@f3", "N*f3", " Nf3", "Nf3 ", "Nf3++", "", "--", "♘f3", "Nf3⩲"):
        assert read_lenient_san(position, text, SAN) is None, text


def test_a_lenient_reading_flags_its_repairs_and_words_them_when_asked():
    import pickle

    from notation.moves import reading

    read = read_move(start_position("standard"), "Ng1f3+")
    assert read.repairs == reading.OVER_DISAMBIGUATED | reading.FALSE_CHECK_MARK and read.text == "Ng1f3+"
    assert read.any_warning() and read.noted == ()  # the check mark is a flag too: nothing worded yet
    assert [(w.code, w.message, w.extra) for w in read.warnings] == [
        ("over-disambiguated", "more of the origin square than needed in 'Ng1f3+'", {"move": "Ng1f3+"}),
        ("wrong-check-mark", "check mark + where the move gives none in 'Ng1f3+'", {"move": "Ng1f3+"}),
    ]
    assert pickle.loads(pickle.dumps(read)) == read
    clean = read_move(start_position("standard"), "Nf3")
    assert not clean.any_warning() and clean.warnings == [] and clean.repairs == 0


def test_every_repair_flag_is_worded_in_bit_order():
    from notation.moves import reading

    flags = [reading.CASTLING_WITH_ZEROS, reading.UCI_IN_SAN, reading.WITHOUT_PIECE, reading.PROMOTION_WITHOUT_EQUALS,
             reading.FALSE_CAPTURE_MARK, reading.MISSING_CAPTURE_MARK, reading.OVER_DISAMBIGUATED,
             reading.LONG_ALGEBRAIC, reading.CHECK_MARK_MISSING, reading.MATE_MARK_MISSING, reading.FALSE_CHECK_MARK,
             reading.CHECK_MARK_FOR_MATE, reading.FALSE_MATE_MARK, reading.MATE_MARK_FOR_CHECK]
    assert flags == [1 << n for n in range(len(reading.REPAIR_CODES))]
    assert len(reading.REPAIR_MESSAGES) == len(reading.REPAIR_CODES) == len(flags)
    assert len(set(reading.REPAIR_CODES)) == 9  # the six check mark flags share one code
    every = reading.ReadMove(read_move(start_position("standard"), "Nf3").move, None, sum(flags), "x")
    assert [w.code for w in every.warnings] == list(reading.REPAIR_CODES)
    assert every.warnings[2].message == "long algebraic notation without the piece's letter in 'x'"


@pytest.mark.parametrize(("written", "given", "flag"), [
    ("", "+", "CHECK_MARK_MISSING"), ("", "#", "MATE_MARK_MISSING"), ("+", "", "FALSE_CHECK_MARK"),
    ("+", "#", "CHECK_MARK_FOR_MATE"), ("#", "", "FALSE_MATE_MARK"), ("#", "+", "MATE_MARK_FOR_CHECK"),
    ("+", "+", None), ("", "", None), ("#", "#", None),
])
def test_each_wrong_check_mark_has_its_flag_worded_as_the_full_reader_words_it(written, given, flag):
    from notation.moves import reading

    found = reading.check_mark_flag(written, given)
    if flag is None:
        assert found == 0
        return
    assert found == getattr(reading, flag)
    index = found.bit_length() - 1
    assert reading.REPAIR_CODES[index] == "wrong-check-mark"
    assert reading.REPAIR_MESSAGES[index] == reading.check_mark_message(written, given)
