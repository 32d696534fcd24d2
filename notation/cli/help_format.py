"""argparse's help formatters, told the terminal's width.

argparse's own formatters ask ``shutil.get_terminal_size`` each time one is made, and a
parser makes one for every option it adds: every command imported ``shutil`` (with ``bz2``,
``lzma`` and ``fnmatch``) at start-up (bench_startup, bench_instructions), though only
``--help`` and usage errors print anything. These read the width as ``shutil`` does.
Nothing here raises.
"""

from __future__ import annotations

import argparse
import os
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing here
if TYPE_CHECKING:
    from typing import Any

FALLBACK_COLUMNS = 80  # shutil.get_terminal_size's fallback


def terminal_columns() -> int:
    """``shutil.get_terminal_size().columns``: ``COLUMNS`` when it holds a positive number,
    else the width of the terminal on standard output, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else FALLBACK_COLUMNS


class _TerminalWidth(argparse.HelpFormatter):
    def __init__(
        self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None
    ) -> None:
        # argparse's own takes two columns off the terminal's width
        super().__init__(prog, indent_increment, max_help_position, terminal_columns() - 2 if width is None else width)


class HelpFormatter(_TerminalWidth):
    """``argparse.HelpFormatter``, without importing ``shutil``."""


class RawDescriptionHelpFormatter(_TerminalWidth, argparse.RawDescriptionHelpFormatter):
    """``argparse.RawDescriptionHelpFormatter``, without importing ``shutil``."""



class CommandParser(argparse.ArgumentParser):
    """A command's parser (the ``parser_class`` of ``notation``'s subparsers), with its
    description as written where the command wrote it in lines, and wrapped to the
    terminal's width where it wrote it as one paragraph without line breaks. The commands
    do not name a formatter: importing one would import argparse, which a plain command
    line is read without (``plain_arguments``)."""

    def __init__(self, **keywords: Any) -> None:
        description = keywords.get("description") or ""
        keywords.setdefault("formatter_class", RawDescriptionHelpFormatter if "\n" in description else HelpFormatter)
        super().__init__(**keywords)
