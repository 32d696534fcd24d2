"""``notation select``: the games of PGN databases that meet criteria, written as they were read."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from types import SimpleNamespace

from notation.cli.limits import jobs_from
from notation.cli.options import add_alias_option, add_source_option, build_registry
from notation.cli.usage import SUMMARIES, UsageError
from notation.errors import NotationError
from notation.inputs import InputError, InputFile
from notation.outputs import Delivery, Output, OutputError
from notation.selection.criteria import Criteria, Keep, parse_plies, parse_tag_test
from notation.variants import DEFAULT_REGISTRY, Registry, Variant

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing here
if TYPE_CHECKING:
    import argparse

DESCRIPTION = """\
Write the games of the PGN databases INPUT... that meet every criterion given, each byte
for byte as it was read (its blank lines with it), in input order; --invert writes the
others. Selecting by tags and variant reads no move: it runs at the splitter's speed.

  --tag NAME=VALUE   the tag's value (unescaped) is VALUE exactly
  --tag NAME~REGEX   Python's re.search finds REGEX in the tag's value
                     (repeatable: all must hold; tag names are matched exactly, case
                     and all, as pgn-extract matches them; a game without the tag fails)
  --variant NAME     the game's variant (its Variant tag, any name the registry knows;
                     default Standard) is NAME (repeatable: any of them)
  --reaches FEN      the main line reaches the position, at any ply, the start included
                     (repeatable: any of them); the move counters are not compared, the
                     side to move, castling rights, en passant (only where a legal capture
                     exists), pockets and check counters are; the FEN is read as a FEN tag
                     of each game's variant is
  --plies MIN:MAX    the main line has MIN to MAX plies (either may be left out)
  --has-problem CODE `notation check` finds a problem with this code in the game
                     (repeatable: any of them; `notation docs check` lists the codes)

INPUT may be '-' (standard input) and .gz, .bz2 or .zst files (recognised by content);
OUTPUT likewise '-' (the default: standard output) or a file, written in full only when
the run succeeds (written beside it, then renamed). A summary (games read, written) goes
to standard error. The whole story: `notation docs pgn`.
Exit status: 0 the input was read and the games chosen written (any number, none
included), 2 usage or I/O error, 130/143/129 stopped by SIGINT/SIGTERM/SIGHUP."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "select", help=SUMMARIES["select"], description=DESCRIPTION,
    )
    parser.add_argument("inputs", nargs="+", metavar="INPUT",
                        help="PGN files (.pgn, .gz, .bz2, .zst) or '-' for standard input, read one after another")
    parser.add_argument("-o", "--output", metavar="OUTPUT", help="where to write (default: standard output)")
    parser.add_argument("--tag", action="append", default=[], metavar="NAME=VALUE|NAME~REGEX",
                        help="a tag's exact value or a regular expression searched for in it (repeatable: all)")
    parser.add_argument("--variant", action="append", default=[], metavar="NAME",
                        help="the game's variant (repeatable: any)")
    parser.add_argument("--reaches", action="append", default=[], metavar="FEN",
                        help="a position the main line reaches (repeatable: any)")
    parser.add_argument("--plies", metavar="MIN:MAX", help="plies of the main line (either bound may be left out)")
    parser.add_argument("--has-problem", action="append", default=[], metavar="CODE",
                        help="a problem code `notation check` finds in the game (repeatable: any)")
    parser.add_argument("--invert", action="store_const", dest="keep", const=Keep.OTHERS, default=Keep.MATCHING,
                        help="write the games that do not meet the criteria")
    add_alias_option(parser)
    add_source_option(parser)
    parser.add_argument("--jobs", "-j", type=int, default=1, metavar="N", help="processes working at once (default: 1)")
    parser.add_argument("--summary", choices=("text", "json", "none"), default="text",
                        help="summary on standard error at the end (default: text)")
    parser.set_defaults(run=run)


def registry_from(args: argparse.Namespace) -> Registry:
    """The registry of ``--from`` and ``--variant-alias`` (``UsageError`` for a bad alias)."""
    return build_registry(SimpleNamespace(source=args.source, variant_alias=args.variant_alias))


def criteria_from(args: argparse.Namespace, registry: Registry = DEFAULT_REGISTRY) -> Criteria:
    """The command line's criteria; raises ``UsageError`` for a malformed or unknown one."""
    from notation.check.problem import CHECK_CODES

    try:
        tags = tuple(parse_tag_test(text) for text in args.tag)
        plies = None if args.plies is None else parse_plies(args.plies)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    variants = []
    for name in args.variant:
        try:
            variants.append(registry.find(name))
        except NotationError as exc:
            raise UsageError(f"--variant: {exc} (`notation variants` lists them)") from None
    unknown = [code for code in args.has_problem if code not in CHECK_CODES]
    if unknown:
        raise UsageError(f"--has-problem: unknown code(s) {', '.join(unknown)}; `notation docs check` lists them")
    for fen in args.reaches:
        _check_target(fen, variants, registry)
    return Criteria(tags=tags, variants=frozenset(variant.key for variant in variants), reaches=tuple(args.reaches),
                    plies=plies, problems=frozenset(args.has_problem), keep=args.keep)


def _check_target(fen: str, variants: list[Variant], registry: Registry) -> None:
    """Refuse a ``--reaches`` FEN no variant asked for (or, without ``--variant``, the
    variant its form names) reads as a legal position."""
    from notation.guess import guess_variant
    from notation.pgn.gamestart import StartPositions

    if not variants:
        try:
            variants = [guess_variant(fen.strip(), registry).variant]
        except NotationError as exc:
            raise UsageError(f"--reaches {fen!r}: {exc}") from None
    starts = StartPositions(registry)
    reasons = []
    for variant in variants:
        start = starts.start(variant, fen)
        if start.position is not None and not start.problems:
            return
        problems = "; ".join(f"{problem.code}: {problem.message}" for problem in start.problems) or start.reason
        reasons.append(f"{variant.name}: {problems}")
    raise UsageError(f"--reaches {fen!r} is not a legal position ({' / '.join(reasons)})")


def same_file(a: str, b: str) -> bool:
    """Whether the paths ``a`` and ``b`` (not standard streams) name one file."""
    if a == "-" or b == "-":
        return False
    with contextlib.suppress(OSError):
        return os.path.samefile(a, b)
    return False


def run(args: argparse.Namespace) -> int:
    from notation.selection.jobs import Counts, selected_text
    from notation.selection.select import Selector

    jobs = jobs_from(args)
    registry = registry_from(args)
    criteria = criteria_from(args, registry)
    output_path = args.output or "-"
    if args.inputs.count("-") > 1:
        raise UsageError("standard input ('-') can be named only once")
    for path in args.inputs:
        if same_file(path, output_path):
            raise UsageError(f"OUTPUT is the input file {path!r}: write elsewhere")
    selector = Selector(criteria, registry=registry)
    counts = Counts()
    output: Output | None = None
    wrote = False
    try:
        with Output(output_path) as output:
            for path in args.inputs:
                with InputFile(path) as source:
                    for text in selected_text(source.blocks(), selector, counts, jobs=jobs):
                        output.write(text)
                        wrote = True
            output.commit()
    except (InputError, OutputError) as exc:
        note = ""
        if wrote and output is not None and output.delivery is Delivery.STREAM:
            note = f"; what was already written to {output.name} is incomplete"
        raise UsageError(f"{exc}{note}") from None
    if args.summary == "text":
        what = "not matching" if criteria.keep is Keep.OTHERS else "matching"
        sys.stderr.write(f"notation select: {counts.games} games read, {counts.written} written ({what})\n")
    elif args.summary == "json":
        sys.stderr.write(json.dumps({"games": counts.games, "written": counts.written}) + "\n")
    return 0
