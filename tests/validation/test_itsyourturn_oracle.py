"""The itsyourturn variants against Fairy-Stockfish (pyffish, test-only).

Where Fairy-Stockfish has the variant (``antichess``) or can be told its rules in a
variants.ini section (itsyourturn Horde: lichess Horde's rules with the colours swapped and
no double step for Black; King's Corner and King's Fortress: chess without castling from
their start arrays), every position of seeded random legal play is valid for us and is
written back exactly as Fairy-Stockfish writes it (the ``fairy-stockfish`` profile).
Seeded and bounded: the same positions every run.
"""

from __future__ import annotations

import itertools
import random

import pyffish
import pytest

from notation.fen.profiles import PROFILES
from notation.fen.reader import read_fen
from notation.fen.writer import write_fen
from notation.start import drawn_start
from notation.validation import validate
from notation.variants import DEFAULT_REGISTRY

# Our entries' rules told to Fairy-Stockfish (its variants.ini syntax).
CONFIG = """
[itsyourturnhorde:chess]
startFen = pppppppp/pppppppp/pppppppp/pppppppp/1pp2pp1/8/PPPPPPPP/RNBQKBNR w KQ - 0 1
doubleStepRegionBlack = -
extinctionValue = loss
extinctionPieceTypes = *

[kingscorner:chess]
startFen = krnqbbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBBQNRK w - - 0 1
castling = false

[kingsfortress:chess]
startFen = krnqbbnr/pppppppp/ppp5/8/8/5PPP/PPPPPPPP/RNBBQNRK w - - 0 1
castling = false
"""
pyffish.load_variant_config(CONFIG)

FAIRY = {
    "itsyourturnhorde": "itsyourturnhorde",
    "kingscorner": "kingscorner",
    "kingsfortress": "kingsfortress",
    "antichess": "antichess",
}
GAMES = 5
PLIES = 60


def random_play(fairy: str, start: str, seed: int):
    """Each FEN Fairy-Stockfish writes along ``GAMES`` seeded random games from ``start``."""
    rng = random.Random(seed)
    for _game in range(GAMES):
        moves: list[str] = []
        for _ply in range(PLIES):
            legal = pyffish.legal_moves(fairy, start, moves)
            if not legal:
                break
            moves.append(rng.choice(sorted(legal)))
            yield pyffish.get_fen(fairy, start, moves)


@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(FAIRY))
def test_random_play_is_valid_and_written_as_fairy_stockfish_writes_it(key):
    variant = DEFAULT_REGISTRY.get(key)
    fairy = FAIRY[key]
    profile = PROFILES["fairy-stockfish"]
    start = variant.start_fen
    assert pyffish.get_fen(fairy, start, []) == start
    checked = with_ep = 0
    for theirs in random_play(fairy, start, 12_000 + len(key)):
        parsed = read_fen(theirs, variant)
        assert validate(parsed.setup, variant) == [], theirs
        assert write_fen(parsed.setup, variant, profile).fen == theirs
        checked += 1
        with_ep += theirs.split()[3] != "-"
    assert checked >= GAMES * 20
    assert with_ep > 0, "no en passant square was ever compared"


@pytest.mark.slow
def test_fairy_stockfish_never_gives_black_an_en_passant_square_in_itsyourturn_horde():
    """Black's pawns never step twice: every en passant square follows a White move."""
    start = DEFAULT_REGISTRY.get("itsyourturnhorde").start_fen
    seen = 0
    for fen in random_play("itsyourturnhorde", start, 7):
        fields = fen.split()
        if fields[3] != "-":
            assert fields[1] == "b", fen
            seen += 1
    assert seen > 0


@pytest.mark.slow
@pytest.mark.parametrize("key", ["kingscorner", "kingsfortress"])
def test_random_play_from_drawn_arrays(key):
    """Games from drawn arrays (not only the example start) pass the same checks."""
    variant = DEFAULT_REGISTRY.get(key)
    profile = PROFILES["fairy-stockfish"]
    checked = 0
    for number in (0, 121, 208, 359):
        start = write_fen(drawn_start(variant, number=number)[0], variant, profile).fen
        assert pyffish.get_fen(key, start, []) == start
        for theirs in itertools.islice(random_play(key, start, number), 40):
            parsed = read_fen(theirs, variant)
            assert validate(parsed.setup, variant) == [], theirs
            assert write_fen(parsed.setup, variant, profile).fen == theirs
            checked += 1
    assert checked == 4 * 40
