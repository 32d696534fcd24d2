"""``notation perft``: count the move paths of a given depth from a position."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from notation.cli import position_args
from notation.cli.options import build_registry
from notation.cli.usage import SUMMARIES, bad_value
from notation.game import MAX_DEPTH
from notation.playing import MAX_NODES, count_perft

if TYPE_CHECKING:
    import argparse

TIME_LIMIT = 3600.0
"""The default --time-limit, in seconds: an hour, about what MAX_NODES paths take."""

DESCRIPTION = f"""\
Count the legal move paths of --depth plies from a position (FEN; none: the variant's
start), as every published perft suite counts them: a finished game has no moves. With
--divide, each legal move (UCI unless --notation) and its count at depth - 1, then the
total. The work is bounded, not the depth: a count estimated from the first two plies to
pass --max-nodes paths (default {MAX_NODES:.0e}, hours of work on one core) is refused
before it starts, and one still running after --time-limit seconds (default {TIME_LIMIT:g};
0: none) is stopped; each says so and which option raises its limit. An endgame counts as
deep as its moves allow (depths up to {MAX_DEPTH}).
With --json, read {{"fen", "variant", "chess960", "notation", "depth", "divide",
"max_nodes", "time_limit"}} objects from standard input, one a line (any other key is
refused as unknown-field), and print {{"ok", "nodes", "divide"}} for each.
Exit status: 0 counted, 1 the FEN or variant was refused or the count was over a limit,
2 usage error."""

JSON_FIELDS = frozenset({"fen", "variant", "chess960", "notation", "depth", "divide", "max_nodes", "time_limit"})

# What each limit's refusal adds on the command line: the option that raises it.
HINTS = {
    "depth-too-large": "; raise the limit with --max-nodes N (or ask for less depth)",
    "perft-time-limit": "; give it more time with --time-limit SECONDS (0: no limit)",
}


def _whole(low: int, high: int | None, what: str) -> Any:
    def parse(text: str) -> int:
        try:
            value = int(float(text)) if "e" in text.lower() else int(text, 10)
        except ValueError:
            raise bad_value(f"expected a whole number, got {text!r}") from None
        if value < low or (high is not None and value > high):
            limit = f"{low} to {high}" if high is not None else f"at least {low}"
            raise bad_value(f"{what} must be {limit}, not {value}")
        return value

    return parse


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise bad_value(f"expected a number of seconds, got {text!r}") from None
    if not 0 <= value < float("inf"):
        raise bad_value(f"a time limit is 0 (none) or more seconds, not {text}")
    return value


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "perft", help=SUMMARIES["perft"], description=DESCRIPTION
    )
    parser.add_argument("fen", nargs="?", metavar="FEN", help="the position (default: the variant's start)")
    parser.add_argument(
        "--depth", "-d", type=_whole(0, MAX_DEPTH, "depth"), default=1, metavar="N", help="plies to count (default: 1)"
    )
    parser.add_argument("--divide", action="store_true", help="print each move's count too")
    parser.add_argument(
        "--max-nodes", type=_whole(1, None, "--max-nodes"), default=MAX_NODES, metavar="N",
        help=f"refuse a count estimated to pass N paths (default: {MAX_NODES:.0e}; 1e12 is written as such)",
    )
    parser.add_argument(
        "--time-limit", type=_seconds, default=TIME_LIMIT, metavar="SECONDS",
        help=f"stop a count still running after this long (default: {TIME_LIMIT:g}; 0: no limit)",
    )
    position_args.add_position_options(parser, notation_help="write the --divide moves in this notation (default: UCI)")
    parser.set_defaults(run=run)


def _number(obj: dict[str, Any], name: str, default: Any, kind: type) -> Any:
    value = obj.get(name, default)
    if isinstance(value, bool) or not isinstance(value, (int, float) if kind is float else int) or value < 0:
        raise TypeError(f'"{name}" must be a {"number" if kind is float else "whole number"}, 0 or more')
    return value


def run(args: argparse.Namespace) -> int:
    registry = build_registry(args)
    if args.json:

        def answer(obj: dict[str, Any]) -> dict[str, Any]:
            depth = _number(obj, "depth", args.depth, int)
            fen = position_args.text_field(obj, "fen", None)
            name = position_args.text_field(obj, "variant", args.variant) or args.variant
            chosen = position_args.resolve_variant(fen, name, registry)
            if chosen.error is not None:
                return position_args.refused(chosen)
            result = count_perft(
                fen,
                chosen.variant,
                depth,
                by_move=position_args.flag_field(obj, "divide", args.divide),
                notation=position_args.text_field(obj, "notation", args.notation),
                chess960=position_args.flag_field(obj, "chess960", args.chess960),
                registry=registry,
                max_nodes=_number(obj, "max_nodes", args.max_nodes, int),
                time_limit=float(_number(obj, "time_limit", args.time_limit, float)),
            )
            return position_args.with_guess(result.to_dict(), chosen.warning)

        return position_args.run_json_lines(answer, JSON_FIELDS)
    chosen = position_args.reported_variant(args.fen, args.variant, registry)
    if chosen is None:
        return 1
    result = count_perft(
        args.fen, chosen.variant, args.depth, by_move=args.divide, notation=args.notation, chess960=args.chess960,
        registry=registry, max_nodes=args.max_nodes, time_limit=args.time_limit,
    )
    if not result.ok:
        for problem in result.errors:
            sys.stderr.write(problem.describe(prefix="error") + HINTS.get(problem.code, "") + "\n")
        return 1
    for move, nodes in result.divide or []:
        sys.stdout.write(f"{move}: {nodes}\n")
    if result.divide is not None:
        sys.stdout.write("\n")
    sys.stdout.write(f"{result.nodes}\n")
    return 0
