"""The plain SAN reader (``notation.moves.chess.read_plain_san``), which reads most moves of
a database without regular expressions or candidate lists, agrees with the full reader
wherever it answers, and leaves every other text to it.

Positions come from seeded random play in every chess-family variant of the registry (a
Chess960 array too); each legal move is written in SAN and spelled the ways real files
spell it (no check mark, a wrong one, glyphs, over- and under-disambiguated, without or
with a false ``x``, lower case, ``=`` left out). For each text, ``read_move`` (plain
reader first) and the full reader alone give the same move and warnings, or the same error.
"""

from __future__ import annotations

import functools
import random

import pytest

from notation.errors import MoveError
from notation.game import start_position
from notation.game.chess.position import ChessPosition
from notation.game.chess.rules import rules_of
from notation.game.family import GamePosition
from notation.game.move import MoveKind
from notation.move_options import CastlingMode, MoveNotation
from notation.moves.chess import _Reader, read_move, read_plain_marked, read_plain_san, write_move
from notation.moves.reading import ReadMove
from notation.playing import open_position
from notation.variants import VARIANTS, RuleFamily, find_variant

SAN = MoveNotation.SAN
CHESS = [v.key for v in VARIANTS if v.family is RuleFamily.CHESS and v.geometry.is_chess_board]
PLIES = 40


def _spellings(san: str) -> set[str]:
    body = san.rstrip("+#")
    texts = {san, body, body + "+", body + "#", san + "!?", san + "!!!", san + "++", "x" + san,
             san.replace("x", ""), san.replace("x", ":"), san.lower(), " " + san, "P" + san,
             san.replace("@", "*"), "@" + san}
    if "=" in body:
        texts.add(body.replace("=", ""))
        texts.add(body[:-1] + body[-1].lower())
    if len(body) >= 3 and body[0].isupper() and body[0] != "O":
        for square in ("a1", "e4", "h8", body[1:3]):
            texts.add(body[0] + square[0] + body[1:])
            texts.add(body[0] + square[1] + body[1:])
            texts.add(body[0] + square + body[1:])
    if len(body) == 4 and body[0].isupper() and body[1] in "abcdefgh12345678":
        texts.add(body[0] + body[2:])  # the disambiguation left out
    if len(body) >= 4 and body[0].islower() and body[1] == "x":
        texts.add(body[2:])  # a pawn capture without its file
    return texts


def _outcome(read: object) -> tuple[object, ...]:
    try:
        found = read()  # type: ignore[operator]
    except MoveError as exc:
        return ("error", exc.problems[0].code)
    return ("move", found.move, tuple(sorted(w.code for w in found.warnings)))


def _forget(position: GamePosition) -> None:
    """Drop the one-step cache a reading leaves (``play_known``), so each reading starts alike."""
    assert isinstance(position, ChessPosition)
    position._next_move = None
    position._next = None


def _positions(key: str, seed: int):
    castling = CastlingMode.CHESS960 if key == "chess960" else CastlingMode.STANDARD
    position = start_position(key, castling=castling)
    rng = random.Random(seed)
    for _ in range(PLIES):
        yield position
        moves = position.legal_moves()
        if not moves:
            return
        # Captures and checks more often than chance, so that mates and explosions come up.
        weighted = [m for m in moves if position.is_capture(m)] * 3 + moves
        position = position.play(rng.choice(weighted))


@pytest.mark.slow
@pytest.mark.parametrize("key", CHESS)
def test_plain_reader_agrees_with_the_full_reader(key: str) -> None:
    answered = marked = 0
    for seed in (1,):
        for position in _positions(key, seed):
            for move in position.legal_moves():
                san = write_move(position, move, SAN)
                for text in sorted(_spellings(san)):
                    _forget(position)
                    plain = read_plain_san(position, text)
                    _forget(position)
                    found, mark = read_plain_marked(position, text, 0, len(text))
                    _forget(position)
                    # Read in place within a game's movetext, as the game reader reads it.
                    movetext = f"12... {text} {{ [%clk 0:03:00] }} 13. "
                    assert read_plain_marked(position, movetext, 6, 6 + len(text)) == (found, mark), (key, text)
                    _forget(position)
                    both = _outcome(functools.partial(read_move, position, text, SAN))
                    _forget(position)
                    full = _outcome(_Reader(position, text, SAN).read)
                    assert both == full, (key, write_move(position, move, MoveNotation.UCI), text)
                    if plain is not None:
                        assert full == ("move", plain, ()), (key, text)
                        assert (found, mark) == (plain, 0), (key, text)
                        if plain.kind is MoveKind.NORMAL:  # castling and drops are read in every variant
                            answered += 1
                    elif found is not None:
                        # Plain but for its check mark: the full reader's move and its one
                        # warning, worded alike.
                        assert mark and full == ("move", found, ("wrong-check-mark",)), (key, text)
                        _forget(position)
                        worded = _Reader(position, text, SAN).read().warnings
                        assert ReadMove(found, None, mark, text).warnings == worded
                        marked += 1
                    else:
                        assert mark == 0, (key, text)
    rules = rules_of(find_variant(key))
    if rules.moves_by_piece:
        assert answered, "the plain reader answered nothing where one piece's moves are found alone"
        assert marked, "no move was read plainly with a wrong check mark"
    else:
        assert not answered, "the plain reader answered where the moves are filtered as a whole"


def test_plain_reader_leaves_lenient_spellings_to_the_full_reader() -> None:
    position = start_position("standard")
    for text in ("Nf3", "e4", "e4!?", "Nc3"):
        assert read_plain_san(position, text) is not None, text
    for text in ("0-0", "e2e4", "e2-e4", "Ng1f3", "Ngf3", "N1f3", "nf3", "e4+", "Pe4", "Nxf3", "N@f3", " e4", ""):
        assert read_plain_san(position, text) is None, text


@pytest.mark.parametrize(("fen", "variant"), [
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "standard"),
    ("4k3/8/8/8/8/8/8/1R2K1R1 w GB - 0 1", "chess960"),
    ("r3k2r/8/8/8/8/8/8/R3K2R[] w KQkq - 0 1", "crazyhouse"),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "atomic"),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 +0+0", "threecheck"),
])
def test_castling_is_read_plainly_as_the_full_reader_reads_it(fen: str, variant: str) -> None:
    position = open_position(fen, variant)
    for text in ("O-O", "O-O-O", "O-O+", "O-O-O+", "O-O#", "0-0", "O-O-O-O", "OO"):
        _forget(position)
        plain = read_plain_san(position, text)
        _forget(position)
        full = _outcome(_Reader(position, text, SAN).read)
        if plain is not None:
            assert full == ("move", plain, ()), text
    _forget(position)
    assert read_plain_san(position, "O-O") is not None
    assert read_plain_san(position, "O-O-O") is not None
