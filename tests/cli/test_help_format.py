"""notation.cli.help_format: argparse's formatters without importing shutil. The width is
shutil's (``COLUMNS``, the terminal, 80) and the help they print is argparse's own."""

from __future__ import annotations

import argparse
import shutil

import pytest

from notation.cli import help_format


@pytest.mark.parametrize("columns", [None, "", "0", "-5", "abc", "40", "132"])
def test_the_width_is_shutils(monkeypatch, columns):
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert help_format.terminal_columns() == shutil.get_terminal_size().columns


def _parser(formatter: type[argparse.HelpFormatter]) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="notation convert", description="Rewrite FENs.\n\n  kept as written",
                                     formatter_class=formatter)
    parser.add_argument("fens", nargs="*", metavar="FEN", help="FENs to rewrite (default: read standard input) " * 3)
    parser.add_argument("--castling", choices=["standard", "xfen", "shredder"], help="how castling rights are written")
    return parser


@pytest.mark.parametrize("columns", ["40", "80", "132"])
@pytest.mark.parametrize(("ours", "theirs"), [
    (help_format.HelpFormatter, argparse.HelpFormatter),
    (help_format.RawDescriptionHelpFormatter, argparse.RawDescriptionHelpFormatter),
])
def test_help_reads_as_argparses_own(monkeypatch, columns, ours, theirs):
    monkeypatch.setenv("COLUMNS", columns)
    assert _parser(ours).format_help() == _parser(theirs).format_help()
    assert _parser(ours).format_usage() == _parser(theirs).format_usage()
