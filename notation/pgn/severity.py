"""How bad each problem code is: the one table ``check``, ``normalize``'s report,
``read_games`` and the service all read, so that a code is an error or a warning the same
everywhere.

``SEVERITY`` maps every code these front ends report to ``ERROR`` or ``WARNING``: an error
fails ``notation check`` and keeps a game from being rewritten; a warning does neither
(unless ``--strict``). ``severity_of(code, accept)`` is a code's row, an unlisted code being
an error, and a warning when ``accept``ed (``--accept``). The table sits in the PGN layer,
below the check and the service and beside the normaliser, so that each can read it; it holds
plain strings (``"error"``, ``"warning"``: the values of ``notation.check.problem.Severity``
and ``notation.pgn.movewalk.Level``) and imports nothing, so the normaliser's start-up pays
nothing for it. A new code gets its row here (and its description in
``notation.check.problem.CHECK_CODES``); tests/pgn/test_severity.py checks that every code has one
and that every front end agrees with it. Nothing here raises.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Final

ERROR: Final = "error"
WARNING: Final = "warning"

SEVERITY: dict[str, str] = {
    # the FEN reader and the validators (notation.validation.CODES)
    "fen-syntax": ERROR,
    "unknown-variant": ERROR,
    "empty": ERROR,
    "missing-king": ERROR,
    "too-many-kings": ERROR,
    "too-many-pawns": ERROR,
    "too-many-pieces": ERROR,
    "pawns-on-backrank": ERROR,
    "bad-castling-rights": ERROR,
    "invalid-ep-square": ERROR,
    "opposite-check": ERROR,
    "too-many-checkers": ERROR,
    "impossible-check": ERROR,
    "race-check": ERROR,
    "race-over": ERROR,
    "race-material": ERROR,
    "king-in-pocket": ERROR,
    "bad-check-counters": ERROR,
    "wrong-board-size": ERROR,
    "misplaced-general": ERROR,
    "misplaced-advisor": ERROR,
    "misplaced-elephant": ERROR,
    "misplaced-soldier": ERROR,
    "flying-general": ERROR,
    "king-wrong-side": ERROR,
    "restricted-square": ERROR,
    "king-escaped": WARNING,  # a finished game (notation.validation.FINISHED_GAME_CODES)
    "king-captured": WARNING,
    "bad-bomb": ERROR,
    "placement-army": ERROR,
    "placement-region": ERROR,
    "placement-pawn-files": ERROR,
    "placement-bishops": ERROR,
    # what converting a FEN reports (normalize rewrites FEN tags through it)
    "repaired-castling": WARNING,
    "repaired-en-passant": WARNING,
    "guessed-variant": WARNING,
    "lossy-pockets": WARNING,
    "lossy-bombs": WARNING,
    "lossy-turn": WARNING,
    "lossy-fields": WARNING,
    "lossy-castling": WARNING,
    "lossy-checks": WARNING,
    "lossy-counters": WARNING,
    "lossy-promoted": WARNING,
    # the PGN splitter (notation.pgn.games.PROBLEM_CODES)
    "pgn-tag-syntax": ERROR,
    "pgn-comment-unterminated": ERROR,
    "pgn-comment-too-long": ERROR,
    "pgn-junk": ERROR,
    "pgn-not-utf8": ERROR,
    "pgn-too-many-tags": ERROR,
    "pgn-game-too-large": WARNING,
    "pgn-bom": WARNING,
    "pgn-windows-1252": WARNING,  # bytes that are not UTF-8, read as Windows-1252
    "pgn-missing-blank-line": WARNING,
    "pgn-missing-result": WARNING,
    "pgn-stray-text": WARNING,
    "pgn-no-tags": WARNING,
    # the normaliser's own
    "pgn-duplicate-tag": ERROR,
    "duplicate-game": WARNING,  # a later copy of a game (normalize and check --duplicates)
    "duplicate-tag-conflict": WARNING,  # copies giving a kept game's missing tag other values (--merge-tags)
    # normalize's repairs and broken games (notation.pgn.repairs)
    "game-truncated": WARNING,
    "game-dropped": WARNING,
    "result-fixed": WARNING,
    "tag-fixed": WARNING,
    "move-numbers-fixed": WARNING,
    # the moves (notation.pgn.movewalk, notation.pgn.gamemoves): errors
    "bad-move-syntax": ERROR,
    "illegal-move": ERROR,
    "ambiguous-move": ERROR,
    "game-over": ERROR,
    "move-after-end": ERROR,
    "pgn-unbalanced-variation": ERROR,
    "pgn-misplaced-variation": ERROR,
    "pgn-movetext-too-long": ERROR,
    "pgn-movetext-too-deep": ERROR,
    "internal-error": ERROR,
    # the moves: warnings (the move layer's lenient readings, the game's end and start)
    "castling-with-zeros": WARNING,
    "castling-lower-case": WARNING,
    "promotion-without-equals": WARNING,
    "promotion-lower-case": WARNING,
    "drop-with-star": WARNING,
    "pawn-letter": WARNING,
    "over-disambiguated": WARNING,
    "missing-capture-mark": WARNING,
    "false-capture-mark": WARNING,
    "wrong-check-mark": WARNING,
    "long-algebraic": WARNING,
    "uci-in-san": WARNING,
    "king-takes-rook": WARNING,
    "en-passant-mark": WARNING,
    "false-en-passant-mark": WARNING,
    "long-algebraic-without-piece": WARNING,
    "castling-dash": WARNING,
    "figurine": WARNING,
    "novelty-mark": WARNING,
    "glued-evaluation": WARNING,
    "promotion-separator": WARNING,
    "foreign-piece-letters": WARNING,
    "lenient-wxf-case": WARNING,
    "lenient-wxf-traverse": WARNING,
    "lenient-wxf-tandem": WARNING,
    "lenient-piece-letter": WARNING,
    "lenient-coordinate-form": WARNING,
    "unneeded-piece-letter": WARNING,
    "square-case": WARNING,
    "wrong-captures": WARNING,
    "wrong-game-end-mark": WARNING,
    "wrong-result": WARNING,
    "result-spelling": WARNING,
    "unknown-start": WARNING,
    "notation-unavailable": WARNING,
    "not-exported": WARNING,
    # the check's own (notation.check)
    "epd-syntax": ERROR,
    "encoding": ERROR,
    "line-too-long": ERROR,
    "binary-file": ERROR,
    "decompress": ERROR,
    "fen-bom": WARNING,  # a FEN or EPD line's byte order mark (convert and validate say it too)
    "empty-file": WARNING,
    "missing-setup": WARNING,
    "setup-without-fen": WARNING,
    "miscased-tag": WARNING,
    "rare-dialect": WARNING,
    "profile-mismatch": WARNING,
}


def severity_of(code: str, accept: Collection[str] = (), default: str = ERROR) -> str:
    """``ERROR`` or ``WARNING``: ``code``'s row in ``SEVERITY`` (``default`` for an unlisted
    code: an error unless the caller knows better), ``WARNING`` when ``code`` is in
    ``accept``."""
    if accept and code in accept:
        return WARNING
    return SEVERITY.get(code, default)
