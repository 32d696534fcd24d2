"""The boards of the SVG golden tests: real positions of registry variants, and boards of the
other two styles (Xiangqi 9x10, Tablut 9x9) drawn for ``Variant`` values built here."""

from __future__ import annotations

from dataclasses import dataclass

from notation.geometry import Geometry
from notation.setup import Setup
from notation.svg import BoardStyle, Coordinates, Orientation, SvgOptions
from notation.variants import Movement, PieceKind, Variant

XIANGQI = Variant(
    "xiangqi-test",
    "Xiangqi",
    (),
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    pieces=tuple(
        PieceKind(letter, name, Movement.KING)  # movements are the rules' business, not the picture's
        for letter, name in (("r", "chariot"), ("n", "horse"), ("b", "elephant"), ("a", "advisor"), ("k", "general"),
                             ("c", "cannon"), ("p", "soldier"), ("h", "horse"), ("e", "elephant"))
    ),
    castling=False,
    geometry=Geometry(9, 10),
)
TABLUT = Variant(
    "tablut-test",
    "Tablut",
    (),
    "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 w - - 0 1",
    pieces=(PieceKind("t", "tafl piece", Movement.ROOK), PieceKind("k", "tafl king", Movement.ROOK)),
    castling=False,
    geometry=Geometry(9, 9),
)


def setup_of(placement: str, geometry: Geometry, turn: str = "w") -> Setup:
    """A Setup from a FEN placement of any size (digits up to the board's width), for boards
    the reader does not know yet."""
    ranks = []
    for text in placement.split("/"):
        row, digits = "", ""
        for ch in text + "/":
            if ch.isdigit():
                digits += ch
                continue
            row += "." * int(digits or 0)
            digits = ""
            if ch != "/":
                row += ch
        assert len(row) == geometry.files, (text, row)
        ranks.append(row)
    assert len(ranks) == geometry.ranks
    return Setup(cells="".join(reversed(ranks)), geometry=geometry, turn=turn)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Golden:
    """One golden picture: ``fixtures/svg/<name>.svg`` is ``fen`` of ``variant`` drawn with ``options``
    (or, with ``own``, the setup of an own ``Variant`` value)."""

    name: str
    variant: str
    fen: str
    options: SvgOptions = SvgOptions()
    own: Variant | None = None


GOLDENS = (
    Golden("standard-start", "standard", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    Golden(
        "standard-flipped-highlighted",
        "standard",
        "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4",
        SvgOptions(size=240, orientation=Orientation.BLACK, highlight=frozenset({53, 60})),
    ),
    Golden("standard-no-coordinates", "standard", "8/8/8/4k3/8/8/8/4K3 b - - 0 1",
           SvgOptions(coordinates=Coordinates.HIDE)),
    Golden(
        "crazyhouse-pockets-promoted",
        "crazyhouse",
        "r1bk3r/pppp1Bpp/2n5/4p3/4P3/8/PPPP1PPP/RNB1K2R[QNPqbbn] b KQ - 0 12",
    ),
    Golden("crazyhouse-promoted-mark", "crazyhouse", "4k2Q~/8/8/8/8/8/8/4K3[] b - - 0 40"),
    Golden("threecheck-counters", "threecheck", "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 2+3 0 3"),
    Golden("knightmate-start", "knightmate", "rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 0 1"),
    Golden("grasshopper-start", "grasshopper",
           "rnbqkbnr/gggggggg/pppppppp/8/8/PPPPPPPP/GGGGGGGG/RNBQKBNR w KQkq - 0 1"),
    Golden("antichess-kings", "antichess", "8/8/2k5/8/8/5K2/8/8 w - - 0 1"),
    Golden("racingkings-start", "racingkings", "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1"),
    Golden("horde-start", "horde",
           "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"),
    Golden("xiangqi-start", "", XIANGQI.start_fen, SvgOptions(style=BoardStyle.POINTS_PALACE_RIVER), own=XIANGQI),
    Golden(
        "xiangqi-wxf-flipped",
        "",
        "2bak4/4a4/4e4/p1h1C3p/9/2P6/P3P3P/4B4/4A4/2EAK1B2 w - - 0 1",
        SvgOptions(style=BoardStyle.POINTS_PALACE_RIVER, orientation=Orientation.BLACK, highlight=frozenset({58})),
        own=XIANGQI,
    ),
    Golden("tablut-start", "", TABLUT.start_fen, SvgOptions(style=BoardStyle.THRONE_CORNERS), own=TABLUT),
    Golden(
        "tablut-highlighted",
        "",
        "3t1t3/4t4/4T4/t7t/tt1TKT1tt/t3T3t/9/4t4/3ttt3 b - - 0 1",
        SvgOptions(style=BoardStyle.THRONE_CORNERS, highlight=frozenset({40, 0})),
        own=TABLUT,
    ),
)
