"""Reader behaviour beyond the tables: leniency as documented, hostile input, API types."""

from __future__ import annotations

import pytest

from notation import FenSyntaxError, Pockets, UnknownVariantError, read_fen
from notation.squares import parse_square

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def test_start_position_fields():
    setup = read_fen(START).setup
    assert setup.board[parse_square("e1")] == "K" and setup.board[parse_square("d8")] == "q"
    assert setup.turn == "w" and setup.halfmove == 0 and setup.fullmove == 1
    assert setup.castling == frozenset(parse_square(s) for s in ("a1", "h1", "a8", "h8"))
    assert setup.pockets is None and setup.remaining_checks is None and setup.ep_square is None


def test_whitespace_is_lenient():
    assert read_fen("  " + START.replace(" ", " \t ") + "  ").setup == read_fen(START).setup


def test_pocket_order_does_not_matter():
    a = read_fen(START.replace(" w", "[QPpq] w"), "crazyhouse").setup
    b = read_fen(START.replace(" w", "[pqPQ] w"), "crazyhouse").setup
    assert a == b and a.pockets == Pockets("qp", "qp")


def test_crazyhouse_without_any_pocket_reads_as_empty_pocket():
    read = read_fen(START, "crazyhouse")
    assert read.setup.pockets == Pockets() and read.dialect.pockets is None


def test_given_checks_become_remaining():
    setup = read_fen(START + " +1+2", "threecheck").setup
    assert setup.remaining_checks == (2, 1)


def test_checks_remaining_in_field_five_without_counters():
    read = read_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2+3", "threecheck")
    assert read.setup.remaining_checks == (2, 3) and read.dialect.counters is False


def test_tilde_promoted_marks_are_kept_in_any_variant():
    setup = read_fen("4k3/8/8/8/8/8/8/4K2Q~ w - - 0 1").setup
    assert setup.promoted == {parse_square("h1")}


def test_consecutive_digits_add_up():
    assert read_fen("rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").setup == read_fen(START).setup


def test_unknown_variant_suggests_close_names():
    with pytest.raises(UnknownVariantError) as caught:
        read_fen(START, "crazyhose")
    assert "Crazyhouse" in caught.value.suggestions
    assert caught.value.problems[0].code == "unknown-variant"


@pytest.mark.parametrize(
    "hostile",
    [
        "8/" * 1000 + " w - - 0 1",
        "r" * 5_000_000,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\x1b w KQkq - 0 1",
        "\u202erNbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "8/8/8/8/8/8/8/8/8/8/8/8/8 w - - 0 1",
    ],
    ids=["1000 ranks", "5 MB", "newline", "escape", "bidi override", "13 ranks"],
)
def test_hostile_input_is_rejected_with_a_located_error(hostile):
    # No timed assertion (noisy machines): the length and character guards run before any
    # pattern, which is what keeps hostile input cheap; bench/ measures speed.
    with pytest.raises(FenSyntaxError) as caught:
        read_fen(hostile)
    assert caught.value.column >= 1 and caught.value.field


def test_non_string_input_is_a_type_error():
    with pytest.raises(TypeError):
        read_fen(b"8/8/8/8/8/8/8/8 w - - 0 1")  # type: ignore[arg-type]


def test_extension_hints_name_the_registry_s_variants_with_that_twist():
    from notation.variants import VARIANTS, Registry

    crazyhouse = next(v for v in VARIANTS if v.key == "crazyhouse")
    registry = Registry((*VARIANTS, crazyhouse.replace(key="loop", name="Loop", aliases=())))
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    with pytest.raises(FenSyntaxError, match=r"pockets belong to Crazyhouse or Loop, not Standard"):
        read_fen(start + " Qp", "standard", registry=registry)
    with pytest.raises(FenSyntaxError, match=r"check counters belong to Three-check, not Standard"):
        read_fen(start + " +1+0", "standard", registry=registry)
