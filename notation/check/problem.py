"""``CheckProblem``: one located finding of ``notation check``, and the codes it may carry.

A check problem is a ``notation.errors.Problem`` placed in a file: the path as the user
named it, a 1-based line and a 1-based column (in characters of the decoded line), and a
severity. Nothing here reads files or formats output.
"""


from collections.abc import Callable
from typing import Any, ClassVar, Final

from mypy_extensions import mypyc_attr

from notation.check.suppress import Suppression
from notation.lean_enum import LeanStrEnum
from notation.records import Record

LINE_TOO_LONG = "line-too-long"


class Severity(LeanStrEnum):
    """How bad a problem is: errors fail the check; warnings fail it only with ``--strict``."""

    ERROR = "error"
    WARNING = "warning"


# A record (``notation.records``), not a NamedTuple or a frozen dataclass: every check
# defines it at start-up.
class CheckProblem(Record):
    """One problem at ``path:line:column``. ``line`` and ``column`` are 1-based, never 0."""

    _NAMES: ClassVar = ("path", "line", "column", "severity", "code", "message")

    def __init__(self, path: str, line: int, column: int, severity: Severity, code: str, message: str) -> None:
        self.path: Final = path
        self.line: Final = line
        self.column: Final = column
        self.severity: Final = severity
        self.code: Final = code
        self.message: Final = message

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "severity": self.severity.value,
            "code": self.code,
            "message": self.message,
        }


# Every code the check can report, with the rule description of the SARIF log: the FEN
# reader's, the validator's (``notation.validation.CODES``), the PGN splitter's
# (``notation.pgn.games.PROBLEM_CODES``) and the check's own. An unlisted code is
# described by its name.
CHECK_CODES: dict[str, str] = {
    "fen-syntax": "The FEN cannot be read.",
    "unknown-variant": "No known variant has this name.",
    # validation
    "empty": "The board is empty.",
    "missing-king": "A side has no king where its variant needs one.",
    "too-many-kings": "A side has more kings than its variant allows.",
    "too-many-pawns": "A side has more pawns than a game could give it.",
    "too-many-pieces": "A side has more pieces than a game could give it.",
    "pawns-on-backrank": "A pawn stands on the first or last rank.",
    "bad-castling-rights": "A castling right without the king or rook it needs.",
    "invalid-ep-square": "An en passant square no double pawn push can explain.",
    "opposite-check": "The side not to move is in check.",
    "too-many-checkers": "More pieces give check than any move can produce.",
    "impossible-check": "A check that no last move can have given.",
    "race-check": "A king is in check in Racing Kings.",
    "race-over": "A Racing Kings game that is already over.",
    "race-material": "More pieces of a kind than Racing Kings allows.",
    "king-in-pocket": "A king in a Crazyhouse pocket.",
    "bad-check-counters": "Three-check counters out of range.",
    "wrong-board-size": "A setup whose board is not its variant's size.",
    "misplaced-general": "A Xiangqi general outside its palace.",
    "misplaced-advisor": "A Xiangqi advisor off the diagonal points of its palace.",
    "misplaced-elephant": "A Xiangqi elephant off its points on its own side of the river.",
    "misplaced-soldier": "A Xiangqi soldier behind its starting rank or off its files on its own side.",
    "flying-general": "The Xiangqi generals face each other on an open file.",
    "king-wrong-side": "A tafl king on the side that has none (in Tablut the king is Black's).",
    "restricted-square": "A tafl piece other than the king on the throne or a corner.",
    "king-escaped": "The king stands on a corner: the tafl game is over (a warning).",
    "king-captured": "The king is gone (captured): the game is over (a warning).",
    "bad-bomb": "An itsyourturn Atomic bomb not on a piece of its own side.",
    "placement-army": "Pieces on the board and in hand that are not the army a side places.",
    "placement-region": "A piece placed off its side's own half.",
    "placement-pawn-files": "Two pawns of a side placed on one file (Screen Chess).",
    "placement-bishops": "Two bishops of a side placed on squares of one colour (Screen Chess).",
    # PGN text
    "pgn-tag-syntax": "A tag pair that cannot be read.",
    "pgn-comment-unterminated": "A { comment that is never closed.",
    "pgn-comment-too-long": "A comment longer than any reader should accept.",
    "pgn-game-too-large": "A game larger than any reader should hold at once.",
    "pgn-junk": "Control characters in the PGN text.",
    "pgn-not-utf8": "No longer reported: PGN bytes that are not UTF-8 are read as Windows-1252 (pgn-windows-1252).",
    "pgn-windows-1252": "A game with bytes that are not UTF-8, read as Windows-1252 (Latin-1) (a warning).",
    "fen-bom": "A byte order mark at a line start inside a FEN or EPD file (files joined); skipped. "
    "One at the start is not reported.",
    "pgn-bom": "A byte order mark at a line start inside the PGN text (files joined); skipped. "
    "One at the start is not reported.",
    "pgn-missing-blank-line": "No blank line between tags and movetext, or between games.",
    "pgn-missing-result": "Movetext that does not end with a result.",
    "pgn-stray-text": "Text outside any game: no tags, no move number, no result.",
    "pgn-no-tags": "A game without tags (import format allows it; export format needs the Seven Tag Roster).",
    "pgn-too-many-tags": "A game with more tag lines than any reader should hold; the rest were not read.",
    # PGN moves (notation.pgn.gamemoves): errors
    "bad-move-syntax": "A move that is no move in any notation its variant is written in.",
    "illegal-move": "A move that is not legal in the position before it.",
    "ambiguous-move": "A move that fits several legal moves.",
    "game-over": "A move after the position has decided the game (a mate, the third check, the hill).",
    "move-after-end": "A move after the result that ends its line.",
    "result-spelling": (
        "A result written with another dash (1\u20130) or as \u00bd-\u00bd; read, and rewritten as 1-0 or 1/2-1/2."
    ),
    "pgn-unbalanced-variation": "A ')' without its '(', or a '(' never closed.",
    "pgn-misplaced-variation": "A variation before any move of its line: there is no move for it to replace.",
    "pgn-movetext-too-long": "Movetext of more tokens than any reader should accept; the rest was not read.",
    "pgn-movetext-too-deep": "Variations nested deeper than any reader should accept; the rest was not read.",
    # PGN moves: warnings (lenient readings of the move layer, and the game's end)
    "castling-with-zeros": "Castling written with zeros (0-0).",
    "castling-lower-case": "Castling written with lower-case letters (o-o).",
    "promotion-without-equals": "A promotion written without '=' (e8Q).",
    "promotion-lower-case": "A promotion piece in lower case (e8=q).",
    "drop-with-star": "A drop written with '*' (N*f3).",
    "pawn-letter": "A pawn move written with its letter (Pe4).",
    "over-disambiguated": "More of the origin square than needed (Ngf3 where Nf3 is unique).",
    "missing-capture-mark": "A capture written without 'x'.",
    "false-capture-mark": "A capture mark on a move that takes nothing.",
    "wrong-check-mark": "A check mark the move does not give, or one it gives missing.",
    "long-algebraic": "Long algebraic notation (Ng1-f3) where the PGN standard writes SAN.",
    "uci-in-san": "A UCI move (g1f3) where the PGN standard writes SAN.",
    "king-takes-rook": "Castling written as the king taking its rook outside Chess960.",
    "en-passant-mark": "An en passant capture marked as one (exd6 e.p.), which the PGN standard does not write.",
    "false-en-passant-mark": "An en passant mark (e.p.) on a move that is no en passant capture.",
    "long-algebraic-without-piece": "Long algebraic notation without the piece's letter (g1-f3, e1-g1).",
    "castling-dash": "Castling written with a dash other than '-' (O‑O, 0–0).",
    "figurine": "Figurine piece symbols (♘f3) for the piece letters.",
    "novelty-mark": "A novelty mark N glued to its move (Bb5N).",
    "glued-evaluation": "An evaluation sign glued to its move (Nf3⩲, e4±).",
    "promotion-separator": "A promotion written b8(Q) or b8/Q for b8=Q.",
    "lenient-wxf-case": "A WXF piece letter in lower case.",
    "lenient-wxf-traverse": "A WXF move along the rank written with '.' for '='.",
    "lenient-wxf-tandem": "A WXF piece sharing its file named otherwise than Fairy-Stockfish names it.",
    "lenient-piece-letter": "A Xiangqi move with the FEN letters N or B for H or E.",
    "lenient-coordinate-form": "Xiangqi coordinates in upper case or with a '-' between the points.",
    "unneeded-piece-letter": "An OpenTafl move with a piece letter for a taflman.",
    "square-case": "An OpenTafl move with upper-case squares.",
    "wrong-captures": "An OpenTafl capture list that is not what the move captures.",
    "wrong-game-end-mark": "An OpenTafl ++ or -- the move does not earn.",
    "wrong-result": "A Result that contradicts the decided end the moves reach (a mate, a variant's win).",
    "unknown-start": "No start to play the moves from (a drawn array without FEN, a FEN past repair): not checked.",
    "duplicate-game": "A later copy of a game already seen: the same variant, start and main line (--duplicates).",
    "duplicate-tag-conflict": "Dropped copies give a tag the kept game lacks different values (--merge-tags).",
    "internal-error": "Reading a game's moves failed unexpectedly (please report it); the rest is checked.",
    # normalize's repairs and broken games (notation.pgn.repairs), all warnings
    "game-truncated": "normalize --broken truncate cut the game or a variation at a bad move (the error is its cause).",
    "game-dropped": "normalize --broken drop left the game out for a bad move (the error is its cause).",
    "result-fixed": "normalize --fix-results rewrote or added a Result tag or result token (old and new value).",
    "tag-fixed": "normalize --fix-tags rewrote a tag's date, Elo or Round value or its name's case (old and new).",
    "move-numbers-fixed": "normalize --fix-move-numbers renumbered moves from the start's fullmove (once a game).",
    "not-exported": "normalize --export kept a game in its own layout: its moves "
    "were not read, or it holds text export format has no place for.",
    # the check's own
    "epd-syntax": "The EPD operations after the position cannot be read.",
    "encoding": "The line is not valid UTF-8.",
    "line-too-long": "The line is too long to be a position or a PGN line; it was not checked.",
    "binary-file": "The file holds binary data (a NUL byte); it was not checked further.",
    "decompress": "The compressed file is corrupt or truncated.",
    "empty-file": "The file holds no position or game.",
    "missing-setup": 'A FEN tag without SetUp "1" (PGN standard 9.7).',
    "setup-without-fen": 'SetUp "1" without a FEN tag.',
    "miscased-tag": "A standard PGN tag name spelled with the wrong case.",
    "rare-dialect": "A FEN dialect that most readers reject.",
    "profile-mismatch": "A position not written as the project's profile ([tool.notation] profile) writes it.",
}


# A plain class, not a dataclass: importing dataclasses (it imports inspect and ast) and
# compiling its generated methods from source at import would cost every check's start-up.
class ReadCounts:
    """What a check read, so that a gate can see a file was really read: PGN ``games`` (a
    blank one not counted), the ``plies`` of their main lines that were played (up to a
    move that failed), and FEN or EPD ``positions``. Equal when the three counts are."""

    __slots__ = ("games", "plies", "positions")

    def __init__(self, games: int = 0, plies: int = 0, positions: int = 0) -> None:
        self.games = games
        self.plies = plies
        self.positions = positions

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ReadCounts):
            return NotImplemented
        return (self.games, self.plies, self.positions) == (other.games, other.plies, other.positions)

    def __repr__(self) -> str:
        return f"ReadCounts(games={self.games!r}, plies={self.plies!r}, positions={self.positions!r})"

    def __reduce__(self) -> "tuple[type[ReadCounts], tuple[int, int, int]]":
        """Pickled through ``__init__`` (compiled, it keeps no dictionary)."""
        return (ReadCounts, (self.games, self.plies, self.positions))

    def add(self, other: "ReadCounts") -> None:
        self.games += other.games
        self.plies += other.plies
        self.positions += other.positions


def describe(code: str) -> str:
    """A one-line description of ``code`` for rule lists; the code itself when unknown."""
    return CHECK_CODES.get(code, code)


# Compiled, yet subclassed where not compiled (the cluster's piece log) and pickled (a worker's
# log goes back to its parent).
@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class ProblemList:
    """The problems of one file, handed to ``emit`` in line order as soon as they are final.

    Checkers call ``settle(n)`` once nothing more can be found on lines up to ``n``; the
    problems there go out sorted by line and column (equal places keep the order they were
    found in). ``finish()`` sends the rest, so a summary added at the end comes last.
    ``add_last`` holds a problem until ``finish``, which judges it by every suppression then
    known and sends it with the rest: the reading layer's count of undecodable lines, known
    only when the reading ends, goes out there whatever blocks the file was read in (one
    process, ``--jobs`` and ``--dask`` alike).
    """

    def __init__(self, path: str, emit: Callable[[CheckProblem], None]):
        self.path = path
        self._emit = emit
        self._pending: list[tuple[int, int, int, CheckProblem]] = []  # a heap: (line, column, arrival, problem)
        self._arrivals = 0
        self.count = 0
        self.suppressed = 0
        self._suppressions: list[Suppression] = []
        self.dropped_lines: set[int] = set()  # lines too long to check (``line-too-long``)
        self._held: list[CheckProblem] = []  # ``add_last``'s, until ``finish``
        self.read = ReadCounts()  # what the checkers read of the file

    def covered(self, line: int, code: str) -> bool:
        """Whether a ``notation: ignore`` known now silences ``code`` on ``line``."""
        return any(s.covers(max(line, 1), code) for s in self._suppressions)

    def suppress(self, suppression: Suppression) -> None:
        """Drop the problems ``suppression`` covers from now on (an inline ``notation: ignore``)."""
        self._suppressions.append(suppression)

    def add(self, line: int, column: int, severity: Severity, code: str, message: str) -> None:
        if code == LINE_TOO_LONG:
            self.dropped_lines.add(line)
        if self._suppressions and any(s.covers(max(line, 1), code) for s in self._suppressions):
            self.suppressed += 1
            return
        self._keep(CheckProblem(self.path, max(line, 1), max(column, 1), severity, code, message))
        self.count += 1

    def _keep(self, problem: CheckProblem) -> None:
        """Hold ``problem`` until its line is settled (a heap: a line of many games costs
        no more per problem than a line of one)."""
        import heapq  # loaded with the first problem kept: a clean file needs none of it

        self._arrivals += 1
        heapq.heappush(self._pending, (problem.line, problem.column, self._arrivals, problem))

    def add_last(self, line: int, column: int, severity: Severity, code: str, message: str) -> None:
        """Hold a problem until ``finish`` (see the class doc); it counts in ``len`` now."""
        self._held.append(CheckProblem(self.path, max(line, 1), max(column, 1), severity, code, message))

    def _release_held(self) -> None:
        """The held problems, judged by the suppressions known now, among the pending ones."""
        held, self._held = self._held, []
        for problem in held:
            self.add(problem.line, problem.column, problem.severity, problem.code, problem.message)

    def settle(self, line: int) -> None:
        """Send the problems on lines up to ``line``."""
        pending = self._pending
        while pending and pending[0][0] <= line:
            self._emit(_pop(pending))

    def finish(self) -> None:
        """Send every problem still held."""
        self._release_held()
        pending, self._pending = self._pending, []
        while pending:
            self._emit(_pop(pending))

    def __len__(self) -> int:
        return self.count + len(self._held)


def _pop(pending: list[tuple[int, int, int, CheckProblem]]) -> CheckProblem:
    """The earliest problem of the heap ``pending``, taken off it (``_keep`` loaded heapq)."""
    import heapq

    return heapq.heappop(pending)[3]


# Codes of the reading layer (``notation.check.lines``), which depend on the whole file
# read as one stream: a part of a file that meets one cannot be checked alone.
READING_CODES = frozenset({"encoding", "binary-file", "decompress", "line-too-long"})


class GameKey(Record):
    """A game's duplicate key found in a worker (``check --duplicates --jobs``): where the
    game starts, its key, its number among the part's games, and whether a ``notation:
    ignore`` there silences ``duplicate-game``. The parent decides, as it replays."""

    _NAMES: ClassVar = ("line", "column", "key", "number", "suppressed")

    def __init__(self, line: int, column: int, key: bytes, number: int, suppressed: bool) -> None:
        self.line: Final = line
        self.column: Final = column
        self.key: Final = key
        self.number: Final = number
        self.suppressed: Final = suppressed


# A ``ProblemLog`` given a directory writes its events there in batches of this many: a
# piece of millions of tiny damaged games then holds a batch, not a problem per game.
SPILL_EVENTS = 20_000

_Event = CheckProblem | int | GameKey  # a problem, a settle up to that line, a game's key


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class ProblemLog(ProblemList):
    """A ``ProblemList`` that emits nothing: it records, in order, the problems that pass
    its suppressions and the ``settle`` calls between them, for ``replay`` into the file's
    own ``ProblemList`` in another process. The replayed list emits exactly what it would
    have emitted had the checkers called it directly (consecutive settles collapse into
    the last: the lines they release are in order anyway); ``add_last``'s problems are
    judged by its suppressions when replayed (the work is done by then) and handed to the
    target's ``add_last``. ``reading_damage``: a problem of the reading layer was found
    (suppressed or not). Given ``spill_directory``, it holds at most ``SPILL_EVENTS``
    events: the earlier ones are pickled to a file of its own there (``spilled``), which
    ``replay`` reads and ``discard`` removes (raising ``OSError`` when it cannot)."""

    def __init__(self, path: str, spill_directory: str | None = None):
        super().__init__(path, self._never)
        self.events: list[_Event] = []
        self.reading_damage = False
        self.spilled: str | None = None  # the file the earlier events were written to
        self._spill_directory = spill_directory
        self._settle: int | None = None

    @staticmethod
    def _never(problem: CheckProblem) -> None:
        raise AssertionError("a ProblemLog records; it never emits")

    def add(self, line: int, column: int, severity: Severity, code: str, message: str) -> None:
        if code in READING_CODES:
            self.reading_damage = True
        super().add(line, column, severity, code, message)

    def _keep(self, problem: CheckProblem) -> None:
        if self._settle is not None:
            self.events.append(self._settle)
            self._settle = None
        self._record(problem)

    def add_last(self, line: int, column: int, severity: Severity, code: str, message: str) -> None:
        if code in READING_CODES:
            self.reading_damage = True
        super().add_last(line, column, severity, code, message)

    def settle(self, line: int) -> None:
        self._settle = line

    def add_key(self, key: GameKey) -> None:
        """Record a game's key in its place among the problems (see ``GameKey``)."""
        if self._settle is not None:
            self.events.append(self._settle)
            self._settle = None
        self._record(key)

    def _record(self, event: _Event) -> None:
        self.events.append(event)
        if len(self.events) >= SPILL_EVENTS and self._spill_directory is not None:
            self._spill(self._spill_directory)

    def _spill(self, directory: str) -> None:
        import pickle

        if self.spilled is None:
            self.spilled = _spill_path(directory)
        with open(self.spilled, "ab") as file:
            pickle.dump(self.events, file, pickle.HIGHEST_PROTOCOL)
        self.events = []

    def finish(self) -> None:
        self._settle = None  # the file's own list finishes when every part is replayed

    def discard(self) -> None:
        """Remove the spilled events' file, if any (a log that is not replayed)."""
        if self.spilled is not None:
            import os

            os.unlink(self.spilled)
            self.spilled = None

    def replay(self, target: ProblemList, lines_before: int = 0,
               on_key: Callable[[ProblemList, GameKey], None] | None = None) -> None:
        """Hand the recorded problems and settles to ``target``, in order, each line moved on
        by ``lines_before`` (a part whose lines were numbered from its own start), and each
        game's key, its line moved on, to ``on_key``; the spilled events' file is removed."""
        if self.spilled is not None:
            import pickle

            with open(self.spilled, "rb") as file:
                while True:
                    try:
                        events = pickle.load(file)
                    except EOFError:
                        break
                    _replay_events(events, target, lines_before, on_key)
            self.discard()
        _replay_events(self.events, target, lines_before, on_key)
        if self._settle is not None:  # the last one too: ``add_last``'s problems go out after what it sends
            target.settle(self._settle + lines_before)
        target.read.add(self.read)
        held, self._held = self._held, []
        for problem in held:
            if any(s.covers(problem.line, problem.code) for s in self._suppressions):
                self.suppressed += 1
            else:
                target.add_last(problem.line + lines_before, problem.column, problem.severity, problem.code,
                                problem.message)


def _replay_events(events: list[_Event], target: ProblemList, lines_before: int,
                   on_key: Callable[[ProblemList, GameKey], None] | None) -> None:
    for event in events:
        if isinstance(event, int):
            target.settle(event + lines_before)
        elif isinstance(event, GameKey):
            if on_key is not None:
                on_key(target, event._replace(line=event.line + lines_before))
        else:
            target.add(event.line + lines_before, event.column, event.severity, event.code, event.message)


_spilled_logs = 0


def _spill_path(directory: str) -> str:
    """A new file name in ``directory`` (private to the run) for this process's next log."""
    import os

    global _spilled_logs
    _spilled_logs += 1
    return os.path.join(directory, f"problems-{os.getpid()}-{_spilled_logs}.pickle")
