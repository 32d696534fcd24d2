"""``UsageError`` (a bad command line found after parsing) and ``SUMMARIES`` (each
subcommand's one-line help), in their own module so that every subcommand can use them
without importing the entry point."""

from __future__ import annotations

import sys

# The subcommands in the order `notation --help` lists them, with their one-line help.
SUMMARIES = {
    "convert": "rewrite FENs in another dialect",
    "validate": "check FENs against their variant's rules",
    "normalize": "normalise the set-up tags of a PGN database",
    "check": "check FEN, EPD and PGN files (a CI gate)",
    "select": "write the games of PGN databases that meet criteria (tags, variant, positions, plies, problems)",
    "split": "split a PGN database into files: N games each, or by variant or a tag",
    "serve": "run the HTTP service",
    "start": "print a variant's start FEN (or a Chess960 one)",
    "moves": "list the legal moves of a position",
    "play": "play moves from a position and print the FEN reached",
    "perft": "count the move paths of a given depth (perft)",
    "variants": "list the variants: names, boards, what each reads and plays",
    "svg": "draw a position as an SVG picture",
    "view": "the FEN one side sees of a Dark Chess position",
    "docs": "print the installed documentation (README, codes, moves, CI gate, PGN, service)",
}


class UsageError(Exception):
    """A bad command line detected after parsing; ``notation.cli.main`` reports it like
    argparse's own errors (one line on standard error, exit status 2)."""


def bad_value(message: str) -> Exception:
    """The error an option's type function raises for argparse to report as that option's
    (``argparse.ArgumentTypeError``). Where argparse is not loaded, the command line is being
    read without it (``plain_arguments``), and any error there leaves the line to argparse,
    which calls the type function again: a ``ValueError`` does, without importing argparse
    (the executable imports it with its words as written, ``notation.cli``)."""
    argparse = sys.modules.get("argparse")
    if argparse is None:
        return ValueError(message)
    return argparse.ArgumentTypeError(message)

