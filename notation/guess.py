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

Otherwise the guess fails. ``guess_variant`` raises ``VariantGuessError``; nothing else
on bad input. When no entry reads the FEN, its problem is the FEN's own: what the likeliest
entry's reader found (the entry of the board the ranks count, with pockets or check
counters where the FEN has them; else the default variant's), in that reader's code, field
and column, with the entries of that board as ``suggestions``. When several fit, it is
``unknown-variant`` with those that fit as ``suggestions``. The messages name no front
end's option: each adds its own way of saying which (``with_hint``). What a variant's rules
decide (legality) is the validator's, not checked here.
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

    def warning(self, say: str = "--variant {key}") -> Problem:
        """The warning that says what was guessed (code ``guessed-variant``), and how to be
        sure in the front end's words: ``say`` with the variant's ``{key}``."""
        how = say.format(key=self.variant.key)
        message = f"guessed variant {self.variant.name} from {self.reason}; say {how} to be sure"
        return Problem("guessed-variant", message, extra={"guessed": self.variant.key, "reason": self.reason})

    def to_dict(self) -> dict[str, str]:
        """``{"variant", "name", "reason"}``: the guess as the service answers it."""
        return {"variant": self.variant.key, "name": self.variant.name, "reason": self.reason}


class VariantGuessError(NotationError):
    """No single variant fits a FEN: its one problem says why (see the module doc), and
    ``suggestions`` (also the problem's ``suggestions``) are the keys of the variants to
    choose from."""

    def __init__(self, problem: Problem, suggestions: list[str]):
        self.suggestions = suggestions
        extra = {**problem.extra, "suggestions": suggestions}
        super().__init__([Problem(problem.code, problem.message, problem.field, problem.column, extra)])


# At most this many suggestions are named in a hint; the first few of more, and how many
# are left to the list of variants.
HINT_NAMES = 8
HINT_FIRST = 4


def with_hint(problem: Problem, how: str, listing: str) -> Problem:
    """``problem`` (a failed guess's) with the front end's way of choosing a variant after
    its message: ``; say which with HOW: a, b`` naming its ``suggestions`` (all of them when
    there are at most ``HINT_NAMES``, else the first ``HINT_FIRST`` and how many more
    ``LISTING`` lists), or ``; say which with HOW (LISTING lists them)`` without
    suggestions. Raises nothing."""
    suggestions = problem.extra.get("suggestions") or []
    if not suggestions:
        hint = f"; say which with {how} ({listing} lists them)"
    elif len(suggestions) <= HINT_NAMES:
        hint = f"; say which with {how}: {', '.join(suggestions)}"
    else:
        first = ", ".join(suggestions[:HINT_FIRST])
        more = len(suggestions) - HINT_FIRST
        hint = f"; say which with {how}: {first} or {more} more ({listing} lists them)"
    return Problem(problem.code, problem.message + hint, problem.field, problem.column, problem.extra)


def _placement(text: str) -> str:
    return text.strip().split(None, 1)[0] if text.strip() else ""


def placement_shape(placement: str) -> tuple[int, int] | None:
    """(files, ranks) of a FEN placement whose ranks all have the same width (runs of
    digits count as one number, ``~`` marks nothing), else None. Pockets in brackets are
    left out; nothing else is checked."""
    ranks = _rank_widths(placement)
    widths = set(ranks)
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
        raise _unread(text, registry, default)
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
    keys = [v.key for v in candidates]
    raise VariantGuessError(Problem("unknown-variant", "more than one variant fits this FEN"), keys)


def _rank_widths(placement: str) -> list[int]:
    """The width of each rank of a placement (pockets in brackets left out)."""
    widths = []
    for rank in placement.split("[", 1)[0].split("/"):
        width, digits = 0, ""
        for ch in rank + " ":
            if ch.isdigit():
                digits += ch
                continue
            if digits:
                width, digits = width + int(digits), ""
            if ch.isalpha():
                width += 1
        widths.append(width)
    return widths


def _likeliest(text: str, registry: Registry, default: Variant | None) -> Variant | None:
    """The entry whose reader's complaint about an unreadable ``text`` says most: the one
    whose board fits the placement's ranks best (their count, their commonest width; one
    rank more is a rank-zero pocket), with pockets or check counters when the FEN has them;
    the default variant, then registry order, among equals."""
    placement = _placement(text)
    widths = _rank_widths(placement)
    width = max(set(widths), key=widths.count)
    pockets, counters = "[" in placement, _COUNTERS.search(text) is not None

    def score(variant: Variant) -> float:
        files, ranks = variant.geometry.files, variant.geometry.ranks
        points = 2.0 if files == width else 0.0
        if ranks == len(widths):
            points += 2
        elif ranks + 1 == len(widths) and variant.has_pockets:
            points += 2
        points += (pockets == variant.has_pockets) + (counters == variant.has_check_counters)
        return points + (0.5 if variant is default else 0.0)

    entries = list(registry)
    return max(entries, key=score) if entries else None


def _unread(text: str, registry: Registry, default: Variant | None) -> VariantGuessError:
    """The failed guess of a FEN no entry reads: the likeliest entry's reader's problem."""
    likeliest = _likeliest(text, registry, default)
    if likeliest is None:
        return VariantGuessError(Problem("unknown-variant", "no variant reads this FEN"), [])
    pockets, counters = "[" in _placement(text), _COUNTERS.search(text) is not None
    same_board = [
        v.key for v in registry if v.geometry == likeliest.geometry
        and (v.has_pockets or not pockets) and (v.has_check_counters or not counters)
    ]
    try:
        read_fen(text, likeliest, registry=registry)
    except NotationError as exc:
        own = exc.problems[0]
    else:  # not reached: the entry failed to read it just before
        own = Problem("unknown-variant", "no variant reads this FEN")
    message = f"{own.message} (read as {likeliest.name}: no variant reads this FEN)"
    extra = {**own.extra, "read_as": likeliest.key}
    return VariantGuessError(Problem(own.code, message, own.field, own.column, extra), same_board)


@dataclass(frozen=True)
class Resolved:
    """What a variant name given with a FEN stands for (``resolve_variant``): ``variant``
    (the ``Variant`` found or guessed, or the name itself when it cannot be found, for the
    pipeline to report as ``unknown-variant``), the ``guess`` when ``auto`` was asked for,
    and ``problem`` when the guess failed (code ``unknown-variant``, with suggestions)."""

    variant: Variant | str
    guess: Guess | None = None
    problem: Problem | None = None

    def warning(self, registry: Registry, say: str = "--variant {key}") -> Problem | None:
        """The ``guessed-variant`` warning every front end gives (``Guess.warning``), or None:
        none without a guess, and none for a guess of the registry's default variant (it
        goes without saying)."""
        if self.guess is None:
            return None
        try:
            default: Variant | None = registry.default
        except LookupError:
            default = None
        return None if self.guess.variant is default else self.guess.warning(say)


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
