"""``notation.svg``: golden pictures of every board style, the artwork of every piece letter,
and properties of any picture (well-formed XML, one piece per occupied square, marks where asked).

Set ``NOTATION_UPDATE_GOLDEN=1`` to rewrite fixtures/svg/ after a deliberate change, then
look at the pictures (tests/artifacts/ of the browser tests, or open them) before committing.
"""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples
from paths import ROOT
from svg_cases import GOLDENS, TABLUT, XIANGQI, Golden, marks_of, marks_table, options_of, setup_of

from notation import read_fen
from notation.errors import FenSyntaxError, UnknownVariantError
from notation.geometry import Geometry
from notation.setup import Pockets, Setup
from notation.svg import (
    STYLE_BY_FAMILY,
    BoardStyle,
    Coordinates,
    Orientation,
    SvgOptions,
    board_svg,
    checked_squares,
    fen_svg,
    parse_move_squares,
    parse_squares,
    style_of,
)
from notation.svg.pieces import glyph_for
from notation.variants import DEFAULT_REGISTRY, RuleFamily

GOLDEN_DIR = ROOT / "fixtures" / "svg"
SVG = "{http://www.w3.org/2000/svg}"


def draw(golden: Golden) -> str:
    if golden.own is not None:
        fields = golden.fen.split()
        return board_svg(setup_of(fields[0], golden.own.geometry, fields[1]), golden.own, golden.options)
    return fen_svg(golden.fen, golden.variant, golden.options)


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode())


def pieces_of(root: ET.Element) -> dict[str, str]:
    board = root.find(f"{SVG}g[@class='pieces']")
    assert board is not None
    return {piece.get("data-square"): piece.get("data-piece") for piece in board}


@pytest.mark.parametrize("golden", GOLDENS, ids=lambda g: g.name)
def test_golden_pictures(golden):
    path = GOLDEN_DIR / f"{golden.name}.svg"
    drawn = draw(golden)
    if os.environ.get("NOTATION_UPDATE_GOLDEN"):
        GOLDEN_DIR.mkdir(exist_ok=True)
        path.write_text(drawn, encoding="utf-8")
    assert drawn == path.read_text(encoding="utf-8"), f"{path.name} differs; NOTATION_UPDATE_GOLDEN=1 rewrites it"
    root = parse(drawn)
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img" and root.get("aria-label")


@pytest.mark.parametrize("golden", GOLDENS, ids=lambda g: g.name)
def test_every_occupied_square_has_its_piece(golden):
    fields = golden.fen.split()
    if golden.own is not None:
        setup = setup_of(fields[0], golden.own.geometry)
    else:
        setup = read_fen(golden.fen, golden.variant).setup
    expected = {setup.geometry.square_name(sq): letter for sq, letter in enumerate(setup.cells) if letter != "."}
    assert pieces_of(parse(draw(golden))) == expected


def test_the_three_styles_draw_what_makes_them():
    xiangqi = parse(draw(next(g for g in GOLDENS if g.name == "xiangqi-start")))
    squares = xiangqi.find(f"{SVG}g[@class='squares']")
    assert len(squares.findall(f"{SVG}circle")) == 90  # every point
    # Nine files x ten ranks of lines, the river cuts the seven inner files: 2 + 7 * 2 + 10, and 4 palace diagonals.
    assert len(squares.findall(f"{SVG}line")) == 2 + 7 * 2 + 10 + 4
    tablut = parse(draw(next(g for g in GOLDENS if g.name == "tablut-start")))
    kinds = [rect.get("class") for rect in tablut.iter(f"{SVG}rect") if rect.get("data-square")]
    assert kinds.count("throne") == 1 and kinds.count("corner") == 4 and len(kinds) == 81
    throne = next(rect for rect in tablut.iter(f"{SVG}rect") if rect.get("class") == "throne")
    assert throne.get("data-square") == "e5"
    chess = parse(draw(GOLDENS[0]))
    fills = {rect.get("fill") for rect in chess.find(f"{SVG}g[@class='squares']")}
    assert len(fills) == 2  # light and dark


def test_style_table_covers_every_family_and_defaults_to_squares():
    for family in RuleFamily:
        assert family in STYLE_BY_FAMILY
    for variant in DEFAULT_REGISTRY:
        assert style_of(variant) is STYLE_BY_FAMILY[variant.family]


@pytest.mark.parametrize("variant", list(DEFAULT_REGISTRY), ids=lambda v: v.key)
def test_every_piece_of_every_registry_variant_has_a_drawing(variant):
    style = style_of(variant)
    names = {}
    for letter in variant.piece_letters:
        glyph = glyph_for(style, variant, letter)
        assert not glyph.letter, f"{variant.key} {letter!r} falls back to a lettered disc"
        names[letter] = glyph.name
    royal_non_kings = [kind for kind in variant.pieces if kind.letter in variant.royal and kind.letter != "k"]
    assert not royal_non_kings or all(names[k.letter].startswith("royal") for k in royal_non_kings)


def test_fairy_pieces_have_their_own_drawings():
    knightmate = DEFAULT_REGISTRY.find("knightmate")
    assert glyph_for(BoardStyle.SQUARES, knightmate, "k").name == "royal knight"
    assert glyph_for(BoardStyle.SQUARES, knightmate, "M").name == "mann"
    assert glyph_for(BoardStyle.SQUARES, DEFAULT_REGISTRY.find("grasshopper"), "g").name == "grasshopper"
    # Antichess's king is not royal, and is still drawn as a king.
    assert glyph_for(BoardStyle.SQUARES, DEFAULT_REGISTRY.find("antichess"), "K").name == "king"


@pytest.mark.parametrize(
    ("letter", "name"),
    [("r", "chariot"), ("n", "horse"), ("h", "horse"), ("b", "elephant"), ("e", "elephant"), ("a", "advisor"),
     ("k", "general"), ("c", "cannon"), ("p", "soldier")],
)
def test_xiangqi_letters_and_wxf_letters_have_drawings(letter, name):
    for shown in (letter, letter.upper()):
        assert glyph_for(BoardStyle.POINTS_PALACE_RIVER, XIANGQI, shown).name == name


def test_tafl_letters_have_drawings():
    assert glyph_for(BoardStyle.THRONE_CORNERS, TABLUT, "t").name == "tafl piece"
    assert glyph_for(BoardStyle.THRONE_CORNERS, TABLUT, "K").name == "tafl king"


def test_a_letter_without_a_drawing_gets_a_lettered_disc():
    glyph = glyph_for(BoardStyle.SQUARES, DEFAULT_REGISTRY.find("standard"), "z")
    assert glyph.letter == "Z"


def test_size_sets_the_width_and_keeps_the_aspect():
    root = parse(fen_svg("8/8/8/4k3/8/8/8/4K3 w - - 0 1", options=SvgOptions(size=400)))
    _, _, width, height = map(float, root.get("viewBox").split())
    assert float(root.get("width")) == 400
    assert float(root.get("height")) == pytest.approx(400 * height / width, abs=0.01)


@pytest.mark.parametrize("size", [0, 15, 4097, -1])
def test_sizes_out_of_range_are_refused(size):
    with pytest.raises(ValueError, match="size must be 16 to 4096"):
        SvgOptions(size=size)


def test_fen_svg_raises_what_the_reader_raises():
    with pytest.raises(FenSyntaxError):
        fen_svg("rnbqkbnr/ppxppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    with pytest.raises(UnknownVariantError):
        fen_svg("8/8/8/8/8/8/8/8 w - - 0 1", "no such variant")


def test_parse_squares():
    board = Geometry(8, 8)
    assert parse_squares("e4, d5 E4", board) == frozenset({28, 35})
    assert parse_squares("  ", board) == frozenset()
    assert parse_squares("i10", Geometry(9, 10)) == frozenset({89})
    with pytest.raises(ValueError, match="i9"):
        parse_squares("e4,i9", board)


def test_flipping_turns_the_board_round():
    fen = "8/8/8/4k3/8/8/8/4K3 w - - 0 1"
    normal, flipped = (parse(fen_svg(fen, options=SvgOptions(orientation=o))) for o in Orientation)

    def position(root: ET.Element, name: str) -> tuple[float, float]:
        rect = next(r for r in root.iter(f"{SVG}rect") if r.get("data-square") == name)
        return float(rect.get("x")), float(rect.get("y"))

    assert position(normal, "a1") == position(flipped, "h8")
    assert position(normal, "h1") == position(flipped, "a8")


def test_pockets_show_a_count_per_kind_on_each_side():
    root = parse(fen_svg("4k3/8/8/8/8/8/8/4K3[QQNppp] w - - 0 1", "crazyhouse"))
    counts = {(c.get("data-letter"), c.get("data-count")) for c in root.iter(f"{SVG}g") if c.get("class") == "count"}
    assert counts == {("Q", "2"), ("N", "1"), ("p", "3")}


def test_check_counters_and_turn_are_drawn():
    root = parse(fen_svg("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 1+2 0 1", "threecheck"))
    checks = {g.get("data-color"): g.get("data-remaining") for g in root.iter(f"{SVG}g") if g.get("class") == "checks"}
    assert checks == {"w": "1", "b": "2"}
    turn = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "turn")
    assert turn.get("data-turn") == "b"


def test_text_is_escaped():
    root = parse(board_svg(Setup.empty(), DEFAULT_REGISTRY.find("standard")))
    assert root.find(f"{SVG}title").text == "Standard position, White to move"


@st.composite
def pictures(draw_):
    files = draw_(st.integers(1, 12))
    ranks = draw_(st.integers(1, 12))
    geometry = Geometry(files, ranks)
    letters = st.sampled_from(".pnbrqkPNBRQKgGmMz")
    cells = "".join(draw_(st.lists(letters, min_size=geometry.size, max_size=geometry.size)))
    pockets = draw_(st.none() | st.text(alphabet="pnbrqPNBRQ", max_size=12).map(Pockets.from_letters))
    checks = draw_(st.none() | st.tuples(st.integers(0, 9), st.integers(0, 9)))
    setup = Setup(cells=cells, geometry=geometry, turn=draw_(st.sampled_from("wb")), pockets=pockets,
                  remaining_checks=checks, promoted=frozenset(draw_(st.sets(st.integers(0, geometry.size - 1)))))
    options = SvgOptions(
        size=draw_(st.none() | st.integers(16, 4096)),
        orientation=draw_(st.sampled_from(Orientation)),
        coordinates=draw_(st.sampled_from(Coordinates)),
        highlight=frozenset(draw_(st.sets(st.integers(-3, 150), max_size=6))),
        style=draw_(st.none() | st.sampled_from(BoardStyle)),
    )
    variant = draw_(st.sampled_from(list(DEFAULT_REGISTRY)))
    return setup, variant, options


@pytest.mark.slow
@settings(max_examples=examples(60), deadline=None)
@given(pictures())
def test_any_picture_is_well_formed_with_one_piece_per_occupied_square(picture):
    setup, variant, options = picture
    root = parse(board_svg(setup, variant, options))
    occupied = {setup.geometry.square_name(sq): letter for sq, letter in enumerate(setup.cells) if letter != "."}
    assert pieces_of(root) == occupied
    marks = [e.get("data-square") for e in root.iter() if e.get("class") == "highlight"]
    on_board = [sq for sq in options.highlight if 0 <= sq < setup.geometry.size]
    assert sorted(marks) == sorted(setup.geometry.square_name(sq) for sq in on_board)
    named = {e.get("data-square") for e in root.find(f"{SVG}g[@class='squares']") if e.get("data-square")}
    assert named == set(setup.geometry.square_names)


MARKS = marks_table()


@pytest.mark.parametrize("case", MARKS["cases"], ids=lambda c: c["name"])
def test_marks_table(case):
    read = read_fen(case["fen"], case["variant"])
    drawn = marks_of(board_svg(read.setup, read.variant, options_of(case["query"], read.setup.geometry)))
    assert drawn["marks"] == case["marks"]
    assert drawn["given"] == case.get("given", {})


@pytest.mark.parametrize("case", MARKS["refused"], ids=lambda c: f"{c['parameter']}={next(iter(c['query'].values()))}")
def test_marks_table_refusals(case):
    geometry = read_fen(case["fen"], case["variant"]).setup.geometry
    with pytest.raises(ValueError, match=re.escape(case["message"])):
        options_of(case["query"], geometry)


@pytest.mark.parametrize(
    ("text", "squares"),
    [("e2e4", (12, 28)), ("E2-E4", (12, 28)), ("e7e8q", (52, 60)), ("P@e4", (28,)), ("@e4", (28,)), ("", ()),
     (" e2,e4 ", (12, 28)), ("e5xd6", (36, 43))],
)
def test_parse_move_squares(text, squares):
    assert parse_move_squares(text, Geometry(8, 8)) == squares


def test_a_last_move_of_three_squares_is_refused():
    with pytest.raises(ValueError, match="one square"):
        SvgOptions(last_move=(1, 2, 3))


def test_checked_squares_follow_the_rules_not_the_letters():
    # Knightmate's royal piece is the knight-moving king; Antichess has none.
    knightmate = read_fen("4k3/8/8/8/8/8/4M3/4K3 b - - 0 1", "knightmate")
    assert checked_squares(knightmate.setup, knightmate.variant) == frozenset()
    checked = read_fen("4k3/8/8/8/8/8/8/4RK2 b - - 0 1", "knightmate")
    assert checked_squares(checked.setup, checked.variant) == frozenset({60})
    anti = read_fen("4k3/8/8/8/8/8/8/4R2K b - - 0 1", "antichess")
    assert checked_squares(anti.setup, anti.variant) == frozenset()
