"""Guessing a FEN's variant from its shape (``--variant auto``), from registry data only.

First the board: a placement whose ranks all have one width, and whose files x ranks are
the geometry of exactly one entry and not the default variant's (a 9x10 board), names that
entry. Then every registry entry is tried in turn; an entry fits when its reader accepts
the FEN (piece letters, pockets and check counters are the reader's business, so a pocket
fits only a variant with pockets). Among the entries that fit, in this order:

1. a placement that is some entry's start array and not the default variant's (Racing
   Kings', Horde's, Grasshopper's) names that entry, when it is the only one that reads it;
2. the default variant (Standard) when it reads the FEN and its rules accept the setup: a
   plain FEN is read as it is without ``--variant`` (tried before the others, being the
   common case);
3. the one entry whose rules accept the setup (Horde's pawns, a Crazyhouse pocket);
4. the one entry whose reader accepts the FEN (its rules then say what is wrong);
5. the default variant if it fits at all;
6. among the entries still in the running (those whose rules accept the setup, or else
   all that read it), the one that lichess plays (``Variant.lichess_name``): a Crazyhouse
   position whose pockets also fit the Screen variants' placement phase is Crazyhouse, and
   the warning names the others.

Otherwise the guess fails. ``guess_variant`` raises ``VariantGuessError`` (code
``unknown-variant``, the entries that fit or the closest as ``suggestions``); nothing else
on bad input. What a variant's rules decide (legality) is the validator's, not checked here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from notation.errors import NotationError, Problem
from notation.fen.reader import ReadResult, read_fen
from notation.validation import validate
from notation.variants import AUTO, DEFAULT_REGISTRY, Registry, Twist, Variant, normalize_name


@dataclass(frozen=True)
class Guess:
    """The variant guessed and why (``reason`` completes "guessed X from ...")."""

    variant: Variant
    reason: str

    def warning(self) -> Problem:
        """The warning that says what was guessed (code ``guessed-variant``)."""
        message = f"guessed variant {self.variant.name} from {self.reason}; say --variant {self.variant.key} to be sure"
        return Problem("guessed-variant", message, extra={"guessed": self.variant.key, "reason": self.reason})

    def to_dict(self) -> dict[str, str]:
        """``{"variant", "name", "reason"}``: the guess as the service answers it."""
        return {"variant": self.variant.key, "name": self.variant.name, "reason": self.reason}


class VariantGuessError(NotationError):
    """No single variant fits a FEN; code ``unknown-variant``, ``suggestions`` the keys of
    the variants that fit (or, when none does, every variant)."""

    def __init__(self, message: str, suggestions: list[str]):
        self.suggestions = suggestions
        hint = f"; say which with --variant: {', '.join(suggestions)}" if suggestions else ""
        super().__init__([Problem("unknown-variant", message + hint, extra={"suggestions": suggestions})])


def _placement(text: str) -> str:
    return text.strip().split(None, 1)[0] if text.strip() else ""


def placement_shape(placement: str) -> tuple[int, int] | None:
    """(files, ranks) of a FEN placement whose ranks all have the same width (runs of
    digits count as one number, ``~`` marks nothing), else None. Pockets in brackets are
    left out; nothing else is checked."""
    ranks = placement.split("[", 1)[0].split("/")
    widths = set()
    for rank in ranks:
        width, digits = 0, ""
        for ch in rank + " ":
            if ch.isdigit():
                digits += ch
                continue
            if digits:
                width, digits = width + int(digits), ""
            if ch.isalpha():
                width += 1
        widths.add(width)
    if len(widths) != 1 or 0 in widths:
        return None
    return widths.pop(), len(ranks)


def _by_board(placement: str, registry: Registry, default: Variant | None) -> Variant | None:
    """The one entry whose geometry is this placement's, if it is not the default's board."""
    shape = placement_shape(placement)
    if shape is None or (default is not None and shape == (default.geometry.files, default.geometry.ranks)):
        return None
    matches = [v for v in registry if (v.geometry.files, v.geometry.ranks) == shape]
    return matches[0] if len(matches) == 1 else None


_COUNTERS = re.compile(r"(?:^|\s)\+?[0-9]+\+[0-9]+(?:\s|$)")


def _reads(text: str, variants: Iterable[Variant], registry: Registry) -> list[ReadResult]:
    """What each of ``variants`` reads of ``text`` (those that can read it at all)."""
    # Readers fail slowly (their errors explain themselves): a FEN with bracketed pockets or
    # check counters is not offered to variants whose reader rejects those outright.
    pockets, counters = "[" in _placement(text), _COUNTERS.search(text) is not None
    fits = []
    for variant in variants:
        if (pockets and not variant.has_pockets) or (counters and not variant.has_check_counters):
            continue
        try:
            fits.append(read_fen(text, variant, registry=registry))
        except NotationError:
            continue
    return fits


def _distinction(variant: Variant, default: Variant | None) -> str:
    """What in a FEN's shape tells this variant apart, for the warning."""
    if default is not None and variant.geometry != default.geometry:
        return f"its {variant.geometry} board"
    if Twist.POCKETS in variant.twists:
        return "its pockets"
    if Twist.CHECK_COUNTERS in variant.twists:
        return "its check counters"
    if default is not None and set(variant.piece_letters) - set(default.piece_letters):
        extra = "".join(sorted(set(variant.piece_letters) - set(default.piece_letters)))
        return f"its pieces ({extra})"
    return "its armies (the only variant whose rules the setup keeps)"


def guess_variant(text: str, registry: Registry = DEFAULT_REGISTRY) -> Guess:
    """The one registry entry ``text`` fits (see the module doc); raises ``VariantGuessError``."""
    try:
        default: Variant | None = registry.default
    except LookupError:
        default = None
    placement = _placement(text)
    board = _by_board(placement, registry, default)
    if board is not None:
        return Guess(board, f"its {board.geometry} board")
    default_start = _placement(default.start_fen) if default is not None else None
    if placement != default_start:
        shaped = [v for v in registry if _placement(v.start_fen) == placement]
        starts = [r.variant for r in _reads(text, shaped, registry)]
        if len(starts) == 1:
            return Guess(starts[0], "its start array")
    if default is not None:  # the common case first: a plain FEN its rules accept
        plain = _reads(text, [default], registry)
        if plain and not validate(plain[0].setup, default):
            return Guess(default, "a plain FEN")
    fits = _reads(text, registry, registry)
    if not fits:
        raise VariantGuessError("no variant reads this FEN", [v.key for v in registry])
    by_key = {r.variant.key: r for r in fits}
    legal = [r.variant for r in fits if not validate(r.setup, r.variant)]
    if len(legal) == 1:
        return Guess(legal[0], _distinction(legal[0], default))
    if len(fits) == 1:
        return Guess(fits[0].variant, _distinction(fits[0].variant, default))
    if default is not None and default.key in by_key:
        return Guess(default, "a plain FEN")
    candidates = legal or [r.variant for r in fits]
    played = [v for v in candidates if v.lichess_name is not None]
    if len(played) == 1:
        others = ", ".join(v.key for v in candidates if v is not played[0])
        reason = f"{_distinction(played[0], default)}, the one lichess plays of those that fit ({others} too)"
        return Guess(played[0], reason)
    raise VariantGuessError("more than one variant fits this FEN", [v.key for v in candidates])


@dataclass(frozen=True)
class Resolved:
    """What a variant name given with a FEN stands for (``resolve_variant``): ``variant``
    (the ``Variant`` found or guessed, or the name itself when it cannot be found, for the
    pipeline to report as ``unknown-variant``), the ``guess`` when ``auto`` was asked for,
    and ``problem`` when the guess failed (code ``unknown-variant``, with suggestions)."""

    variant: Variant | str
    guess: Guess | None = None
    problem: Problem | None = None

    def warning(self, registry: Registry) -> Problem | None:
        """The ``guessed-variant`` warning every front end gives, or None: none without a
        guess, and none for a guess of the registry's default variant (it goes without saying)."""
        if self.guess is None:
            return None
        try:
            default: Variant | None = registry.default
        except LookupError:
            default = None
        return None if self.guess.variant is default else self.guess.warning()


def is_auto(name: str) -> bool:
    """Whether a variant name asks for a guess (``auto``, any case, spaces, ``-`` or ``_``)."""
    return normalize_name(name) == AUTO


def resolve_variant(fen: str | None, name: str, registry: Registry = DEFAULT_REGISTRY) -> Resolved:
    """The variant ``name`` stands for beside ``fen``: ``auto`` guesses it from the FEN's shape
    (``guess_variant``), the registry's default without a FEN; any other name is looked up
    (an unknown one is passed on as the name). Raises nothing on bad input."""
    if not is_auto(name):
        try:
            return Resolved(registry.find(name))
        except NotationError:
            return Resolved(name)
    if fen is None or not fen.strip():
        try:
            return Resolved(registry.default)
        except LookupError:
            return Resolved(name)
    try:
        guess = guess_variant(fen, registry)
    except VariantGuessError as exc:
        return Resolved(name, problem=exc.problems[0])
    return Resolved(guess.variant, guess)
