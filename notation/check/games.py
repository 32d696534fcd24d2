"""Checking PGN files: each game's Variant, FEN and SetUp tags, and the damage in its text.

Games are split by ``notation.pgn.splitter.iter_games`` (its problems are passed on, each with
a severity from ``PGN_SEVERITY``), which is fed blocks of text, not lines. Per game:

- a ``Variant`` tag names the variant (else ``--variant``); an unknown name is an error at
  the tag's value;
- a ``FEN`` tag is judged like any FEN, its problems placed on the tag's line at their column
  within the value; a FEN without ``SetUp "1"`` is a ``missing-setup`` warning, ``SetUp "1"``
  without FEN a ``setup-without-fen`` warning;
- a standard tag name spelled with another case (``[fen ...]``, ``[Setup ...]``) is a
  ``miscased-tag`` warning, and is still used;
- every move is read and played from the game's start or FEN, each variation from its
  branch point (``notation.pgn.gamemoves``, the reader ``notation normalize --moves`` uses):
  an illegal, ambiguous or unreadable move, a move after the game's end, unbalanced
  variations and a movetext over budget are errors, each lenient reading of a move (``0-0``,
  ``N*f3``, a wrong check mark, ...) and a ``Result`` contradicting a decided end warnings.
  The message says the ply and, for an error, the FEN before the move. A game whose
  set-up is unreadable or illegal, or whose variant is unknown, has its moves unchecked
  (its set-up's problems are reported); so has the part of a game too large to hold, and
  text outside any game.

Nothing here raises on bad input.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from notation.check.judge import Finding, PositionJudge
from notation.check.positions import report_findings
from notation.check.problem import ProblemList, Severity
from notation.check.suppress import game_suppression
from notation.pgn import games as pgn
from notation.pgn.gamemoves import PlacedProblem, read_game_moves
from notation.pgn.games import RawGame
from notation.pgn.key_tags import MISCASED_TAG, miscased_message
from notation.pgn.lines import line_breaks
from notation.pgn.movewalk import Level
from notation.pgn.severity import severity_of
from notation.pgn.splitter import iter_games
from notation.pgn.tags import Tag
from notation.variants import Variant

INTERNAL_ERROR = "internal-error"
# Enum members read per problem, bound as Final: compiled, C statics, not a look-up on
# their class each time (an enum is not a native class).
_ERROR: Final = Severity.ERROR
_WARNING: Final = Severity.WARNING
_MOVE_ERROR: Final = Level.ERROR

# The PGN standard's tags (sections 8.1 and 9) and those lichess and XBoard add.
STANDARD_TAGS: tuple[str, ...] = (
    "Event", "Site", "Date", "Round", "White", "Black", "Result",
    "WhiteTitle", "BlackTitle", "WhiteElo", "BlackElo", "WhiteUSCF", "BlackUSCF", "WhiteNA",
    "BlackNA", "WhiteType", "BlackType", "EventDate", "EventSponsor", "Section", "Stage",
    "Board", "Opening", "Variation", "SubVariation", "ECO", "NIC", "Time", "UTCTime",
    "UTCDate", "TimeControl", "SetUp", "FEN", "Termination", "Annotator", "Mode", "PlyCount",
    "Variant", "WhiteRatingDiff", "BlackRatingDiff",
)
_BY_LOWER = {name.lower(): name for name in STANDARD_TAGS}

# How bad each kind of damage the PGN splitter reports is, as the one table of every code's
# severity says (notation.pgn.severity.SEVERITY: a new code gets its row there, not here).
PGN_SEVERITY: dict[str, Severity] = {code: Severity(severity_of(code)) for code in pgn.PROBLEM_CODES}


# The tags the check reads on each game (FEN, SetUp, Variant, Result) and any standard tag
# name spelled with another case; on clean games no other tag is read. A function, not a
# regular expression: the case-blind one of the standard names took 7 M instructions (2 ms)
# to compile, a tenth of a one-game check's start-up.
_KEY_TAGS = frozenset({"FEN", "SetUp", "Variant", "Result"})
_STANDARD_TAGS = frozenset(STANDARD_TAGS)


def _wanted_tag(name: str) -> bool:
    """Whether the check reads the tag ``name``: a key tag, or a standard tag miscased."""
    return name in _KEY_TAGS or (name not in _STANDARD_TAGS and name.lower() in _BY_LOWER)


class TextChecked:
    """What ``check_pgn_text`` went through: ``games`` seen (blank ones not counted) and the
    ``line_breaks`` the text holds, counted as the splitter numbers lines (``\\r\\n``,
    ``\\n`` or a lone ``\\r``). Read-only; a plain class, as the compiled modules'
    records are (docs/architecture.md, "Start-up")."""

    def __init__(self, games: int, line_breaks: int) -> None:
        self.games: Final = games
        self.line_breaks: Final = line_breaks


def check_pgn_text(
    text: Iterable[str], judge: PositionJudge, variant: Variant, problems: ProblemList, *, first_line: int = 1
) -> TextChecked:
    """Check every game of ``text`` (pieces of PGN, line endings kept). ``first_line``: the
    number of the text's first line (a piece cut from a file at a game start)."""
    seen = 0
    last: RawGame | None = None
    for game in iter_games(text, first_line=first_line):
        problems.settle(game.start_line - 1)  # every earlier game has been checked
        if game.part == 0 and not game.is_blank:
            seen += 1
            problems.read.games += 1
        check_game(game, judge, variant, problems)
        last = game
    if last is None:
        return TextChecked(seen, 0)
    # The games hold every character of the text, in order: the lines before the last one
    # and those it ends.
    return TextChecked(seen, last.start_line - first_line + line_breaks(last.text))


def check_game(game: RawGame, judge: PositionJudge, default: Variant, problems: ProblemList) -> None:
    """Add the problems of one game (or one part of a very large game) to ``problems``;
    a ``{notation: ignore[...]}`` comment in it silences them."""
    text = game.read_text  # bytes that are not UTF-8 read as Windows-1252 (pgn-windows-1252)
    suppression = game_suppression(text, game.start_line, game.tags_end)
    if suppression is not None:
        problems.suppress(suppression)
    for found in game.problems:
        severity = Severity(severity_of(found.code))
        problems.add(found.line, found.column or 1, severity, found.code, found.message)
    fen_tag = setup_tag = variant_tag = result_tag = None
    for tag in game.find_tags(_wanted_tag):
        canonical = _BY_LOWER[tag.name.lower()]
        if canonical != tag.name:
            problems.add(tag.line, tag.column, Severity.WARNING, MISCASED_TAG, miscased_message(tag.name, canonical))
        if canonical == "FEN" and fen_tag is None:
            fen_tag = tag
        elif canonical == "SetUp" and setup_tag is None:
            setup_tag = tag
        elif canonical == "Variant" and variant_tag is None:
            variant_tag = tag
        elif canonical == "Result" and result_tag is None:
            result_tag = tag
    variant: Variant | Finding = default
    if variant_tag is not None:
        variant = judge.find_variant(variant_tag.value)
        if isinstance(variant, Finding):
            report_findings(problems, variant_tag.line, _value_column(variant_tag), [variant])
    if fen_tag is not None:
        if setup_tag is None or setup_tag.value.strip() != "1":
            where = "" if setup_tag is None else f' (SetUp is "{setup_tag.value}")'
            problems.add(
                fen_tag.line, fen_tag.column, Severity.WARNING, "missing-setup",
                f'FEN tag without SetUp "1"{where}; the PGN standard requires both, and some readers ignore the FEN',
            )
        if isinstance(variant, Variant):
            fen = fen_tag.value
            offset = len(fen) - len(fen.lstrip())
            report_findings(problems, fen_tag.line, _value_column(fen_tag) + offset, judge.judge(fen.strip(), variant))
    elif setup_tag is not None and setup_tag.value.strip() == "1":
        problems.add(
            setup_tag.line, setup_tag.column, Severity.WARNING, "setup-without-fen",
            'SetUp "1" but no FEN tag: the starting position is unknown',
        )
    if isinstance(variant, Variant) and _moves_checked(game, problems):
        try:
            start_fen = fen_tag.value if fen_tag is not None else None
            start = judge.starts.start(variant, start_fen)
            duplicates = judge.duplicates
            visitor = None if duplicates is None else duplicates.visitor(start.position, start_fen, variant)
            moves = read_game_moves(text, game.start_line, start, result_tag=result_tag, letters=judge.letters,
                                    first_column=game.start_column, visitor=visitor)
            if visitor is not None and duplicates is not None:
                duplicates.report(game, visitor, moves, problems)
        except Exception as exc:  # noqa: BLE001 - one game's failure must not stop the check of a file
            problems.add(game.start_line, 1, Severity.ERROR, INTERNAL_ERROR,
                         f"reading this game's moves failed: {type(exc).__name__}: {exc} (please report it)")
            return
        problems.read.plies += moves.plies
        for placed in moves.problems:
            severity = _ERROR if placed.problem.level is _MOVE_ERROR else _WARNING
            problems.add(placed.line, placed.column, severity, placed.problem.code, move_message(placed))


def _moves_checked(game: RawGame, problems: ProblemList) -> bool:
    """Whether the game's moves are read: not for a part of a game too large to hold, text
    outside any game, or a game holding a line too long to check (only its ends were kept)."""
    if game.part != 0 or game.continues or any(found.code == pgn.STRAY_TEXT for found in game.problems):
        return False
    if problems.dropped_lines:
        last = game.start_line + line_breaks(game.text)
        if any(game.start_line <= line <= last for line in problems.dropped_lines):
            return False
    return True


def move_message(placed: PlacedProblem) -> str:
    """A problem of the moves in one line: the move layer's message, then where in the game
    (``[ply 24, position FEN]``, as ``notation play`` says it), and for a warning met more
    than once in the game, how often."""
    problem = placed.problem
    where = []
    if problem.ply is not None and problem.move is not None:
        where.append(f"ply {problem.ply}")
        if repr(problem.move) not in problem.message:
            where.append(f"move {problem.move}")
    if problem.fen is not None:
        where.append(f"position {problem.fen}")
    if problem.count > 1:
        where.append(f"{problem.count - 1} more in this game")
    return f"{problem.message} [{', '.join(where)}]" if where else problem.message


def _value_column(tag: Tag) -> int:
    """1-based column of the first character of the tag's value in its line (the tag's own
    column counts from the line's start, also in a game that starts mid-line)."""
    return tag.column + tag.value_start - tag.start
