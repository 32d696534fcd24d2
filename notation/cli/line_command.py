"""What ``convert`` and ``validate`` share: their options (``add_line_parser``) and the
answer to one input (``responding``). Each command adds only its own: its description,
its extra options, what it asks of a FEN and how it writes the verdict.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from notation.cli import limits, options
from notation.cli.answers import answer, guessing
from notation.cli.input_lines import FenInput
from notation.cli.line_jobs import Answered, Responder, answered
from notation.cli.usage import SUMMARIES
from notation.errors import Problem
from notation.operations import ConvertResult, ValidateResult
from notation.variants import Registry, Variant

if TYPE_CHECKING:
    import argparse

ResultT = TypeVar("ResultT", ConvertResult, ValidateResult)


def add_line_parser(
    subparsers: argparse._SubParsersAction, name: str, description: str, *, verb: str, json_help: str,
    run: Callable[[argparse.Namespace], int], own_options: Callable[[argparse.ArgumentParser], None] | None = None,
) -> None:
    """The subcommand ``name``: FEN arguments (``FENs to {verb}``), ``--input``, the variant
    options, then ``own_options``'s, ``--accept``, ``--jobs`` and ``--json``; it calls
    ``run`` (the command's ``run_lines``)."""
    parser = subparsers.add_parser(
        name,
        help=SUMMARIES[name],
        description=description,
    )
    parser.add_argument("fens", nargs="*", metavar="FEN", help=f"FENs to {verb} (default: read standard input)")
    options.add_input_option(parser)
    options.add_variant_options(parser, auto=True)
    if own_options is not None:
        own_options(parser)
    options.add_accept_option(parser)
    limits.add_jobs_option(parser)
    parser.add_argument("--json", action="store_true", help=json_help)
    parser.set_defaults(run=run)


def responding(
    args: Any, registry: Registry, judge: Callable[[str, str | Variant], ResultT],
    failure: Callable[[Problem], ResultT], verdict: Callable[[ResultT], tuple[bool, str, str]],
) -> Responder:
    """The answer to one input: ``judge(fen, variant)`` (the variant guessed for ``auto``),
    or ``failure(problem)`` of an unusable input; ``verdict(result)`` says whether it
    passed, the text written then, and the word written before its problems otherwise."""
    guessed = guessing(judge, failure, registry)
    json_lines = args.json

    def respond(item: FenInput) -> Answered:
        result, how = answer(item, guessed, failure)
        ok, good, bad = verdict(result)
        return answered(item, how, result, ok, good, bad, json_lines=json_lines)

    return respond
