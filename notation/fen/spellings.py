"""Other spellings of one variant's FENs (``Variant.spellings``): letters, side letters, layout.

Xiangqi is written three ways: Fairy-Stockfish and UCCI use the variant's own letters
(``rnbakabnr/... w - - 0 1``), the WXF file-format notes use ``h`` horse and ``e`` elephant
in six fields, and CXBoard's CFEN uses the WXF letters, ``r`` or ``b`` to move and only
placement, side and move number (``rheakaehr/... r 1``). ``own_spelling`` turns any of them
into the variant's own six-field form, character for character where it can, so the FEN
reader's columns stay right, and says which spelling each part had; ``respell`` turns a
written FEN of the variant's own spelling into the one the writer was asked for.

Raises ``FenSyntaxError`` (field and 1-based column) for a letter of no spelling, a
placement that mixes two letter sets, a side letter of no spelling, castling rights in a
variant without castling, and a bad CFEN move number. Everything else (rank widths,
counters, ...) is left to the FEN reader.
"""


from typing import Any, Final

from notation.errors import FenSyntaxError, Problem
from notation.options import FieldLayout, PieceLetters, SideLetters
from notation.patterns import compiled
from notation.variants import Variant

# Compiled on first use (``notation.patterns``): only a FEN in a variant's own spelling.
_TOKEN = r"\S+"
_MOVE_NUMBER = r"[0-9]{1,9}"  # ASCII digits, as the reader's counters


class OwnSpelling:
    """A FEN in the variant's own spelling and six fields, and the spelling it came in.
    Read-only; a plain class, not a NamedTuple: every command that reads a FEN defines it
    at start-up (docs/architecture.md, "Start-up")."""

    __slots__ = ("text", "letters", "sides", "layout")

    def __init__(self, text: str, letters: PieceLetters, sides: SideLetters, layout: FieldLayout) -> None:
        self.text: Final = text
        self.letters: Final = letters
        self.sides: Final = sides
        self.layout: Final = layout

    def __reduce__(self) -> "tuple[type[OwnSpelling], tuple[Any, ...]]":
        """Pickled through ``__init__``: its fields are read-only (and compiled, it keeps
        no dictionary)."""
        return (OwnSpelling, (self.text, self.letters, self.sides, self.layout))

def _letter_sets(variant: Variant) -> list[tuple[PieceLetters, str]]:
    """(style, lower-case letters aligned with ``variant.pieces``), own letters first."""
    sets = [(PieceLetters.STANDARD, variant.piece_letters)]
    for style, letters in variant.spellings.letters:
        sets.append((PieceLetters(style), letters))
    return sets


def _side_sets(variant: Variant) -> list[tuple[SideLetters, str]]:
    sets = [(SideLetters.WB, "wb")]
    for style, letters in variant.spellings.sides:
        sets.append((SideLetters(style), letters))
    return sets


def _fail(message: str, field: str, column: int, expected: str | None = None) -> FenSyntaxError:
    return FenSyntaxError(message, field=field, column=column, expected=expected)


def _placement_letters(text: str, start: int, variant: Variant) -> tuple[PieceLetters | None, str]:
    """The letter set of the placement at ``start`` (``None`` when every letter is in
    more than one set) and the placement in the variant's own letters."""
    sets = _letter_sets(variant)
    candidates = [style for style, _ in sets]
    decided_at: int | None = None
    for offset, ch in enumerate(text):
        if not ch.isalpha():
            continue
        lower = ch.lower()
        fitting = [style for style, letters in sets if lower in letters]
        if not fitting:
            allowed = " or ".join(f"{''.join(sorted(letters))} ({style.value})" for style, letters in sets)
            raise _fail(
                f"{ch!r} is not a piece of {variant.name} (pieces: {allowed}; upper case for the side that starts)",
                "placement", start + offset + 1,
            )
        remaining = [style for style in candidates if style in fitting]
        if not remaining:
            assert decided_at is not None  # candidates narrowed before, so a letter decided them
            raise _fail(
                f"{ch!r} is a {' or '.join(style.value for style in fitting)} letter, but "
                f"{text[decided_at]!r} at column {start + decided_at + 1} is a {candidates[0].value} "
                "one: a FEN uses one letter set",
                "placement", start + offset + 1,
            )
        if len(remaining) < len(candidates):
            decided_at = offset
        candidates = remaining
    style = candidates[0] if len(candidates) == 1 else None
    if style is None or style is PieceLetters.STANDARD:
        return style, text
    own, other = variant.piece_letters, dict(sets)[style]
    table = str.maketrans(other + other.upper(), own + own.upper())
    return style, text.translate(table)


def own_spelling(text: str, variant: Variant) -> OwnSpelling:
    """``text`` in ``variant``'s own letters, ``w``/``b`` and six fields (or four, EPD-style,
    when it had four), with the spelling seen. Raises ``FenSyntaxError`` as the module says."""
    tokens = list(compiled(_TOKEN).finditer(text))
    if not tokens:
        return OwnSpelling(text, PieceLetters.STANDARD, SideLetters.WB, FieldLayout.FULL)
    placement = tokens[0]
    letters, own_placement = _placement_letters(placement.group(), placement.start(), variant)
    out = text[: placement.start()] + own_placement + text[placement.end():]
    cfen = len(tokens) == 3 and FieldLayout.CFEN.value in variant.spellings.layouts
    layout = FieldLayout.CFEN if cfen else FieldLayout.FULL
    sides: SideLetters | None = None
    if len(tokens) > 1:
        turn = tokens[1]
        fitting = [(style, pair) for style, pair in _side_sets(variant) if turn.group() in pair]
        if not fitting or len(turn.group()) != 1:
            allowed = ", ".join(sorted({ch for _, pair in _side_sets(variant) for ch in pair}))
            raise _fail(
                f"side to move must be one of {allowed}, found {turn.group()!r}",
                "turn", turn.start() + 1, expected=" or ".join(pair for _, pair in _side_sets(variant)),
            )
        if len(fitting) == 1:
            sides = fitting[0][0]
        colour = fitting[0][1].index(turn.group())
        out = out[: turn.start()] + "wb"[colour] + out[turn.end():]
    if len(tokens) > 2 and not cfen and not variant.castling and tokens[2].group() != "-":
        castling = tokens[2]
        raise _fail(
            f"{variant.name} has no castling; expected '-', found {castling.group()!r}",
            "castling", castling.start() + 1, expected="-",
        )
    if cfen:
        number = tokens[2]
        if not compiled(_MOVE_NUMBER).fullmatch(number.group()):
            raise _fail(
                f"expected the move number, found {number.group()!r}", "fullmove", number.start() + 1,
                expected="fullmove number",
            )
        out = out[: tokens[1].end()] + " - - 0 " + number.group()
    wxf_like = cfen or sides is SideLetters.RB
    if letters is None:
        wxf = dict(_letter_sets(variant)).get(PieceLetters.WXF)
        letters = PieceLetters.WXF if wxf_like and wxf is not None else PieceLetters.STANDARD
    if sides is None:
        sides = SideLetters.RB if cfen and SideLetters.RB.value in dict(variant.spellings.sides) else SideLetters.WB
    return OwnSpelling(out, letters, sides, layout)


def respell(fen: str, variant: Variant, letters: PieceLetters, sides: SideLetters,
            layout: FieldLayout) -> tuple[str, list[Problem]]:
    """A six-field FEN of ``variant``'s own spelling (as the writer writes it) in the given
    letters, side letters and layout, each only where the variant has it; a warning
    ``lossy-fields`` for each non-empty field a short layout drops."""
    fields = fen.split(" ")
    placement = fields[0]
    letter_sets = dict(_letter_sets(variant))
    wanted = letter_sets.get(letters)
    if wanted is not None and letters is not PieceLetters.STANDARD:
        own = variant.piece_letters
        placement = placement.translate(str.maketrans(own + own.upper(), wanted + wanted.upper()))
    side_sets = dict(_side_sets(variant))
    pair = side_sets.get(sides, "wb")
    turn = pair["wb".index(fields[1])]
    warnings: list[Problem] = []
    if layout is FieldLayout.CFEN and layout.value in variant.spellings.layouts:
        for name, value, empty in (("castling", fields[2], "-"), ("en-passant", fields[3], "-"),
                                   ("halfmove", fields[4], "0")):
            if value != empty:
                warnings.append(
                    Problem("lossy-fields", f"CFEN has no {name} field; {value!r} was dropped", field=name)
                )
        return " ".join((placement, turn, fields[5])), warnings
    return " ".join((placement, turn, *fields[2:])), warnings
