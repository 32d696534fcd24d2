"""Tablut moves (notation.game.tafl, notation.moves.tafl): perft, the rules one example a
rule, the OpenTafl notation both ways, on the tables in fixtures/moves/tafl/.

Every count and every position is also checked against ``Reference`` below: a naive
player written here from the rules (docs/tafl.md, "Moves") on a grid of lists, sharing
no code with the package.
"""

from __future__ import annotations

import json
import random

import pytest
from paths import ROOT

from notation.errors import MoveError
from notation.fen.reader import read_fen
from notation.fen.writer import write_fen
from notation.game import Move, legal_position, perft, start_position
from notation.game.tafl import TaflPosition
from notation.move_options import MoveNotation
from notation.moves import default_notation, notations_of, read_move, write_move
from notation.variants import find_variant

FIXTURES = ROOT / "fixtures" / "moves" / "tafl"
PERFT = json.loads((FIXTURES / "perft.json").read_text())["positions"]
RULES = json.loads((FIXTURES / "rules.json").read_text())
ERRORS = json.loads((FIXTURES / "errors.json").read_text())["cases"]
READINGS = json.loads((FIXTURES / "readings.json").read_text())["cases"]
TABLUT = find_variant("tablut")
# With ``playout``: a game still on after 120 plies (4), White without a legal move (19),
# the king escaped (21), the king captured (31); Black in check on the way in 4, 21 and 31.
SEEDS = (4, 19, 21, 31)


def position(fen: str) -> TaflPosition:
    found = legal_position(read_fen(TABLUT.start_fen if fen == "start" else fen, TABLUT).setup, TABLUT)
    assert isinstance(found, TaflPosition)
    return found


def fen_of(p: TaflPosition) -> str:
    return write_fen(p.to_setup(), TABLUT).fen


# -- the naive reference: a 9x9 grid of lists, rows rank 1 first; (file, rank) pairs -------

N = 9
SPECIAL = {(4, 4), (0, 0), (8, 0), (0, 8), (8, 8)}  # the throne e5 and the four corners
CORNERS = SPECIAL - {(4, 4)}
DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def on(x, y):
    return 0 <= x < N and 0 <= y < N


class Reference:
    """A position as a grid: White (upper case) attacks, Black has ``k`` and ``t``."""

    def __init__(self, grid, white):
        self.grid, self.white = grid, white

    @classmethod
    def of(cls, p):
        cells = p.to_setup().cells
        return cls([list(cells[r * N:(r + 1) * N]) for r in range(N)], p.turn == "w")

    def king(self):
        return next(((x, y) for y in range(N) for x in range(N) if self.grid[y][x] == "k"), None)

    def outcome(self):
        king = self.king()
        if king is None:
            return ("w", "king-captured")
        if king in CORNERS:
            return ("b", "king-escaped")
        if not self.moves():
            return ("b" if self.white else "w", "stalemate")
        return None

    def moves(self):
        """Every move (x, y, to_x, to_y), rook-like onto empty squares; only the king stops
        on a special square; anyone passes over the empty throne."""
        king = self.king()
        if king is None or king in CORNERS:
            return []
        out = []
        for y in range(N):
            for x in range(N):
                piece = self.grid[y][x]
                if piece == "." or piece.isupper() != self.white:
                    continue
                for dx, dy in DIRS:
                    tx, ty = x + dx, y + dy
                    while on(tx, ty) and self.grid[ty][tx] == ".":
                        if piece == "k" or (tx, ty) not in SPECIAL:
                            out.append((x, y, tx, ty))
                        tx, ty = tx + dx, ty + dy
        return out

    def play(self, move):
        """The next position and the squares captured."""
        x, y, tx, ty = move
        grid = [row[:] for row in self.grid]
        piece, grid[y][x] = grid[y][x], "."
        grid[ty][tx] = piece
        ours = str.isupper if self.white else str.islower
        taken = []
        for dx, dy in DIRS:
            vx, vy = tx + dx, ty + dy
            if not on(vx, vy) or grid[vy][vx] == "." or ours(grid[vy][vx]):
                continue
            if grid[vy][vx] == "k":
                sides = [(vx + a, vy + b) for a, b in DIRS if on(vx + a, vy + b)]
                if all(grid[b][a] == "T" or (grid[b][a] == "." and (a, b) in SPECIAL) for a, b in sides):
                    taken.append((vx, vy))
                continue
            ax, ay = vx + dx, vy + dy
            if on(ax, ay) and (ours(grid[ay][ax]) or (grid[ay][ax] == "." and (ax, ay) in SPECIAL)):
                taken.append((vx, vy))
        for a, b in taken:
            grid[b][a] = "."
        return Reference(grid, not self.white), taken

    def check(self):
        """The side to move loses next move unless it answers: brute force over the other
        side's moves as if it were to move."""
        if self.outcome() is not None and self.outcome()[1] != "stalemate":
            return False
        other = Reference(self.grid, not self.white)
        for move in other.moves():
            after, taken = other.play(move)
            if after.outcome() is not None and after.outcome()[1] != "stalemate":
                return True
        return False

    def counts(self, depth):
        """Perft counts for depths 1..depth, in one walk."""
        found = [0] * depth
        self._walk(depth, 0, found)
        return found

    def _walk(self, depth, ply, found):
        moves = self.moves()
        found[ply] += len(moves)
        if ply + 1 < depth:
            for move in moves:
                self.play(move)[0]._walk(depth, ply + 1, found)


def as_move(ref_move):
    x, y, tx, ty = ref_move
    return Move(y * N + x, ty * N + tx)


def square(xy):
    return xy[1] * N + xy[0]


# -- perft ---------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("case", PERFT, ids=lambda case: case["note"][:40])
def test_perft_table_and_the_reference_agree(case):
    p = position(case["fen"])
    counts = case["counts"]
    assert [perft(p, depth) for depth in range(1, len(counts) + 1)] == counts
    assert Reference.of(p).counts(len(counts)) == counts


def test_start_position_is_the_registry_start_and_has_72_moves():
    p = start_position("tablut")
    assert isinstance(p, TaflPosition)
    assert fen_of(p) == TABLUT.start_fen
    # 18 a T group by hand: d1 and f1 five each, e1 none, e2 eight.
    assert len(p.legal_moves()) == 72
    assert p.outcome() is None and not p.is_check()


# -- the rules, one example a rule ---------------------------------------------------------


@pytest.mark.parametrize("case", RULES["moves"], ids=lambda case: case["rule"])
def test_rule_examples(case):
    assert case["source"]
    p = position(case["fen"])
    read = read_move(p, case["move"])
    assert read.warnings == []
    assert write_move(p, read.move) == case["written"]
    after = p.play(read.move)
    assert fen_of(after) == case["after"]
    outcome = after.outcome()
    assert (None if outcome is None else [outcome.winner, outcome.reason.value]) == case["outcome"]
    ref_after, _taken = Reference.of(p).play((read.move.origin % N, read.move.origin // N,
                                              read.move.target % N, read.move.target // N))
    assert Reference.of(after).grid == ref_after.grid
    if outcome is not None:
        assert after.legal_moves() == [] and not after.is_check()
        with pytest.raises(MoveError) as error:
            read_move(after, "b3-b4")
        assert error.value.problems[0].code == "game-over"


@pytest.mark.parametrize("case", RULES["positions"], ids=lambda case: case["rule"])
def test_position_examples(case):
    assert case["source"]
    p = position(case["fen"])
    outcome = p.outcome()
    assert (None if outcome is None else [outcome.winner, outcome.reason.value]) == case["outcome"]
    assert p.is_check() is case["check"]
    ref = Reference.of(p)
    assert (None if ref.outcome() is None else list(ref.outcome())) == case["outcome"]
    assert ref.check() is case["check"]
    if outcome is not None:
        assert p.legal_moves() == []


def test_counters_side_and_immutability():
    p = position("9/9/9/9/4k4/2T6/9/9/1t7 w - - 3 10")
    cells = p.to_setup().cells
    quiet = p.play(read_move(p, "c4-c5").move)
    assert (quiet.turn, quiet.to_setup().halfmove, quiet.to_setup().fullmove) == ("b", 4, 10)
    back = quiet.play(read_move(quiet, "Ke5-e6").move)
    assert (back.turn, back.to_setup().halfmove, back.to_setup().fullmove) == ("w", 5, 11)
    assert p.to_setup().cells == cells
    moves = p.legal_moves()
    moves.clear()
    assert p.legal_moves()


# -- seeded playouts: the generator against the reference, and the notation both ways ------


def playout(seed, plies=120):
    """The positions of a seeded random game: half the time a capture when there is one."""
    rng = random.Random(seed)
    p = start_position(TABLUT)
    seen = [p]
    while len(seen) <= plies and p.legal_moves():
        moves = p.legal_moves()
        capturing = [m for m in moves if p.captures(m)]
        p = p.play(rng.choice(capturing if capturing and rng.random() < 0.5 else moves))
        seen.append(p)
    return seen


PLAYOUTS = {seed: playout(seed) for seed in SEEDS}


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
def test_playout_positions_agree_with_the_reference(seed):
    for p in PLAYOUTS[seed]:
        ref = Reference.of(p)
        moves = p.legal_moves()
        assert moves == sorted(moves, key=lambda m: (m.origin, m.target))
        assert moves == sorted(as_move(m) for m in ref.moves())
        outcome = p.outcome()
        assert (None if outcome is None else (outcome.winner, outcome.reason.value)) == ref.outcome()
        assert p.is_check() is ref.check()
        for ref_move in ref.moves():
            after, taken = ref.play(ref_move)
            move = as_move(ref_move)
            assert p.captures(move) == sorted(square(xy) for xy in taken)
            assert Reference.of(p.play(move)).grid == after.grid


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
def test_every_legal_move_is_written_and_read_back(seed):
    for p in PLAYOUTS[seed]:
        for move in p.legal_moves():
            text = write_move(p, move, MoveNotation.OPENTAFL)
            assert read_move(p, text).move == move
            assert read_move(p, text).warnings == []
            after = p.play(move)
            taken = [sq for sq in p.captures(move) if p.piece_at(sq) != "k"]
            outcome = after.outcome()
            mark = {"king-captured": "++", "king-escaped": "--"}.get(outcome.reason.value if outcome else "", "")
            if not mark and after.is_check():
                mark = "+" if p.turn == "w" else "-"
            names = TABLUT.geometry.square_names
            body = ("K" if p.piece_at(move.origin) == "k" else "") + names[move.origin] + "-" + names[move.target]
            assert text == body + ("x" + "/".join(names[sq] for sq in taken) if taken else "") + mark
            # Shorter records name the same move: no mark, no capture list, no letter.
            for shorter in {body, body.lstrip("K"), body + mark}:
                read = read_move(p, shorter)
                assert (read.move, read.warnings) == (move, [])


def test_playouts_reach_captures_checks_and_every_end():
    seen = [p for seed in SEEDS for p in PLAYOUTS[seed]]
    assert any(p.captures(m) for p in seen for m in p.legal_moves())
    assert {p.turn for p in seen if p.is_check()} == {"w", "b"}
    ends = {PLAYOUTS[seed][-1].outcome().reason.value for seed in SEEDS if PLAYOUTS[seed][-1].outcome()}
    assert ends == {"king-captured", "king-escaped", "stalemate"}


def test_play_refuses_every_illegal_move():
    for p in PLAYOUTS[SEEDS[0]][::15] + [position("9/9/9/9/9/2T6/1T1T5/2T6/9 b - - 0 1")]:
        legal = set(p.legal_moves())
        for origin in range(N * N):
            for target in range(N * N):
                move = Move(origin, target)
                assert p.is_legal(move) is (move in legal)
        for move in (Move(0, 1), Move(-1, -1), Move(40, 40), Move(3, 2, promotion="q"), Move.null()):
            if move not in legal:
                with pytest.raises(ValueError):
                    p.play(move)
                with pytest.raises(ValueError):
                    write_move(p, move)


# -- the notation: readings, errors, dispatch ----------------------------------------------


@pytest.mark.parametrize("case", READINGS, ids=lambda case: case["text"])
def test_lenient_readings(case):
    p = position(case["fen"])
    read = read_move(p, case["text"], MoveNotation.OPENTAFL)
    assert write_move(p, read.move) == case["written"]
    assert [w.code for w in read.warnings] == case["warnings"]
    assert all(w.extra["move"] == case["text"] for w in read.warnings)


@pytest.mark.parametrize("case", ERRORS, ids=lambda case: case["move"] or "empty")
def test_refused_records(case):
    p = position(case["fen"])
    with pytest.raises(MoveError) as error:
        read_move(p, case["move"])
    problem = error.value.problems[0]
    assert problem.code == case["code"], problem.message
    assert problem.extra["move"] == case["move"]
    assert problem.extra["fen"] == fen_of(p) == error.value.fen


def test_illegal_move_lists_the_pieces_moves_as_candidates():
    p = start_position(TABLUT)
    with pytest.raises(MoveError) as error:
        read_move(p, "e2-e3")
    assert error.value.problems[0].extra["candidates"] == [
        "e2-a2", "e2-b2", "e2-c2", "e2-d2", "e2-f2", "e2-g2", "e2-h2", "e2-i2",
    ]


def test_tablut_writes_only_the_opentafl_notation():
    assert notations_of(TABLUT) == (MoveNotation.OPENTAFL,)
    assert default_notation(TABLUT) is MoveNotation.OPENTAFL
    p = start_position(TABLUT)
    with pytest.raises(ValueError):
        write_move(p, p.legal_moves()[0], MoveNotation.SAN)
    with pytest.raises(ValueError):
        read_move(p, "e2-c2", MoveNotation.UCI)
