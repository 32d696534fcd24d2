"""``UsageError``: a bad command line found after parsing, in its own module so that every
subcommand can raise it without importing the entry point."""

from __future__ import annotations


class UsageError(Exception):
    """A bad command line detected after parsing; ``notation.cli.main`` reports it like
    argparse's own errors (one line on standard error, exit status 2)."""
