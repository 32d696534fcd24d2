"""``notation docs``: print the documentation installed with the package.

The wheel carries README.md and docs/*.md as package data (``notation/docs/``, copied
there by setup.py); a source checkout used in place (an editable install) has them at the
repository's root instead. Help texts point here, so what they name is always installed.
"""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path

from notation.cli.usage import SUMMARIES, UsageError

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing here
if TYPE_CHECKING:
    import argparse

# topic -> file name; the order is the one listed
TOPICS = {
    "readme": "README.md",
    "validation": "validation.md",
    "moves": "moves.md",
    "tafl": "tafl.md",
    "check": "check.md",
    "pgn": "pgn.md",
    "service": "service.md",
    "scale": "scale.md",
    "architecture": "architecture.md",
}

DESCRIPTION = """\
Print a document installed with notation: the README (the commands, the Python API, the
dialects) or one of the guides. Without TOPIC, list the topics and where each file is."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "docs", help=SUMMARIES["docs"],
        description=DESCRIPTION,
    )
    parser.add_argument("topic", nargs="?", choices=list(TOPICS), metavar="TOPIC", help=", ".join(TOPICS))
    parser.set_defaults(run=run)


def doc_path(topic: str) -> Path:
    """The installed file of a topic; raises ``UsageError`` when it is missing (a broken
    install)."""
    name = TOPICS[topic]
    shipped = Path(str(resources.files("notation"))) / "docs" / name
    if shipped.is_file():
        return shipped
    checkout = Path(__file__).resolve().parents[2]
    in_place = checkout / name if name == "README.md" else checkout / "docs" / name
    if in_place.is_file():
        return in_place
    raise UsageError(f"{name} is not installed (looked in {shipped.parent}); reinstall the package")


def run(args: argparse.Namespace) -> int:
    if args.topic is None:
        for topic in TOPICS:
            sys.stdout.write(f"{topic:<13}{doc_path(topic)}\n")
        return 0
    sys.stdout.write(doc_path(args.topic).read_text(encoding="utf-8"))
    return 0
