"""Read a FEN of any dialect into a ``Setup``, and report which dialect it was.

Leniency, item by item (everything else is a ``FenSyntaxError`` naming field and column):

- Leading and trailing whitespace is ignored; fields may be separated by several spaces or tabs.
- Pockets: bracketed ``[..]`` (empty as ``[]`` or ``[-]``), rank zero (a ninth ``/`` field,
  empty when nothing follows the slash) and appended (a pocket field after the fullmove
  number, ``-`` for none, optionally followed by a promoted-squares field, ``-`` for none).
  Pocket letters may come in any order. Only variants with pockets accept them.
- Promoted pieces: ``~`` after a piece letter, in any variant (kept in ``Setup.promoted``),
  or the appended promoted-squares field; both may be combined.
- Three-check counters: remaining ``W+B`` between en passant and halfmove, or given
  ``+W+B`` after the fullmove number (converted to remaining); only for variants with check
  counters, and not both at once.
- Castling: ``KQkq`` standard, X-FEN (K/Q = outermost rook on that side, file letters for
  others) and Shredder-FEN (file letters); letters in any order, each at most once.
  A right whose rook is missing is still read (validation reports it).
- EPD-style FENs without halfmove and fullmove read as halfmove 0, fullmove 1.
- Consecutive digits in a rank are added up (``44`` = ``8``) on boards up to nine files
  wide; on wider boards they are one number (``10`` = ten empty squares), as every
  program writing such boards does.
- Tafl variants (``RuleFamily.TAFL``) also take an OpenTafl position record, recognised
  by its leading ``/`` (``notation.fen.opentafl``); the dialect then says ``opentafl``.
- The board's size is the variant's ``geometry``: ranks from the last to the first,
  files a to the last, every rank as wide as the board.
- Variants with other spellings (``Variant.spellings``: Xiangqi's WXF letters, CXBoard's
  ``r`` to move and three-field CFEN) are read in any of them, mixed or not
  (``notation.fen.spellings``); ``Dialect.letters``, ``sides`` and ``layout`` say which.

Not checked here (that is ``notation.validation``): kings, pawns on back ranks, whether a
castling right or en passant square makes sense, counter ranges, check.
Hostile input is cut short: more than ``MAX_FEN_LENGTH`` characters, control characters
or more ranks than the board has (one more for rank-zero pockets) are rejected before
any further work.
"""

from __future__ import annotations

import functools
import itertools
import re
from typing import TYPE_CHECKING, Any, ClassVar, Final

from notation.errors import FenSyntaxError
from notation.fen import opentafl
from notation.fen.bombs import split_bomb_field, without_bombs
from notation.fen.castling import outer_rook
from notation.fen.dialect import CastlingSeen, Dialect, PromotedSeen
from notation.fen.grammar import APPENDED_POCKET as APPENDED_POCKET_PATTERN
from notation.fen.grammar import APPENDED_PROMOTED, CHECK_FIELDS, FIELD_NAMES, POCKET_FIELDS, fen_grammar, fen_pattern
from notation.fen.grammar import BRACKETED as BRACKETED_PATTERN
from notation.fen.grammar import COUNTER as COUNTER_PATTERN
from notation.fen.grammar import GIVEN as GIVEN_PATTERN
from notation.fen.grammar import PLACEMENT as PLACEMENT_PATTERN
from notation.fen.ranks import cells_of_placement, checked_cells, letter_table
from notation.fen.spellings import own_spelling
from notation.identity_cache import IdentityCache
from notation.options import CheckStyle, PocketStyle, PositionNotation
from notation.records import Record
from notation.rules.chess960 import is_chess960
from notation.rules.variant_rules import rules_for
from notation.setup import BLACK, COMPILED, WHITE, Pockets, Setup
from notation.variants import DEFAULT_REGISTRY, Registry, RuleFamily, Twist, Variant

if TYPE_CHECKING:  # compiled, a machine integer; interpreted, never looked up (an int)
    from mypy_extensions import i64

# Enum members bound once: reading a member off its class goes through EnumType's
# attribute hook, dearer than the test it serves when compiled code does it per FEN.
_TAFL_FAMILY: Final = RuleFamily.TAFL
_RANK_ZERO: Final = PocketStyle.RANK_ZERO
_BRACKETED: Final = PocketStyle.BRACKETED
_REMAINING: Final = CheckStyle.REMAINING
_GIVEN: Final = CheckStyle.GIVEN
_APPENDED: Final = PocketStyle.APPENDED

MAX_FEN_LENGTH: Final = 512

_FIELD_BY_NAME = {name: field for field, name in FIELD_NAMES.items()}
# The patterns of rarer paths are compiled on first use (re's own cache), not by every command
# that reads a FEN: a control character, the promoted squares and pockets written after
# the counters, a FEN cut short.
_CONTROL: Final = r"[\x00-\x08\x0a-\x1f\x7f-\x9f]"
# Fast path for placements: digits become runs of "." (C-speed translate), "." becomes None.
_RUNS = tuple((str(n), "." * n) for n in range(8, 0, -1))
_NO_POCKETS: Final = Pockets()
_NO_SQUARES: Final = frozenset[int]()  # no promoted squares: one frozenset, not one a FEN
# An OpenTafl record has a placement only: no side to move, castling or counters.
_OPENTAFL_DIALECT = Dialect(counters=False, notation=PositionNotation.OPENTAFL)


def _classical_castling() -> dict[str, tuple[frozenset[int], tuple[tuple[int, str], ...]]]:
    """Castling fields whose meaning needs no search when the king castles: every letter a
    corner rook with the king on its e-file square. Maps the field to (rook squares,
    required (square, piece) pairs)."""
    table = {}
    letters = {"K": (7, "R", 4, "K"), "Q": (0, "R", 4, "K"), "k": (63, "r", 60, "k"), "q": (56, "r", 60, "k")}
    for size in range(1, 5):
        for combo in itertools.combinations("KQkq", size):
            rights = frozenset(letters[c][0] for c in combo)
            required = set()
            for c in combo:
                corner, rook, king_square, king_letter = letters[c]
                required.add((corner, rook))
                required.add((king_square, king_letter))
            table["".join(combo)] = (rights, tuple(sorted(required)))
    return table


_CLASSICAL_CASTLING: Final = _classical_castling()
_NO_RIGHTS: Final[frozenset[int]] = frozenset()  # castling "-": one set for every FEN, not a new one each
_SQUARE_NAME: Final = r"[a-z][0-9]+"


class ReadResult(Record):
    """A read FEN: the raw setup, the variant it was read for, and the dialect seen. A
    record (``notation.records``): it unpacks as ``setup, variant, dialect``."""

    _NAMES: ClassVar = ("setup", "variant", "dialect")

    def __init__(self, setup: Setup, variant: Variant, dialect: Dialect) -> None:
        self.setup: Final = setup
        self.variant: Final = variant
        self.dialect: Final = dialect


# What the reader gives the library's own callers: ``ReadResult``'s fields as a plain tuple,
# which compiled code returns from a method as a C struct, with no object made.
Read = tuple[Setup, Variant, Dialect]
# A placement read: its cells, its promoted squares and its rank-zero pocket (the text and
# where it starts) if any.
Placed = tuple[str, frozenset[int], tuple[str, int] | None]
# A class read per FEN, bound as Final: compiled, a C static instead of a look-up in the
# module's dictionary (an imported class is not native to this module).
_VARIANT: Final = Variant
# X-FEN's side letters of castling rights: (White's, kingside) of each. Every character
# whose lower case is "k" or "q" is one, as the letters always were read: the Kelvin sign
# (U+212A) is the only other.
_KQ_RIGHTS: Final[dict[str, tuple[bool, bool]]] = {
    "K": (True, True), "Q": (True, False), "k": (False, True), "q": (False, False), "\u212a": (True, True),
}
# ``str.isascii`` bound once: compiled, ``text.isascii()`` looks the method up by name on
# each call (mypyc has no primitive for it), where this is one call of a C function.
_IS_ASCII: Final = str.isascii


def read_fen(text: str, variant: Variant | str = "standard", *, registry: Registry = DEFAULT_REGISTRY) -> ReadResult:
    """Read ``text`` as a FEN of ``variant`` (a ``Variant`` or a name known to ``registry``).

    Raises ``FenSyntaxError`` (code ``fen-syntax``, with ``field`` and 1-based ``column``)
    or ``UnknownVariantError``. Does not judge legality: see ``notation.validation``.
    """
    read = read_fen_or_error(text, variant, registry=registry)
    if not isinstance(read, ReadResult):  # a FenSyntaxError
        raise read
    return read


def read_fen_or_error(
    text: str, variant: Variant | str = "standard", *, registry: Registry = DEFAULT_REGISTRY
) -> ReadResult | FenSyntaxError:
    """``read_fen`` with its ``FenSyntaxError`` returned, not raised: for a caller that
    answers the error rather than raises it. Compiled, an exception adds a traceback entry
    (a code object and a frame made for it) for every function it leaves: a syntax error
    is caught where the fields are read (``_read_checked``), and one the grammar explains
    is never raised. Raises ``UnknownVariantError``, and ``TypeError`` for a ``text`` that
    is no str.
    """
    read = read_or_error(text, variant, registry=registry)
    if isinstance(read, tuple):
        setup, read_for, dialect = read
        return ReadResult(setup, read_for, dialect)
    return read


def read_or_error(
    text: str, variant: Variant | str = "standard", *, registry: Registry = DEFAULT_REGISTRY
) -> Read | FenSyntaxError:
    """``read_fen_or_error`` with the setup, variant and dialect as a plain tuple (``Read``):
    for the library's own callers (``notation.operations``). Raises as it does."""
    # A Variant passes through without a call into the registry: per FEN.
    found = variant if isinstance(variant, _VARIANT) else registry.find(variant)
    if not isinstance(text, str):
        raise TypeError(f"a FEN is a str, not {type(text).__name__}")
    plan = _PLANS.get(found)
    rules = plan.rules
    try:
        _reject_hostile(text)
        if rules.bombs:  # itsyourturn Atomic: a seventh field (notation.fen.bombs)
            text, bombs = split_bomb_field(text)
            result = read_or_error(text, without_bombs(found), registry=registry)
            if not isinstance(result, tuple):  # a FenSyntaxError
                return result
            setup, _, dialect = result
            return (setup.with_changes(bombs=bombs), found, dialect)
        if rules.spellings:
            # Other letters, side letters or layouts (Xiangqi's WXF and CXBoard forms): read in
            # the variant's own spelling, then say which spelling each part had.
            own = own_spelling(text, found)
            read = _read_checked(own.text, found, plan, registry)
            if not isinstance(read, tuple):  # a FenSyntaxError
                return read
            setup, read_for, dialect = read
            return (setup, read_for, dialect.with_spellings(own.letters, own.sides, own.layout))
    except FenSyntaxError as exc:
        return exc
    return _read_checked(text, found, plan, registry)


def _read_checked(text: str, found: Variant, plan: _Plan, registry: Registry) -> Read | FenSyntaxError:
    """``read_or_error`` of a text that passed ``_reject_hostile``: the syntax error a
    field's reader raises is caught here; the placement's and the side to move's, and
    the one the grammar explains, are returned."""
    try:
        if plan.rules.tafl and opentafl.looks_like_record(text):
            return (opentafl.parse_record(text, found), found, _OPENTAFL_DIALECT)
        extended = plan.extended
        if not extended:
            fields = _plain_fields(text)
            if fields is not None:
                return _Reader(text, None, found, plan).read_plain(fields)
        else:
            groups = _extended_fields(text, plan.rules.pockets, plan.rules.check_counters)
            if groups is not None:
                return _Reader(text, None, found, plan).read(groups)
        # A FEN cut short cannot match: explained without trying the pattern first (a failing
        # match of the whole pattern costs about as much as reading a FEN).
        match = None if _surely_cut_short(text) else plan.pattern.fullmatch(text)
        if match is None:
            return _grammar_error(text, _field_groups(found), found, registry)
        reader = _Reader(text, match, found, plan)
        if extended:
            return reader.read(match.groupdict())
        return reader.read_plain(match.groups())
    except FenSyntaxError as exc:
        return exc


def _surely_cut_short(text: str) -> bool:
    """Whether ``text`` lacks a field that every FEN pattern requires, so that no pattern
    matches it: fewer than four fields (placement, side to move, castling, en passant), or
    five whose last is a halfmove clock with no fullmove number after it.
    tests/fen/test_fen_errors_fast.py holds every pattern to this."""
    tokens = text.split(None, 5)  # six at most: a long text is not split to its end
    count = len(tokens)
    return count < 4 or (count == 5 and tokens[4].isascii() and tokens[4].isdigit())


# placement, turn, castling, en passant, halfmove, fullmove: each a str, the counters None
# when absent (typed loosely, as ``re.Match.groups`` returns them).
PlainFields = tuple[Any, ...]


def _plain_fields(text: str) -> PlainFields | None:
    """The six groups the plain pattern (no pockets, no check counters) finds in ``text``,
    by ``str.split``: four or six fields of ASCII (control characters were refused
    before), the last two at most nine digits each, no bracket in the placement. None
    leaves the text to the pattern, which also names the column of any error (the two
    agree: tests/fen/test_fen_plain_fields.py)."""
    if not _IS_ASCII(text):
        return None
    fields = text.split()
    count = len(fields)
    if count == 6:
        halfmove, fullmove = fields[4], fields[5]
        if not (halfmove.isdigit() and fullmove.isdigit() and len(halfmove) <= 9 and len(fullmove) <= 9):
            return None
    elif count != 4:
        return None
    placement = fields[0]
    if "[" in placement or "]" in placement:
        return None
    if count == 4:
        return (placement, fields[1], fields[2], fields[3], None, None)
    return tuple(fields)


# Every group of the extended pattern: what ``_extended_fields`` gives for a text it takes.
_NO_GROUPS: Final[dict[str, Any]] = dict.fromkeys(
    ("placement", "bracketed", "turn", "castling", "en_passant", "remaining", "halfmove", "fullmove", "given",
     "appended_pocket", "appended_promoted")
)


def _is_counter(token: str) -> bool:
    """One to nine ASCII digits (``COUNTER``); ``token`` is ASCII."""
    return token.isdigit() and len(token) <= 9


def _is_pair(token: str) -> bool:
    """``W+B``, each a counter (``REMAINING``); ``token`` is ASCII."""
    white, plus, black = token.partition("+")
    return bool(plus) and _is_counter(white) and _is_counter(black)


def _extended_fields(text: str, pockets: bool, checks: bool) -> dict[str, Any] | None:
    """The groups the extended pattern (``pockets`` and/or check counters ``checks``) finds
    in ``text``, by ``str.split`` and a test of each token's shape, in the pattern's order:
    placement (with its ``[pocket]``), turn, castling, en passant, checks remaining,
    halfmove and fullmove, checks given, appended pocket and promoted squares. The token
    shapes of the optional fields exclude each other, so taking each field where it fits
    is what the pattern matches. None leaves the text to the pattern (which names the
    column of any error; the two agree: tests/fen/test_fen_plain_fields.py)."""
    if not _IS_ASCII(text):
        return None
    tokens = text.split()
    count = len(tokens)
    if count < 4:
        return None
    groups = _NO_GROUPS.copy()
    first = tokens[0]
    bracket = first.find("[")
    if bracket >= 0:
        # placement "[" letters "]": the placement holds no bracket, the pocket no "]"
        inner = first[bracket + 1:-1]
        if not pockets or bracket == 0 or not first.endswith("]") or "]" in first[:bracket] or "]" in inner:
            return None
        groups["placement"], groups["bracketed"] = first[:bracket], first[bracket:]
    elif "]" in first:
        return None
    else:
        groups["placement"] = first
    groups["turn"], groups["castling"], groups["en_passant"] = tokens[1], tokens[2], tokens[3]
    index = 4
    if checks and index < count and _is_pair(tokens[index]):
        groups["remaining"] = tokens[index]
        index += 1
    if index + 1 < count and _is_counter(tokens[index]) and _is_counter(tokens[index + 1]):
        groups["halfmove"], groups["fullmove"] = tokens[index], tokens[index + 1]
        index += 2
    if checks and index < count and tokens[index].startswith("+") and _is_pair(tokens[index][1:]):
        groups["given"] = tokens[index]
        index += 1
    if pockets and index < count and (tokens[index] == "-" or tokens[index].isalpha()):
        groups["appended_pocket"] = tokens[index]
        index += 1
        if index < count and re.fullmatch(APPENDED_PROMOTED, tokens[index]) is not None:
            groups["appended_promoted"] = tokens[index]
            index += 1
    return groups if index == count else None


def _reject_hostile(text: str) -> None:
    if len(text) > MAX_FEN_LENGTH:
        raise FenSyntaxError(
            f"FEN is {len(text)} characters long; at most {MAX_FEN_LENGTH} are accepted",
            field="placement",
            column=MAX_FEN_LENGTH + 1,
        )
    # Printable ASCII (the usual FEN) has no control character: no search needed.
    control = None if _printable_ascii(text) else re.search(_CONTROL, text)
    if control is not None:
        index = control.start()
        raise FenSyntaxError(
            f"control character U+{ord(text[index]):04X} in FEN", field=_field_at(text, index), column=index + 1
        )
    if not text.strip():
        raise FenSyntaxError("empty FEN", field="placement", column=1, expected=FIELD_NAMES["placement"])


# ``bytes.translate`` of a text's UTF-8 through this table gives the very same object back
# (a loop in C) exactly when every byte is printable ASCII: any other byte maps to another.
_PRINTABLE_BYTES: Final = bytes(code if 32 <= code <= 126 else code ^ 1 for code in range(256))


def _printable_ascii(text: str) -> bool:
    """``text.isascii() and text.isprintable()``: every character from space to ``~``.
    Compiled, its UTF-8 form translated through ``_PRINTABLE_BYTES`` (a loop in C, where
    ``isprintable`` looks each character up in the Unicode database, and a byte loop in
    compiled code checks each index); interpreted, the two methods."""
    if not COMPILED:
        return text.isascii() and text.isprintable()
    try:
        data = text.encode()
    except UnicodeEncodeError:  # a lone surrogate: not ASCII
        return False
    return data.translate(_PRINTABLE_BYTES) is data  # UTF-8 past ASCII: bytes past 127, not printable


def _field_at(text: str, index: int) -> str:
    """Best guess of the field at ``index``, from the count of whitespace-separated fields before it."""
    order = ("placement", "turn", "castling", "en-passant", "halfmove", "fullmove")
    before = len(text[:index].split())
    if index > 0 and not text[index - 1].isspace() and before > 0:
        before -= 1
    return order[min(before, len(order) - 1)]


_GROUPS = {
    (pockets, checks): frozenset(
        name for name, wanted in ((POCKET_FIELDS, pockets), (CHECK_FIELDS, checks)) if wanted
    )
    for pockets in (False, True)
    for checks in (False, True)
}


def pattern_for(pockets: bool, checks: bool) -> re.Pattern[str]:
    """The fast-path regex of a variant with (or without) pockets and check counters,
    compiled on first use (``fen_pattern`` keeps it): start-up compiles none, and a run
    only those its odd FENs need (``_Plan.pattern``)."""
    return fen_pattern(_GROUPS[pockets, checks])


def _field_groups(variant: Variant) -> frozenset[str]:
    return _GROUPS[variant.has_pockets, variant.has_check_counters]


def _grammar_error(text: str, groups: frozenset[str], variant: Variant, registry: Registry) -> FenSyntaxError:
    """Why ``text`` does not match: the field, its 1-based column, what was expected; the
    error, returned (``read_fen_or_error`` says why), or that of a field before the one
    the grammar stopped at that is wrong on its own (``_field_error_before``)."""
    tokens = text.split()  # split once: each path below needs the first field
    first = tokens[0] if tokens else ""
    bracket = text.find("[")
    first_field_end = len(first) + (len(text) - len(text.lstrip())) if bracket >= 0 else 0
    if bracket >= 0 and POCKET_FIELDS not in groups and bracket < first_field_end:
        return FenSyntaxError(
            f"{variant.name} has no pockets; found {text[bracket:].split()[0]!r}",
            field="pockets",
            column=bracket + 1,
        )
    if POCKET_FIELDS in groups and "[" in first and "]" not in first[first.index("["):]:
        return FenSyntaxError(
            "the pocket's '[' is never closed: expected ']' right after the pocket letters",
            field="pockets",
            column=text.index("[") + 1,
            expected="]",
        )
    found = _missing_field_error(text, groups, variant)
    if found is None:
        found = _tail_error(text, groups, variant, registry)
    if found is None:
        found = _grammar_parse_error(text, groups, variant, registry)
    if found is None:  # pragma: no cover - the grammar refuses what the pattern refused
        found = FenSyntaxError("not a FEN", field="placement", column=1)
    return found


def _grammar_parse_error(
    text: str, groups: frozenset[str], variant: Variant, registry: Registry
) -> FenSyntaxError | None:
    """Run the pyparsing grammar on ``text``: its leftmost error, field by name (None when
    the grammar takes the text)."""
    import pyparsing as pp  # only this path needs it (notation.fen.grammar.fen_grammar)

    try:
        fen_grammar(groups).parse_string(text)
    except pp.ParseBaseException as exc:
        # Report the leftmost problem: a field before the point where the grammar broke
        # may itself be wrong ("not a fen at all" is wrong at column 2, not at "all").
        before = _field_error_before(text, exc.loc, variant)
        if before is not None:
            return before
        # pyparsing names the expectation after the element that failed ("Expected
        # fullmove number"); our field elements carry the human field names.
        message = str(exc.msg)
        name = message[len("Expected "):] if message.startswith("Expected ") else message
        field = _FIELD_BY_NAME.get(name)
        column = exc.loc + 1
        rest = text[exc.loc:].split()
        token = rest[0] if rest else ""
        found = repr(token) if rest else "the end of the FEN"
        too_long = token.isascii() and token.isdigit() and len(token) > _COUNTER_DIGITS
        hint = f" (a counter has at most {_COUNTER_DIGITS} digits)" if too_long else ""
        if field is not None:
            if field not in ("halfmove", "fullmove"):
                hint = ""
            return FenSyntaxError(f"expected {name}, found {found}{hint}", field=field, column=column, expected=name)
        # The grammar ran to its end and found more: say which field that token stands in.
        # A fifth token without "+" can only be a halfmove clock the grammar refused (one it
        # takes, without a fullmove number after it, fails at the sixth).
        index = len(text[:exc.loc].split())
        if index == 4 and "+" not in token:
            name = FIELD_NAMES["halfmove"]
            return FenSyntaxError(
                f"expected {name}, found {found}{hint}", field="halfmove", column=column, expected=name
            )
        if "+" in token:
            field = "checks"
        elif token.isalpha() and index >= 6:
            field = "pockets"
        else:
            field = "end"
        return FenSyntaxError(
            f"unexpected {found} after the last field{_extension_hint(token, variant, registry)}",
            field=field,
            column=column,
        )
    return None


# The fields a FEN must have, in order, after the placement, and a placement token as the
# grammar takes it (with a bracketed pocket where the variant has pockets).
_REQUIRED_AFTER_PLACEMENT = ("turn", "castling", "en-passant")
_PLACEMENT_TOKEN = {False: PLACEMENT_PATTERN, True: rf"{PLACEMENT_PATTERN}(?:{BRACKETED_PATTERN})?"}
_COUNTER_DIGITS = 9  # as COUNTER_PATTERN takes them
# The error paths' token patterns, each compiled when first used (start-up compiles none)
# and kept: ``re.fullmatch`` of a pattern's text finds it in re's cache through Python code.
_TOKEN_PATTERNS: Final[dict[str, re.Pattern[str]]] = {}


def _compiled(pattern: str) -> re.Pattern[str]:
    """``pattern`` compiled, once per process."""
    found = _TOKEN_PATTERNS.get(pattern)
    if found is None:
        found = _TOKEN_PATTERNS[pattern] = re.compile(pattern)
    return found


def _missing_field_error(text: str, groups: frozenset[str], variant: Variant) -> FenSyntaxError | None:
    """Without running the grammar, the error it gives a FEN cut short: every token
    present is one the grammar takes in its place, and a required field is missing at the
    end (side to move, castling or en passant; or a fullmove number after a halfmove
    clock). The grammar then fails at the end of the text expecting that field, after the
    fields before it were checked on their own (the error of one wrong on its own is given
    instead). None for any other shape (the grammar explains it).
    tests/fen/test_fen_errors_fast.py checks this agrees with the grammar."""
    if not text.isascii():  # the grammar's gaps are spaces and tabs; str.split knows more
        return None
    tokens = text.split()
    if not tokens or _compiled(_PLACEMENT_TOKEN[POCKET_FIELDS in groups]).fullmatch(tokens[0]) is None:
        return None
    if len(tokens) <= len(_REQUIRED_AFTER_PLACEMENT):
        missing = _REQUIRED_AFTER_PLACEMENT[len(tokens) - 1]
    elif len(tokens) == 5 and _compiled(COUNTER_PATTERN).fullmatch(tokens[4]) is not None:
        missing = "fullmove"
    else:
        return None
    return _missing_at_end(text, missing, variant)


def _missing_at_end(text: str, missing: str, variant: Variant) -> FenSyntaxError:
    """The grammar's error for a FEN that ends where the field ``missing`` should start,
    or the error of a field before it that is wrong on its own."""
    before = _field_error_before(text, len(text), variant)
    if before is not None:
        return before
    name = FIELD_NAMES[missing]
    return FenSyntaxError(
        f"expected {name}, found the end of the FEN", field=missing, column=len(text) + 1, expected=name
    )


def _tail_error(text: str, groups: frozenset[str], variant: Variant, registry: Registry) -> FenSyntaxError | None:
    """Without running the grammar, the error it gives a FEN whose four required fields
    are there and whose tail is wrong: a halfmove clock or a fullmove number that is no
    counter, a halfmove clock without one after it, or a token no field after the en
    passant square takes (check counters, the counters and an appended pocket where the
    variant has them, in the grammar's order).
    The fields before the wrong token are checked on their own first, as on the grammar's
    path (the error of one wrong on its own is given instead). None for any other shape,
    and for a token a field would take only part of (the grammar explains those).
    Importing pyparsing costs a process more than reading thousands of FENs: a run whose
    unreadable FENs are of these shapes starts without it. tests/fen/test_fen_errors_fast.py
    checks this agrees with the grammar."""
    if not text.isascii():  # the grammar's gaps are spaces and tabs; str.split knows more
        return None
    pockets, checks = POCKET_FIELDS in groups, CHECK_FIELDS in groups
    tokens = _first_tokens(text, 10)  # ten fields at most: every optional one there
    count = len(tokens)
    if count < 5 or _compiled(_PLACEMENT_TOKEN[pockets]).fullmatch(tokens[0][1]) is None:
        return None
    index = 4
    if checks and _is_pair(tokens[index][1]):  # checks remaining, W+B
        index += 1
    if index < count and _is_counter(tokens[index][1]):
        if index + 1 == count:  # cut short after a halfmove clock
            return _missing_at_end(text, "fullmove", variant)
        if not _is_counter(tokens[index + 1][1]):  # once a halfmove clock is read, a fullmove number must follow
            return _expected_at(text, tokens[index + 1], "fullmove", variant)
        index += 2
    if checks and index < count and _compiled(GIVEN_PATTERN).fullmatch(tokens[index][1]) is not None:  # +W+B
        index += 1
    if pockets and index < count:
        taken = _taken(APPENDED_POCKET_PATTERN, tokens[index][1])
        if taken and index + 1 < count:
            index += 1
            taken = _taken(APPENDED_PROMOTED, tokens[index][1])
        if taken is None:
            return None
        index += taken
    if index >= count:
        return None  # every token is taken: the refusal is not in the tail
    at, token = tokens[index]
    if index == 4 and "+" not in token:
        return _expected_at(text, tokens[index], "halfmove", variant)
    before = _field_error_before(text, at, variant)
    if before is not None:
        return before
    field = "checks" if "+" in token else "pockets" if token.isalpha() and index >= 6 else "end"
    return FenSyntaxError(
        f"unexpected {token!r} after the last field{_extension_hint(token, variant, registry)}",
        field=field,
        column=at + 1,
    )


def _taken(pattern: str, token: str) -> bool | None:
    """Whether the grammar's field of ``pattern`` takes the whole ``token`` (True) or none of
    it (False); None where it would take a part (its pattern's alternatives do not all
    look for the end of the token)."""
    match = _compiled(pattern).match(token)
    if match is None:
        return False
    return True if match.end() == len(token) else None


def _expected_at(text: str, token_at: tuple[int, str], field: str, variant: Variant) -> FenSyntaxError:
    """The grammar's error for a counter ``field`` it expected where the token ``token_at``
    (its start, its text) stands, or the error of a field before it that is wrong on its
    own."""
    at, token = token_at
    before = _field_error_before(text, at, variant)
    if before is not None:
        return before
    too_long = token.isdigit() and len(token) > _COUNTER_DIGITS
    hint = f" (a counter has at most {_COUNTER_DIGITS} digits)" if too_long else ""
    name = FIELD_NAMES[field]
    return FenSyntaxError(f"expected {name}, found {token!r}{hint}", field=field, column=at + 1, expected=name)


_TOKEN_NAMES: Final = ("placement", "turn", "castling", "en_passant")  # the first fields, in order


class _TokenSpans:
    """Stands in for a regex match on the error path: where each of the first fields starts."""

    def __init__(self, starts: dict[str, int]):
        self.starts = starts

    def start(self, group: str) -> int:
        return self.starts[group]


def _field_error_before(text: str, limit: int, variant: Variant) -> FenSyntaxError | None:
    """The syntax error of the first of placement, turn, castling and en passant that
    starts before ``limit`` and is wrong on its own; None if none is."""
    tokens = _first_tokens(text[:limit], 4)  # at most four, maybe fewer
    names = _TOKEN_NAMES
    starts: dict[str, int] = {}
    for index in range(len(tokens)):
        starts[names[index]] = tokens[index][0]
    reader = _Reader(text, _TokenSpans(starts), variant)
    board = ""  # the placement comes first: read before any castling token is
    try:
        for index in range(len(tokens)):
            name, token = names[index], tokens[index][1]
            if name == "placement":
                placed = reader.read_placement(token.split("[", 1)[0])
                if not isinstance(placed, tuple):
                    return placed
                board = placed[0]
            elif name == "turn" and token not in ("w", "b"):
                return reader.fail(f"side to move must be w or b, found {token!r}", "turn", "turn", expected="w or b")
            elif name == "castling":
                reader.read_castling(token, board)
            elif name == "en_passant":
                reader.read_en_passant(token)
    except FenSyntaxError as exc:  # raised by the field's reader
        return exc
    return None


def _first_tokens(text: str, count: int) -> list[tuple[int, str]]:
    """The first ``count`` whitespace-separated tokens of ``text`` with their start indexes.
    Each token is found from the end of the one before: only whitespace lies between, so
    its first occurrence there is where it starts."""
    found = []
    at = 0
    for token in text.split(None, count)[:count]:  # the rest, unsplit, is left off
        at = text.find(token, at)
        found.append((at, token))
        at += len(token)
    return found


def _pieces_stand(board: str, placed: tuple[tuple[int, str], ...]) -> bool:
    """Whether each ``(square, letter)`` of ``placed`` is on ``board`` (a loop, not ``all``
    of a generator: interpreted, that makes a generator and its frame for every FEN)."""
    for sq, piece in placed:
        if board[sq] != piece:
            return False
    return True


def _extension_hint(token: str, variant: Variant, registry: Registry) -> str:
    """Why a variant extension field was not read: it belongs to other variants."""
    if not variant.has_check_counters and ("+" in token):
        return f" (check counters belong to {_variants_with(Twist.CHECK_COUNTERS, registry)}, not {variant.name})"
    if not variant.has_pockets and token.isalpha():
        return f" (pockets belong to {_variants_with(Twist.POCKETS, registry)}, not {variant.name})"
    return ""


def _variants_with(twist: Twist, registry: Registry) -> str:
    """The registry's names for the variants with ``twist``: ``Crazyhouse``, ``A or B``."""
    names = [variant.name for variant in registry if twist in variant.twists]
    return " or ".join(names) if names else "other variants"


def _strip_marks(expanded: str) -> tuple[str, frozenset[int]]:
    """Remove ``~`` marks from an expanded placement, returning the squares they marked.

    A mark that follows no piece is left in place, so the slow path reports it.
    """
    promoted = set()
    ranks = expanded.split("/")
    for index, rank in enumerate(ranks):
        if "~" not in rank:
            continue
        out: list[str] = []
        marked = False  # the previous character was a mark
        for ch in rank:
            if ch == "~" and out and out[-1] != "." and not marked:
                promoted.add((7 - index) * 8 + len(out) - 1)
                marked = True
            else:
                out.append(ch)
                marked = False
        ranks[index] = "".join(out)
    return "/".join(ranks), frozenset(promoted)


@functools.lru_cache(maxsize=256)
def _dialect(
    pockets: PocketStyle | None,
    checks: CheckStyle | None,
    castling: CastlingSeen | None,
    counters: bool,
    promoted: PromotedSeen | None,
    chess960: bool,
) -> Dialect:
    # Dialects are few and immutable: share them instead of building one per FEN.
    return Dialect(pockets, checks, castling, counters, promoted, chess960)


# The dialects a FEN without pockets or check counters can have, by (castling seen,
# counters present, promoted marks, Chess960 rights) as one index (``_plain_dialect``):
# read_plain looks one up per FEN instead of calling the cache above (a key tuple of six
# built and hashed each time), or hashing a key tuple of four.
_CASTLING_SEEN: Final[tuple[CastlingSeen | None, ...]] = (None, "standard", "xfen", "shredder")
_PLAIN_DIALECTS: Final[tuple[Dialect, ...]] = tuple(
    _dialect(None, None, castling, counters, "tilde" if promoted else None, chess960)
    for castling in _CASTLING_SEEN
    for counters in (False, True)
    for promoted in (False, True)
    for chess960 in (False, True)
)


def _plain_dialect(castling: CastlingSeen | None, counters: bool, promoted: bool, chess960: bool) -> Dialect:
    """The shared dialect of a FEN without pockets or check counters (``_PLAIN_DIALECTS``)."""
    seen = 0 if castling is None else 1 if castling == "standard" else 2 if castling == "xfen" else 3
    return _PLAIN_DIALECTS[seen * 8 + counters * 4 + promoted * 2 + chess960]


class _Plan:
    """How a FEN of one variant is read, worked out once from its rules (``rules``,
    ``VariantRules``): the pattern of its fields, the bytes a placement cell may hold (the
    letters and ``.``) for ``_only_cells``, the letters as ``checked_cells`` takes them."""

    __slots__ = ("rules", "extended", "cell_bytes", "letter_table", "castles_with_k")

    def __init__(self, variant: Variant):
        rules = self.rules = rules_for(variant)
        # Pockets or check counters: the plain fields (``_plain_fields``) cannot hold them.
        self.extended = rules.pockets or rules.check_counters
        self.cell_bytes = ("".join(sorted(rules.board_letters)) + ".").encode()
        self.letter_table = letter_table(rules.board_letters)
        self.castles_with_k = rules.castling_piece == "k"


    @property
    def pattern(self) -> re.Pattern[str]:
        """The regex of the variant's fields, compiled when first asked for (``pattern_for``
        keeps it): a FEN of well-spaced fields is read without it (``_plain_fields``,
        ``_extended_fields``), so a command reading good FENs compiles none; an odd one,
        or an error's column, takes it."""
        return pattern_for(self.rules.pockets, self.rules.check_counters)


_PLANS: Final = IdentityCache(_Plan)  # variant -> its _Plan


def _counter_value(digits: str) -> int:
    """``int(digits)`` of one to nine ASCII digits, as every counter field holds (the
    pattern and ``_plain_fields`` see to it). Compiled, a loop of machine arithmetic, where
    ``int`` first copies the text (it reads every script's digits). Interpreted, this
    name is ``int`` itself (below)."""
    value: i64 = 0
    for index in range(len(digits)):
        value = value * 10 + ord(digits[index]) - 48
    return value


if not COMPILED:
    # Interpreted, the callers look ``int`` itself up under this name: no Python frame
    # around it (two counters a FEN).
    globals()["_counter_value"] = int


def _has_digit(text: str) -> bool:
    """Whether ``text`` holds a digit (``str.isdigit``: any script's), as a rank-zero pocket
    may not (a loop, not ``any`` of a generator: interpreted, that is a frame of its own)."""
    for character in text:
        if character.isdigit():
            return True
    return False


def _only_cells(cells: str, cell_bytes: bytes) -> bool:
    """Whether every character of ``cells`` is one of ``cell_bytes`` (ASCII): nothing is
    left when they are deleted: one table look-up a cell, where ``str.strip`` with a set of
    characters searches the set for each; ``isascii`` (a flag look-up) keeps any other
    character, a lone surrogate included, away from ``encode``."""
    return cells.isascii() and not cells.encode().translate(None, cell_bytes)


class _Reader:
    """Turns one regex match into a Setup; each method reads one field."""

    def __init__(self, text: str, match: Any, variant: Variant, plan: _Plan | None = None):
        # ``match``: the pattern's ``re.Match``, ``_TokenSpans`` on the error path, or None
        # after ``_plain_fields`` (``col`` then runs the pattern: only for an error).
        self.text = text
        self.match = match
        self.variant = variant
        plan = self.plan = plan if plan is not None else _PLANS.get(variant)
        rules = plan.rules
        self.piece_letters = rules.board_letters
        self.cell_bytes = plan.cell_bytes
        self.geometry = rules.geometry
        self.chess_board = rules.chess_board

    def col(self, group: str, offset: int = 0) -> int:
        match = self.match
        if match is None:
            text = self.text
            if group == "placement":  # the first field: after the leading whitespace
                return len(text) - len(text.lstrip()) + offset + 1
            match = self.match = self.plan.pattern.fullmatch(text)
        return match.start(group) + offset + 1

    def fail(
        self, message: str, field: str, group: str, offset: int = 0, expected: str | None = None
    ) -> FenSyntaxError:
        """The error, made here and raised (``raise self.fail(...)``) or returned by the
        caller: compiled, every frame an exception leaves adds a traceback entry (a code
        object and a frame made for it), so it is raised in the method that finds it, not
        two calls below (as ``notation.moves.chess`` does for moves), or returned where the
        callers return errors (``read_placement``, ``read_plain``, ``read``)."""
        return FenSyntaxError(message, field, self.col(group, offset), expected)

    def read_plain(self, fields: PlainFields) -> Read | FenSyntaxError:
        """``read`` for variants without pockets or check counters: six fields, no branches
        for extensions the grammar of such a variant cannot match anyway."""
        placement, turn, castling_text, ep_text, halfmove_text, fullmove_text = fields
        placed = self.read_placement(placement)
        if not isinstance(placed, tuple):  # its error, returned as it was to this method
            return placed
        board, promoted, _ = placed
        if turn != "w" and turn != "b":
            return self.fail(f"side to move must be w or b, found {turn!r}", "turn", "turn", expected="w or b")
        castling, castling_seen, chess960 = self.read_castling(castling_text, board)
        ep_square = None if ep_text == "-" else self.read_en_passant(ep_text)
        counters_present = halfmove_text is not None
        setup = Setup(
            cells=board,
            turn=turn,
            castling=castling,
            ep_square=ep_square,
            halfmove=_counter_value(halfmove_text) if counters_present else 0,
            fullmove=_counter_value(fullmove_text) if counters_present else 1,
            promoted=promoted,
            geometry=self.geometry,
        )
        dialect = _plain_dialect(castling_seen, counters_present, bool(promoted), chess960)
        return (setup, self.variant, dialect)

    def read(self, g: dict[str, Any]) -> Read | FenSyntaxError:
        """The setup of a FEN of any variant from ``g``, the groups of its fields (the
        pattern's ``groupdict``, or ``_extended_fields``): the groups of pockets and check
        counters are absent from the dictionary of a pattern without them. The placement's
        and the side to move's errors are returned (the commonest: no traceback is made for
        them), a later field's raised by its reader."""
        variant = self.variant
        placed = self.read_placement(g["placement"])
        if not isinstance(placed, tuple):  # its error, returned as it was to this method
            return placed
        board, promoted, rank_zero = placed
        promoted_style = "tilde" if promoted else None
        pockets, pocket_style = self.read_front_pocket(g.get("bracketed"), rank_zero)

        turn = g["turn"]
        if turn not in ("w", "b"):
            return self.fail(f"side to move must be w or b, found {turn!r}", "turn", "turn", expected="w or b")

        castling, castling_seen, chess960 = self.read_castling(g["castling"], board)
        ep_square = self.read_en_passant(g["en_passant"])

        remaining, checks_style = self.read_check_counters(g.get("remaining"), g.get("given"))

        halfmove_text, fullmove_text = g["halfmove"], g["fullmove"]
        counters_present = halfmove_text is not None
        halfmove = _counter_value(halfmove_text) if counters_present else 0
        fullmove = _counter_value(fullmove_text) if counters_present else 1

        appended = g.get("appended_pocket")
        if appended is not None:
            pockets = self.read_appended_pocket(appended, counters_present, pocket_style)
            pocket_style = _APPENDED
            squares = g.get("appended_promoted")
            if squares is not None and squares != "-":
                marked = self.read_promoted_squares(squares)
                promoted = promoted | marked
                promoted_style = "squares" if promoted_style is None else promoted_style

        if variant.has_pockets and pockets is None:
            pockets = _NO_POCKETS
        dialect = _dialect(pocket_style, checks_style, castling_seen, counters_present, promoted_style, chess960)
        setup = Setup(
            cells=board,
            turn=WHITE if turn == "w" else BLACK,
            castling=castling,
            ep_square=ep_square,
            halfmove=halfmove,
            fullmove=fullmove,
            promoted=promoted,
            pockets=pockets,
            remaining_checks=remaining,
            geometry=self.geometry,
        )
        return (setup, variant, dialect)

    def read_front_pocket(
        self, bracketed: str | None, rank_zero: tuple[str, int] | None
    ) -> tuple[Pockets | None, PocketStyle | None]:
        """The pocket written as a rank zero of the placement or in brackets after it (not
        both), and how; (None, None) for neither."""
        pockets: Pockets | None = None
        pocket_style: PocketStyle | None = None
        if rank_zero is not None:
            pockets = self.read_pocket_letters(rank_zero[0], "placement", rank_zero[1])
            pocket_style = _RANK_ZERO
        if bracketed is not None:
            variant = self.variant
            if not variant.has_pockets:
                raise self.fail(f"{variant.name} has no pockets; found {bracketed!r}", "pockets", "bracketed")
            if pocket_style is not None:
                raise self.fail("pockets given twice (rank zero and brackets)", "pockets", "bracketed")
            inner = bracketed[1:-1]
            pockets = _NO_POCKETS if inner in ("", "-") else self.read_pocket_letters(inner, "bracketed", 1)
            pocket_style = _BRACKETED
        return pockets, pocket_style

    def read_check_counters(
        self, remaining_text: str | None, given_text: str | None
    ) -> tuple[tuple[int, int] | None, CheckStyle | None]:
        """The checks each side has left, from remaining ``W+B`` or given ``+W+B`` (not
        both), and how they were written; (None, None) for neither."""
        remaining: tuple[int, int] | None = None
        checks_style: CheckStyle | None = None
        if remaining_text is not None:
            remaining = self.read_counters(remaining_text)
            checks_style = _REMAINING
        if given_text is not None:
            if checks_style is not None:
                raise self.fail("check counters given twice (remaining W+B and given +W+B)", "checks", "given")
            white_given, black_given = self.read_counters(given_text[1:])
            to_win = self.variant.checks_to_win
            remaining = (to_win - white_given, to_win - black_given)
            checks_style = _GIVEN
        return remaining, checks_style

    def read_appended_pocket(self, appended: str, counters_present: bool, pocket_style: PocketStyle | None) -> Pockets:
        """The pocket appended after the counters (or the en passant square); refused for a
        variant without pockets and where the placement gave one already."""
        variant = self.variant
        if not variant.has_pockets:
            where = "fullmove number" if counters_present else "en passant square"
            raise self.fail(
                f"unexpected {appended!r} after the {where} ({variant.name} has no pockets)",
                "pockets", "appended_pocket",
            )
        if pocket_style is not None:
            raise self.fail(f"pockets given twice ({pocket_style.value} and appended)", "pockets", "appended_pocket")
        return _NO_POCKETS if appended == "-" else self.read_pocket_letters(appended, "appended_pocket", 0)

    def read_promoted_squares(self, text: str) -> frozenset[int]:
        """The squares of an appended promoted-squares field (``e8d1``, ``a10b12``)."""
        marked = set()
        for match in re.finditer(_SQUARE_NAME, text):
            square = self.geometry.square_index.get(match.group())
            if square is None:
                raise self.fail(
                    f"{match.group()!r} is not a square of a {self.geometry} board",
                    "promoted", "appended_promoted", match.start(),
                )
            marked.add(square)
        return frozenset(marked)

    # -- placement -------------------------------------------------------------------------

    def read_placement(self, text: str) -> Placed | FenSyntaxError:
        """Board squares, promoted squares and the rank-zero pocket (text, offset) if any;
        the error of a placement that cannot be read, returned for the caller to raise (as
        ``fail``'s: compiled, each frame an exception leaves adds a traceback entry)."""
        if "." in text or not self.chess_board:  # "." spells an empty cell, never a FEN character
            return self.read_placement_slowly(text)
        board_text, rank_zero = text, None
        if self.plan.rules.pockets and text.count("/") == 8:  # a rank-zero pocket after the eight ranks
            cut = text.rfind("/")
            rest = text[cut + 1:]
            if not _has_digit(rest):  # a digit there: too many ranks (the character reader says so)
                board_text, rank_zero = text[:cut], (rest, cut + 1)
        found = self._read_board(board_text, rank_zero)
        if found is None:  # the character reader names the error (or reads what the others do not)
            return self.read_placement_slowly(text)
        return found

    def _read_board(self, text: str, rank_zero: tuple[str, int] | None) -> Placed | None:
        """The cells and promoted squares of eight ranks of eight read at C speed (compiled:
        ``checked_cells``), with ``rank_zero`` (the placement's rank-zero pocket), or None
        where only the character reader can read them."""
        if "~" not in text:
            if COMPILED:
                found = checked_cells(text, self.plan.letter_table)
                return None if found is None else (found, _NO_SQUARES, rank_zero)
            cells = cells_of_placement(text)
            if cells is not None and _only_cells(cells, self.cell_bytes):
                return cells, _NO_SQUARES, rank_zero
            return None
        expanded = text
        for digit, run in _RUNS:
            if digit in expanded:
                expanded = expanded.replace(digit, run)
        expanded, promoted = _strip_marks(expanded)
        if len(expanded) == 71 and expanded[8::9] == "///////" and expanded.count("/") == 7:
            cells = "".join(expanded.split("/")[::-1])
            if _only_cells(cells, self.cell_bytes):
                return cells, promoted, rank_zero
        return None

    def read_placement_slowly(self, text: str) -> Placed | FenSyntaxError:
        """The character-by-character reader for any board size: handles ``~`` and
        multi-digit runs, and names the column of any error (returned, as by
        ``read_placement``)."""
        geometry = self.geometry
        width, height = geometry.files, geometry.ranks
        board: list[str] = ["."] * geometry.size
        promoted: set[int] = set()
        rank = height - 1
        file = 0
        rank_start = 0
        index = 0
        pieces = self.piece_letters
        length = len(text)
        while index < length:
            ch = text[index]
            if ch == "/":
                if file != width:
                    return self.fail_rank_width(rank, file, rank_start)
                if rank == 0:
                    # One more field: rank zero pockets, or too many ranks.
                    rest = text[index + 1:]
                    if "/" in rest or not self.variant.has_pockets or any(c.isdigit() for c in rest):
                        return self.fail(
                            f"too many ranks: a board has {height}"
                            + ("" if self.variant.has_pockets else f" ({self.variant.name} has no pocket rank)"),
                            "placement", "placement", index,
                        )
                    return "".join(board), frozenset(promoted), (rest, index + 1)
                rank -= 1
                file = 0
                rank_start = index + 1
            elif ch in pieces:
                if file >= width:
                    return self.fail_rank_width(rank, file + 1, rank_start)
                square = rank * width + file
                board[square] = ch
                file += 1
                if index + 1 < length and text[index + 1] == "~":
                    promoted.add(square)
                    index += 1
            elif "0" <= ch <= "9":
                try:
                    run, digits = self.read_run(text, index, width)
                except FenSyntaxError as exc:
                    return exc
                file += run
                index += digits - 1
                if file > width:
                    return self.fail_rank_width(rank, file, rank_start)
            elif ch == "~":
                return self.fail("'~' must follow a piece letter", "placement", "placement", index)
            else:
                allowed = "".join(sorted(set(self.variant.piece_letters)))
                return self.fail(
                    f"{ch!r} is not a piece of {self.variant.name} (pieces: {allowed}, upper case for White)",
                    "placement", "placement", index,
                )
            index += 1
        if file != width:
            return self.fail_rank_width(rank, file, rank_start)
        if rank != 0:
            return self.fail(f"only {height - rank} ranks; a board has {height}", "placement", "placement", length)
        return "".join(board), frozenset(promoted), None

    def read_run(self, text: str, index: int, width: int) -> tuple[int, int]:
        """The empty squares a run of digits at ``index`` stands for, and how many digits it
        has: one digit on boards up to nine files, the whole number on wider boards."""
        end = index + 1
        if width > 9:
            while end < len(text) and text[end].isdigit():
                end += 1
        digits = text[index:end]
        run = int(digits)
        if digits[0] == "0" or run > width:
            raise self.fail(
                f"{digits!r} in a rank: empty squares are counted 1 to {width}", "placement", "placement", index
            )
        return run, end - index

    def fail_rank_width(self, rank: int, width: int, rank_start: int) -> FenSyntaxError:
        return self.fail(
            f"rank {rank + 1} has {width} squares; it must have {self.geometry.files}",
            "placement", "placement", rank_start,
        )

    def read_pocket_letters(self, text: str, group: str, offset: int) -> Pockets:
        pieces = self.piece_letters
        if pieces.issuperset(text):
            return Pockets.from_letters(text)
        for i, ch in enumerate(text):
            if ch not in pieces:
                raise self.fail(f"{ch!r} is not a piece of {self.variant.name}", "pockets", group, offset + i)
        return Pockets.from_letters(text)

    # -- castling and en passant -------------------------------------------------------------

    def read_castling(self, text: str, board: str) -> tuple[frozenset[int], CastlingSeen | None, bool]:
        """Rook squares, the style seen (standard, xfen, shredder) and whether only Chess960 has them."""
        if text == "-":
            return _NO_RIGHTS, None, False
        classical = _CLASSICAL_CASTLING.get(text) if self.plan.castles_with_k and self.chess_board else None
        if classical is not None and _pieces_stand(board, classical[1]):
            return classical[0], "standard", False
        rights: set[int] = set()
        used_kq = False
        used_files = False
        # The board's width and its last rank's first square: on 8x8 known, elsewhere read
        # off the geometry (a Python object: compiled, each attribute a dictionary look-up).
        geometry = self.geometry
        width, black_back = (8, 56) if self.chess_board else (geometry.files, geometry.size - geometry.files)
        kings = self.plan.rules.castling_letters  # per side, (castling piece, rook) letters
        for i, ch in enumerate(text):
            side_of_king = _KQ_RIGHTS.get(ch)  # K, Q, k and q looked up: no method called per letter
            if side_of_king is not None:
                white, kingside = side_of_king
                used_kq = True
                back = 0 if white else black_back
                square = outer_rook(board, back, "R" if white else "r", kings[0 if white else 1][0], kingside, width)
            else:
                file_names = geometry.file_names
                lower = ch.lower()
                if lower not in file_names or not ch.isalpha():
                    last = file_names[-1]
                    raise self.fail(
                        f"{ch!r} is not a castling right (K, Q, k, q or a rook's file letter)",
                        "castling", "castling", i, expected=f"K, Q, k, q, A-{last.upper()} or a-{last}",
                    )
                used_files = True
                square = (0 if ch.isupper() else black_back) + file_names.index(lower)
            if square in rights:
                raise self.fail(f"castling right {ch!r} given twice", "castling", "castling", i)
            rights.add(square)
        found = frozenset(rights)  # made once: ``is_chess960`` keeps a frozenset as itself
        chess960 = self.chess_board and is_chess960(board, found, (), self.variant)
        seen: CastlingSeen
        if used_files and not used_kq:
            seen = "shredder"
        elif used_files or chess960:
            seen = "xfen"
        else:
            seen = "standard"
        return found, seen, chess960

    def read_en_passant(self, text: str) -> int | None:
        if text == "-":
            return None
        square = self.geometry.square_index.get(text)
        if square is None:
            raise self.fail(
                f"en passant must be - or a square like e3, found {text!r}",
                "en-passant", "en_passant", expected="- or a square",
            )
        return square

    def read_counters(self, text: str) -> tuple[int, int]:
        """The two numbers of ``W+B`` (the grammar has only counter groups for variants with
        check counters, so a variant without them never gets here)."""
        white, _, black = text.partition("+")
        return _counter_value(white), _counter_value(black)
