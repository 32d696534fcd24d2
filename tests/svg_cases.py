"""The boards of the SVG golden tests: real positions of registry variants, and boards of the
other two styles (Xiangqi 9x10, Tablut 9x9) drawn for ``Variant`` values built here."""

from __future__ import annotations

from dataclasses import dataclass

from notation.geometry import Geometry
from notation.setup import Setup
from notation.svg import BoardStyle, CheckMark, Coordinates, Orientation, SvgOptions
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
    # The marks of a game: the last move, a king in check (found by the rules), arrows.
    Golden("standard-mate-last-move", "standard", "rnbqkbnr/ppppp2p/5p2/6pQ/3PP3/8/PPP2PPP/RNB1KBNR b KQkq - 1 3",
           SvgOptions(last_move=(3, 39))),
    Golden("standard-check-not-marked", "standard", "rnbqkbnr/ppppp2p/5p2/6pQ/3PP3/8/PPP2PPP/RNB1KBNR b KQkq - 1 3",
           SvgOptions(check=CheckMark.NONE)),
    Golden("standard-arrows-flipped", "standard", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
           SvgOptions(orientation=Orientation.BLACK, arrows=((12, 28), (6, 21)))),
    Golden("crazyhouse-drop-check", "crazyhouse", "4k3/4Q3/8/8/8/8/8/4K3[] b - - 0 2", SvgOptions(last_move=(52,))),
    Golden("xiangqi-check-last-move", "xiangqi", "4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 1 1",
           SvgOptions(last_move=(9, 13), arrows=((85, 76),))),
    Golden("tablut-last-move", "tablut", "3TTT3/4T4/4t4/T3t3T/TTttkttTT/T3t3T/4t4/4T4/3TT1T2 b - - 1 1",
           SvgOptions(last_move=(5, 6))),
    Golden("tablut-start", "", TABLUT.start_fen, SvgOptions(style=BoardStyle.THRONE_CORNERS), own=TABLUT),
    Golden(
        "tablut-highlighted",
        "",
        "3t1t3/4t4/4T4/t7t/tt1TKT1tt/t3T3t/9/4t4/3ttt3 b - - 0 1",
        SvgOptions(style=BoardStyle.THRONE_CORNERS, highlight=frozenset({40, 0})),
        own=TABLUT,
    ),
)


def marks_table() -> dict:
    """fixtures/svg/marks.json: what each front end marks on a picture, and refuses."""
    import json
    import pathlib

    path = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "svg" / "marks.json"
    return json.loads(path.read_text(encoding="utf-8"))


def options_of(query: dict[str, str], geometry: Geometry) -> SvgOptions:
    """The library's options for a case's query parameters (raises ``ValueError`` as they do)."""
    from notation.svg import parse_arrows, parse_move_squares

    return SvgOptions(
        last_move=parse_move_squares(query.get("last_move", ""), geometry),
        check=CheckMark(query.get("check", "auto")),
        arrows=parse_arrows(query.get("arrows", ""), geometry),
    )


def cli_args(query: dict[str, str]) -> list[str]:
    """The ``notation svg`` flags of a case's query parameters."""
    flags = {"last_move": "--last-move", "check": "--check", "arrows": "--arrows"}
    return [word for name, value in query.items() for word in (flags[name], value)]


def marks_of(svg: str) -> dict:
    """The marks a picture draws: squares of ``last-move`` and ``check``, ``arrow`` pairs, and
    each side's check-counter title (``given``)."""
    import xml.etree.ElementTree as ET

    root = ET.fromstring(svg.encode())
    found: dict = {"last-move": [], "check": [], "arrow": []}
    given = {}
    for element in root.iter():
        kind = element.get("class")
        if kind in ("last-move", "check"):
            found[kind].append(element.get("data-square"))
        elif kind == "arrow":
            found["arrow"].append([element.get("data-from"), element.get("data-to")])
        elif kind == "checks":
            given[element.get("data-color")] = element.find("{http://www.w3.org/2000/svg}title").text
    return {"marks": found, "given": given}
