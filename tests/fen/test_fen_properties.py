"""Property tests: for random setups of every registry variant, every dialect round-trips.

read(write(s, style)) == s for every style that can express s, and writing is stable:
write(read(write(s))) == write(s) for every style, lossy or not.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from notation import DEFAULT_REGISTRY, Pockets, Setup, read_fen, write_fen
from notation.fen.profiles import WriteOptions
from notation.options import CastlingStyle, CheckStyle, EmptyPocket, EnPassantMode, PocketStyle
from notation.variants import RuleFamily, Twist

# Every variant but Xiangqi, which has its own spellings' tests (test_xiangqi_fen.py).
VARIANTS = [v for v in DEFAULT_REGISTRY if v.family is not RuleFamily.XIANGQI]


def back_ranks(variant) -> list[int]:
    """The squares of the first and last ranks of the variant's board."""
    size, width = variant.geometry.size, variant.geometry.files
    return list(range(width)) + list(range(size - width, size))


STYLES = [
    WriteOptions(pockets=p, checks=c, castling=k, castling_960=k, en_passant=EnPassantMode.ALWAYS, empty_pocket=e)
    for p, c, k, e in itertools.product(PocketStyle, CheckStyle, CastlingStyle, EmptyPocket)
]


@st.composite
def setups(draw):
    variant = draw(st.sampled_from(VARIANTS))
    letters = variant.piece_letters + variant.piece_letters.upper()
    square = st.one_of(st.none(), st.none(), st.none(), st.sampled_from(letters))
    size = variant.geometry.size
    board = tuple(draw(st.lists(square, min_size=size, max_size=size)))
    occupied = [sq for sq, piece in enumerate(board) if piece]
    promoted = frozenset()
    pockets = None
    if variant.has_pockets:
        if occupied:
            promoted = frozenset(draw(st.sets(st.sampled_from(occupied), max_size=4)))
        pocket_letters = st.text(alphabet=variant.piece_letters, max_size=6)
        pockets = Pockets(draw(pocket_letters), draw(pocket_letters))
    checks = None
    if variant.has_check_counters:
        checks = (draw(st.integers(0, 9)), draw(st.integers(0, 9)))
    bombs = None
    if Twist.BOMBS in variant.twists:  # a FEN of such a variant always has its bomb field
        square_or_none = st.one_of(st.none(), st.integers(0, 63))
        bombs = (draw(square_or_none), draw(square_or_none))
    setup = Setup(
        board=board,
        turn=draw(st.sampled_from("wb")),
        castling=frozenset(draw(st.sets(st.sampled_from(back_ranks(variant)), max_size=4))),
        ep_square=draw(st.one_of(st.none(), st.integers(0, size - 1))),
        halfmove=draw(st.integers(0, 999_999_999)),
        fullmove=draw(st.integers(0, 999_999_999)),
        promoted=promoted,
        pockets=pockets,
        remaining_checks=checks,
        geometry=variant.geometry,
        bombs=bombs,
    )
    return variant, setup


def expressible(setup: Setup, variant, options: WriteOptions) -> bool:
    if variant.has_check_counters and options.checks is CheckStyle.GIVEN:
        return all(0 <= left <= variant.checks_to_win for left in setup.remaining_checks)
    return True


@pytest.mark.slow
@settings(max_examples=examples(300))
@given(setups(), st.sampled_from(STYLES))
def test_read_of_write_is_the_setup(case, options):
    variant, setup = case
    written = write_fen(setup, variant, options)
    if expressible(setup, variant, options):
        assert written.warnings == []
        assert read_fen(written.fen, variant).setup == setup, written.fen
    else:
        assert [w.code for w in written.warnings] and all(w.code.startswith("lossy-") for w in written.warnings)


@pytest.mark.slow
@settings(max_examples=examples(300))
@given(setups(), st.sampled_from(STYLES))
def test_writing_is_stable(case, options):
    variant, setup = case
    first = write_fen(setup, variant, options).fen
    again = write_fen(read_fen(first, variant).setup, variant, options).fen
    assert again == first


@pytest.mark.slow
@settings(max_examples=examples(200))
@given(setups(), st.sampled_from(STYLES), st.sampled_from(STYLES))
def test_any_dialect_converts_to_any_other_without_loss(case, source, target):
    variant, setup = case
    if not (expressible(setup, variant, source) and expressible(setup, variant, target)):
        return
    via_source = read_fen(write_fen(setup, variant, source).fen, variant).setup
    via_target = read_fen(write_fen(via_source, variant, target).fen, variant).setup
    assert via_target == setup


@settings(max_examples=examples(300))
@given(st.text(max_size=120))
def test_reader_never_raises_anything_but_its_own_errors(text):
    from notation import NotationError

    for variant in ("standard", "crazyhouse", "threecheck"):
        try:
            read_fen(text, variant)
        except NotationError as error:
            problem = error.problems[0]
            assert problem.code == "fen-syntax" and problem.column >= 1 and problem.field


@pytest.mark.slow
@settings(max_examples=examples(200))
@given(setups(), st.sampled_from(STYLES), st.data())
def test_mutated_fens_fail_cleanly_or_read(case, options, data):
    """Random single-character edits of real FENs never crash the reader."""
    from notation import NotationError

    variant, setup = case
    fen = write_fen(setup, variant, options).fen
    index = data.draw(st.integers(0, len(fen) - 1))
    char = data.draw(st.sampled_from(list("rnbqkpRNBQKP12345678/[]~+- wbKQkqABCDEFGHabcdefgh0x")))
    mutated = fen[:index] + char + fen[index + 1:]
    try:
        read_fen(mutated, variant)
    except NotationError as error:
        assert error.problems[0].column is not None


@st.composite
def castling_setups(draw):
    """Back ranks full of kings and rooks (often on e-files and corners): X-FEN's hard cases."""
    variant = draw(st.sampled_from([v for v in VARIANTS if v.castling_piece]))
    king = variant.castling_piece
    board = [None] * 64
    filler = next(letter for letter in variant.piece_letters if letter not in ("r", king, "p"))
    for back, upper in ((0, True), (56, False)):
        for file in range(8):
            board[back + file] = draw(st.sampled_from([None, None, "r", "r", filler]))
        king_file = draw(st.sampled_from([4, 4, 4, 0, 1, 2, 3, 5, 6, 7, None]))
        if king_file is not None:
            board[back + king_file] = king
        if upper:
            for file in range(8):
                board[back + file] = board[back + file].upper() if board[back + file] else None
    setup = Setup(
        board=tuple(board),
        castling=frozenset(draw(st.sets(st.sampled_from(back_ranks(variant)), max_size=4))),
        pockets=Pockets() if variant.has_pockets else None,
        remaining_checks=(3, 3) if variant.has_check_counters else None,
    )
    return variant, setup


@pytest.mark.slow
@settings(max_examples=examples(1500))
@given(castling_setups(), st.sampled_from(list(CastlingStyle)))
def test_castling_rights_round_trip_in_both_styles(case, style):
    variant, setup = case
    options = WriteOptions(castling=style, castling_960=style, en_passant=EnPassantMode.ALWAYS)
    fen = write_fen(setup, variant, options).fen
    assert read_fen(fen, variant).setup.castling == setup.castling, fen


@st.composite
def placements(draw):
    """Valid placements (pieces, empty runs, promoted marks), then often one odd edit."""
    ranks = []
    for _ in range(8):
        cells = draw(st.lists(st.sampled_from([None, None, "p", "N", "b", "R", "q", "K"]), min_size=8, max_size=8))
        text, empty = "", 0
        for cell in cells:
            if cell is None:
                empty += 1
                continue
            if empty:
                text += str(empty)
                empty = 0
            text += cell + ("~" if draw(st.integers(0, 4)) == 0 else "")
        ranks.append(text + (str(empty) if empty else ""))
    placement = "/".join(ranks)
    if draw(st.integers(0, 3)) == 0:  # a rank-zero pocket (Crazyhouse's), or what looks like one
        placement += "/" + draw(st.sampled_from(["", "Qp", "PPnbq", "Q~", "2", "p1", "/", "x", "NN/", "\u00b2"]))
    if draw(st.booleans()):
        index = draw(st.integers(0, len(placement)))
        edit = draw(st.sampled_from(["~", "~~", "Q~~", "x", "9", "0", "1", "/", "p", "/8", ".", "..", "", "//"]))
        cut = draw(st.integers(0, 1))
        placement = placement[:index] + edit + placement[index + cut:]
    return placement


@pytest.mark.slow
@settings(max_examples=examples(3000))
@given(placements(), st.sampled_from(["standard", "crazyhouse"]))
def test_placement_fast_path_agrees_with_the_character_reader(placement, key):
    """The reader has a C-speed path and a character-by-character one: same answers, an
    error returned (for the caller to raise), never raised."""
    from notation import NotationError, find_variant
    from notation.fen.reader import _Reader, pattern_for

    variant = find_variant(key)
    fen = f"{placement} w - - 0 1"
    match = pattern_for(variant.has_pockets, variant.has_check_counters).fullmatch(fen)
    if match is None:
        return
    reader = _Reader(fen, match, variant)
    outcomes = []
    for method in (reader.read_placement, reader.read_placement_slowly):
        found = method(placement)
        outcomes.append(("error", found.column, str(found)) if isinstance(found, NotationError) else found)
    assert outcomes[0] == outcomes[1]
