"""Attack tables and the grasshopper against a slow square-by-square walk (hypothesis): the
8x8 board's word attacks (``notation.rules.chess_attacks``, the move generator's and the
attack view's) and any board's ray scan (``notation.rules.attacks.Tables``) on 8x8."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.geometry import CHESS_BOARD
from notation.rules import attack_view, chess_attacks
from notation.rules import attacks as A
from notation.rules.attack_view import AttackView, hopper_attackers
from notation.rules.square_set import from_word, to_word
from notation.setup import Setup
from notation.variants import DEFAULT_REGISTRY, Movement

STEPS = {
    "rook": ((1, 0), (-1, 0), (0, 1), (0, -1)),
    "bishop": ((1, 1), (1, -1), (-1, 1), (-1, -1)),
}


def walk(sq, occupied, steps, *, hop=False):
    """The slow definition: slide until blocked (sliders), or land just past the first piece."""
    bb = 0
    for df, dr in steps:
        f, r = sq % 8 + df, sq // 8 + dr
        while 0 <= f < 8 and 0 <= r < 8:
            target = r * 8 + f
            if hop:
                if occupied >> target & 1:
                    f2, r2 = f + df, r + dr
                    if 0 <= f2 < 8 and 0 <= r2 < 8:
                        bb |= 1 << (r2 * 8 + f2)
                    break
            else:
                bb |= 1 << target
                if occupied >> target & 1:
                    break
            f, r = f + df, r + dr
    return bb


squares = st.integers(0, 63)
boards = st.integers(0, (1 << 64) - 1)
TABLES = A.CHESS_TABLES


def rook(sq, occupied):
    return from_word(chess_attacks.rook_attacks(sq, to_word(occupied)))


def bishop(sq, occupied):
    return from_word(chess_attacks.bishop_attacks(sq, to_word(occupied)))


def queen(sq, occupied):
    return from_word(chess_attacks.queen_attacks(sq, to_word(occupied)))


def grasshopper(sq, occupied):
    return from_word(chess_attacks.grasshopper_attacks(sq, to_word(occupied)))


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(sq=squares, occupied=boards)
def test_sliders_and_grasshopper(sq, occupied):
    queen_steps = STEPS["rook"] + STEPS["bishop"]
    assert rook(sq, occupied) == walk(sq, occupied, STEPS["rook"])
    assert bishop(sq, occupied) == walk(sq, occupied, STEPS["bishop"])
    assert queen(sq, occupied) == walk(sq, occupied, queen_steps)
    assert grasshopper(sq, occupied) == walk(sq, occupied, queen_steps, hop=True)
    # Any board's ray scan, on the 8x8 board.
    assert TABLES.rook_attacks(sq, occupied) == walk(sq, occupied, STEPS["rook"])
    assert TABLES.bishop_attacks(sq, occupied) == walk(sq, occupied, STEPS["bishop"])
    assert TABLES.grasshopper_attacks(sq, occupied) == walk(sq, occupied, queen_steps, hop=True)


def test_sliders_on_every_square_against_the_rays():
    """Every square, empty, full and sparse boards (a fixed seed), each against a walk
    along the rays."""
    import random

    rng = random.Random(20261126)
    sparse = [rng.getrandbits(64) & rng.getrandbits(64) & rng.getrandbits(64) for _ in range(12)]
    for sq in range(64):
        for occupied in (0, (1 << 64) - 1, *sparse):
            assert rook(sq, occupied) == walk(sq, occupied, STEPS["rook"]), (sq, occupied)
            assert bishop(sq, occupied) == walk(sq, occupied, STEPS["bishop"]), (sq, occupied)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(target=squares, occupied=boards, hoppers=boards)
def test_hopper_attackers_is_the_inverse_of_grasshopper_attacks(target, occupied, hoppers):
    hoppers &= occupied
    expected = 0
    for sq in range(64):
        if hoppers >> sq & 1 and walk(sq, occupied, STEPS["rook"] + STEPS["bishop"], hop=True) >> target & 1:
            expected |= 1 << sq
    assert hopper_attackers(target, occupied, hoppers) == expected
    assert from_word(chess_attacks.hopper_attackers(target, to_word(occupied), to_word(hoppers))) == expected


def test_leapers():
    assert A.KNIGHT_ATTACKS[0] == (1 << 10) | (1 << 17)
    assert A.KING_ATTACKS[0] == (1 << 1) | (1 << 8) | (1 << 9)
    assert A.PAWN_ATTACKS[0][12] == (1 << 19) | (1 << 21)  # white pawn e2 -> d3, f3
    assert A.PAWN_ATTACKS[1][12] == (1 << 3) | (1 << 5)  # black pawn e2 -> d1, f1
    assert TABLES.attacks(Movement.KNIGHT, 0, 0, 0) == A.KNIGHT_ATTACKS[0]


def test_line_and_between():
    assert A.CHESS_TABLES.between[0][63] == sum(1 << (9 * i) for i in range(1, 7))
    assert A.CHESS_TABLES.line[0][9] >> 63 & 1
    assert A.CHESS_TABLES.line[0][10] == 0 and A.CHESS_TABLES.between[0][10] == 0


def test_attack_view_groups_follow_the_registry():
    knightmate = DEFAULT_REGISTRY.get("knightmate")
    board = [None] * 64
    board[4], board[5], board[60] = "K", "M", "k"
    view = AttackView(Setup(tuple(board)), knightmate)
    assert view.royal == (1 << 4, 1 << 60)
    assert view.knights[0] == 1 << 4  # the royal knight moves as a knight
    assert view.kings[0] == 1 << 5  # the mann moves as a king, not royal
    assert view.attackers(60, 0) == 0
    assert view.attackers(14, 0) == (1 << 4) | (1 << 5)  # g2: royal knight on e1 and mann on f1


# The slow definition of an attack view's groups: which bitboards a piece of each movement joins.
GROUPS_OF = {
    Movement.PAWN: ("pawns",), Movement.KNIGHT: ("knights",), Movement.KING: ("kings",),
    Movement.BISHOP: ("diagonal",), Movement.ROOK: ("orthogonal",),
    Movement.QUEEN: ("diagonal", "orthogonal"), Movement.GRASSHOPPER: ("hoppers",),
}
CHESS_BOARD_VARIANTS = [
    variant for variant in DEFAULT_REGISTRY
    if variant.geometry.is_chess_board and all(kind.movement in GROUPS_OF for kind in variant.pieces)
]


def slow_groups(board, promoted, variant):
    """Every group bitboard of an attack view, square by square from the registry's data."""
    groups = {name: [0, 0] for name in ("pawns", "knights", "kings", "diagonal", "orthogonal", "hoppers", "royal")}
    colours = [0, 0]
    movement = {kind.letter: kind.movement for kind in variant.pieces}
    for sq, letter in enumerate(board):
        if letter is None:
            continue
        side = 0 if letter.isupper() else 1
        colours[side] |= 1 << sq
        for name in GROUPS_OF.get(movement.get(letter.lower()), ()):
            groups[name][side] |= 1 << sq
        if letter.lower() in variant.royal and sq not in promoted:
            groups["royal"][side] |= 1 << sq
    return {"colours": tuple(colours), **{name: tuple(pair) for name, pair in groups.items()}}


# 64 cells of letters of every attack group, both cases, and letters no chess variant knows.
piece_boards = st.lists(st.none() | st.sampled_from("PNBRQKpnbrqkACEFGHMSacefghmsXx"), min_size=64, max_size=64)


# A board, a variant of an 8x8 board and up to four promotion marks (``promotable`` keeps
# those on pieces a pawn can become).
marked_boards = given(
    board=piece_boards, variant=st.sampled_from(CHESS_BOARD_VARIANTS), promoted=st.frozensets(squares, max_size=4)
)


def promotable(marks, board, variant):
    """The squares of ``marks`` holding a piece a pawn can become in ``variant``."""
    return frozenset(sq for sq in marks if board[sq] and board[sq].lower() in variant.promotions)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@marked_boards
def test_attack_view_groups_match_a_square_by_square_reading(board, variant, promoted):
    # Compiled, 8x8 bitboards are read square by square; interpreted, by one conversion per
    # group: both must give what the registry says of every square (square 63 included).
    promoted = promotable(promoted, board, variant)
    view = AttackView(Setup(tuple(board), promoted=promoted), variant)
    found = {name: getattr(view, name) for name in slow_groups(board, promoted, variant)}
    assert found == slow_groups(board, promoted, variant)
    assert view.occupied == view.colours[0] | view.colours[1]
    assert view.promoted == sum(1 << sq for sq in promoted)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@marked_boards
def test_counts_read_off_the_words_are_those_of_the_pairs(board, variant, promoted):
    """The counts and squares the validators ask before any pair is made (compiled on 8x8,
    read off the words) are those of the pairs made afterwards, in both builds."""
    promoted = promotable(promoted, board, variant)
    setup = Setup(tuple(board), promoted=promoted)
    view = AttackView(setup, variant)
    asked = [
        [view.piece_count(c) for c in (0, 1)],
        [view.pawn_count(c) for c in (0, 1)],
        [view.royal_count(c) for c in (0, 1)],
        [view.royal_square(c) for c in (0, 1)],
        view.forbidden_pawns(),
        view.board_is_empty(),
    ]
    fresh = AttackView(setup, variant)
    royal = fresh.royal
    single = [r.bit_length() - 1 if r and not r & (r - 1) else -1 for r in royal]
    no_white, no_black = fresh.rules.no_pawns
    assert asked == [
        [c.bit_count() for c in fresh.colours],
        [p.bit_count() for p in fresh.pawns],
        [r.bit_count() for r in royal],
        single,
        fresh.pawns[0] & no_white | fresh.pawns[1] & no_black,
        not fresh.occupied,
    ]
    assert view.royal == royal and view.kings == fresh.kings and view.occupied == fresh.occupied


@settings(max_examples=300, deadline=None)
@given(coded=st.binary(min_size=64, max_size=64))
def test_half_boards_take_every_code_as_a_square_by_square_reading(coded):
    """``_half_board`` reads a rank's eight codes as one word: each group's bit of every
    square, White's bit, and Black as any code but 0 that is not White's, for any bytes
    (codes of group bits without a colour bit included), each half of the board."""
    for start in (0, 32):
        expected = [0] * 8
        for index in range(32):
            code = coded[start + index]
            for group in range(6):
                expected[group] |= (code >> group & 1) << index
            white = code >> 6 & 1
            expected[6] |= white << index
            expected[7] |= (bool(code) ^ white) << index
        assert attack_view._half_board(coded, start) == tuple(expected)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(
    board=piece_boards,
    variant=st.sampled_from(CHESS_BOARD_VARIANTS),
    removed=boards,
)
def test_attackers_on_a_copy_of_the_board_are_the_same(board, variant, removed):
    """A setup whose 8x8 geometry is an equal copy, not the registry's object (as a setup or
    a variant unpickled in a cluster worker has), is read by the other of the two ways
    (compiled: the words beside the ints): the same groups, and the same attackers of every
    square, with the board's pieces and with some of them taken off."""
    view = AttackView(Setup(tuple(board)), variant)
    copy = AttackView(Setup(tuple(board), geometry=pickle.loads(pickle.dumps(CHESS_BOARD))), variant)
    names = ("colours", "pawns", "knights", "kings", "diagonal", "orthogonal", "hoppers", "royal", "occupied")
    assert [getattr(copy, name) for name in names] == [getattr(view, name) for name in names]
    fewer = view.occupied & ~removed
    for sq in range(64):
        for colour in (0, 1):
            assert copy.attackers(sq, colour) == view.attackers(sq, colour)
            assert copy.attackers(sq, colour, fewer) == view.attackers(sq, colour, fewer)
