"""``ReadMove``: a move read from text, with the lenient readings it took.

Every notation reader returns one: the ``move`` found and ``warnings``, one ``Problem`` per
repair a strict reader would have refused (``0-0`` for ``O-O``, ``e8Q`` for ``e8=Q``, ...),
each with its own code so that a gate can refuse or accept it. Nothing here raises.

The repairs files bring back move after move (zeros, UCI or long algebraic in a SAN
movetext, over-disambiguation, a capture mark missing or false, a promotion without ``=``,
a check mark left out or wrong) are kept as flags, one bit each (REPAIR_CODES), with the
move's text; their problems are made when ``warnings`` is read. A walk over a game reports
each code once, at its first move, and counts the rest (``notation.pgn.movewalk``), so it
reads the flags and makes a problem only for a code the game has not reported yet: a file
spelled ``g1-f3`` throughout warns on every move.

A plain class rather than a frozen dataclass: compiled with mypyc, its construction is a
native call (a frozen dataclass's ``__init__`` runs as Python, once per move read).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from mypy_extensions import mypyc_attr

from notation.game.move import Move
from notation.problem import Problem

if TYPE_CHECKING:  # compiled, a machine integer (no reference counting); interpreted, an int
    from mypy_extensions import i64

# The messages the chess readers give these repairs (both SAN readers: the lenient step
# flags them, the full reader words them the same), worded once.
CASTLING_WITH_ZEROS_MESSAGE: Final = "castling written with zeros"
UCI_IN_SAN_MESSAGE: Final = "a UCI move read as SAN"
WITHOUT_PIECE_MESSAGE: Final = "long algebraic notation without the piece's letter"
PROMOTION_WITHOUT_EQUALS_MESSAGE: Final = "a promotion written without '='"
FALSE_CAPTURE_MARK_MESSAGE: Final = "a capture mark on a move that takes nothing"
MISSING_CAPTURE_MARK_MESSAGE: Final = "a capture written without 'x'"
OVER_DISAMBIGUATED_MESSAGE: Final = "more of the origin square than needed"
LONG_ALGEBRAIC_MESSAGE: Final = "long algebraic notation read as SAN"

# One bit a repair, in the order a reader gives their warnings.
CASTLING_WITH_ZEROS: Final = 1
UCI_IN_SAN: Final = 2
WITHOUT_PIECE: Final = 4
PROMOTION_WITHOUT_EQUALS: Final = 8
FALSE_CAPTURE_MARK: Final = 16
MISSING_CAPTURE_MARK: Final = 32
OVER_DISAMBIGUATED: Final = 64
LONG_ALGEBRAIC: Final = 128
# A check or mate mark written where the move gives another (``wrong-check-mark``): one
# flag for each pair of the mark written and the mark the move gives, after the repairs'
# (the readers give this warning last). The commonest of all in real files: check marks
# left out on every move of a game.
CHECK_MARK_MISSING: Final = 256  # "" where the move gives "+"
MATE_MARK_MISSING: Final = 512  # "" where "#"
FALSE_CHECK_MARK: Final = 1024  # "+" where none
CHECK_MARK_FOR_MATE: Final = 2048  # "+" where "#"
FALSE_MATE_MARK: Final = 4096  # "#" where none
MATE_MARK_FOR_CHECK: Final = 8192  # "#" where "+"

WRONG_CHECK_MARK: Final = "wrong-check-mark"
# The (written, given) pair of each check mark flag, in bit order.
_CHECK_MARK_PAIRS: Final = (("", "+"), ("", "#"), ("+", ""), ("+", "#"), ("#", ""), ("#", "+"))


def check_mark_message(written: str, given: str) -> str:
    """``wrong-check-mark``'s words: the mark ``written`` ("" for none) against the one the
    move gives ("", "+" or "#")."""
    return f"check mark {written or 'missing'} where the move gives {given or 'none'}"


# Each flag's code and message, in bit order (the flag of index n is ``1 << n``): two
# tuples of strings (variable-length: compiled, a fixed-length tuple is boxed anew to be
# indexed by a variable).
REPAIR_CODES: Final[tuple[str, ...]] = (
    "castling-with-zeros", "uci-in-san", "long-algebraic-without-piece", "promotion-without-equals",
    "false-capture-mark", "missing-capture-mark", "over-disambiguated", "long-algebraic",
    *(WRONG_CHECK_MARK for _ in _CHECK_MARK_PAIRS),
)
REPAIR_MESSAGES: Final[tuple[str, ...]] = (
    CASTLING_WITH_ZEROS_MESSAGE, UCI_IN_SAN_MESSAGE, WITHOUT_PIECE_MESSAGE, PROMOTION_WITHOUT_EQUALS_MESSAGE,
    FALSE_CAPTURE_MARK_MESSAGE, MISSING_CAPTURE_MARK_MESSAGE, OVER_DISAMBIGUATED_MESSAGE, LONG_ALGEBRAIC_MESSAGE,
    *(check_mark_message(written, given) for written, given in _CHECK_MARK_PAIRS),
)


def check_mark_flag(written: str, given: str) -> i64:
    """The flag of a check mark ``written`` where the move gives ``given`` (each "", "+" or
    "#"; nothing else is looked for); 0 where they are the same mark. Compared, not looked
    up in ``_CHECK_MARK_PAIRS``: compiled, a tuple of tuples is built anew at each use."""
    if written == given:
        return 0
    if not written:
        return CHECK_MARK_MISSING if given == "+" else MATE_MARK_MISSING
    if written == "+":
        return CHECK_MARK_FOR_MATE if given else FALSE_CHECK_MARK
    return MATE_MARK_FOR_CHECK if given else FALSE_MATE_MARK


def repair_message(message: str, text: str) -> str:
    """A repair's message on the move ``text``, which the lenient step has read to its
    last character: ASCII letters, digits and ``-x=+#!?``, which ``repr`` puts in single
    quotes and escapes nothing of. Quoted here so (the same words): compiled, ``repr`` in a
    message goes through ``str.format``, which costs more than reading the move."""
    return f"{message} in '{text}'"


def repair_problem(code: str, message: str, text: str) -> Problem:
    """The warning of a repair on the move ``text`` (``repair_message``)."""
    return Problem(code, repair_message(message, text), extra={"move": text})


# Compiled: a read move holds its move and its warnings, never itself, so the cycle
# collector need not track it, and the one freed last is made again in place (a game read
# leniently makes one a move). Interpreted, the decorator does nothing.
@mypyc_attr(acyclic=True, free_list_len=1)
class ReadMove:
    """The ``move`` a text names, and a warning per lenient reading. Treated as immutable:
    readers build it once and nothing changes it after.

    ``repairs`` are the flags of the repairs the reading took (REPAIR_CODES) on ``text``
    (the move as written), ``noted`` the other warnings, given after the repairs' own.
    ``warnings`` is a new list at each reading."""

    __slots__ = ("move", "noted", "repairs", "text")

    move: Move
    noted: tuple[Problem, ...]
    repairs: int
    text: str

    def __init__(self, move: Move, warnings: list[Problem] | None = None, repairs: int = 0, text: str = "") -> None:
        self.move = move
        self.noted = tuple(warnings) if warnings else ()
        self.repairs = repairs
        self.text = text

    @property
    def warnings(self) -> list[Problem]:
        """A problem per repair flagged, in bit order, then the ones noted."""
        if not self.repairs:
            return list(self.noted)
        found = [
            repair_problem(code, REPAIR_MESSAGES[index], self.text)
            for index, code in enumerate(REPAIR_CODES) if self.repairs >> index & 1
        ]
        found.extend(self.noted)
        return found

    def any_warning(self) -> bool:
        """Whether the reading took a repair or noted a warning (``warnings`` is not empty)."""
        return self.repairs != 0 or len(self.noted) != 0

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ReadMove):
            return NotImplemented
        return self.move == other.move and self.warnings == other.warnings

    def __hash__(self) -> int:
        return hash(self.move)

    def __reduce__(self) -> tuple[type[ReadMove], tuple[Move, list[Problem], int, str]]:
        return (ReadMove, (self.move, list(self.noted), self.repairs, self.text))

    def __repr__(self) -> str:
        return f"ReadMove(move={self.move!r}, warnings={self.warnings!r})"
