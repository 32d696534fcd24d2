"""Xiangqi's legal moves (notation.game.xiangqi) and move notations (notation.moves.xiangqi)
against Fairy-Stockfish's Python binding (pyffish, GPL: a test-only oracle) and tables.

- Perft from the start and from middlegame and endgame positions, depths 1-3
  (fixtures/moves/xiangqi/perft.json); pyffish recounts depths 1 and 2 here.
- Every legal move of 49 positions in UCI, SAN, WXF and LAN as pyffish writes them
  (fixtures/moves/xiangqi/notations.txt): the same moves in the same order, written the
  same, read back from each notation; pyffish re-asked for a sample of the rows here.
- Seeded random games, live against pyffish at every ply: the legal move set, the FEN after
  the move played (all six fields), the played moves in SAN, WXF and LAN; the move played,
  and every legal move at every fifth ply, read back from each of the five notations.
- Hand-made examples (fixtures/moves/xiangqi/examples.json): moves written in every
  notation with the FEN they lead to, lenient readings with their warnings, unreadable,
  illegal and ambiguous moves with their codes, finished games.

pyffish answers a call in about 2 ms (it sets the variant up each time), so the live parts
are sized by their number of calls. ``PYTHONPATH=tests python tests/game/test_game_xiangqi.py``
rewrites the two oracle tables from pyffish; examples.json is written by hand.
"""

from __future__ import annotations

import json
import random
import sys

import pyffish
import pytest
from paths import ROOT

from notation.errors import MoveError
from notation.fen.reader import read_fen
from notation.fen.writer import write_fen
from notation.game import EndReason, legal_position
from notation.game.move import Move
from notation.game.perft import perft
from notation.game.xiangqi import XiangqiPosition
from notation.move_options import MoveNotation
from notation.moves import read_move, write_move
from notation.moves.xiangqi import NOTATIONS
from notation.setup import Setup
from notation.validation import validate
from notation.variants import find_variant

TABLES = ROOT / "fixtures" / "moves" / "xiangqi"
VARIANT = find_variant("xiangqi")
GEOMETRY = VARIANT.geometry
ORACLE_NOTATIONS = {
    MoveNotation.SAN: pyffish.NOTATION_SAN,
    MoveNotation.WXF: pyffish.NOTATION_XIANGQI_WXF,
    MoveNotation.LAN: pyffish.NOTATION_LAN,
}
GAMES = 40
PLIES = 60  # per game; a game ends sooner if it is decided
ROUND_TRIP_EVERY = 5  # every legal move read back at every fifth ply (the move played at every ply)
TABLE_SAMPLE = 150  # notation-table rows re-asked of pyffish (three calls each)


def position_of(fen: str) -> XiangqiPosition:
    return XiangqiPosition(read_fen(fen, VARIANT).setup, VARIANT)


def uci(move: Move) -> str:
    return GEOMETRY.square_name(move.origin) + GEOMETRY.square_name(move.target)


def move_of(text: str) -> Move:
    """A move from UCI points (``h3e3``, ``a10a9``)."""
    split = 3 if text[2].isdigit() else 2
    return Move(GEOMETRY.parse_square(text[:split]), GEOMETRY.parse_square(text[split:]))


def fen_of(position: XiangqiPosition) -> str:
    return write_fen(position.to_setup(), VARIANT).fen


def oracle_perft(fen: str, depth: int) -> int:
    moves = pyffish.legal_moves("xiangqi", fen, [])
    if depth == 1:
        return len(moves)
    return sum(oracle_perft(pyffish.get_fen("xiangqi", fen, [move]), depth - 1) for move in moves)


# --- perft --------------------------------------------------------------------------------------

PERFT = json.loads((TABLES / "perft.json").read_text(encoding="utf-8"))["positions"]


@pytest.mark.parametrize("case", PERFT, ids=[case["name"] for case in PERFT])
def test_perft(case):
    position = position_of(case["fen"])
    assert [perft(position, depth) for depth in range(1, len(case["perft"]) + 1)] == case["perft"]


@pytest.mark.parametrize("case", PERFT, ids=[case["name"] for case in PERFT])
def test_perft_table_is_pyffish(case):
    assert [oracle_perft(case["fen"], depth) for depth in (1, 2)] == case["perft"][:2]


def test_perft_start_matches_published_numbers():
    """The start position's counts published for Xiangqi move generators."""
    start = position_of(VARIANT.start_fen)
    assert [perft(start, depth) for depth in (1, 2, 3)] == [44, 1920, 79666]


# --- the notation table -------------------------------------------------------------------------


def read_table() -> list[tuple[str, list[list[str]]]]:
    positions: list[tuple[str, list[list[str]]]] = []
    for line in (TABLES / "notations.txt").read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        if line.startswith("fen "):
            positions.append((line[4:], []))
        else:
            positions[-1][1].append(line.split())
    return positions


TABLE = read_table()


def iccs_of(uci_text: str) -> str:
    """ICCS from UCI points: every rank one lower."""
    origin, target = move_of(uci_text).origin, move_of(uci_text).target
    return "".join(GEOMETRY.file_names[GEOMETRY.file_of(sq)] + str(GEOMETRY.rank_of(sq)) for sq in (origin, target))


def check_round_trips(position: XiangqiPosition, move: Move) -> None:
    """``move`` written in each notation reads back as itself, without warnings; so it does
    with no notation given, except where coordinates also name a move as ICCS."""
    for notation in NOTATIONS:
        text = write_move(position, move, notation)
        read = read_move(position, text, notation)
        assert (read.move, read.warnings) == (move, []), (fen_of(position), notation, text)
        try:
            guessed = read_move(position, text)
        except MoveError as error:
            assert notation in (MoveNotation.UCI, MoveNotation.ICCS), (fen_of(position), text, error)
            assert error.problems[0].code == "ambiguous-move"
        else:
            assert (guessed.move, guessed.warnings) == (move, []), (fen_of(position), notation, text)


@pytest.mark.parametrize("fen,rows", TABLE, ids=[fen for fen, _ in TABLE])
def test_notation_table(fen, rows):
    position = position_of(fen)
    moves = position.legal_moves()
    assert sorted(row[0] for row in rows) == sorted(uci(move) for move in moves)
    assert moves == sorted(moves, key=lambda move: (move.origin, move.target))
    expected = {row[0]: row for row in rows}
    for move in moves:
        written = [write_move(position, move, n) for n in (MoveNotation.UCI, MoveNotation.SAN, MoveNotation.WXF,
                                                           MoveNotation.LAN)]
        assert written == expected[uci(move)], fen
        assert write_move(position, move, MoveNotation.ICCS) == iccs_of(uci(move))
        check_round_trips(position, move)


@pytest.mark.slow
def test_notation_table_is_pyffish():
    rows = [(fen, row) for fen, table in TABLE for row in table]
    for fen, row in random.Random(7).sample(rows, TABLE_SAMPLE):
        written = [pyffish.get_san("xiangqi", fen, row[0], False, code) for code in ORACLE_NOTATIONS.values()]
        assert written == row[1:], (fen, row)


def test_notation_table_covers_every_wxf_form():
    """The table holds pieces named by file, by front and rear, and by number."""
    heads = {("number" if row[2][0].isdigit() else "front" if row[2][1] in "+-" else "file") for _, rows in TABLE
             for row in rows}
    assert heads == {"number", "front", "file"}


# --- seeded random games, live ------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(GAMES))
def test_random_game_against_pyffish(seed):
    rng = random.Random(seed)
    start = pyffish.start_fen("xiangqi")
    position, fen = position_of(start), start
    line: list[str] = []
    written: dict[MoveNotation, list[str]] = {notation: [] for notation in ORACLE_NOTATIONS}
    for ply in range(PLIES):
        moves = position.legal_moves()
        assert sorted(uci(move) for move in moves) == sorted(pyffish.legal_moves("xiangqi", fen, [])), fen
        if not moves:
            assert position.outcome() is not None
            break
        move = rng.choice(moves)
        for each in moves if ply % ROUND_TRIP_EVERY == 0 else [move]:
            check_round_trips(position, each)
        for notation in ORACLE_NOTATIONS:
            written[notation].append(write_move(position, move, notation))
        line.append(uci(move))
        position = position.play(move)
        fen = pyffish.get_fen("xiangqi", fen, [line[-1]])
        assert fen_of(position) == fen, line
    for notation, code in ORACLE_NOTATIONS.items():
        assert written[notation] == pyffish.get_san_moves("xiangqi", start, line, False, code), notation


# --- hand-made examples ------------------------------------------------------------------------

EXAMPLES = json.loads((TABLES / "examples.json").read_text(encoding="utf-8"))
NAMED = {notation.value: notation for notation in MoveNotation}


@pytest.mark.parametrize("case", EXAMPLES["writes"], ids=[c["note"] for c in EXAMPLES["writes"]])
def test_writes(case):
    position = position_of(case["fen"])
    move = move_of(case["uci"])
    for notation in NOTATIONS:
        assert write_move(position, move, notation) == case[notation.value], notation
    assert fen_of(position.play(move)) == case["next"]
    assert pyffish.get_fen("xiangqi", case["fen"], [case["uci"]]) == case["next"]
    for notation, code in ORACLE_NOTATIONS.items():
        assert pyffish.get_san("xiangqi", case["fen"], case["uci"], False, code) == case[notation.value]


@pytest.mark.parametrize("case", EXAMPLES["reads"], ids=[c["text"] + " " + c["note"] for c in EXAMPLES["reads"]])
def test_lenient_reads(case):
    position = position_of(case["fen"])
    read = read_move(position, case["text"], NAMED[case["notation"]] if case["notation"] else None)
    assert read.move == move_of(case["uci"])
    assert [warning.code for warning in read.warnings] == case["warnings"]
    assert pyffish.legal_moves("xiangqi", case["fen"], []).count(case["uci"]) == 1


@pytest.mark.parametrize("case", EXAMPLES["errors"], ids=[c["text"] + " " + c["note"] for c in EXAMPLES["errors"]])
def test_errors(case):
    setup = read_fen(case["fen"], VARIANT).setup
    position = legal_position(setup, VARIANT, accept=frozenset(case.get("accept", [])))
    with pytest.raises(MoveError) as raised:
        read_move(position, case["text"], NAMED[case["notation"]] if case["notation"] else None)
    problem = raised.value.problems[0]
    assert problem.code == case["code"], problem.message
    assert problem.extra["move"] == case["text"]
    assert problem.extra["fen"] == write_fen(setup, VARIANT).fen
    assert problem.extra.get("candidates", []) == case.get("candidates", [])


@pytest.mark.parametrize("case", EXAMPLES["outcomes"], ids=[c["note"] for c in EXAMPLES["outcomes"]])
def test_outcomes(case):
    setup = read_fen(case["fen"], VARIANT).setup
    position = legal_position(setup, VARIANT, accept=frozenset(case.get("accept", [])))
    outcome = position.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.reason) == (case["winner"], EndReason(case["reason"]))
    assert position.legal_moves() == []
    assert position.is_check() == case["check"]
    if case["reason"] != "general-captured":
        assert pyffish.legal_moves("xiangqi", case["fen"], []) == []
        assert pyffish.gives_check("xiangqi", case["fen"], []) == case["check"]


# --- the position's own contract ----------------------------------------------------------------


def test_play_refuses_what_is_not_legal():
    start = position_of(VARIANT.start_fen)
    for move in (move_of("h1h2"), move_of("e1e3"), Move(-1, -1), Move(7, 7), Move.dropped("p", 40)):
        with pytest.raises(ValueError):
            start.play(move)


def test_positions_are_values():
    start = position_of(VARIANT.start_fen)
    after = start.play(move_of("h3e3"))
    assert fen_of(start) == VARIANT.start_fen
    assert after.turn == "b" and start.turn == "w"
    assert after.to_setup() == read_fen(fen_of(after), VARIANT).setup
    assert start.legal_moves() is not start.legal_moves()


def test_legal_position_builds_a_xiangqi_position():
    position = legal_position(read_fen(VARIANT.start_fen, VARIANT).setup, "xiangqi")
    assert isinstance(position, XiangqiPosition)
    assert position.variant is VARIANT


def test_writing_an_illegal_move_raises():
    start = position_of(VARIANT.start_fen)
    with pytest.raises(ValueError):
        write_move(start, move_of("h1h2"), MoveNotation.SAN)


# --- rewriting the oracle tables ----------------------------------------------------------------

OPENINGS = {
    "central cannon against screen horses": "h3e3 h10g8 h1g3 i10h10 i1h1 b10c8 g4g5 g7g6",
    "central cannon, chariots out, a capture": "h3e3 h10g8 h1g3 i10h10 i1h1 b10c8 h1h7 c7c6 h7g7 b8a8 e3e7 a10a9",
}
PLAYOUT_PLIES = (20, 40, 60, 80)
# Moves that would expose the general where nothing attacks it yet.
HAND_MADE = {
    "a horse would become the screen of a cannon": "4k4/9/4c4/9/9/9/9/9/6N2/4K4 w - - 0 1",
    "a chariot blocks the leg of a horse": "3k5/9/9/9/9/9/9/9/5Rn2/4K4 w - - 0 1",
}


def _playout_fen(seed: int, plies: int) -> str:
    rng = random.Random(seed)
    fen = pyffish.start_fen("xiangqi")
    for _ in range(plies):
        moves = sorted(pyffish.legal_moves("xiangqi", fen, []))
        if not moves:
            break
        fen = pyffish.get_fen("xiangqi", fen, [rng.choice(moves)])
    return fen


def _mirror(sq: int) -> int:
    return GEOMETRY.square(GEOMETRY.file_of(sq), GEOMETRY.ranks - 1 - GEOMETRY.rank_of(sq))


def _crowded_fen(rng: random.Random) -> str | None:
    """A random legal setup whose soldiers crowd two or three files past the river (so
    that WXF must tell them apart), or None when the draw is not legal."""
    palace = [GEOMETRY.square(f, r) for f in (3, 4, 5) for r in (0, 1, 2)]
    advisors = [GEOMETRY.parse_square(name) for name in ("d1", "f1", "e2", "d3", "f3")]
    elephants = [GEOMETRY.parse_square(name) for name in ("c1", "g1", "a3", "e3", "i3", "c5", "g5")]
    cells = ["."] * GEOMETRY.size

    def put(letter: str, points: list[int]) -> None:
        free = [sq for sq in points if cells[sq] == "."]
        if free:
            cells[rng.choice(free)] = letter

    for red in (True, False):
        side = (lambda points: points) if red else (lambda points: [_mirror(sq) for sq in points])
        case = str.upper if red else str.lower
        put(case("k"), side(palace))
        for _ in range(rng.randint(0, 2)):
            put(case("a"), side(advisors))
        for _ in range(rng.randint(0, 2)):
            put(case("b"), side(elephants))
        files = rng.sample(range(GEOMETRY.files), rng.choice((1, 2, 2, 3)))
        for _ in range(rng.randint(0, 5)):
            put(case("p"), side([GEOMETRY.square(f, r) for f in files for r in range(5, 10)]))
        for letter in "rnc":
            for _ in range(rng.randint(0, 2)):
                put(case(letter), list(range(GEOMETRY.size)))
    setup = Setup(cells="".join(cells), turn=rng.choice("wb"), geometry=GEOMETRY, halfmove=rng.randint(0, 30),
                  fullmove=rng.randint(1, 60))
    return None if validate(setup, VARIANT) else write_fen(setup, VARIANT).fen


def _numbered_in_wxf(fen: str) -> bool:
    """Whether WXF numbers some piece of the side to move from the front (``25=6``)."""
    return any(pyffish.get_san("xiangqi", fen, move, False, pyffish.NOTATION_XIANGQI_WXF)[0].isdigit()
               for move in pyffish.legal_moves("xiangqi", fen, []))


def rewrite_tables() -> None:
    """Rewrite perft.json and notations.txt from pyffish (examples.json is hand-made)."""
    start = pyffish.start_fen("xiangqi")
    named = {"start": start}
    for name, line in OPENINGS.items():
        named[name] = pyffish.get_fen("xiangqi", start, line.split())
    named.update(HAND_MADE)
    named["random game 3, ply 40"] = _playout_fen(3, 40)
    named["random game 11, ply 70"] = _playout_fen(11, 70)
    rng = random.Random(2024)
    crowded: list[str] = []
    while len(crowded) < 40:
        fen = _crowded_fen(rng)
        if fen and pyffish.legal_moves("xiangqi", fen, []):
            crowded.append(fen)
    named["soldiers sharing files"] = next(fen for fen in crowded if _numbered_in_wxf(fen))
    named["random setup, in check"] = next(fen for fen in crowded if pyffish.gives_check("xiangqi", fen, []))
    positions = [{"name": name, "fen": fen, "perft": [oracle_perft(fen, depth) for depth in (1, 2, 3)]}
                 for name, fen in named.items()]
    rows = ",\n".join("  " + json.dumps(position) for position in positions)
    source = json.dumps("pyffish (Fairy-Stockfish 230826): legal_moves and get_fen, recursively")
    (TABLES / "perft.json").write_text(f'{{\n "source": {source},\n "positions": [\n{rows}\n ]\n}}\n', encoding="utf-8")
    lines = [
        "# Every legal move of each position as pyffish (Fairy-Stockfish 230826) writes it:",
        "# UCI, SAN (NOTATION_SAN), WXF (NOTATION_XIANGQI_WXF), LAN (NOTATION_LAN).",
        "# Positions: the start, two openings, two hand-made pins, seeded random games, random crowded setups.",
        "# Rewritten by `PYTHONPATH=tests python tests/game/test_game_xiangqi.py`.",
    ]
    fens = [start, *(named[name] for name in OPENINGS), *HAND_MADE.values()]
    fens += [_playout_fen(seed, plies) for seed, plies in enumerate(PLAYOUT_PLIES)]
    fens += crowded
    for fen in fens:
        lines.append("fen " + fen)
        for move in sorted(pyffish.legal_moves("xiangqi", fen, []), key=lambda text: (move_of(text).origin,
                                                                                      move_of(text).target)):
            lines.append(" ".join([move, *(pyffish.get_san("xiangqi", fen, move, False, code)
                                           for code in ORACLE_NOTATIONS.values())]))
    (TABLES / "notations.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    rewrite_tables()
    sys.exit(0)
