"""Draw a position as an SVG picture: the board of its variant's style, the pieces, pockets
with counts, promoted marks, check counters (the checks each side has given, as lichess
shows them), the side to move, coordinates, highlights, the last move, a king in check and
arrows.

``board_svg`` draws any ``Setup`` (legal or not) on a board of any files x ranks; it raises
only ``ValueError`` from ``SvgOptions`` for a size out of range. The output is a
standalone, well-formed SVG document with no scripts, no external references and no ids,
so it can be written to a file, served as ``image/svg+xml`` or put inline in a page. Every
square and piece carries ``data-square`` (``e4``), pieces ``data-piece`` (the FEN letter);
the marks carry their class (``last-move``, ``check``, ``arrow``, ``highlight``).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

from notation.geometry import Geometry
from notation.lean_enum import LeanEnum
from notation.setup import WHITE, Color, Setup
from notation.svg.marks import checked_squares
from notation.svg.pieces import CELL, Glyph, Paint, Shape, glyph_for
from notation.svg.styles import BoardStyle, style_of
from notation.variants import Variant

MIN_SIZE = 16
MAX_SIZE = 4096


class Orientation(LeanEnum):
    """Which side is at the bottom of the picture."""

    WHITE = "white"  # a1 bottom left
    BLACK = "black"  # the board turned round: a1 top right


class CheckMark(LeanEnum):
    """Whether a king (any royal piece) in check is marked."""

    AUTO = "auto"  # marked when the position is legal and its side to move is in check
    NONE = "none"


class Coordinates(LeanEnum):
    """Whether file letters and rank numbers are written beside the board."""

    SHOW = "show"
    HIDE = "hide"


@dataclass(frozen=True)
class SvgOptions:
    """How to draw. ``size`` is the picture's width in pixels (``None``: one pixel per SVG
    unit, a square 45 pixels wide); ``highlight`` holds square numbers to mark; ``style``
    overrides the board style of the variant's family (``None``: ``style_of``);
    ``last_move`` the squares of the move that led here ((from, to), or (to,) for a drop);
    ``check`` whether a royal piece in check is marked; ``arrows`` (from, to) pairs. Raises
    ``ValueError`` for a size outside ``MIN_SIZE``..``MAX_SIZE`` or a last move of more
    than two squares; squares are not checked against a board (those off it are not drawn)."""

    size: int | None = None
    orientation: Orientation = Orientation.WHITE
    coordinates: Coordinates = Coordinates.SHOW
    highlight: frozenset[int] = field(default_factory=frozenset)
    style: BoardStyle | None = None
    last_move: tuple[int, ...] = ()
    check: CheckMark = CheckMark.AUTO
    arrows: tuple[tuple[int, int], ...] = ()

    def __post_init__(self) -> None:
        if self.size is not None and not MIN_SIZE <= self.size <= MAX_SIZE:
            raise ValueError(f"size must be {MIN_SIZE} to {MAX_SIZE} pixels, not {self.size}")
        if len(self.last_move) > 2:
            raise ValueError(f"a last move has one square (a drop) or two, not {len(self.last_move)}")


DEFAULT_SVG_OPTIONS = SvgOptions()


@dataclass(frozen=True)
class Palette:
    """The colours of one side's pieces: body fill, outline, details on the body, and for
    token pieces (Xiangqi) the disc and the symbol on it."""

    body: str
    outline: str
    detail: str
    disc: str = "#f6e7c8"
    mark: str = "#000000"


PALETTES: dict[BoardStyle, tuple[Palette, Palette]] = {  # (white, black)
    BoardStyle.SQUARES: (Palette("#ffffff", "#000000", "#000000"), Palette("#202020", "#000000", "#ffffff")),
    BoardStyle.POINTS_PALACE_RIVER: (
        Palette("#b3261e", "#b3261e", "#f6e7c8", mark="#b3261e"),
        Palette("#1b1b1b", "#1b1b1b", "#f6e7c8", mark="#1b1b1b"),
    ),
    BoardStyle.THRONE_CORNERS: (Palette("#fbf7ee", "#000000", "#000000"), Palette("#202020", "#000000", "#fbf7ee")),
}
LIGHT_SQUARE = "#f0d9b5"
DARK_SQUARE = "#b58863"
WOOD = "#e9c784"
LINE = "#5b3a14"
TAFL_SQUARE = "#e9dcc0"
TAFL_MARKED = "#b89b6a"
HIGHLIGHT = "#e0442c"
LAST_MOVE = "#9bc700"  # lichess's last-move green
CHECK = "#ff0000"
ARROW = "#15781b"  # lichess's green arrow
TEXT = "#4a4a4a"
FONT = "sans-serif"

COORD_MARGIN = 16  # room for coordinates, left of and below the board
PANEL = 26  # the strip right of the board: side to move, check counters
POCKET_SCALE = 0.8
POCKET_ROW = CELL * POCKET_SCALE + 6


@dataclass(frozen=True)
class _Layout:
    geometry: Geometry
    orientation: Orientation
    left: float  # board's top-left corner
    top: float
    below: float  # room under the board before the bottom pocket (coordinates)

    @property
    def files(self) -> int:
        return self.geometry.files

    @property
    def ranks(self) -> int:
        return self.geometry.ranks

    def cell_origin(self, sq: int) -> tuple[float, float]:
        """Top-left corner of square ``sq``'s cell on the picture."""
        file, rank = sq % self.files, sq // self.files
        column = file if self.orientation is Orientation.WHITE else self.files - 1 - file
        row = self.ranks - 1 - rank if self.orientation is Orientation.WHITE else rank
        return self.left + column * CELL, self.top + row * CELL

    def centre(self, sq: int) -> tuple[float, float]:
        x, y = self.cell_origin(sq)
        return x + CELL / 2, y + CELL / 2

    @property
    def width(self) -> float:
        return self.files * CELL

    @property
    def height(self) -> float:
        return self.ranks * CELL


def _num(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _sub(parent: ET.Element, tag: str, **attributes: str) -> ET.Element:
    element = ET.SubElement(parent, tag)
    for name, value in attributes.items():
        element.set(name.rstrip("_").replace("_", "-"), value)
    return element


def board_svg(setup: Setup, variant: Variant, options: SvgOptions = DEFAULT_SVG_OPTIONS, *,
              checked: frozenset[int] | None = None) -> str:
    """The SVG document (text) of ``setup`` drawn as ``variant``'s board. ``checked``: the
    squares of the royal pieces in check when the caller knows them (a position of a game,
    ``marks.position_checked_squares``); None: judged from the setup (``checked_squares``).
    ``CheckMark.NONE`` marks none either way."""
    geometry = setup.geometry
    style = options.style or style_of(variant)
    coords = options.coordinates is Coordinates.SHOW
    pockets = setup.pockets is not None or variant.has_pockets
    margin = COORD_MARGIN if coords else 4
    pocket_row = POCKET_ROW if pockets else 0
    layout = _Layout(geometry, options.orientation, margin, 4 + pocket_row, margin)
    width = margin + layout.width + PANEL
    height = layout.top + layout.height + layout.below + pocket_row
    mover = "White" if setup.turn == WHITE else "Black"
    label = f"{variant.name} position, {mover} to move"
    root = _svg_root(width, height, options.size, label, style)
    board = _sub(root, "g", class_="squares")
    _BOARD_DRAWERS[style](board, layout)
    if coords:
        _draw_coordinates(root, layout, geometry.file_names)
    on_board = range(geometry.size)
    _draw_square_marks(root, layout, style, options, geometry)
    if options.check is not CheckMark.AUTO:
        checked = frozenset()
    elif checked is None:
        checked = checked_squares(setup, variant)
    tokens = style is BoardStyle.POINTS_PALACE_RIVER  # pieces are discs that would hide marks under them
    if checked and not tokens:
        glow = _sub(root, "g", class_="in-check")
        for sq in sorted(checked):
            _draw_check(glow, layout, sq)
    _draw_pieces(root, layout, style, variant, setup)
    if tokens:
        _draw_rings(root, layout, options.last_move, checked)
    if options.arrows:
        arrows = _sub(root, "g", class_="arrows")
        for origin, target in options.arrows:
            if origin in on_board and target in on_board and origin != target:
                _draw_arrow(arrows, layout, origin, target)
    if pockets:
        _draw_pockets(root, style, variant, setup, layout)
    _draw_panel(root, layout, setup, variant)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _svg_root(width: float, height: float, size: int | None, label: str, style: BoardStyle) -> ET.Element:
    """The ``svg`` element: its view box, its size (``size`` wide, or its own), its title."""
    root = ET.Element("svg")
    root.set("xmlns", "http://www.w3.org/2000/svg")
    root.set("version", "1.1")
    root.set("viewBox", f"0 0 {_num(width)} {_num(height)}")
    scale = (size / width) if size else 1.0
    root.set("width", _num(width * scale))
    root.set("height", _num(height * scale))
    root.set("role", "img")
    root.set("aria-label", label)
    root.set("class", f"board board-{style.value}")
    ET.SubElement(root, "title").text = label
    return root


def _draw_square_marks(root: ET.Element, layout: _Layout, style: BoardStyle, options: SvgOptions,
                       geometry: Geometry) -> None:
    """The last move's squares and the highlighted ones (squares off the board left out)."""
    on_board = range(geometry.size)
    if options.last_move:
        moved = _sub(root, "g", class_="last-moves")
        for sq in options.last_move:
            if sq in on_board:
                _draw_square_mark(moved, layout, style, sq, "last-move", LAST_MOVE, "0.41", stroke=False)
    marks = _sub(root, "g", class_="highlights")
    for sq in sorted(options.highlight):
        if sq in on_board:
            _draw_highlight(marks, layout, style, sq, geometry.square_name(sq))


def _draw_pieces(root: ET.Element, layout: _Layout, style: BoardStyle, variant: Variant, setup: Setup) -> None:
    """Every piece on the board, a promoted one with its mark."""
    pieces = _sub(root, "g", class_="pieces")
    for sq, letter in enumerate(setup.cells):
        if letter != ".":
            x, y = layout.cell_origin(sq)
            element = _draw_piece(pieces, style, variant, letter, x, y, 1.0)
            element.set("data-square", setup.geometry.square_name(sq))
            if sq in setup.promoted:
                element.set("data-promoted", "true")
                _sub(element, "path", class_="promoted", d="M 7 1.5 L 12.5 7 L 7 12.5 L 1.5 7 Z", fill="#2f7d4f",
                     stroke="#ffffff", stroke_width="1")


def _draw_squares(parent: ET.Element, layout: _Layout) -> None:
    for sq in range(layout.files * layout.ranks):
        x, y = layout.cell_origin(sq)
        dark = (sq % layout.files + sq // layout.files) % 2 == 0
        _sub(parent, "rect", x=_num(x), y=_num(y), width=str(CELL), height=str(CELL),
             fill=DARK_SQUARE if dark else LIGHT_SQUARE, data_square=_name(layout, sq))


def _name(layout: _Layout, sq: int) -> str:
    return layout.geometry.square_name(sq)


def _line(parent: ET.Element, a: tuple[float, float], b: tuple[float, float], width: str = "1.3") -> None:
    _sub(parent, "line", x1=_num(a[0]), y1=_num(a[1]), x2=_num(b[0]), y2=_num(b[1]), stroke=LINE, stroke_width=width)


def _draw_points(parent: ET.Element, layout: _Layout) -> None:
    """Xiangqi: lines through the points, the river across the middle (only the edge files
    cross it), and the palaces' diagonals on the middle three files, three ranks deep."""
    files, ranks = layout.files, layout.ranks
    _sub(parent, "rect", x=_num(layout.left), y=_num(layout.top), width=_num(layout.width),
         height=_num(layout.height), fill=WOOD)
    for sq in range(files * ranks):  # the points themselves, for highlights and tests
        cx, cy = layout.centre(sq)
        _sub(parent, "circle", cx=_num(cx), cy=_num(cy), r="1.6", fill=LINE, data_square=_name(layout, sq))
    river = ranks // 2 if ranks % 2 == 0 and ranks >= 4 else None
    for file in range(files):
        edge = file in (0, files - 1)
        if river is None or edge:
            _line(parent, layout.centre(file), layout.centre((ranks - 1) * files + file))
        else:
            _line(parent, layout.centre(file), layout.centre((river - 1) * files + file))
            _line(parent, layout.centre(river * files + file), layout.centre((ranks - 1) * files + file))
    for rank in range(ranks):
        _line(parent, layout.centre(rank * files), layout.centre(rank * files + files - 1))
    if files >= 3 and ranks >= 6:
        first = files // 2 - 1
        for bottom in (0, ranks - 3):
            corner = bottom * files + first
            _line(parent, layout.centre(corner), layout.centre(corner + 2 * files + 2))
            _line(parent, layout.centre(corner + 2), layout.centre(corner + 2 * files))
    x0, y0 = layout.centre(0)
    x1, y1 = layout.centre(files * ranks - 1)
    _sub(parent, "rect", x=_num(min(x0, x1)), y=_num(min(y0, y1)), width=_num(abs(x1 - x0)), height=_num(abs(y1 - y0)),
         fill="none", stroke=LINE, stroke_width="2.2", class_="border")


def _draw_throne_corners(parent: ET.Element, layout: _Layout) -> None:
    """Tafl: plain squares; the throne (the middle square) and the four corners marked."""
    files, ranks = layout.files, layout.ranks
    throne = (ranks // 2) * files + files // 2
    corners = {0, files - 1, (ranks - 1) * files, files * ranks - 1}
    for sq in range(files * ranks):
        x, y = layout.cell_origin(sq)
        marked = sq == throne or sq in corners
        kind = "throne" if sq == throne else "corner" if sq in corners else "square"
        _sub(parent, "rect", x=_num(x), y=_num(y), width=str(CELL), height=str(CELL),
             fill=TAFL_MARKED if marked else TAFL_SQUARE, stroke=LINE, stroke_width="0.8",
             data_square=_name(layout, sq), class_=kind)
        if marked:
            _sub(parent, "path", d=f"M {_num(x + 8)} {_num(y + 8)} L {_num(x + 37)} {_num(y + 37)} "
                 f"M {_num(x + 37)} {_num(y + 8)} L {_num(x + 8)} {_num(y + 37)}",
                 stroke=LINE, stroke_width="1.2", fill="none", opacity="0.6")


_BOARD_DRAWERS = {
    BoardStyle.SQUARES: _draw_squares,
    BoardStyle.POINTS_PALACE_RIVER: _draw_points,
    BoardStyle.THRONE_CORNERS: _draw_throne_corners,
}


def _draw_coordinates(parent: ET.Element, layout: _Layout, file_names: str) -> None:
    group = _sub(parent, "g", class_="coordinates", fill=TEXT, font_family=FONT, font_size="11",
                 text_anchor="middle")
    for file, letter in enumerate(file_names):
        x, _ = layout.centre(file)
        _sub(group, "text", x=_num(x), y=_num(layout.top + layout.height + 12)).text = letter
    for rank in range(layout.ranks):
        _, y = layout.centre(rank * layout.files)
        _sub(group, "text", x=_num(layout.left / 2), y=_num(y + 4)).text = str(rank + 1)


def _draw_highlight(parent: ET.Element, layout: _Layout, style: BoardStyle, sq: int, name: str) -> None:
    _draw_square_mark(parent, layout, style, sq, "highlight", HIGHLIGHT, "0.5", stroke=True)


def _draw_square_mark(parent: ET.Element, layout: _Layout, style: BoardStyle, sq: int, kind: str, colour: str,
                      opacity: str, *, stroke: bool) -> None:
    """A square (a point on Xiangqi's board) tinted ``colour``, of class ``kind``."""
    outline = {"stroke": colour, "stroke_width": "2.5"} if stroke else {}
    name = layout.geometry.square_name(sq)
    if style is BoardStyle.POINTS_PALACE_RIVER:
        cx, cy = layout.centre(sq)
        _sub(parent, "circle", cx=_num(cx), cy=_num(cy), r="22.5", fill=colour, fill_opacity=opacity,
             **outline, class_=kind, data_square=name)
        return
    x, y = layout.cell_origin(sq)
    _sub(parent, "rect", x=_num(x), y=_num(y), width=str(CELL), height=str(CELL), fill=colour,
         fill_opacity=opacity, **outline, class_=kind, data_square=name)


def _draw_check(parent: ET.Element, layout: _Layout, sq: int) -> None:
    """A red glow under a royal piece in check: discs growing fainter outwards (a gradient
    would need an id, and the picture has none so that it can be put inline anywhere)."""
    cx, cy = layout.centre(sq)
    group = _sub(parent, "g", class_="check", data_square=layout.geometry.square_name(sq))
    for radius, opacity in (("22", "0.25"), ("17", "0.35"), ("12", "0.5")):
        _sub(group, "circle", cx=_num(cx), cy=_num(cy), r=radius, fill=CHECK, fill_opacity=opacity)


def _draw_rings(root: ET.Element, layout: _Layout, last_move: tuple[int, ...], checked: frozenset[int]) -> None:
    """Xiangqi: the last move's squares and a general in check ringed over the pieces,
    whose discs cover a point's tint (a piece's own mark stays under it as well)."""
    on_board = range(layout.geometry.size)
    name = layout.geometry.square_name
    if last_move:
        group = _sub(root, "g", class_="last-move-rings")
        for sq in last_move:
            if sq in on_board:
                cx, cy = layout.centre(sq)
                _sub(group, "circle", cx=_num(cx), cy=_num(cy), r="20.5", fill="none", stroke=LAST_MOVE,
                     stroke_width="3", class_="last-move-ring", data_square=name(sq))
    if checked:
        group = _sub(root, "g", class_="in-check")
        for sq in sorted(checked):
            cx, cy = layout.centre(sq)
            ring = _sub(group, "g", class_="check", data_square=name(sq))
            for radius, width, opacity in (("20.5", "4", "0.9"), ("22", "2", "0.45")):
                _sub(ring, "circle", cx=_num(cx), cy=_num(cy), r=radius, fill="none", stroke=CHECK,
                     stroke_width=width, stroke_opacity=opacity)


def _draw_arrow(parent: ET.Element, layout: _Layout, origin: int, target: int) -> None:
    """A green arrow from the centre of ``origin`` to near the centre of ``target``."""
    (x0, y0), (x1, y1) = layout.centre(origin), layout.centre(target)
    length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    half, shaft_end = 9.0, length - 15.0 - 4.0  # the head is 15 long, 18 wide; the tip 4 short of the centre
    tip = (x0 + ux * (length - 4.0), y0 + uy * (length - 4.0))
    base = (x0 + ux * shaft_end, y0 + uy * shaft_end)
    name = layout.geometry.square_name
    group = _sub(parent, "g", class_="arrow", data_from=name(origin), data_to=name(target), opacity="0.8")
    _sub(group, "line", x1=_num(x0), y1=_num(y0), x2=_num(base[0]), y2=_num(base[1]), stroke=ARROW,
         stroke_width="8", stroke_linecap="round")
    corners = [tip, (base[0] - uy * half, base[1] + ux * half), (base[0] + uy * half, base[1] - ux * half)]
    _sub(group, "polygon", points=" ".join(f"{_num(x)},{_num(y)}" for x, y in corners), fill=ARROW)


def _draw_piece(parent: ET.Element, style: BoardStyle, variant: Variant, letter: str, x: float, y: float,
                scale: float) -> ET.Element:
    glyph = glyph_for(style, variant, letter)
    white = letter.isupper()
    palette = PALETTES[style][0 if white else 1]
    transform = f"translate({_num(x)} {_num(y)})" + (f" scale({_num(scale)})" if scale != 1 else "")
    colour = "white" if white else "black"
    group = _sub(parent, "g", class_=f"piece {colour}", data_piece=letter, transform=transform)
    ET.SubElement(group, "title").text = f"{colour} {glyph.name}"
    _draw_shapes(group, glyph.shapes, palette, on_disc=False)
    if glyph.letter:
        _draw_letter(group, glyph, palette)
    return group


def _draw_letter(group: ET.Element, glyph: Glyph, palette: Palette) -> None:
    _sub(group, "text", x="22.5", y="29", fill=palette.detail, font_family=FONT, font_size="19",
         font_weight="bold", text_anchor="middle").text = glyph.letter


def _paint(paint: Paint, palette: Palette, on_disc: bool) -> dict[str, str]:
    if on_disc:  # a token's symbol: drawn in the side's colour on the disc
        if paint is Paint.DETAIL:
            return {"fill": "none", "stroke": palette.disc, "stroke_width": "2"}
        if paint is Paint.OUTLINE:
            return {"fill": "none", "stroke": palette.mark, "stroke_width": "2.6"}
        return {"fill": palette.mark, "stroke": palette.mark, "stroke_width": "1.5"}
    if paint is Paint.DISC:
        return {"fill": palette.disc, "stroke": palette.outline, "stroke_width": "2"}
    if paint is Paint.DETAIL:
        return {"fill": "none", "stroke": palette.detail, "stroke_width": "1.5", "stroke_linecap": "round"}
    if paint is Paint.OUTLINE:
        return {"fill": "none", "stroke": palette.outline, "stroke_width": "2.5", "stroke_linecap": "round"}
    return {"fill": palette.body, "stroke": palette.outline, "stroke_width": "1.5", "stroke_linejoin": "round"}


def _draw_shapes(parent: ET.Element, shapes: tuple[Shape, ...], palette: Palette, on_disc: bool) -> None:
    for shape in shapes:
        element = ET.SubElement(parent, shape.tag)
        for name, value in shape.attributes:
            element.set(name, value)
        if shape.tag == "g":
            _draw_shapes(element, shape.children, palette, on_disc or shape.paint is Paint.MARK)
            continue
        for name, value in _paint(shape.paint, palette, on_disc).items():
            element.set(name.replace("_", "-"), value)


def _top_colour(layout: _Layout) -> Color:
    return "b" if layout.orientation is Orientation.WHITE else "w"


def _draw_pockets(root: ET.Element, style: BoardStyle, variant: Variant, setup: Setup, layout: _Layout) -> None:
    """Each side's pieces in hand, one of each kind with its count, on its own side."""
    pockets = setup.pockets
    top = _top_colour(layout)
    for colour in ("w", "b"):
        letters = pockets.of(colour) if pockets is not None else ""
        y = 2 if colour == top else layout.top + layout.height + layout.below + 2
        name = "white" if colour == "w" else "black"
        group = _sub(root, "g", class_=f"pocket {name}", data_pocket=letters)
        ET.SubElement(group, "title").text = f"{name}'s pocket: " + (letters or "empty")
        x = layout.left
        for letter in dict.fromkeys(letters):
            shown = letter.upper() if colour == "w" else letter
            _draw_piece(group, style, variant, shown, x, y, POCKET_SCALE)
            count = letters.count(letter)
            badge = _sub(group, "g", class_="count", data_letter=shown, data_count=str(count))
            bx, by = x + CELL * POCKET_SCALE - 4, y + CELL * POCKET_SCALE - 6
            _sub(badge, "circle", cx=_num(bx), cy=_num(by), r="7", fill="#2b2b2b")
            _sub(badge, "text", x=_num(bx), y=_num(by + 3.5), fill="#ffffff", font_family=FONT, font_size="10",
                 text_anchor="middle").text = str(count)
            x += CELL * POCKET_SCALE + 8


def _draw_panel(root: ET.Element, layout: _Layout, setup: Setup, variant: Variant) -> None:
    """Right of the board: a disc in the mover's colour on the mover's side, and with check
    counters each side's checks given so far (as lichess shows them; the count still to
    give where it is more than the variant's target), on its own side."""
    x = layout.left + layout.width + PANEL / 2
    top_colour = _top_colour(layout)
    mover_y = layout.top + 12 if setup.turn == top_colour else layout.top + layout.height - 12
    white = setup.turn == WHITE
    turn = _sub(root, "g", class_="turn", data_turn="w" if white else "b")
    ET.SubElement(turn, "title").text = ("White" if white else "Black") + " to move"
    _sub(turn, "circle", cx=_num(x), cy=_num(mover_y), r="8", fill="#ffffff" if white else "#202020",
         stroke="#000000", stroke_width="1.5")
    checks = setup.remaining_checks
    if checks is None:
        return
    target = variant.checks_to_win
    for colour, remaining in zip(("w", "b"), checks, strict=True):
        name = "White" if colour == "w" else "Black"
        y = layout.top + 44 if colour == top_colour else layout.top + layout.height - 44
        group = _sub(root, "g", class_="checks", data_color=colour, data_remaining=str(remaining))
        if target > 0 and 0 <= remaining <= target:
            given = target - remaining
            group.set("data-given", str(given))
            title = f"{name} has given {given} check{'' if given == 1 else 's'} ({target} checks win)"
            label, shown = "given", f"+{given}"
        else:  # no count given can say it: the count still to give
            title = f"{name} has {remaining} checks left to give"
            label, shown = "to give", str(remaining)
        ET.SubElement(group, "title").text = title
        text = {"fill": TEXT, "font_family": FONT, "text_anchor": "middle"}
        _sub(group, "text", x=_num(x), y=_num(y), font_size="7", **text).text = label
        _sub(group, "text", x=_num(x), y=_num(y + 14), font_size="14", font_weight="bold", **text).text = shown
