"""The splitter's public names under their first module path, for code written against it.

The splitter lives in ``splitter`` (``iter_games``), ``state_machine`` (``iter_games_slow``),
``games`` (``RawGame``, ``PgnProblem`` and its codes, ``Limits``), ``tags`` (``Tag``, the
escapes) and ``lines`` (line endings). docs/pgn.md showed ``notation.pgn.reader`` as the
import path, so it stays; new code imports from those modules.
"""

from notation.pgn.games import (
    BOM,
    COMMENT_TOO_LONG,
    COMMENT_UNTERMINATED,
    DEFAULT_LIMITS,
    GAME_TOO_LARGE,
    JUNK,
    MISSING_BLANK_LINE,
    MISSING_RESULT,
    NOT_UTF8,
    PROBLEM_CODES,
    STRAY_TEXT,
    TAG_SYNTAX,
    TOO_MANY_TAGS,
    WINDOWS_1252,
    Limits,
    PgnProblem,
    RawGame,
)
from notation.pgn.lines import line_ending, split_lines
from notation.pgn.splitter import iter_games
from notation.pgn.state_machine import iter_games_slow
from notation.pgn.tags import Tag, escape_tag_value, unescape_tag_value

__all__ = [
    "BOM", "COMMENT_TOO_LONG", "COMMENT_UNTERMINATED", "DEFAULT_LIMITS", "GAME_TOO_LARGE", "JUNK",
    "MISSING_BLANK_LINE", "MISSING_RESULT", "NOT_UTF8", "PROBLEM_CODES", "STRAY_TEXT", "TAG_SYNTAX",
    "TOO_MANY_TAGS", "WINDOWS_1252", "Limits", "PgnProblem", "RawGame", "Tag", "escape_tag_value", "iter_games",
    "iter_games_slow", "line_ending", "split_lines", "unescape_tag_value",
]
