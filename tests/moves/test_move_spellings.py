"""No legal move is ever called illegal: every legal move of positions reached by seeded
random games, in chess-family variants, is written in every spelling the chess reader
accepts (SAN, LAN, UCI, hyphenated long algebraic with and without piece letters,
figurines, castling with zeros and with each Unicode dash, glued glyphs, evaluation signs
and novelty marks, promotions ``=Q``, ``Q``, ``(Q)``, ``/Q``, en passant marks, and each
language's piece letters under ``--piece-letters``) and each must
read, in SAN (as the PGN reader reads) and in any notation, as the same move: never
``illegal-move``, ``ambiguous-move`` or ``bad-move-syntax``. The same spellings in a PGN game
are then checked and rewritten to UCI by the CLI's own code path."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from notation.errors import MoveError
from notation.game import start_position
from notation.game.family import GamePosition
from notation.game.move import Move, MoveKind
from notation.move_options import CastlingMode, MoveLanguage, MoveNotation
from notation.moves import read_move, write_move
from notation.moves.chess import DASHES, EVALUATION_SIGNS, FIGURINES, PIECE_LETTERS
from notation.moves.chess import read_move as read_chess_move
from notation.pgn.normalize import NormalizeOptions, normalize_text

VARIANTS = ["standard", "chess960", "crazyhouse", "atomic", "antichess", "kingofthehill", "threecheck",
            "racingkings", "horde", "knightmate", "extinction", "grasshopper"]
WHITE_FIGURINES = {letter: symbol for symbol, letter in list(FIGURINES.items())[:6]}
BLACK_FIGURINES = {letter: symbol for symbol, letter in list(FIGURINES.items())[6:]}
SIGNS = [*EVALUATION_SIGNS, "N", "!", "??", "!?"]


def _figurines(text: str, rng: random.Random) -> str | None:
    """``text`` with its piece letters (a move's first letter, a promotion's) as figurines of
    either colour; None where it has none a figurine stands for."""
    letters = [i for i, c in enumerate(text) if c in WHITE_FIGURINES and (i == 0 or text[i - 1] == "=")]
    if not letters or text.startswith("O"):
        return None
    table = rng.choice([WHITE_FIGURINES, BLACK_FIGURINES])
    return "".join(table[c] if i in letters else c for i, c in enumerate(text))


def spellings(position: GamePosition, move: Move, rng: random.Random) -> list[str]:
    """Every spelling of ``move`` the chess reader accepts, one random sign or dash each."""
    san = write_move(position, move, MoveNotation.SAN)
    lan = write_move(position, move, MoveNotation.LAN)
    uci = write_move(position, move, MoveNotation.UCI)
    found = [san, lan, uci, san + rng.choice(SIGNS), san + "N", san + rng.choice(EVALUATION_SIGNS)]
    figurine = _figurines(san, rng)
    if figurine is not None:
        found += [figurine, _figurines(lan, rng) or lan]
    if move.kind is MoveKind.CASTLE:
        dash = rng.choice(DASHES)
        found += [san.replace("-", dash), san.replace("O", "0"), san.replace("O", "0").replace("-", dash)]
    if move.kind in (MoveKind.NORMAL, MoveKind.EN_PASSANT, MoveKind.CASTLE):
        capture = "x" if move.kind is not MoveKind.CASTLE and position.is_capture(move) else "-"
        hyphenated = uci[:2] + capture + uci[2:4] + uci[4:].upper()  # pgn-extract's -Whalg, one mark each
        found += [hyphenated, uci[:2] + "-" + uci[2:4] + uci[4:].upper() if capture == "-" else hyphenated]
    if move.promotion:
        bare = san.split("=")[0]
        letter = move.promotion.upper()
        check = san[len(bare) + 2:]
        found += [f"{bare}{letter}{check}", f"{bare}({letter}){check}", f"{bare}/{letter}{check}"]
    if move.kind is MoveKind.EN_PASSANT:
        found += [san.rstrip("+#") + "e.p." + san[len(san.rstrip("+#")):], san.rstrip("+#") + "ep"]
    return found


def _assert_reads(position: GamePosition, move: Move, text: str) -> None:
    for notation in (MoveNotation.SAN, None):
        try:
            read = read_move(position, text, notation)
        except MoveError as error:
            problem = error.problems[0]
            raise AssertionError(f"{text!r} ({notation}): {problem.code}: {problem.message}") from None
        assert read.move == move, (text, notation, read.move, move)


def in_language(san: str, language: MoveLanguage) -> str:
    """``san`` with its English piece letters as ``language`` writes them (a Dutch pawn, which
    has no letter, loses its ``P``)."""
    if san.startswith("O"):
        return san
    own = dict(zip(PIECE_LETTERS[MoveLanguage.EN], PIECE_LETTERS[language], strict=False))
    return "".join(own.get(c, "") if c in PIECE_LETTERS[MoveLanguage.EN] else c for c in san)


def _assert_reads_in_every_language(position: GamePosition, move: Move) -> None:
    san = write_move(position, move, MoveNotation.SAN)
    if any(c.isupper() and c not in "KQRBNPO" for c in san):
        return  # a piece of the variant's own (Knightmate's M), which no language table names
    for language in MoveLanguage:
        written = in_language(san, language)
        for text in (written, written + "N", written + "±", written + "N⩲"):
            try:
                read = read_chess_move(position, text, MoveNotation.SAN, language)
            except MoveError as error:
                raise AssertionError(f"{text!r} ({language.value}): {error.problems[0].message}") from None
            assert read.move == move, (text, language)


def _positions(variant: str, seed: int, plies: int) -> list[GamePosition]:
    rng = random.Random(seed)
    castling = CastlingMode.CHESS960 if variant == "chess960" else CastlingMode.STANDARD
    position = start_position(variant, castling=castling)
    found = [position]
    for _ in range(plies):
        moves = position.legal_moves()
        if not moves or position.outcome() is not None:
            break
        # Castling, promotions and en passant first where there are any: the rare spellings.
        rare = [m for m in moves if m.kind in (MoveKind.CASTLE, MoveKind.EN_PASSANT) or m.promotion]
        position = position.play(rng.choice(rare if rare and rng.random() < 0.5 else moves))
        found.append(position)
    return found


@pytest.mark.slow
@settings(max_examples=examples(12))
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32 - 1))
def test_every_legal_move_in_every_spelling_reads_as_itself(variant: str, seed: int) -> None:
    rng = random.Random(seed)
    for position in _positions(variant, seed, 60)[::3]:
        if position.outcome() is not None:
            continue
        moves = position.legal_moves()
        special = [m for m in moves if m.kind is not MoveKind.NORMAL or m.promotion]
        for move in special + rng.sample(moves, min(6, len(moves))):
            for text in spellings(position, move, rng):
                _assert_reads(position, move, text)
            _assert_reads_in_every_language(position, move)


def test_the_spellings_cover_what_they_should() -> None:
    """A test that cannot fail is a defect: the generator writes each rare spelling."""
    position = start_position("standard")
    rng = random.Random(1)
    knight = next(m for m in position.legal_moves() if write_move(position, m, MoveNotation.SAN) == "Nf3")
    texts = spellings(position, knight, rng)
    assert {"Nf3", "Ng1-f3", "g1f3", "g1-f3", "Nf3N"} <= set(texts)
    assert any(t[0] in FIGURINES for t in texts)
    assert in_language("Nf3", MoveLanguage.DE) == "Sf3" and in_language("Bxc6", MoveLanguage.FR) == "Fxc6"
    assert in_language("e8=Q+", MoveLanguage.PL) == "e8=H+" and in_language("O-O", MoveLanguage.ES) == "O-O"


@settings(max_examples=examples(6))
@given(variant=st.sampled_from(["standard", "crazyhouse", "chess960", "atomic"]), seed=st.integers(0, 2**32 - 1))
def test_a_game_in_mixed_spellings_is_checked_clean_and_rewritten_as_its_moves(variant: str, seed: int) -> None:
    rng = random.Random(seed)
    castling = CastlingMode.CHESS960 if variant == "chess960" else CastlingMode.STANDARD
    position = start_position(variant, castling=castling)
    parts, expected = [], []
    for ply in range(40):
        moves = position.legal_moves()
        if not moves or position.outcome() is not None:
            break
        move = rng.choice(moves)
        if ply % 2 == 0:
            parts.append(f"{ply // 2 + 1}.")
        parts.append(rng.choice(spellings(position, move, rng)))
        expected.append(write_move(position, move, MoveNotation.UCI))
        position = position.play(move)
    tags = f'[Variant "{variant}"]\n' if variant != "standard" else ""
    if variant == "chess960":
        from notation.fen.writer import write_fen

        start = start_position(variant, castling=castling)
        tags += f'[FEN "{write_fen(start.to_setup(), start.variant).fen}"]\n[SetUp "1"]\n'
    text = f'[Event "spellings"]\n{tags}[Result "*"]\n\n' + " ".join(parts) + " *\n"
    out, _, report = normalize_text(text, NormalizeOptions.create(moves="uci"))
    errors = [p for entry in report for p in entry["errors"]]
    assert not errors, (text, errors)
    movetext = out.split("\n\n", 1)[1]
    words = [w.rstrip("!?") for w in movetext.split()]  # a glyph stays glued to its move's new text
    written = [w for w in words if w and not w[0].isdigit() and w != "*" and not w.startswith("$")
               and w not in SIGNS and w != "e.p." and w != "ep"]
    assert written == expected, text
