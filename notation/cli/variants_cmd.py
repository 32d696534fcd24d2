"""``notation variants``: the variants this installation knows, as a table or as the JSON of
``GET /v1/variants`` (one builder: ``notation.variant_facts``)."""

from __future__ import annotations

import sys

from notation.cli.jsonl import write_json_line
from notation.cli.options import add_alias_option, add_source_option, build_registry
from notation.cli.usage import SUMMARIES
from notation.cli.variant_table import write_table

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing here
if TYPE_CHECKING:
    import argparse

DESCRIPTION = """\
List the variants: key (what --variant takes; aliases and names are read too, ignoring
case, spaces, - and _), name, aliases, board (files x ranks), rule family, what the FEN
reader reads of it besides a plain FEN (pocket and check-counter styles, castling letters,
other letters, side letters, field layouts, OpenTafl records, bombs) and what moves, play
and perft do with it (its move notations, the default first).
With --json, print {"variants": [...]} as one JSON line: what GET /v1/variants answers.
--variant help (or list) on any command prints this table too.
Exit status: 0 listed, 2 usage error."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "variants", help=SUMMARIES["variants"], description=DESCRIPTION
    )
    add_alias_option(parser)
    add_source_option(parser)
    parser.add_argument("--json", action="store_true", help="print the GET /v1/variants answer as one JSON line")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from notation.variant_facts import all_variant_facts

    facts = all_variant_facts(build_registry(args))
    if args.json:
        write_json_line({"variants": facts})
    else:
        write_table(facts, sys.stdout)
    return 0
