"""Registry-like chess variants on boards other than 8x8, built for the tests.

``on_board(template, geometry)`` is a registry entry (Standard, Crazyhouse, Three-check,
Antichess, Grasshopper...) moved to another board: the same pieces, armies and twists, a
start array made for that board (rooks in the corners, the king in the middle file, the
other back-rank squares knights, pawns on the second ranks when the board has room), and
its own key. Each (template, geometry) pair is built once, so the rules' per-variant
caches see one object. ``TEN`` (10x10) and ``TWELVE`` (12x12) are the Standard pieces on
those boards, the variants of fixtures/geometry/cases.json.
"""

from __future__ import annotations

import functools

from notation.geometry import Geometry
from notation.variants import DEFAULT_REGISTRY, Variant

TEMPLATES = ("standard", "crazyhouse", "threecheck", "antichess", "grasshopper", "horde")


def start_fen(geometry: Geometry, *, castling: bool = True) -> str:
    """A start position for ``geometry``: see the module doc. Castling ``KQkq`` when there
    are two ranks and three files at least."""
    files, ranks = geometry.files, geometry.ranks
    if ranks == 1:
        return f"{files} w - - 0 1"
    back = ["n"] * files
    back[0] = back[-1] = "r"
    back[files // 2] = "k"
    if files == 1:
        back = ["k"]
    rows = ["".join(back)]
    pawns = ranks >= 5
    if pawns:
        rows.append("p" * files)
    rows += [str(files)] * (ranks - 2 - 2 * pawns)
    if pawns:
        rows.append("P" * files)
    rows.append("".join(back).upper())
    rights = "KQkq" if castling and files >= 3 else "-"
    return f"{'/'.join(rows)} w {rights} - 0 1"


@functools.cache
def on_board(template: str, geometry: Geometry) -> Variant:
    """The registry's ``template`` variant on ``geometry`` (built once per pair)."""
    base = DEFAULT_REGISTRY.get(template)
    key = f"{base.key}-{geometry.files}x{geometry.ranks}"
    army_size = 2 * geometry.files  # a back rank and a pawn rank, as on 8x8
    armies = tuple(
        army._replace(max_pieces=max(army.max_pieces, army_size), max_pawns=max(army.max_pawns, geometry.files))
        for army in base.armies
    )
    fen = start_fen(geometry, castling=base.castling)
    if base.has_pockets:
        fen = fen.replace(" w ", "[] w ", 1)
    if base.has_check_counters:
        parts = fen.split()
        fen = " ".join([*parts[:4], f"{base.checks_to_win}+{base.checks_to_win}", *parts[4:]])
    return base.replace(
        key=key,
        name=f"{base.name} {geometry}",
        aliases=(),
        start_fen=fen,
        armies=armies,
        geometry=geometry,
        lichess_name=None,
        chess960_form=None,
        pgn_default=False,
        random_start=False,
    )


TEN = on_board("standard", Geometry(10, 10))
TWELVE = on_board("standard", Geometry(12, 12))
TEST_VARIANTS = {"ten": TEN, "twelve": TWELVE}
