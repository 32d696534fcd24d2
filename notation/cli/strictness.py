"""The one exit-status rule for problems, shared by the commands that report warnings.

Every command exits **0** when it found no error (warnings alone pass), **1** when it found
an error, or a warning under ``--strict`` (``Strictness.WARNINGS``), and **2** on a usage
error (argparse's own status, and ``UsageError``); README.md's "Exit status" table says it
for each command. Nothing here raises.
"""

from __future__ import annotations

from notation.lean_enum import LeanStrEnum

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing here
if TYPE_CHECKING:
    import argparse


class Strictness(LeanStrEnum):
    """What fails a command: errors only (the default), or warnings too (``--strict``)."""

    ERRORS = "errors"  # the default: warnings are printed but pass
    WARNINGS = "warnings"  # --strict: warnings fail too


def add_strict_option(parser: argparse.ArgumentParser, what: str) -> None:
    """``--strict`` (into ``args.fail_on``): warnings fail ``what`` too."""
    parser.add_argument(
        "--strict",
        dest="fail_on",
        action="store_const",
        const=Strictness.WARNINGS,
        default=Strictness.ERRORS,
        help=f"warnings fail {what} too (exit 1)",
    )


def exit_status(errors: int, warnings: int, fail_on: Strictness) -> int:
    """1 when ``errors``, or ``warnings`` under ``--strict``; else 0."""
    if errors or (fail_on is Strictness.WARNINGS and warnings):
        return 1
    return 0
