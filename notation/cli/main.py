"""Entry point of the ``notation`` command: builds the parser and dispatches.

Exit codes are the subcommands' own (0 ok, 1 problems found, 2 usage error). No traceback
reaches the user: an unexpected error prints one line (set ``NOTATION_DEBUG=1`` for the
traceback) and exits 3; output cut off by a closed pipe exits 141, as SIGPIPE would.
SIGINT, SIGTERM and SIGHUP end every command but ``serve`` (whose server handles them)
after removing temporary files, with status 128 + the signal's number (130, 143, 129);
a SIGINT while the command's modules are still loading exits 130 too.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import os
import sys
from collections.abc import Collection, Sequence

from notation import __version__
from notation.cli.help_format import HelpFormatter
from notation.cli.usage import SUMMARIES, UsageError
from notation.signals import Interrupted, exit_on_signals

# typing.TYPE_CHECKING without importing typing: Literal is named in annotations only, and
# `notation --version` and `--help` need nothing of typing.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

# (subcommand, module, summary): each module has add_parser(subparsers) and run(args) -> int,
# and its parser's help is the summary here (SUMMARIES), so that `notation --help` can list
# every command without importing the modules.
SUBCOMMANDS = tuple((name, f"notation.cli.{name}_cmd", summary) for name, summary in SUMMARIES.items())


EXIT_BROKEN_PIPE = 141
SERVES_ITS_OWN_SIGNALS = frozenset({"serve"})


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The command line parser. With ``argv`` naming a command, only that command's module
    is imported and its options built (the others are listed by name and summary): a
    ``notation convert`` in a shell loop should not pay for importing ``normalize``'s PGN
    machinery or ``serve``'s. Otherwise every command's options are built (for a caller
    that parses command lines of its own with it)."""
    chosen = _chosen_command(sys.argv[1:] if argv is None else argv)
    return _parser(SUMMARIES if chosen is None else (chosen,))


def _parser(built: Collection[str], others: Literal["listed", "left out"] = "listed") -> argparse.ArgumentParser:
    """The parser with the options of the commands in ``built``; the others are listed by
    name and summary only, without importing their modules, or (``"left out"``) not at
    all: each listed one is a parser of its own to build."""
    parser = argparse.ArgumentParser(
        prog="notation",
        description="Read, validate and rewrite the FEN and PGN notation of chess variants.",
        epilog="Documentation is installed with the package: `notation docs` lists it, `notation docs readme` "
        "prints the README, `notation COMMAND --help` each command's options.",
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"notation {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for name, module_name, summary in SUBCOMMANDS:
        if name in built:
            importlib.import_module(module_name).add_parser(subparsers)
        elif others == "listed":
            subparsers.add_parser(name, help=summary, formatter_class=HelpFormatter)
    return parser


def parse_command_line(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """``parser.parse_args(argv)``, but an argument the command does not take is refused
    with the command's own usage (argparse would give the top-level one, which names no
    option of any command). Exits 2 through argparse on any error."""
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        _command_parser(parser, args.command).error(f"unrecognized arguments: {' '.join(unknown)}")
    return args


def _command_parser(parser: argparse.ArgumentParser, command: str) -> argparse.ArgumentParser:
    """The parser of ``command`` under ``parser`` (the top-level parser where it has none)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found: argparse.ArgumentParser | None = action.choices.get(command)
            if found is not None:
                return found
    return parser


def _chosen_command(argv: Sequence[str]) -> str | None:
    """The command ``argv`` names (its first word that is not an option, as the top-level
    parser takes no option with a value), or None when it names no known command."""
    first = next((word for word in argv if not word.startswith("-")), None)
    return first if first in SUMMARIES else None


def main(argv: Sequence[str] | None = None) -> int:
    # No command named (``--version``, ``--help``, none, an unknown one): argparse answers
    # from the names and summaries alone, so no command's module is imported.
    words = sys.argv[1:] if argv is None else argv
    chosen = _chosen_command(words)
    # A command named first leaves the top-level parser nothing to say (no help asked
    # before it; its usage names no command), so the others need not be listed.
    others: Literal["listed", "left out"] = "left out" if chosen is not None and words[0] == chosen else "listed"
    # Loading the command's modules makes many objects that live as long as the command and
    # almost no garbage: the cyclic collector would walk them again and again for nothing,
    # so it is paused meanwhile (bench_instructions counts the start-up it saves).
    collecting = gc.isenabled()
    gc.disable()
    try:
        parser = _parser(() if chosen is None else (chosen,), others)
        args = parse_command_line(parser, argv)
    except KeyboardInterrupt:
        # Ctrl-C while the command's modules load (most of start-up): nothing was made to
        # clean up, and a traceback of the import machinery says nothing to a user.
        return 130
    finally:
        if collecting:
            gc.enable()
    # What start-up loaded (the library's tables, the variant registry, the parser) lives as
    # long as the command: frozen, the cyclic collector no longer walks it at each full
    # collection, nor at the last one on exit (bench_instructions shows the start-up saved).
    gc.freeze()
    signals = contextlib.nullcontext() if args.command in SERVES_ITS_OWN_SIGNALS else exit_on_signals()
    try:
        with signals:
            return int(args.run(args) or 0)
    except UsageError as exc:
        parser.exit(2, f"notation {args.command}: error: {exc}\n")
    except Interrupted as exc:
        # Only a command that writes files imported notation.outputs (and so made any);
        # importing it for every command would cost their start-up.
        outputs = sys.modules.get("notation.outputs")
        if outputs is not None:
            outputs.remove_temporary_files()
        return exc.status
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader of our output went away (``| head``). Say nothing more, but do not
        # claim success: what was left unwritten (a CI gate's later errors) went unseen.
        # 141 is what a shell reports for a process ended by SIGPIPE.
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return EXIT_BROKEN_PIPE
    except Exception as exc:  # noqa: BLE001 - the last line of defence for users
        if os.environ.get("NOTATION_DEBUG"):
            raise
        # A --jobs worker that died (the out-of-memory killer, kill -9) is no defect to
        # report: say which and how. Only --jobs imported the pool (and so made one).
        pool = sys.modules.get("notation.parallel.fork_pool")
        if pool is not None and isinstance(exc, pool.WorkerLost):
            sys.stderr.write(f"notation {args.command}: error: {exc}; nothing more was written\n")
            return 3
        sys.stderr.write(
            f"notation {args.command}: internal error: {type(exc).__name__}: {exc}\n"
            "(set NOTATION_DEBUG=1 to see the traceback, and please report it)\n"
        )
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
