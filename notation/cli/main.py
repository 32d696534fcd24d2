"""Entry point of the ``notation`` command: reads the command line and dispatches.

A plain command line (a command, its options written out in full, its operands) is read
without argparse, from what the command's module declares (``plain_arguments``); any other
(``--help``, ``--version``, a usage error, an abbreviated option) is argparse's, whose
parser is built from the same declarations.

Exit codes are the subcommands' own (0 ok, 1 problems found, 2 usage error). No traceback
reaches the user: an unexpected error prints one line (set ``NOTATION_DEBUG=1`` for the
traceback) and exits 3; output cut off by a closed pipe exits 141, as SIGPIPE would.
SIGINT, SIGTERM and SIGHUP end every command but ``serve`` (whose server handles them)
after removing temporary files, with status 128 + the signal's number (130, 143, 129);
a SIGINT while the command's modules are still loading exits 130 too.

The ``notation`` executable (``main_process``) ends the process as soon as the command is
done (``end_process``): what Python's exit does that anyone could see (exit handlers, the
standard streams flushed) is done, the interpreter's teardown, object by object, is not.
``main`` itself returns, for callers in the same process.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import importlib
import os
import sys

from notation import __version__
from notation.cli.collector import pause_collector, resume_collector
from notation.cli.usage import SUMMARIES, UsageError
from notation.signals import Interrupted, exit_on_signals

# typing.TYPE_CHECKING without importing typing: Literal is named in annotations only, and
# `notation --version` and `--help` need nothing of typing; argparse is imported only where
# a command line is not plain (``plain_arguments``).
TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Collection, Sequence
    from types import SimpleNamespace
    from typing import Literal, NoReturn

# (subcommand, module, summary): each module has add_parser(subparsers) and run(args) -> int,
# and its parser's help is the summary here (SUMMARIES), so that `notation --help` can list
# every command without importing the modules.
SUBCOMMANDS = tuple((name, f"notation.cli.{name}_cmd", summary) for name, summary in SUMMARIES.items())


EXIT_BROKEN_PIPE = 141
EXIT_CANNOT_WRITE = 2  # as a command's own output that cannot be written (UsageError)
# Errors only a write gives: the command's output (standard output, most often) did not fit.
WRITE_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})
SERVES_ITS_OWN_SIGNALS = frozenset({"serve"})


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The command line parser. With ``argv`` naming a command, only that command's module
    is imported and its options built (the others are listed by name and summary): a
    ``notation convert`` in a shell loop should not pay for importing ``normalize``'s PGN
    machinery or ``serve``'s. Otherwise every command's options are built (for a caller
    that parses command lines of its own with it)."""
    chosen = _chosen_command(sys.argv[1:] if argv is None else argv)
    return _parser(SUMMARIES if chosen is None else (chosen,))


def _parser(
    built: Collection[str],
    others: Literal["listed", "left out"] = "listed",
    prepare_argparse: Callable[[], None] = lambda: None,
) -> argparse.ArgumentParser:
    """The parser with the options of the commands in ``built``; the others are listed by
    name and summary only, without importing their modules, or (``"left out"``) not at
    all: each listed one is a parser of its own to build. ``prepare_argparse`` is called
    before argparse is imported (the executable's: ``notation.cli``)."""
    prepare_argparse()
    import argparse

    from notation.cli.help_format import CommandParser, HelpFormatter

    parser = argparse.ArgumentParser(
        prog="notation",
        description="Read, validate and rewrite the FEN and PGN notation of chess variants.",
        epilog="Documentation is installed with the package: `notation docs` lists it, `notation docs readme` "
        "prints the README, `notation COMMAND --help` each command's options.",
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"notation {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=CommandParser)
    subparsers.required = True
    for name, module_name, summary in SUBCOMMANDS:
        if name in built:
            importlib.import_module(module_name).add_parser(subparsers)
        elif others == "listed":
            subparsers.add_parser(name, help=summary)
    return parser


def _read_plainly(command: str, words: Sequence[str]) -> SimpleNamespace | None:
    """The parsed command line ``words`` (``command`` first) as argparse would give it, read
    from what ``command``'s module declares without argparse; None where the command line is
    not plain and argparse must read it (``plain_arguments``)."""
    from notation.cli.plain_arguments import Declarations, read_plainly  # not for --version or --help

    declarations = Declarations()
    importlib.import_module(f"notation.cli.{command}_cmd").add_parser(declarations)
    return read_plainly(command, declarations.commands[command], words[1:])


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
    import argparse

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


def main(argv: Sequence[str] | None = None, prepare_argparse: Callable[[], None] = lambda: None) -> int:
    """Run the command ``argv`` (default: ``sys.argv[1:]``) names and give its exit status.
    A plain command line is read without argparse (``plain_arguments``); any other is
    argparse's, which exits (``SystemExit``) for ``--help``, ``--version`` and usage errors,
    as a ``UsageError`` of the command does. ``prepare_argparse`` is called before argparse
    is imported (the executable has argparse take its own words as written)."""
    # No command named (``--version``, ``--help``, none, an unknown one): argparse answers
    # from the names and summaries alone, so no command's module is imported.
    words = sys.argv[1:] if argv is None else argv
    chosen = _chosen_command(words)
    # A command named first leaves the top-level parser nothing to say (no help asked
    # before it; its usage names no command), so the others need not be listed.
    others: Literal["listed", "left out"] = "left out" if chosen is not None and words[0] == chosen else "listed"
    # Loading the command's modules makes many objects that live as long as the command and
    # almost no garbage: the cyclic collector would walk them again and again for nothing,
    # so it is paused meanwhile (the executable paused it before this module loaded), and
    # what loading made is frozen after (bench_instructions counts the start-up it saves).
    pause_collector()
    args: argparse.Namespace | SimpleNamespace | None
    try:
        args = _read_plainly(chosen, words) if others == "left out" and chosen is not None else None
        if args is None:
            args = parse_command_line(_parser(() if chosen is None else (chosen,), others, prepare_argparse), argv)
    except KeyboardInterrupt:
        # Ctrl-C while the command's modules load (most of start-up): nothing was made to
        # clean up, and a traceback of the import machinery says nothing to a user.
        return 130
    finally:
        resume_collector()
    signals = contextlib.nullcontext() if args.command in SERVES_ITS_OWN_SIGNALS else exit_on_signals()
    try:
        with signals:
            return int(args.run(args) or 0)
    except UsageError as exc:
        _say(f"notation {args.command}: error: {exc}\n")  # as argparse's parser.exit(2, ...)
        sys.exit(2)
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
        if isinstance(exc, OSError) and exc.errno in WRITE_ERRORS:
            # A full disk or quota is the user's to fix, not a defect to report.
            sys.stderr.write(f"notation {args.command}: error: cannot write: {exc.strerror}\n")
            _drop_unwritable_stdout()
            return EXIT_CANNOT_WRITE
        # A --jobs worker that died (the out-of-memory killer, kill -9) is no defect to
        # report: say which and how. Only --jobs imported the pool (and so made one).
        pool = sys.modules.get("notation.parallel.fork_pool")
        if pool is not None and isinstance(exc, pool.WorkerLost):
            sys.stderr.write(f"notation {args.command}: error: {exc}; nothing more was written\n")
            return 3
        # No temporary file could be made (an unwritable TMPDIR): the environment's to fix.
        scratch = sys.modules.get("notation.scratch")
        if scratch is not None and isinstance(exc, scratch.ScratchUnavailable):
            sys.stderr.write(f"notation {args.command}: error: {exc}\n")
            return 3
        sys.stderr.write(
            f"notation {args.command}: internal error: {type(exc).__name__}: {exc}\n"
            "(set NOTATION_DEBUG=1 to see the traceback, and please report it)\n"
        )
        return 3
    return 0


def main_process(prepare_argparse: Callable[[], None] = lambda: None) -> NoReturn:
    """The ``notation`` executable: ``main()``, then ``end_process`` with its status (or
    with the status of the ``SystemExit`` that argparse raises for ``--help``, ``--version``
    and a bad command line)."""
    try:
        status = main(prepare_argparse=prepare_argparse)
    except SystemExit as exc:
        status = _exit_status(exc.code)
    end_process(status)


def end_process(status: int) -> NoReturn:
    """End the process with ``status``, without the interpreter's teardown.

    What Python's own exit does that anyone can see is done: the exit handlers run
    (``atexit``: a library's pools and clients, ``weakref.finalize``), then standard output
    and standard error are flushed. What is skipped is freeing every module and object one
    by one, which nothing here needs (no module of the package has a ``__del__`` or a
    finalizer, every file it writes is closed and committed before its command returns) and
    which costs a one-line ``convert`` or ``check`` about a tenth of its CPU time
    (bench_startup). Standard output that can no longer be written is reported as a command's
    output is: a closed pipe exits 141, any other error (a full disk) says so on standard
    error and exits 2. Where the teardown may be someone's business, it is not skipped: a
    tracer or profiler is set (coverage, a debugger), or a thread that is not a daemon still
    runs (Python would wait for it)."""
    if sys.gettrace() is not None or sys.getprofile() is not None or _threads_to_wait_for():
        sys.exit(status)
    atexit._run_exitfuncs()  # prints what a handler raises, as Python's exit does; raises nothing
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except BrokenPipeError:
        status = EXIT_BROKEN_PIPE
    except (OSError, ValueError) as exc:  # ValueError: a command closed standard output
        _say(f"notation: error: cannot write standard output: {getattr(exc, 'strerror', None) or exc}\n")
        status = status or EXIT_CANNOT_WRITE
    with contextlib.suppress(OSError, ValueError, AttributeError):
        sys.stderr.flush()
    os._exit(status)


def _drop_unwritable_stdout() -> None:
    """Flush standard output; if it cannot be written either, what it holds is dropped (the
    error was said once: its flush at the end would only say it again)."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - as long as the process


def _threads_to_wait_for() -> bool:
    """Whether a thread other than the main one, and not a daemon, is alive (``threading``
    is looked for, not imported: the commands that start none never load it)."""
    threading = sys.modules.get("threading")
    if threading is None:
        return False
    main_thread = threading.main_thread()
    return any(
        thread is not main_thread and not thread.daemon and thread.is_alive() for thread in threading.enumerate()
    )


def _exit_status(code: object) -> int:
    """The status Python gives ``SystemExit(code)``: None is 0, an int itself, anything else
    printed on standard error and 1."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    _say(f"{code}\n")
    return 1


def _say(text: str) -> None:
    """Write ``text`` on standard error; a standard error that cannot be written is let be."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        sys.stderr.write(text)


if __name__ == "__main__":
    main_process()
