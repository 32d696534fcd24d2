"""The CI gate: check FEN, EPD and PGN files and report located problems.

``run_check(paths, CheckOptions(...), emit)`` finds the files (``sources``), streams their
lines (``lines``), judges FEN/EPD lines (``positions``) and PGN games (``games``) through
``operations.validate_fen`` (``judge``), and hands each ``CheckProblem`` to ``emit``; the
``formats`` subpackage turns problems into text, JSON, GitHub annotations or SARIF.
"""

from notation.check.problem import CheckProblem, Severity
from notation.check.run import run_check
from notation.check.runner import CheckOptions, Summary
from notation.check.sources import FileKind

__all__ = ["CheckOptions", "CheckProblem", "FileKind", "Severity", "Summary", "run_check"]
